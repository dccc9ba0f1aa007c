import { createHmac } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from './fixtures';
import { futureYear, initiateParameters, orderParameters, runNode } from './fixtures';
import type { Operation } from '../../nodes/PaymentGateway/actions/operation';
import { genericParameters, idFieldsOf, keyOf, kindOf, labelOf, NODE_OPERATIONS, operationByKey } from './operations';

// The operations of the fault matrix, each with three input items and what it needs in the sandbox beforehand.
// Card data reaches Initiate through expressions over the items, as in a checkout workflow.

export const CARD = '4111111111111111';
export const CVV = '7391';
export const EXPIRY_MONTH = '07';
export const EXPIRY_YEAR = futureYear;

export interface Prepared {
	/** Node parameters, without options. */
	parameters: IDataObject;
	items: IDataObject[];
	/** Per item, a piece of its requests' path or body, to count them in the sandbox's log. */
	keys: string[];
	/** Per item, what its output holds when it succeeded. */
	outputs: IDataObject[];
}

export interface OperationCase {
	name: string;
	/** How messages name it. */
	label: string;
	/**
	 * Writes are never retried; reads (and deletes) retry when Max Retries asks; local sends nothing; the trigger
	 * re-checks each notification's status once and emits it whatever the answer.
	 */
	kind: 'write' | 'read' | 'local' | 'trigger';
	prepare(sandbox: Sandbox): Promise<Prepared>;
}

const ITEMS = [0, 1, 2];

async function checked(run: ReturnType<typeof runNode>, what: string) {
	const result = await run;
	if (result.error || result.items.length !== ITEMS.length) throw new Error(`${what} failed: ${result.error?.message}`);
	return result.items.map((item) => item.json);
}

/** Three orders of three customers (so that each may store a card of its own). */
async function orders(sandbox: Sandbox): Promise<string[]> {
	const created = await checked(
		runNode(
			sandbox,
			orderParameters({ customerEmail: '={{ $json.email }}' }),
			ITEMS.map((index) => ({ email: `buyer${index}@example.com` })),
		),
		'creating orders',
	);
	return created.map((order) => order.orderId as string);
}

/** A settled payment of each of three orders; with `secureCard`, each customer has the card stored. */
async function payments(sandbox: Sandbox, secureCard = false): Promise<IDataObject[]> {
	const orderIds = await orders(sandbox);
	return await checked(
		runNode(
			sandbox,
			initiateParameters('={{ $json.orderId }}', { customerAuthentication: 'none', cardCVV: '', secureCard }),
			orderIds.map((orderId) => ({ orderId })),
		),
		'paying orders',
	);
}

/** The status records of three settled payments, signed: what the gateway notifies. */
async function statusRecords(sandbox: Sandbox): Promise<IDataObject[]> {
	const paid = await payments(sandbox);
	return await checked(
		runNode(sandbox, { resource: 'status', operation: 'getByOrderId', orderId: '={{ $json.orderId }}' }, paid),
		'reading status records',
	);
}

const storedCards = async (sandbox: Sandbox) =>
	(await payments(sandbox, true)).map((payment) => payment.securedCardDetails as IDataObject);

/** Three settled payments with their cards stored: every identifier an operation may ask for, per item. */
const everyId = async (sandbox: Sandbox) =>
	(await payments(sandbox, true)).map(({ orderId, paymentId, securedCardDetails }) => ({ orderId, paymentId, ...(securedCardDetails as IDataObject) }));

/** A read of records the sandbox holds: its identifier fields from the items, one record each. */
interface Read {
	records(sandbox: Sandbox): Promise<IDataObject[]>;
	/** A piece of the record's requests. */
	key(record: IDataObject): string;
	output(record: IDataObject): IDataObject;
}

const READS: Record<string, Read> = {
	'status.getByOrderId': {
		records: payments,
		key: ({ orderId }) => `orderId=${orderId as string}`,
		output: ({ orderId, paymentId }) => ({ orderId, paymentId, status: 'success' }),
	},
	'status.getByPaymentId': {
		records: payments,
		key: ({ paymentId }) => `/transaction/status/${paymentId as string}`,
		output: ({ orderId, paymentId }) => ({ orderId, paymentId, paymentStatus: 'success' }),
	},
	'digitalCard.getMany': {
		records: storedCards,
		key: ({ customerId }) => `/customer/${customerId as string}/digitalCards`,
		output: (card) => ({ ...card, panLastFour: CARD.slice(-4), remainingLimit: 4 }),
	},
	'digitalCard.get': {
		records: storedCards,
		key: ({ digitalCardId }) => `/digitalCards/${digitalCardId as string}`,
		output: (card) => ({ ...card, panLastFour: CARD.slice(-4) }),
	},
	'digitalCard.delete': {
		records: storedCards,
		key: ({ digitalCardId }) => `/digitalCards/${digitalCardId as string}`,
		output: (card) => ({ ...card, deleted: true }),
	},
};

/**
 * A read without an entry in READS: every identifier it asks for from three settled payments with stored cards,
 * its requests told apart by the first, and its outputs holding those its answer declares.
 */
function genericRead(operation: Operation): Read {
	const ids = idFieldsOf(operation);
	return {
		records: everyId,
		key: (record) => String(record[ids[0]] ?? ''),
		output: (record) => Object.fromEntries(ids.filter((id) => Object.hasOwn(operation.answer, id)).map((id) => [id, record[id]])),
	};
}

function readCase(operation: Operation, read: Read): OperationCase['prepare'] {
	const ids = idFieldsOf(operation);
	return async (sandbox) => {
		const records = await read.records(sandbox);
		return {
			parameters: genericParameters(operation, Object.fromEntries(ids.map((id) => [id, `={{ $json.${id} }}`]))),
			items: records.map((record) => Object.fromEntries(ids.map((id) => [id, record[id]]))),
			keys: records.map(read.key),
			outputs: records.map(read.output),
		};
	};
}

function orderCase(extra: IDataObject, output: IDataObject): Pick<OperationCase, 'prepare'> {
	return {
		async prepare() {
			const receipts = ITEMS.map((index) => `cell-receipt-${index}`);
			return {
				parameters: orderParameters({ ...extra, additionalFields: { receiptId: '={{ $json.receiptId }}' } }),
				items: receipts.map((receiptId) => ({ receiptId })),
				keys: receipts.map((receiptId) => `"receiptId":"${receiptId}"`),
				outputs: receipts.map((receiptId) => ({ ...output, receiptId, orderId: expect.any(String) })),
			};
		},
	};
}

/** What an operation needs beyond a read of its fields: the writes, and the one that sends nothing. */
const OVERRIDES: Record<string, Partial<Pick<OperationCase, 'kind' | 'prepare'>>> = {
	'order.create': orderCase({}, { currency: 'USD' }),
	'order.createCheckout': orderCase({ operation: 'createCheckout', redirectType: 'post' }, { status: 'success' }),
	'transaction.initiate': {
		async prepare(sandbox) {
			const orderIds = await orders(sandbox);
			return {
				parameters: initiateParameters('={{ $json.orderId }}', {
					cardNumber: '={{ $json.card }}',
					cardExpMonth: '={{ $json.month }}',
					cardExpYear: '={{ $json.year }}',
					cardCVV: '={{ $json.cvv }}',
				}),
				items: orderIds.map((orderId) => ({ orderId, card: CARD, month: EXPIRY_MONTH, year: EXPIRY_YEAR, cvv: CVV })),
				keys: orderIds,
				outputs: orderIds.map((orderId) => ({ orderId, paymentId: expect.any(String), paymentStatus: 'pending' })),
			};
		},
	},
	'transaction.refund': {
		async prepare(sandbox) {
			const paid = await payments(sandbox);
			return {
				parameters: { resource: 'transaction', operation: 'refund', paymentId: '={{ $json.paymentId }}', amount: 5 },
				items: paid.map(({ paymentId }) => ({ paymentId })),
				keys: paid.map(({ paymentId }) => `"paymentId":"${paymentId as string}"`),
				outputs: paid.map(({ paymentId }) => ({ paymentId, refundId: expect.any(String), amount: 5 })),
			};
		},
	},
	'status.verifySignature': {
		kind: 'local',
		async prepare(sandbox) {
			const secret = sandbox.clients.active.clientSecret;
			const records = ITEMS.map((index) => ({ orderId: `wb-cell-${index}`, paymentId: `PAYCELL${index}` }));
			const items = records.map((record) => ({
				...record,
				signature: createHmac('sha256', secret).update(`${record.orderId}|${record.paymentId}`).digest('hex'),
			}));
			return {
				// The check alone: Confirm With Gateway, on by default, reads the payment as the trigger's re-check does,
				// which has its own cells (trigger.recheck).
				parameters: { resource: 'status', operation: 'verifySignature', confirmWithGateway: false },
				items,
				keys: [],
				outputs: items.map((item) => ({ ...item, signatureValid: true, statusVerified: false, repeat: false })),
			};
		},
	},
};

/**
 * Every operation of the router's list, then the trigger's re-check. Its kind is read from the descriptor (a write is
 * sent once); one without an override is run as a read of its fields (READS, else genericRead).
 */
export const OPERATIONS: OperationCase[] = [
	...NODE_OPERATIONS.map((operation): OperationCase => {
		const key = keyOf(operation);
		return {
			name: key,
			label: labelOf(operation),
			kind: kindOf(operation),
			prepare: readCase(operation, READS[key] ?? genericRead(operation)),
			...OVERRIDES[key],
		};
	}),
	{
		name: 'trigger.recheck',
		label: labelOf(operationByKey('status.getByPaymentId')),
		kind: 'trigger',
		async prepare(sandbox) {
			const records = await statusRecords(sandbox);
			return {
				parameters: {},
				items: records,
				keys: records.map(({ paymentId }) => `/transaction/status/${paymentId as string}`),
				outputs: records.map(({ orderId, paymentId }) => ({
					orderId,
					paymentId,
					status: 'success',
					notifiedStatus: 'success',
					statusVerified: true,
				})),
			};
		},
	},
];
