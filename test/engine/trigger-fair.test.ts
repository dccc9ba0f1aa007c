/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { DEFAULT_TIMEOUT_MS } from '../../nodes/PaymentGateway/transport/request';
import type { LoggedRequest } from '../../sandbox/gateway';
import type { StatusRecord } from '../support/fixtures';
import { runNode } from '../support/fixtures';
import { PAYMENT_STATUS, useTriggerBench } from '../support/trigger';
import { until } from '../support/until';

// The trigger spaces the reads of each payment on its own: replays of other payments, however many, never put a
// genuine notification's read behind theirs, and no delivery waits more than 10 s for its payment's next read.

const bench = useTriggerBench();
const { notify, paid, settled } = bench;

const LATENCY_MS = 1500;
const readsOf = (paymentId: string) => bench.sandbox.requests.filter((request) => request.path.endsWith(`${PAYMENT_STATUS}${paymentId}`));

it('replays of 8 other payments at 1.5 s a read: a genuine refund notification of a handled payment is read at once, none of theirs ahead of it', async () => {
	const genuine = await paid();
	const others: StatusRecord[] = [];
	for (let index = 0; index < 8; index++) others.push(await paid());
	for (const record of [genuine, ...others]) await notify(bench.server, record);
	await settled();
	expect(bench.server.executions).toHaveLength(9);
	const refund = await runNode(bench.sandbox, { resource: 'transaction', operation: 'refund', paymentId: genuine.paymentId, amount: 25.5 });
	expect(refund.error).toBeUndefined();
	// Past every payment's first gap (1 s after its read): what follows waits for nothing but the others' reads.
	await new Promise((resolve) => setTimeout(resolve, 1100));
	bench.sandbox.clearLog();
	bench.sandbox.setLatency(LATENCY_MS);

	// Each replay carries a made-up claim, so each needs a re-read of its payment.
	await Promise.all(others.map(async (record, index) => await notify(bench.server, { ...record, timestamp: `made-up-${index}` })));
	await until(() => bench.sandbox.requests.length > 0, 'a replay’s re-read at the gateway');
	const postedAt = performance.now();
	await notify(bench.server, { ...genuine, refundId: refund.items[0].json.refundId, status: 'refunded' });
	await settled();

	const [read] = readsOf(genuine.paymentId) as LoggedRequest[];
	const othersAnsweredBefore = bench.sandbox.requests.filter(
		(request) => request !== read && request.closedAtMs !== null && request.closedAtMs <= read.receivedAtMs,
	).length;
	const delayMs = Math.round((read.closedAtMs ?? Infinity) - postedAt);
	expect({ othersAnsweredBefore, delayUnder3s: delayMs < 3000 || delayMs }).toEqual({ othersAnsweredBefore: 0, delayUnder3s: true });
	expect(bench.server.executions.slice(9).map((execution) => [execution.items[0].json.paymentId, execution.items[0].json.status])).toEqual([
		[genuine.paymentId, 'refunded'],
	]);
	// Every other payment was read again, each once.
	for (const record of others) expect(readsOf(record.paymentId)).toHaveLength(1);
}, 60_000);

describe('an adversary replaying records of many payments', () => {
	// Found while attacking this change: with re-reads no longer one at a time for all payments, records of 20 paid
	// payments replayed at once send 20 reads at once (one each, spaced after). Against a gateway serving 2 at once,
	// its refusals then leave some reads unconfirmed after their retries, the genuine one's among them: such a
	// notification is still emitted (statusVerified false, Other), never lost, as the trigger's docs say.
	it('20 payments replayed at once against a gateway serving 2 at once: one read of each at most, the genuine notification still emitted', async () => {
		const others: StatusRecord[] = [];
		for (let index = 0; index < 20; index++) others.push(await paid());
		const genuine = await paid();
		for (const record of others) await notify(bench.server, record);
		await settled();
		bench.server.reset();
		await new Promise((resolve) => setTimeout(resolve, 1100));
		bench.sandbox.clearLog();
		bench.sandbox.setLatency(200);
		bench.sandbox.setCapacity({ serves: 2, beyond: 'refuse', retryAfter: 1 });
		try {
			const replays = Promise.all(others.map(async (record, index) => await notify(bench.server, { ...record, timestamp: `made-up-${index}` })));
			await notify(bench.server, genuine);
			await replays;
			await settled();
		} finally {
			bench.sandbox.setCapacity(null);
		}
		const started = bench.server.executions.map((execution) => execution.items[0].json);
		expect(started.filter((item) => item.paymentId === genuine.paymentId)).toHaveLength(1);
		// A replay starts something only when its read was not confirmed: never a confirmed repeat.
		for (const item of started.filter((item) => item.paymentId !== genuine.paymentId)) expect(item.statusVerified).toBe(false);
		// A count that load cannot raise: each payment had one delivery, so one read, whose attempts past the gateway's
		// refusals could be two only if one went unanswered for the read's whole Timeout (60 s by default), which is
		// this test's own time-out: it would have failed first.
		for (const record of others) expect(readsOf(record.paymentId).filter((request) => request.fault !== 'capacity').length).toBeLessThanOrEqual(1);
	}, DEFAULT_TIMEOUT_MS);
});
