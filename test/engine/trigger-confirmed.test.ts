import type { IDataObject } from 'n8n-workflow';

import type { StatusRecord } from '../support/fixtures';
import { createOrder, initiatePayment, runNode } from '../support/fixtures';
import { CARD, CVV, DECLINED_CARD, PAYMENT_STATUS, useTriggerBench } from '../support/trigger';

// A notification's signature is HMAC(client secret, `orderId|paymentId`) and nothing else, and the customer's own
// browser carries it. These are the attacker's cases: a replayed signature with other values, a fake refund, a claim
// the gateway could not confirm, and a payment of an order that has another one. Only the gateway is believed.

const bench = useTriggerBench();
const { notify, settled } = bench;

/** A paid order with a receipt number, as a shop makes it; its notification. */
async function paidWithReceipt(receiptId: string, card = CARD): Promise<StatusRecord> {
	const { sandbox } = bench;
	const orderId = await createOrder(sandbox, { additionalFields: { receiptId } });
	const record = sandbox.completeAuthentication(
		await initiatePayment(sandbox, orderId, { cardNumber: card, cardCVV: CVV }),
		'success',
	);
	bench.signed(record.orderId, record.paymentId);
	sandbox.clearLog();
	return record;
}

/** Runs the notifications through a trigger with these outcomes; the items of the executions they started. */
async function itemsStarted(outcomes: string[], ...bodies: IDataObject[]): Promise<IDataObject[]> {
	let items: IDataObject[] = [];
	await bench.withServer({ outcomes }, async (own) => {
		for (const body of bodies) expect((await notify(own, body)).status).toBe(200);
		items = (await settled(own)).map((execution) => execution.items[0].json);
	});
	return items;
}

const FOUR = ['status', 'amount', 'currency', 'receiptId'] as const;

describe('a replayed signature with other values', () => {
	it('forged amount and receipt: the item carries the gateway’s, the forgery only under claim names', async () => {
		const record = await paidWithReceipt('INV-1001');
		const forged = { ...record, amount: 9999.99, receiptId: 'INV-VICTIM-9999' };
		const [item] = await itemsStarted([], forged);
		expect(item).toMatchObject({
			orderId: record.orderId,
			paymentId: record.paymentId,
			status: 'success',
			amount: 25.5,
			currency: 'USD',
			receiptId: 'INV-1001',
			statusVerified: true,
			notifiedAmount: 9999.99,
			notifiedReceiptId: 'INV-VICTIM-9999',
		});
		// Nowhere under the four names, nested or not.
		expect(JSON.stringify(item)).not.toMatch(/"(status|amount|currency|receiptId)":("INV-VICTIM-9999"|9999\.99)/);
	});

	it('a declined payment claimed as paid with a forged amount: its confirmed failure, not the claim', async () => {
		const record = await paidWithReceipt('INV-1002', DECLINED_CARD);
		expect(record.status).toBe('failure');
		const claimed = { ...record, status: 'success', amount: 9999 };
		expect(await itemsStarted(['succeeded'], claimed)).toEqual([]);
		const [item] = await itemsStarted(['failed'], claimed);
		expect(item).toMatchObject({ status: 'failure', amount: 25.5, notifiedStatus: 'success', statusMismatch: true });
	});
});

describe('a fake refund event', () => {
	it('a paid payment re-sent as REFUND_SUCCESS with a refundId does not pass "Refunded"; it is the success it is', async () => {
		const record = await paidWithReceipt('INV-1003');
		const fake = { eventType: 'REFUND_SUCCESS', data: { ...record, refundId: 'RFD-FAKE', status: 'refunded' } };
		expect(await itemsStarted(['refunded'], fake)).toEqual([]);
		const [item] = await itemsStarted(['succeeded'], fake);
		expect(item).toMatchObject({ eventType: 'REFUND_SUCCESS', status: 'success', notifiedStatus: 'refunded' });
	});

	it('a real refund passes "Refunded" by the gateway’s status', async () => {
		const record = await paidWithReceipt('INV-1004');
		const refund = await runNode(bench.sandbox, {
			resource: 'transaction',
			operation: 'refund',
			paymentId: record.paymentId,
			amount: 25.5,
		});
		expect(refund.error).toBeUndefined();
		bench.sandbox.clearLog();
		const notification = { ...record, refundId: refund.items[0].json.refundId, status: 'refunded' };
		const [item] = await itemsStarted(['refunded'], notification);
		expect(item).toMatchObject({ status: 'refunded', amount: 25.5, statusVerified: true });
	});
});

describe('a claim the gateway does not confirm', () => {
	it.each([
		['the re-check fails (503)', { match: PAYMENT_STATUS, status: 503 }],
		[
			'the gateway answers about another payment',
			{
				match: PAYMENT_STATUS,
				status: 200,
				body: {
					resCode: 200,
					status: 'success',
					data: { paymentId: 'PAY00000000000000000000000000000000', orderId: 'wb-other', paymentStatus: 'success' },
				},
			},
		],
	])('%s: matches neither "Succeeded" nor "Refunded"; it is Other, with nothing under the four names', async (_label, fault) => {
		const record = await paidWithReceipt('INV-1005', DECLINED_CARD);
		const claim = { eventType: 'REFUND_SUCCESS', data: { ...record, status: 'success', refundId: 'RFD-1' } };
		bench.sandbox.injectFault({ ...fault, count: 1 });
		expect(await itemsStarted(['succeeded', 'refunded', 'failed'], claim)).toEqual([]);
		bench.sandbox.injectFault({ ...fault, count: 1 });
		const [item] = await itemsStarted(['other'], claim);
		expect(item).toMatchObject({ statusVerified: false, notifiedStatus: 'success', recheckError: expect.any(Object) });
		for (const name of FOUR) expect([name, item[name]]).toEqual([name, undefined]);
	});
});

describe('a second payment of the same order', () => {
	it('the declined first payment claimed as paid, while the second is paid: the first’s own failure', async () => {
		const { sandbox } = bench;
		const orderId = await createOrder(sandbox, { additionalFields: { receiptId: 'INV-1006' } });
		const first = sandbox.completeAuthentication(
			await initiatePayment(sandbox, orderId, { cardNumber: DECLINED_CARD, cardCVV: CVV }),
			'success',
		);
		const second = sandbox.completeAuthentication(await initiatePayment(sandbox, orderId, { cardCVV: CVV }), 'success');
		expect([first.status, second.status]).toEqual(['failure', 'success']);
		bench.signed(orderId, first.paymentId);
		bench.signed(orderId, second.paymentId);
		sandbox.clearLog();

		const claim = { ...first, status: 'success' };
		expect(await itemsStarted(['succeeded'], claim)).toEqual([]);
		const [item] = await itemsStarted([], claim);
		expect(item).toMatchObject({ paymentId: first.paymentId, status: 'failure', statusVerified: true });
		// Each re-check read the payment the notification names, never the order's latest one.
		expect(bench.recheckRequests().map((request) => request.path)).toEqual([
			expect.stringMatching(new RegExp(`${PAYMENT_STATUS}${first.paymentId}$`)),
			expect.stringMatching(new RegExp(`${PAYMENT_STATUS}${first.paymentId}$`)),
		]);
		expect(bench.checkStatusRequests()).toEqual([]);
	});
});

it('no secret in any answer, item, run or error of this file', () => {
	bench.expectNoSecrets();
});
