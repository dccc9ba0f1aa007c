/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import type { IDataObject } from 'n8n-workflow';

import type { StatusRecord } from '../support/fixtures';
import { gapAfter } from '../../nodes/PaymentGateway/shared/rechecks';
import { runNode, settledPayment, useSandbox } from '../support/fixtures';
import type { WebhookServer } from '../support/webhook';
import { deliverAll, postJson, startVerifyingWorkflow } from '../support/verify-workflow';

// A customer's browser carries the signed status record (the gateway posts it to the merchant's redirect URL), so a
// customer can post it again to the webhook that verifies it, as often as they like. Status → Verify Signature in a
// production workflow (a Webhook, then Verify Signature, as n8n runs them) shares and spaces its reads of one payment
// as the trigger does, and says with `repeat` that this workflow verified this payment in this state before.

const sandbox = useSandbox({ reset: false });

/** A Webhook, then Verify Signature on the record in its body, at their defaults otherwise. */
const verifyingWorkflow = async () => await startVerifyingWorkflow(sandbox);

/** Posts `count` bodies, `atOnce` in flight at a time; every answer must be 200. */
const post = async (target: WebhookServer, count: number, atOnce: number, body: (index: number) => object) =>
	await deliverAll(count, atOnce, async (index) => await postJson(target, body(index)));

const readsOf = (paymentId: string) => sandbox.requests.filter((request) => request.path.endsWith(`/transaction/status/${paymentId}`)).length;
/** What Verify Signature output in each execution, in the order they finished. */
const verified = (target: WebhookServer): IDataObject[] => target.executions.map((execution) => execution.outputOf('Verify Signature')[0]?.json ?? {});

/**
 * The most reads of one payment its spacing lets go within `ms` (a read at once, the next 1 s later, then 3 s, 9 s,
 * 27 s, 81 s …): an upper bound that load can only raise, as a busy machine stretches a burst, never lower. Within
 * any test's time-out here (under 121 s, when a 6th may go) it is at most the contract's 5.
 */
function readsSpacedWithin(ms: number): number {
	let reads = 1;
	for (let at = gapAfter(1); at <= ms + 100; at += gapAfter(++reads));
	return reads;
}

/** Runs `body` against a verifying workflow of its own, closed after; `elapsedMs()` is the time since it started. */
async function withVerifyingWorkflow(body: (server: WebhookServer, elapsedMs: () => number) => Promise<void>): Promise<void> {
	const server = await verifyingWorkflow();
	const startedAt = Date.now();
	try {
		await body(server, () => Date.now() - startedAt);
	} finally {
		await server.close();
	}
}

it('the spacing lets 1 read go at once, 2 within 1 s, 3 within 4 s, 5 within 40 s and 6 only after 121 s', () => {
	expect([0, 1000, 3999 - 100, 4000, 39_000, 40_000, 120_000, 121_000].map(readsSpacedWithin)).toEqual([1, 2, 2, 3, 4, 5, 5, 6]);
});

async function paidRecord(): Promise<StatusRecord> {
	const record = await settledPayment(sandbox, 'success');
	sandbox.clearLog();
	return record;
}

it('50 replays of one record through Verify Signature: at most 5 gateway reads; the 2nd to 50th say repeat: true', async () => {
	const record = await paidRecord();
	await withVerifyingWorkflow(async (server, elapsedMs) => {
		await post(server, 1, 1, () => record);
		await server.idle();
		await post(server, 49, 10, () => record);
		await server.idle();
		const outputs = verified(server);
		expect(outputs).toHaveLength(50);
		expect(outputs.map((output) => [output.statusVerified, output.status])).toEqual(outputs.map(() => [true, 'success']));
		const reads = readsOf(record.paymentId);
		const allowed = readsSpacedWithin(elapsedMs());
		expect(['reads', reads <= allowed ? 'at most 5' : `${reads}, spaced for ${allowed}`]).toEqual(['reads', 'at most 5']);
		expect(outputs.map((output) => output.repeat)).toEqual([false, ...Array.from({ length: 49 }, () => true)]);
	});
});

describe('an adversary replaying their own record', () => {
	// Found attacking it: with reads spaced 1 s, 2 s, 4 s … a record posted once a second cost 6 reads in 50 s.
	it('50 deliveries of one record, one a second: at most 5 reads, every one confirmed, the 2nd to 50th say repeat: true', async () => {
		const record = await paidRecord();
		await withVerifyingWorkflow(async (server, elapsedMs) => {
			const posts: Array<Promise<void>> = [];
			for (let delivery = 0; delivery < 50; delivery++) {
				posts.push(post(server, 1, 1, () => record));
				await new Promise((resolve) => setTimeout(resolve, 1000));
			}
			await Promise.all(posts);
			await server.idle();
			const outputs = verified(server);
			expect(outputs.filter((output) => output.statusVerified !== true)).toEqual([]);
			expect(outputs.map((output) => output.repeat)).toEqual([false, ...Array.from({ length: 49 }, () => true)]);
			const reads = readsOf(record.paymentId);
			const allowed = readsSpacedWithin(elapsedMs());
			expect(['reads', reads <= allowed ? 'at most 5' : `${reads}, spaced for ${allowed}`]).toEqual(['reads', 'at most 5']);
		});
	}, 120_000);

	it('50 deliveries all at once: one says repeat: false, 49 true, and they share one read', async () => {
		const record = await paidRecord();
		await withVerifyingWorkflow(async (server, elapsedMs) => {
			await post(server, 50, 50, () => record);
			await server.idle();
			const repeats = verified(server).map((output) => output.repeat);
			expect(repeats.filter((repeat) => repeat === false)).toHaveLength(1);
			expect(repeats.filter((repeat) => repeat === true)).toHaveLength(49);
			expect(readsOf(record.paymentId)).toBeLessThanOrEqual(readsSpacedWithin(elapsedMs()));
		});
	});

	it('made-up claims beside the signature (status, amount, a new timestamp each time) change nothing: the gateway’s status, repeat true', async () => {
		const record = await paidRecord();
		await withVerifyingWorkflow(async (server, elapsedMs) => {
			await post(server, 1, 1, () => record);
			await server.idle();
			await post(server, 40, 10, (index) => ({ ...record, status: index % 2 ? 'refunded' : 'success', amount: 0.01, timestamp: `made-up-${index}` }));
			await server.idle();
			const outputs = verified(server);
			expect(outputs.map((output) => [output.status, output.amount, output.repeat])).toEqual([
				['success', 25.5, false],
				...Array.from({ length: 40 }, () => ['success', 25.5, true]),
			]);
			expect(readsOf(record.paymentId)).toBeLessThanOrEqual(readsSpacedWithin(elapsedMs()));
		});
	});

	it('the same payment in a new confirmed state (refunded since) is no repeat; a forged signature is never remembered', async () => {
		const record = await paidRecord();
		await withVerifyingWorkflow(async (server) => {
			await post(server, 3, 1, (index) => (index === 0 ? { ...record, signature: `${'0'.repeat(63)}1` } : record));
			await server.idle();
			const refund = await runNode(sandbox, { resource: 'transaction', operation: 'refund', paymentId: record.paymentId, amount: 25.5 });
			expect(refund.error).toBeUndefined();
			// Past the gap after the last read: a record verified again later reads the gateway's state then.
			await new Promise((resolve) => setTimeout(resolve, 1100));
			await post(server, 2, 1, () => record);
			await server.idle();
			expect(verified(server).map((output) => [output.signatureValid, output.status, output.repeat])).toEqual([
				[false, undefined, false],
				[true, 'success', false],
				[true, 'success', true],
				[true, 'refunded', false],
				[true, 'refunded', true],
			]);
		});
	});

	it('a store that lost what was verified (another execution’s save won) still makes the record a repeat in this process', async () => {
		const record = await paidRecord();
		await withVerifyingWorkflow(async (first) => {
			await post(first, 2, 1, () => record);
			await first.idle();
			expect(verified(first).map((output) => output.repeat)).toEqual([false, true]);
		});
		// The same workflow (the harness's id) with an empty store: what this process verified survives it.
		await withVerifyingWorkflow(async (second) => {
			await post(second, 1, 1, () => record);
			await second.idle();
			expect(verified(second).map((output) => output.repeat)).toEqual([true]);
		});
	});

	it('a record that says of itself repeat: false and statusVerified: true is not believed: replaced by what the node found', async () => {
		const record = await paidRecord();
		await withVerifyingWorkflow(async (server) => {
			await post(server, 2, 1, () => ({ ...record, repeat: false, statusVerified: true, status: 'success' }));
			await server.idle();
			expect(verified(server).map((output) => [output.statusVerified, output.repeat])).toEqual([
				[true, false],
				[true, true],
			]);
		});
	});

	it('records of 10 payments, each posted 5 times, all at once: reads grow with the payments and time, not the records (at most 5 each), one repeat: false each', async () => {
		const records: StatusRecord[] = [];
		for (let index = 0; index < 10; index++) records.push(await paidRecord());
		await withVerifyingWorkflow(async (server, elapsedMs) => {
			await post(server, 50, 50, (index) => records[index % 10]);
			await server.idle();
			const outputs = verified(server);
			const allowed = readsSpacedWithin(elapsedMs());
			for (const record of records) {
				const mine = outputs.filter((output) => output.paymentId === record.paymentId);
				// A Webhook's item claims no status (it is under body): each read answers those that wait for it, spaced 1 s, 3 s …
				expect([record.paymentId, mine.filter((output) => output.repeat === false).length, readsOf(record.paymentId) <= allowed]).toEqual([record.paymentId, 1, true]);
			}
		});
	});

	it('a flood of 100 identical records at once: at most 5 reads, every one confirmed, one says repeat: false', async () => {
		const record = await paidRecord();
		await withVerifyingWorkflow(async (server, elapsedMs) => {
			await post(server, 100, 100, () => record);
			await server.idle();
			const outputs = verified(server);
			expect(outputs).toHaveLength(100);
			// Found attacking it: at first, past 64 records waiting for one read the rest were answered unconfirmed.
			expect(outputs.filter((output) => output.statusVerified !== true)).toEqual([]);
			expect(outputs.filter((output) => output.repeat === false)).toHaveLength(1);
			expect(readsOf(record.paymentId)).toBeLessThanOrEqual(readsSpacedWithin(elapsedMs()));
		});
	});
});
