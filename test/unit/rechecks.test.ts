/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import type { Confirmation } from '../../nodes/PaymentGateway/shared/confirm';
import { gapAfter, MAX_HOLD_MS, Rechecks } from '../../nodes/PaymentGateway/shared/rechecks';

// How the trigger shares and spaces its reads of one payment, on a simulated clock: reads grow with the payments
// notified and with time, never with the deliveries.

const confirmed: Confirmation = { verified: true, values: { status: 'success' }, progress: '' };
let scope = 0;

/** A read that answers after `ms` of simulated time and counts itself. */
function gateway(ms = 100) {
	const reads: number[] = [];
	return {
		reads,
		read: async (): Promise<Confirmation> => {
			reads.push(Date.now());
			await new Promise((resolve) => setTimeout(resolve, ms));
			return confirmed;
		},
	};
}

beforeEach(() => {
	jest.useFakeTimers({ now: Date.UTC(2026, 10, 27) });
	scope++;
});
afterEach(() => jest.useRealTimers());

it('the gaps grow threefold from 1 s to ten minutes', () => {
	expect([0, 1, 2, 3, 4, 6, 7, 20].map(gapAfter)).toEqual([0, 1000, 3000, 9000, 27_000, 243_000, 600_000, 600_000]);
});

it('deliveries of one claim at once: one read, one delivery waits for it, the others are dropped', async () => {
	const rechecks = new Rechecks(`s${scope}`);
	const { reads, read } = gateway();
	const answers = Array.from({ length: 50 }, () => rechecks.recheck('PAY1', 'claim-a', read));
	await jest.advanceTimersByTimeAsync(200);
	const kinds = (await Promise.all(answers)).map((answer) => answer.kind);
	expect(reads).toHaveLength(1);
	expect(kinds.filter((kind) => kind === 'confirmed')).toHaveLength(1);
	expect(kinds.filter((kind) => kind === 'dropped')).toHaveLength(49);
});

it('a claim explained by a confirmation is answered from it, unread', async () => {
	const rechecks = new Rechecks(`s${scope}`);
	const { reads, read } = gateway();
	const first = rechecks.recheck('PAY1', 'claim-a', read);
	await jest.advanceTimersByTimeAsync(200);
	rechecks.learnt('PAY1', ((await first) as { confirmation: Confirmation }).confirmation, 'claim-a');
	for (let delivery = 0; delivery < 100; delivery++) expect((await rechecks.recheck('PAY1', 'claim-a', read)).kind).toBe('confirmed');
	expect(reads).toHaveLength(1);
});

it('new claims of one payment, for an hour: reads spaced 1 s, 3 s, 9 s … then ten minutes apart', async () => {
	const rechecks = new Rechecks(`s${scope}`);
	const { reads, read } = gateway(50);
	const pending: Array<Promise<unknown>> = [];
	for (let second = 0; second < 3600; second++) {
		// A new made-up claim every second, each possibly held up to MAX_HOLD_MS.
		pending.push(rechecks.recheck('PAY1', `claim-${second}`, read));
		await jest.advanceTimersByTimeAsync(1000);
	}
	await jest.advanceTimersByTimeAsync(MAX_HOLD_MS + 1000);
	await Promise.all(pending);
	// 0, 1, 4, 13, 40, 121, 364 s, then one each ten minutes (964, 1564, 2164, 2764, 3364 s).
	expect(reads).toHaveLength(12);
});

it('a delivery never waits longer than the hold: past it, it is dropped (or answered from the last confirmation)', async () => {
	const rechecks = new Rechecks(`s${scope}`);
	const { read } = gateway(10);
	// Eight new claims, each once the gap before it has passed: the next gap is then ten minutes.
	for (let claim = 0; claim < 8; claim++) {
		await jest.advanceTimersByTimeAsync(gapAfter(claim));
		const answer = rechecks.recheck('PAY1', `c${claim}`, read);
		await jest.advanceTimersByTimeAsync(20);
		expect((await answer).kind).toBe('confirmed');
	}
	const started = Date.now();
	const dropped = rechecks.recheck('PAY1', 'c-late', read);
	expect((await dropped).kind).toBe('dropped');
	expect(Date.now() - started).toBeLessThan(MAX_HOLD_MS);
	rechecks.learnt('PAY1', confirmed);
	expect(await rechecks.recheck('PAY1', 'c-late-2', read, true)).toEqual({ kind: 'confirmed', confirmation: confirmed, first: true });
});

it('re-reads are spaced per payment: a re-read of one payment is sent at once while re-reads of ten others are out', async () => {
	const rechecks = new Rechecks(`s${scope}`);
	const slow = gateway(5000);
	for (let payment = 0; payment < 11; payment++) {
		const first = rechecks.recheck(`PAY${payment}`, 'a', slow.read);
		await jest.advanceTimersByTimeAsync(6000);
		await first;
	}
	slow.reads.length = 0;
	const rereads = Array.from({ length: 10 }, (_, payment) => rechecks.recheck(`PAY${payment}`, 'b', slow.read));
	await jest.advanceTimersByTimeAsync(10);
	expect(slow.reads).toHaveLength(10);
	const fresh = gateway(100);
	const genuine = rechecks.recheck('PAY10', 'refunded', fresh.read);
	await jest.advanceTimersByTimeAsync(0);
	expect(fresh.reads).toHaveLength(1);
	await jest.advanceTimersByTimeAsync(100);
	expect((await genuine).kind).toBe('confirmed');
	await jest.advanceTimersByTimeAsync(6000);
	await Promise.all(rereads);
});

it('a delivery waits at most the hold for a read of its payment still out: past it, its own read is sent', async () => {
	const rechecks = new Rechecks(`s${scope}`);
	const slow = gateway(40_000);
	const first = rechecks.recheck('PAY1', 'a', slow.read);
	await jest.advanceTimersByTimeAsync(2000);
	const second = rechecks.recheck('PAY1', 'b', slow.read);
	await jest.advanceTimersByTimeAsync(MAX_HOLD_MS - 1);
	expect(slow.reads).toHaveLength(1);
	await jest.advanceTimersByTimeAsync(2);
	expect(slow.reads).toHaveLength(2);
	expect(slow.reads[1] - slow.reads[0]).toBeLessThanOrEqual(2000 + MAX_HOLD_MS);
	await jest.advanceTimersByTimeAsync(50_000);
	expect((await first).kind).toBe('confirmed');
	expect((await second).kind).toBe('confirmed');
});

it('Verify Signature’s confirmations answer the same claim only until the payment’s next read may go', async () => {
	const rechecks = new Rechecks(`s${scope}`, { explainedFor: 'gap', waitersPerRead: Infinity });
	const { reads, read } = gateway(10);
	const first = rechecks.recheck('PAY1', 'claim-a', read, true);
	await jest.advanceTimersByTimeAsync(20);
	rechecks.learnt('PAY1', ((await first) as { confirmation: Confirmation }).confirmation, 'claim-a');
	expect((await rechecks.recheck('PAY1', 'claim-a', read, true)).kind).toBe('confirmed');
	expect(reads).toHaveLength(1);
	await jest.advanceTimersByTimeAsync(1000);
	const later = rechecks.recheck('PAY1', 'claim-a', read, true);
	await jest.advanceTimersByTimeAsync(20);
	expect((await later).kind).toBe('confirmed');
	expect(reads).toHaveLength(2);
});

it('at most 64 deliveries wait for one read; more are dropped', async () => {
	const rechecks = new Rechecks(`s${scope}`);
	const { reads, read } = gateway(100);
	const first = rechecks.recheck('PAY1', 'first', read);
	await jest.advanceTimersByTimeAsync(10);
	const waiting = Array.from({ length: 200 }, (_, index) => rechecks.recheck('PAY1', `claim-${index}`, read));
	await jest.advanceTimersByTimeAsync(5000);
	const kinds = (await Promise.all(waiting)).map((answer) => answer.kind);
	await first;
	expect(reads).toHaveLength(2);
	expect(kinds.filter((kind) => kind === 'confirmed')).toHaveLength(64);
});
