import type { IDataObject } from 'n8n-workflow';

import { repeatKey } from '../../nodes/PaymentGateway/shared/repeats';
import type { StatusRecord } from '../support/fixtures';
import { runNode } from '../support/fixtures';
import { PAYMENT_STATUS, useTriggerBench } from '../support/trigger';
import type { WebhookServer } from '../support/webhook';
import { deliverAll } from '../support/verify-workflow';

// A notification's signature covers orderId|paymentId and the customer's browser carries it: a customer can post it
// again, as often as they like, with anything else beside the ids. Replays start no execution (the key of a
// notification holds only what the gateway confirmed), push no other payment out of the store, and cost the gateway
// reads that grow with the payments notified, not with the deliveries.

const bench = useTriggerBench();
const { notify, paid, settled } = bench;

/** Delivers `count` bodies, `atOnce` in flight at a time, as a flood would; every answer must be 200. */
const flood = async (target: WebhookServer, count: number, atOnce: number, bodyOf: (index: number) => object) =>
	await deliverAll(count, atOnce, async (index) => (await notify(target, bodyOf(index))).status);

const storeOf = (target: WebhookServer) => JSON.stringify(target.store.staticData);
const readsOf = (paymentId: string) => bench.recheckRequests().filter((request) => request.path.endsWith(`/${paymentId}`)).length;

/** A paid payment refunded in part through the node, and the gateway's notification of that refund. */
interface RefundNotification {
	eventType: string;
	data: IDataObject & { paymentId: string };
}

async function partlyRefunded(): Promise<{ record: StatusRecord; refund: RefundNotification }> {
	const record = await paid();
	const result = await runNode(bench.sandbox, { resource: 'transaction', operation: 'refund', paymentId: record.paymentId, amount: 1 });
	expect(result.error).toBeUndefined();
	const refund = { eventType: 'REFUND_SUCCESS', data: { ...record, refundId: result.items[0].json.refundId as string, status: 'partially_refunded', amount: 1 } };
	return { record, refund };
}

describe('door 2: replays with made-up refundIds', () => {
	it('after a real partial refund, 50 replays of the customer’s signature with made-up refundIds start nothing', async () => {
		const { record, refund } = await partlyRefunded();
		await notify(bench.server, refund);
		await settled();
		expect(bench.server.executions).toHaveLength(1);
		const before = storeOf(bench.server);
		await flood(bench.server, 50, 10, (index) => ({ ...refund, data: { ...refund.data, refundId: `RFD-MADE-UP-${index}`, amount: 0.01 } }));
		await settled();
		expect(bench.server.executions.map((execution) => execution.items[0].json.status)).toEqual(['partially_refunded']);
		// Nothing new was remembered, so nothing else could be pushed out.
		expect(storeOf(bench.server)).toBe(before);
		expect(readsOf(record.paymentId)).toBeLessThanOrEqual(10);
	});

	it('another customer’s handled success notification, delivered again after 1,000 such replays, starts nothing', async () => {
		const other = await paid();
		await notify(bench.server, other);
		await settled();
		const { refund } = await partlyRefunded();
		await flood(bench.server, 1000, 50, (index) => ({ ...refund, data: { ...refund.data, refundId: `RFD-MADE-UP-${index}` } }));
		await notify(bench.server, other);
		await settled();
		expect(bench.server.executions.map((execution) => [execution.items[0].json.paymentId, execution.items[0].json.status])).toEqual([
			[other.paymentId, 'success'],
			[refund.data.paymentId, 'partially_refunded'],
		]);
	});
});

describe('door 3: replays cost the gateway little', () => {
	it('1,000 replays of one handled notification, 50 at a time: at most 10 reads (here none), no execution', async () => {
		const record = await paid();
		await notify(bench.server, record);
		await settled();
		await flood(bench.server, 1000, 50, () => record);
		await settled();
		expect(bench.server.executions).toHaveLength(1);
		expect(readsOf(record.paymentId)).toBe(1);
	});

	it('a flood of made-up claims against a gateway serving 2 at once: a genuine notification of another payment is confirmed and starts', async () => {
		const genuine = await paid();
		const { record, refund } = await partlyRefunded();
		await notify(bench.server, refund);
		await settled();
		bench.sandbox.clearLog();
		bench.sandbox.setCapacity({ serves: 2, beyond: 'refuse', retryAfter: 1 });
		try {
			const flooding = flood(bench.server, 500, 50, (index) => ({ ...refund, data: { ...refund.data, refundId: `RFD-${index}`, status: index % 2 ? 'refunded' : 'success' } }));
			await notify(bench.server, genuine);
			await flooding;
			await settled();
		} finally {
			bench.sandbox.setCapacity(null);
		}
		const started = bench.server.executions.map((execution) => execution.items[0].json);
		expect(started.slice(1)).toEqual([expect.objectContaining({ paymentId: genuine.paymentId, status: 'success', statusVerified: true })]);
		expect(readsOf(record.paymentId)).toBeLessThanOrEqual(10);
		expect(readsOf(genuine.paymentId)).toBeGreaterThanOrEqual(1);
		expect(bench.recheckRequests().length).toBeGreaterThan(0);
	});

	it('a genuine new event of the flooded payment (a refund during the flood) still gets a read sent after it arrived', async () => {
		const record = await paid();
		await notify(bench.server, record);
		await settled();
		// Short enough that the reads it costs stay a few seconds apart (1, 2, 4 s), as a busy machine may take long:
		// a delivery waits for its payment's next read only within 10 s.
		const flooding = flood(bench.server, 60, 20, (index) => ({ ...record, timestamp: `made-up-${index}` }));
		const result = await runNode(bench.sandbox, { resource: 'transaction', operation: 'refund', paymentId: record.paymentId, amount: 25.5 });
		expect(result.error).toBeUndefined();
		await notify(bench.server, { ...record, refundId: result.items[0].json.refundId, status: 'refunded' });
		await flooding;
		await settled();
		expect(bench.server.executions.map((execution) => execution.items[0].json.status)).toEqual(['success', 'refunded']);
		expect(readsOf(record.paymentId)).toBeLessThanOrEqual(10);
	});
});

describe('with the re-check off, claims decide nothing either', () => {
	it('a payment starts the workflow once: other spellings of success and made-up refunds start nothing, and touch no paid entry', async () => {
		const record = await paid();
		await bench.withServer({ options: { recheckStatus: false, ignoreRepeats: true } }, async (own) => {
			await notify(own, record);
			for (const status of ['paid', 'completed', 'captured', 'SUCCESS', 'refunded']) await notify(own, { ...record, status, refundId: `RFD-${status}` });
			await bench.settled(own);
			expect(own.executions).toHaveLength(1);
			// (The process's memory of this file's other tests is in the store too: only this payment's keys are looked at.)
			const store = own.store.staticData['node:Payment Gateway Trigger'] as IDataObject;
			const paidKeys = String(store.handledNotifications ?? '');
			for (const status of ['', 'success', 'paid', 'refunded']) expect(paidKeys).not.toContain(repeatKey(record.paymentId, status));
			expect(String(store.handledUnpaidNotifications)).toContain(repeatKey(record.paymentId, ''));
		});
		expect(bench.recheckRequests()).toEqual([]);
	});
});

describe('an unconfirmed read shared by many deliveries', () => {
	it('starts one execution (Other), not one per delivery; the next read, confirmed, starts one more', async () => {
		const record = await paid();
		bench.sandbox.injectFault({ match: PAYMENT_STATUS, status: 503, retryAfter: 0, count: 4 });
		bench.sandbox.setLatency(100);
		await flood(bench.server, 20, 20, (index) => ({ ...record, timestamp: `t${index}` }));
		await settled();
		expect(bench.server.executions.map((execution) => execution.items[0].json.statusVerified)).toEqual([false, true]);
	});
});

it('no secret in any answer, item, run or error of this file', () => {
	bench.expectNoSecrets();
});
