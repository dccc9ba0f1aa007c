import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { OPERATIONS } from '../../nodes/PaymentGateway/actions/description';
import type { Operation } from '../../nodes/PaymentGateway/actions/operation';
import { RESOURCES } from '../../nodes/PaymentGateway/actions/operation';

// The node's operations as the tests list them, read from the router's own list (actions/operations.ts): an
// operation added there is in every list below without a test edit. Where a test needs parameters to run one, they
// are derived from its descriptor (its fields and their defaults), filled generically; tests keep explicit
// overrides only for what the generic values cannot say.

/** An operation as tests name it, e.g. `status.getByOrderId`. */
export const keyOf = (operation: Pick<Operation, 'resource' | 'value'>) => `${operation.resource}.${operation.value}`;

/** How messages name it, e.g. "Status → Get by Order ID". */
export const labelOf = (operation: Operation) => `${RESOURCES[operation.resource].name} → ${operation.name}`;

/** A write is sent once; every other operation is a read (and may be retried). */
export const kindOf = (operation: Operation): 'write' | 'read' => (operation.sendsOnce ? 'write' : 'read');

export const NODE_OPERATIONS: readonly Operation[] = OPERATIONS;
export const OPERATION_KEYS: readonly string[] = OPERATIONS.map(keyOf);

export function operationByKey(key: string): Operation {
	const found = OPERATIONS.find((operation) => keyOf(operation) === key);
	if (!found) throw new Error(`No operation ${key}`);
	return found;
}

/** The identifiers operations ask for, each a value the gateway's ids look like. */
const GENERIC_IDS: Record<string, string> = {
	orderId: 'wb-0000',
	paymentId: 'PAY1',
	customerId: 'cus_1',
	digitalCardId: 'dc_1',
};

/** Fields with a rule of their own, by name, each a valid value; any other text field gets a plain text. */
const GENERIC_VALUES: Record<string, unknown> = {
	amount: 25.5,
	currency: 'USD',
	customerName: 'Jane Doe',
	customerEmail: 'jane@example.com',
	customerPhone: '91234567',
};

const isEmpty = (value: unknown) =>
	value === undefined || value === '' || (typeof value === 'object' && value !== null && 'value' in value && (value as IDataObject).value === '');

/** A value for a field whose default says nothing: its identifier's look, else a text, a number or its first option. */
function genericValue(field: INodeProperties, ids: Record<string, string>): unknown {
	if (Object.hasOwn(GENERIC_VALUES, field.name) && field.type !== 'resourceLocator') return GENERIC_VALUES[field.name];
	const text = ids[field.name] ?? `test-${field.name}`;
	switch (field.type) {
		case 'resourceLocator':
			return { mode: 'id', value: text };
		case 'number':
			return 1;
		case 'options':
			return (field.options as Array<{ value: unknown }> | undefined)?.[0]?.value ?? field.default;
		case 'collection':
		case 'fixedCollection':
			return {};
		case 'boolean':
			return Boolean(field.default);
		default:
			return text;
	}
}

/**
 * The parameters of one run of this operation: each of its fields at its default, or, where the default is empty, a
 * generic value (an id where the field is one, `ids` overriding the generic ids); `overrides` last.
 */
export function genericParameters(operation: Operation, overrides: IDataObject = {}, ids: Record<string, string> = {}): IDataObject {
	const parameters: IDataObject = { resource: operation.resource, operation: operation.value };
	const known = { ...GENERIC_IDS, ...ids };
	for (const field of operation.properties) {
		if (field.name in parameters) continue;
		parameters[field.name] = (isEmpty(field.default) ? genericValue(field, known) : field.default) as IDataObject[string];
	}
	return { ...parameters, ...overrides };
}

/** The identifier fields an operation asks for, in the order of its fields. */
export const idFieldsOf = (operation: Operation) =>
	operation.properties.map((field) => field.name).filter((name) => Object.hasOwn(GENERIC_IDS, name));
