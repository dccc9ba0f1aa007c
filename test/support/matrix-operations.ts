import { createHmac } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from './fixtures';
import { futureYear, initiateParameters, orderParameters, runNode } from './fixtures';

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

function orderCase(name: string, label: string, extra: IDataObject, output: IDataObject): OperationCase {
	return {
		name,
		label,
		kind: 'write',
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

export const OPERATIONS: OperationCase[] = [
	orderCase('order.create', 'Order → Create', {}, { currency: 'USD' }),
	orderCase('order.createCheckout', 'Order → Create Checkout', { operation: 'createCheckout', redirectType: 'post' }, { status: 'success' }),
	{
		name: 'transaction.initiate',
		label: 'Transaction → Initiate',
		kind: 'write',
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
	{
		name: 'transaction.refund',
		label: 'Transaction → Refund',
		kind: 'write',
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
	{
		name: 'status.getByOrderId',
		label: 'Status → Get by Order ID',
		kind: 'read',
		async prepare(sandbox) {
			const paid = await payments(sandbox);
			return {
				parameters: { resource: 'status', operation: 'getByOrderId', orderId: '={{ $json.orderId }}' },
				items: paid.map(({ orderId }) => ({ orderId })),
				keys: paid.map(({ orderId }) => `orderId=${orderId as string}`),
				outputs: paid.map(({ orderId, paymentId }) => ({ orderId, paymentId, status: 'success' })),
			};
		},
	},
	{
		name: 'status.getByPaymentId',
		label: 'Status → Get by Payment ID',
		kind: 'read',
		async prepare(sandbox) {
			const paid = await payments(sandbox);
			return {
				parameters: { resource: 'status', operation: 'getByPaymentId', paymentId: '={{ $json.paymentId }}' },
				items: paid.map(({ paymentId }) => ({ paymentId })),
				keys: paid.map(({ paymentId }) => `/transaction/status/${paymentId as string}`),
				outputs: paid.map(({ orderId, paymentId }) => ({ orderId, paymentId, paymentStatus: 'success' })),
			};
		},
	},
	{
		name: 'digitalCard.getMany',
		label: 'Digital Card → Get Many',
		kind: 'read',
		async prepare(sandbox) {
			const cards = await storedCards(sandbox);
			return {
				parameters: { resource: 'digitalCard', operation: 'getMany', customerId: '={{ $json.customerId }}' },
				items: cards.map(({ customerId }) => ({ customerId })),
				keys: cards.map(({ customerId }) => `/customer/${customerId as string}/digitalCards`),
				outputs: cards.map((card) => ({ ...card, panLastFour: CARD.slice(-4), remainingLimit: 4 })),
			};
		},
	},
	...(['get', 'delete'] as const).map(
		(operation): OperationCase => ({
			name: `digitalCard.${operation}`,
			label: operation === 'get' ? 'Digital Card → Get' : 'Digital Card → Delete',
			kind: 'read',
			async prepare(sandbox) {
				const cards = await storedCards(sandbox);
				return {
					parameters: {
						resource: 'digitalCard',
						operation,
						customerId: '={{ $json.customerId }}',
						digitalCardId: '={{ $json.digitalCardId }}',
					},
					items: cards,
					keys: cards.map(({ digitalCardId }) => `/digitalCards/${digitalCardId as string}`),
					outputs: cards.map((card) => (operation === 'get' ? { ...card, panLastFour: CARD.slice(-4) } : { ...card, deleted: true })),
				};
			},
		}),
	),
	{
		name: 'trigger.recheck',
		label: 'Status → Get by Payment ID',
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
	{
		name: 'status.verifySignature',
		label: 'Status → Verify Signature',
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
];
