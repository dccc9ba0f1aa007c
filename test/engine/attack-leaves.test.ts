import type { IDataObject } from 'n8n-workflow';

import { createOrder, initiateParameters, initiatePayment, runNode, settledPayment, useSandbox } from '../support/fixtures';
import { runMaterial } from '../support/leaks';
import { opensslHmacHex } from '../support/openssl';
import { useTriggerBench } from '../support/trigger';
import { base32 } from '../support/encodings';

// Attacks on "what leaves is what the operation declares" (turn 6), through n8n's engine against the sandbox. Each test
// FAILS where a secret, card data or an unconfirmed claim reaches what n8n keeps of a run, or where a real gateway value
// is destroyed. The unit-level forms of the same holes are in test/unit/attack-leaves.test.ts.

const sandbox = useSandbox();

const NODE_NAME = 'Payment Gateway';
const CARD = '4111111111111111';

/** Hex written with letters only (0-9 as g-p): what a message's words are made of. */

const secrets = () => {
	const { clientId, clientSecret } = sandbox.clients.active;
	return { clientId, clientSecret, basic: `${clientId}:${clientSecret}`, key: sandbox.cardEncryptionKey };
};

/** What n8n keeps of the run, as one text. */
const kept = (result: Awaited<ReturnType<typeof runNode>>) => JSON.stringify(runMaterial(result, NODE_NAME));

/** A status-by-payment-id answer of the gateway's shape with `data` as given. */
function answerStatusWith(data: IDataObject) {
	sandbox.injectFault({ match: '/transaction/status/', status: 200, body: { resCode: 200, status: 'success', data } });
}

const PAYMENT_ID = 'PAY0123456789abcdef0123456789abcdef';
const ORDER_ID = 'wb-3f2c9a1e-7d4b-4c1a-9e0f-2b6d8a5c3e71';
const readPayment = { resource: 'status', operation: 'getByPaymentId', paymentId: PAYMENT_ID };

describe('a gateway or proxy carries a secret out through a declared id, a name or a message', () => {
	it('Status → Get by Payment ID: the client secret as base32 in the record’s signature does not reach the run', async () => {
		const encoded = base32(Buffer.from(secrets().clientSecret));
		answerStatusWith({ paymentId: PAYMENT_ID, orderId: ORDER_ID, status: 'success', signature: encoded });
		const result = await runNode(sandbox, readPayment);
		expect(result.error).toBeUndefined();
		expect(kept(result)).not.toContain(encoded);
	});

	it('Status → Get by Payment ID: the client secret as base32 in a field’s name does not reach droppedFields', async () => {
		const encoded = base32(Buffer.from(secrets().clientSecret));
		answerStatusWith({ paymentId: PAYMENT_ID, orderId: ORDER_ID, status: 'success', [encoded]: true });
		const result = await runNode(sandbox, readPayment);
		expect(kept(result)).not.toContain(encoded);
	});

	it('Status → Get by Payment ID: the card encryption key in 9-character pieces across refunds[].refundId cannot be put back together', async () => {
		const pieces = secrets().key.match(/.{1,9}/g) ?? [];
		answerStatusWith({
			paymentId: PAYMENT_ID,
			orderId: ORDER_ID,
			status: 'partially_refunded',
			refunds: pieces.map((piece, index) => ({ refundId: `REF${index}-${piece}`, status: 'refunded', amount: '0.100' })),
		});
		const result = await runNode(sandbox, readPayment);
		const refunds = (result.items[0]?.json.refunds as Array<{ refundId?: string }>) ?? [];
		expect(refunds.map((refund) => (refund.refundId ?? '').split('-')[1] ?? '').join('')).not.toBe(secrets().key);
	});
});

describe('card data carried out of Transaction → Initiate', () => {
	it('the request’s card number, CVV and expiry as base32 in a hidden field of formData do not reach the item', async () => {
		const orderId = await createOrder(sandbox);
		const echoed = base32(Buffer.from(JSON.stringify({ cardNumber: CARD, cvv: '123', expiry: '12/30' })));
		sandbox.injectFault({
			match: '/transaction/initiate',
			status: 200,
			body: {
				resCode: 200,
				status: 'success',
				data: {
					paymentId: PAYMENT_ID,
					orderId,
					paymentStatus: 'pending',
					redirectionData: { method: 'POST', formData: `<form method="post" action="https://acs.bank.example/3ds"><input type="hidden" name="PaReq" value="${echoed}"></form>` },
				},
			},
		});
		const result = await runNode(sandbox, initiateParameters(orderId, { cardExpMonth: '12', cardExpYear: '30' }));
		expect(result.error).toBeUndefined();
		expect(kept(result)).not.toContain(echoed);
	});

	it('the request’s ciphertext (encryptedCardDetails) as base32 in the redirection url does not reach the item', async () => {
		const orderId = await createOrder(sandbox);
		sandbox.injectFault({ match: '/transaction/initiate', kind: 'echo-encoded', of: 'ciphertext', form: 'base32', field: 'redirectionData.url' });
		const result = await runNode(sandbox, initiateParameters(orderId));
		expect(result.error).toBeUndefined();
		const sent = sandbox.requests.find((request) => request.path.includes('/transaction/initiate'));
		const ciphertext = String((JSON.parse(sent?.body ?? '{}') as IDataObject).encryptedCardDetails ?? '');
		expect(kept(result)).not.toContain(base32(Buffer.from(ciphertext)).slice(0, 20));
		expect(result.items[0].json.droppedFields).toContain('redirectionData.url');
	});
});

describe('a card number beside a letter is no card number to the one rule', () => {
	it('Status → Get by Payment ID: a receiptId "card-4111-1111-1111-1111" does not reach the item', async () => {
		answerStatusWith({ paymentId: PAYMENT_ID, orderId: ORDER_ID, status: 'success', receiptId: 'card-4111-1111-1111-1111' });
		const result = await runNode(sandbox, readPayment);
		expect(kept(result).replace(/\D/g, '')).not.toContain(CARD);
	});

	it('Status → Verify Signature: a customer’s record with receiptId "PAN4111111111111111" does not carry the card number into the item', async () => {
		const record = await settledPayment(sandbox, 'success');
		const result = await runNode(sandbox, { resource: 'status', operation: 'verifySignature' }, [{ ...record, receiptId: `PAN${CARD}` }]);
		expect(result.error).toBeUndefined();
		expect(kept(result)).not.toContain(CARD);
	});
});

describe('a card number as an amount (a dot as its separator)', () => {
	it('Status → Get by Payment ID: an amount "41111111111.11111" does not reach the item', async () => {
		answerStatusWith({ paymentId: PAYMENT_ID, orderId: ORDER_ID, status: 'success', amount: '41111111111.11111', refundedAmount: '501800.000009' });
		const result = await runNode(sandbox, readPayment);
		expect(result.error).toBeUndefined();
		const digits = kept(result).replace(/[^0-9"]/g, '');
		expect(digits).not.toContain(CARD);
		expect(digits).not.toContain('501800000009');
	});

	it('Status → Verify Signature: a customer’s record claiming amount "41111111111.11111" does not carry the card number into the item', async () => {
		const record = await settledPayment(sandbox, 'success');
		const result = await runNode(sandbox, { resource: 'status', operation: 'verifySignature' }, [{ ...record, amount: '41111111111.11111' }]);
		expect(result.error).toBeUndefined();
		expect(kept(result).replace(/[^0-9"]/g, '')).not.toContain(CARD);
	});
});

describe('a claim nested under data keeps a confirmed-looking name', () => {
	it('Status → Verify Signature: a declined payment’s signed ids with data.status "success" and data.amount: no "success" beside statusVerified', async () => {
		const record = await settledPayment(sandbox, 'failure');
		const signature = opensslHmacHex(sandbox.clients.active.clientSecret, `${record.orderId}|${record.paymentId}`);
		const incoming = { orderId: record.orderId, paymentId: record.paymentId, signature, data: { status: 'success', amount: '9999.99', currency: 'USD' } };
		const result = await runNode(sandbox, { resource: 'status', operation: 'verifySignature' }, [incoming]);
		expect(result.error).toBeUndefined();
		const item = result.items[0].json;
		expect(item).toMatchObject({ statusVerified: true, status: 'failure' });
		// The contract: the record's own values only under claim names, never under status/amount/currency/receiptId.
		expect(JSON.stringify(item)).not.toMatch(/"(status|amount)":("success"|"9999\.99")/);
	});
});

describe('legitimate data is not destroyed', () => {
	it('Transaction → Initiate for 123.00 paid with CVV 123 (the provider’s test card): the item keeps its amount', async () => {
		const orderId = await createOrder(sandbox, { amount: '123', currency: 'USD' });
		const result = await runNode(sandbox, initiateParameters(orderId, { cardCVV: '123' }));
		expect(result.error).toBeUndefined();
		const item = result.items[0].json;
		expect(item.droppedFields ?? []).not.toContain('amount');
		expect(item.amount).toBeDefined();
	});

	it('Transaction → Initiate with receipt INV-123 and CVV 123: the item keeps its receiptId', async () => {
		const orderId = await createOrder(sandbox, { additionalFields: { receiptId: 'INV-123' } });
		const result = await runNode(sandbox, initiateParameters(orderId, { cardCVV: '123' }));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.receiptId).toBe('INV-123');
	});

	it('Transaction → Initiate for 2030.12 with a card expiring 12/30: the item keeps its amount', async () => {
		const orderId = await createOrder(sandbox, { amount: '2030.12', currency: 'USD' });
		const result = await runNode(sandbox, initiateParameters(orderId, { cardExpMonth: '12', cardExpYear: '30', cardCVV: '456' }));
		expect(result.error).toBeUndefined();
		const item = result.items[0].json;
		expect(item.droppedFields ?? []).not.toContain('amount');
	});
});

describe('a merchant’s own description comes back whole', () => {
	it.each([
		['French', 'Commande café crème'],
		['Arabic', 'طلب شراء رقم ١٠٢٤'],
		['brand-name', 'Paid via PayPal for McDonald’s'],
	])('Status → Get by Payment ID of an order with a %s description: the item’s description is the one the order was made with', async (_label, description) => {
		const orderId = await createOrder(sandbox, { additionalFields: { description } });
		const paymentId = await initiatePayment(sandbox, orderId);
		const result = await runNode(sandbox, { resource: 'status', operation: 'getByPaymentId', paymentId });
		expect(result.error).toBeUndefined();
		// Digits of any script leave as ASCII digits: the card-number rule reads them so.
		expect(result.items[0].json.description).toBe(description.replace('١٠٢٤', '1024'));
	});
});

describe('Payment Gateway Trigger: a customer’s notification', () => {
	const bench = useTriggerBench();

	async function itemOf(body: IDataObject): Promise<IDataObject> {
		let item: IDataObject = {};
		await bench.withServer({}, async (own) => {
			expect((await bench.notify(own, body)).status).toBe(200);
			item = (await bench.settled(own))[0]?.items[0]?.json ?? {};
		});
		return item;
	}

	it('a declined payment’s record wrapped twice, the inner data claiming success: no "success" beside statusVerified', async () => {
		const record = await bench.paid('failure');
		const item = await itemOf({ eventType: 'TRANSACTION_COMPLETED', data: { ...record, data: { status: 'success', amount: 9999.99, currency: 'USD' } } });
		expect(item).toMatchObject({ statusVerified: true, status: 'failure' });
		expect(JSON.stringify(item)).not.toMatch(/"(status|amount)":("success"|9999\.99)/);
	});

	it('a refundId "card-4111-1111-1111-1111" in a notification does not carry the card number into the execution', async () => {
		const record = await bench.paid('success');
		const item = await itemOf({ ...record, refundId: 'card-4111-1111-1111-1111' });
		expect(item.statusVerified).toBe(true);
		expect(JSON.stringify(item).replace(/\D/g, '')).not.toContain(CARD);
	});
});
