import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import { initiateParameters, runNode, useSandbox } from '../support/fixtures';
import { genericParameters, keyOf, NODE_OPERATIONS } from '../support/operations';

// Every text field of every operation, as the editor shows it, given 1 MiB of adversarial text through an expression
// (as a webhook body or a model's tool argument gives it): refused by its length, naming the field, before any pattern
// reads it and before anything is sent. The list of fields is read from the node's own description, so a field added
// later is covered without a change here.

const sandbox = useSandbox();

// Commas and digits, as the amount pattern that backtracked was fed; quotes, dots and slashes for the others.
const MIB_OF_TROUBLE = `${'1,'.repeat(128 * 1024)}${'a.'.repeat(64 * 1024)}${'/"'.repeat(64 * 1024)}x`;

// Every operation of the router's list, its fields filled from its descriptor (test/support/operations.ts); an
// operation with more than one set of fields shown names each.
const VARIANTS: Record<string, Array<[string, IDataObject]>> = {
	'transaction.initiate': [
		['transaction.initiate (card)', initiateParameters('wb-0000')],
		['transaction.initiate (stored card)', initiateParameters('wb-0000', { paymentMode: 'token', digitalCardId: { mode: 'id', value: 'dc_1' }, customerAuthentication: 'otpOnly' })],
	],
};
const OPERATIONS = NODE_OPERATIONS.flatMap((operation): Array<[string, IDataObject]> => VARIANTS[keyOf(operation)] ?? [[keyOf(operation), genericParameters(operation)]]);

const description = new PaymentGateway().description;
const TEXT_TYPES = new Set(['string', 'resourceLocator', 'number']);

/** The text fields the editor shows for these parameters: top-level ones and the options of shown collections. */
function textFields(parameters: IDataObject): Array<{ label: string; set(value: string): IDataObject }> {
	const shown = description.properties.filter((property) => NodeHelpers.displayParameter(parameters as never, property, null, description));
	const fields: Array<{ label: string; set(value: string): IDataObject }> = [];
	for (const property of shown) {
		if (TEXT_TYPES.has(property.type) && property.name !== 'resource' && property.name !== 'operation') {
			const value = (text: string) => (property.type === 'resourceLocator' ? { mode: 'id', value: text } : text);
			fields.push({ label: `${property.displayName} (${property.name})`, set: (text) => ({ ...parameters, [property.name]: value(text) }) });
		}
		if (property.type === 'collection') {
			for (const option of (property.options ?? []) as INodeProperties[]) {
				if (!TEXT_TYPES.has(option.type)) continue;
				const label = `${option.displayName} (${property.name}.${option.name})`;
				fields.push({ label, set: (text) => ({ ...parameters, [property.name]: { ...((parameters[property.name] as IDataObject) ?? {}), [option.name]: text } }) });
			}
		}
	}
	return fields;
}

const cases = OPERATIONS.flatMap(([operation, parameters]) => textFields(parameters).map((field) => [operation, field.label, field] as const));

it('covers every operation and the text fields users fill in most', () => {
	const labels = cases.map(([operation, label]) => `${operation} ${label}`);
	expect(new Set(cases.map(([operation]) => operation)).size).toBe(OPERATIONS.length);
	for (const expected of ['order.create Amount (amount)', 'order.create Customer Name (customerName)', 'transaction.initiate (card) Card Number (cardNumber)', 'transaction.refund Payment ID (paymentId)', 'digitalCard.get Digital Card (digitalCardId)', 'order.createCheckout Redirect URL (additionalFields.redirectUrl)']) {
		expect(labels).toContain(expected);
	}
});

it.each(cases)('%s, %s: 1 MiB refused by its length, naming the field; nothing sent', async (operation, label, field) => {
	const result = await runNode(sandbox, field.set('={{ $json.text }}'), [{ text: MIB_OF_TROUBLE }]);
	// Verify Signature reads its incoming item whole: that item is refused by its size before any field is read.
	const refused = operation === 'status.verifySignature' ? 'The incoming item is not read: it is larger than 64 KiB, and a notification or status record is far smaller' : `${label} is longer than 4096 characters`;
	expect(result.error?.message).toBe(`${refused} [item 0]`);
	expect(sandbox.requests).toEqual([]);
});
