/* eslint-disable @n8n/community-nodes/no-restricted-globals, prefer-const -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import type { PaceOutcome, Ticket } from '../../nodes/PaymentGateway/transport/adaptiveLimit';
import { AdaptiveLimit, INITIAL_LIMIT, Pace } from '../../nodes/PaymentGateway/transport/adaptiveLimit';
import type { LearnedPace } from '../../nodes/PaymentGateway/transport/paceMemory';
import { KEEP_MS, PaceMemory } from '../../nodes/PaymentGateway/transport/paceMemory';

// The adaptive limit's rule on a simulated clock: no real time passes, so what is asserted (limits, requests refused,
// simulated seconds) is the same on any machine.

/** A clock and timers that move only when the simulation says so. */
function simulatedClock() {
	let now = 0;
	const timers: Array<{ at: number; order: number; fire: () => void }> = [];
	let order = 0;
	const clock = {
		now: () => now,
		/** Like n8n-workflow's sleep, on this clock. */
		wait: (ms: number) => new Promise<void>((resolve) => clock.at(now + ms, resolve)),
		at(time: number, fire: () => void) {
			timers.push({ at: Math.max(time, now), order: order++, fire });
		},
		/** Fires timers in time order, letting the promises they settle run between them, until none is left. */
		async run() {
			for (;;) {
				await new Promise((resolve) => setImmediate(resolve));
				if (timers.length === 0) return;
				timers.sort((a, b) => a.at - b.at || a.order - b.order);
				const next = timers.shift()!;
				now = next.at;
				next.fire();
			}
		},
		advance(ms: number) {
			now += ms;
		},
	};
	return clock;
}

interface Gateway {
	/** How many it serves at once; beyond that it answers 429 at once. Infinity: no limit. */
	capacity: number;
	latencyMs: number;
	retryAfterMs?: number;
	/** Latency added per request it is serving when one arrives (a gateway that slows down under load). */
	loadLatencyMs?: number;
	/** Until `untilMs` it serves only `capacity` at once (a rate window with so many places left, or another workflow holding the rest). */
	window?: { capacity: number; untilMs: number };
	/** How long a refusal takes (default 1 ms; a 429 after a queue, or a time-out, takes longer than an answer). */
	refusalMs?: number;
}

/**
 * `items` reads as the node's item runner makes them (as many workers as the node's maximum, each item retried up to
 * three times, waiting as Retry-After asks) through a Pace, against a simulated gateway.
 */
async function simulate(gateway: Gateway, items: number, fixed?: number, learned?: LearnedPace) {
	const clock = simulatedClock();
	const rule = new AdaptiveLimit(100, clock.now, fixed);
	if (learned) rule.resume(learned);
	const pace = new Pace(rule, clock.wait);
	let serving = 0;
	let peak = 0;
	let requests = 0;
	let refused = 0;
	let lost = 0;
	const limits: number[] = [];
	const send = () =>
		new Promise<{ ok: boolean }>((resolve) => {
			requests++;
			const capacity = gateway.window && clock.now() < gateway.window.untilMs ? gateway.window.capacity : gateway.capacity;
			if (serving >= capacity) {
				refused++;
				clock.at(clock.now() + (gateway.refusalMs ?? 1), () => resolve({ ok: false }));
				return;
			}
			serving++;
			peak = Math.max(peak, serving);
			const latency = gateway.latencyMs + (gateway.loadLatencyMs ?? 0) * (serving - 1);
			clock.at(clock.now() + latency, () => {
				serving--;
				resolve({ ok: true });
			});
		});
	let next = 0;
	const worker = async () => {
		while (next < items) {
			next++;
			for (let attempt = 0; ; attempt++) {
				const ticket = await pace.acquire();
				const { ok } = await send();
				const outcome: PaceOutcome = ok ? { kind: 'answered' } : { kind: 'refused', pauseMs: gateway.retryAfterMs };
				pace.release(ticket, outcome);
				limits.push(rule.limit);
				if (ok) break;
				if (attempt === 3) {
					lost++;
					break;
				}
				await clock.wait(gateway.retryAfterMs ?? 500 * 2 ** attempt);
			}
		}
	};
	const done = Promise.all(Array.from({ length: Math.min(fixed ?? 100, items) }, worker));
	await clock.run();
	await done;
	return { seconds: clock.now() / 1000, requests, refused, lost, peak, limits, finalLimit: rule.limit, learned: rule.learned() };
}

describe('AdaptiveLimit, the rule', () => {
	const started = (rule: AdaptiveLimit, count: number): Ticket[] => Array.from({ length: count }, () => rule.start());

	/** A rule on a clock the test moves; `round(latency)` starts as many calls as it allows, all answered `latency` ms later. */
	function clocked(max = 100) {
		const clock = { now: 0 };
		const rule = new AdaptiveLimit(max, () => clock.now);
		const round = (latency: number) => {
			const inFlight = started(rule, rule.limit);
			clock.now += latency;
			for (const ticket of inFlight) rule.finish(ticket, { kind: 'answered' });
		};
		return { rule, clock, round };
	}

	it(`starts at ${INITIAL_LIMIT} and adds one per answer while nothing pushes back (doubling each round trip)`, () => {
		const { rule, clock } = clocked();
		expect(rule.limit).toBe(INITIAL_LIMIT);
		const tickets = started(rule, INITIAL_LIMIT);
		expect(rule.mayStart()).toBe(false);
		clock.now = 200;
		// As the item runner does: each answer's place goes to the next request at once.
		for (const ticket of tickets) {
			rule.finish(ticket, { kind: 'answered' });
			rule.start();
		}
		expect(rule.limit).toBe(2 * INITIAL_LIMIT);
	});

	it('never goes above its maximum', () => {
		const { rule, round } = clocked(30);
		for (let count = 0; count < 5; count++) round(100);
		expect(rule.limit).toBe(30);
	});

	it('does not grow while fewer than half its places are used: running out of items shows nothing about more', () => {
		const { rule, clock } = clocked();
		for (let round = 0; round < 10; round++) {
			const [ticket] = started(rule, 1);
			clock.now += 100;
			rule.finish(ticket, { kind: 'answered' });
		}
		expect(rule.limit).toBe(INITIAL_LIMIT);
	});

	it('after a 429 drops at once to just under the number in flight when the refused request went out', () => {
		const { rule, clock } = clocked();
		const tickets = started(rule, INITIAL_LIMIT);
		clock.now = 1;
		// The gateway served 32: the 33rd and later were refused.
		for (const ticket of tickets.slice(32)) rule.finish(ticket, { kind: 'refused', pauseMs: 1000 });
		expect(rule.limit).toBe(32);
	});

	it('in slow start the first refusals cut to what the gateway served; below half of the start that cut is provisional', () => {
		const { rule, clock } = clocked();
		const first = started(rule, INITIAL_LIMIT);
		clock.now = 1;
		// A gateway serving 10 refuses the 11th to 50th of the first burst, in whatever order their answers come.
		for (const ticket of first.slice(10).reverse()) rule.finish(ticket, { kind: 'refused', pauseMs: 1000 });
		expect(rule.limit).toBe(10);
		// One burst cannot tell a gateway serving 10 from a rate window with 10 places left: the cut is provisional, the
		// run goes on doubling (slow start) towards half of 50 as the served answer, and a run that ends here leaves
		// nothing to the next.
		clock.now = 1001;
		for (const ticket of first.slice(0, 10)) rule.finish(ticket, { kind: 'answered' });
		expect(rule.limit).toBeGreaterThan(10);
		expect(rule.learned()).toBeUndefined();
	});

	it('a stray refusal in the first burst cuts by what was refused, not to the level it was sent at', () => {
		const { rule, clock } = clocked();
		const tickets = started(rule, INITIAL_LIMIT);
		clock.now = 1;
		// A 503 of the second request while the gateway serves the other 49.
		rule.finish(tickets[1], { kind: 'refused' });
		expect(rule.limit).toBe(INITIAL_LIMIT - 1);
	});

	it('cuts once per episode; when everything in flight was refused (a rate window) or after slow start, never below half', () => {
		const { rule, clock } = clocked();
		const tickets = started(rule, INITIAL_LIMIT);
		clock.now = 1;
		// Refused at every level, even the first request: the floor is half of the start.
		for (const ticket of tickets) rule.finish(ticket, { kind: 'refused' });
		expect(rule.limit).toBe(INITIAL_LIMIT / 2);
		// A request sent after the cut and refused again starts a new episode: half again, however low it was sent.
		const [, later] = started(rule, 2);
		rule.finish(later, { kind: 'refused' });
		expect(rule.limit).toBe(Math.floor(INITIAL_LIMIT / 4));
	});

	it('a Retry-After pauses every request, also those of other items', () => {
		const { rule, clock } = clocked();
		const [refused, other] = started(rule, 2);
		rule.finish(refused, { kind: 'refused', pauseMs: 1000 });
		expect(rule.mayStart()).toBe(false);
		expect(rule.pauseLeft()).toBe(1000);
		clock.now = 400;
		rule.finish(other, { kind: 'answered' });
		expect(rule.mayStart()).toBe(false);
		clock.now = 1000;
		expect(rule.mayStart()).toBe(true);
	});

	it('does not try the refused level again for twenty times the pause, then probes one step', () => {
		const { rule, round } = clocked();
		const tickets = started(rule, INITIAL_LIMIT);
		// Served 30 of 50: more than half, so the cut holds at once.
		for (const ticket of tickets.slice(30)) rule.finish(ticket, { kind: 'refused', pauseMs: 1000 });
		for (const ticket of tickets.slice(0, 30)) rule.finish(ticket, { kind: 'answered' });
		expect(rule.limit).toBe(30);
		const roundTrips = (count: number) => {
			for (let trip = 0; trip < count; trip++) round(200);
		};
		roundTrips(98); // 19.6 s of answers without a refusal
		expect(rule.limit).toBe(30);
		roundTrips(3);
		expect(rule.limit).toBe(31);
	});

	it('backs off when answers take more than three times as long as usual, before anything is refused', () => {
		const { rule, round } = clocked();
		round(200);
		round(200);
		const before = rule.limit;
		round(1000);
		expect(rule.limit).toBeLessThan(before);
		expect(rule.limit).toBeGreaterThanOrEqual(Math.floor(before / 2));
	});

	it("does not back off when answers take up to three times as long: that much the node's own load can cause", () => {
		const { rule, clock, round } = clocked(1000);
		round(200);
		round(200);
		// Answers 2.5 times as slow: the limit keeps growing, never cut on the way.
		const limits: number[] = [];
		const inFlight = started(rule, rule.limit);
		clock.now += 500;
		for (const ticket of inFlight) {
			rule.finish(ticket, { kind: 'answered' });
			limits.push(rule.limit);
		}
		expect(limits).toEqual([...limits].sort((a, b) => a - b));
		expect(limits[limits.length - 1]).toBeGreaterThan(limits[0]);
	});

	it('a fixed limit never moves, and still pauses on a Retry-After', () => {
		let now = 0;
		const rule = new AdaptiveLimit(100, () => now, 7);
		const tickets = started(rule, 7);
		expect(rule.mayStart()).toBe(false);
		rule.finish(tickets[0], { kind: 'refused', pauseMs: 500 });
		for (const ticket of tickets.slice(1)) rule.finish(ticket, { kind: 'answered' });
		expect(rule.limit).toBe(7);
		expect(rule.pauseLeft()).toBe(500);
	});

	it('an outcome that says nothing of the load (a 500, a reset) changes nothing', () => {
		const { rule, clock } = clocked();
		const tickets = started(rule, 20);
		clock.now = 50;
		for (const ticket of tickets) rule.finish(ticket, { kind: 'other' });
		expect(rule.limit).toBe(INITIAL_LIMIT);
		expect(rule.pauseLeft()).toBe(0);
	});
});

describe('Pace, against a simulated gateway (200 ms an answer, Retry-After 1 s)', () => {
	it('serving 10 at once: 300 reads, none lost, two pauses (the first burst, then the climb that shows it was no rate window), within 1.3x the time of a limit of 10', async () => {
		const gateway = { capacity: 10, latencyMs: 200, retryAfterMs: 1000 };
		const adaptive = await simulate(gateway, 300);
		const handTuned = await simulate(gateway, 300, 10);
		expect(handTuned).toMatchObject({ lost: 0, refused: 0, seconds: 6 });
		expect(adaptive.lost).toBe(0);
		expect(adaptive.seconds).toBeLessThanOrEqual(1.3 * handTuned.seconds);
		expect(adaptive.finalLimit).toBe(10);
		// The figures docs/performance.md gives: two pauses of 1 s, 48 of 348 requests refused (40 of the first 50, then 8
		// of the climb from 10).
		expect(adaptive).toMatchObject({ requests: 348, refused: 48 });
		expect(adaptive.seconds).toBeCloseTo(7.6, 1);
	});

	it('serving 100 at once: 1,000 reads within 1.3x the time of a limit of 100, none refused', async () => {
		const gateway = { capacity: 100, latencyMs: 200, retryAfterMs: 1000 };
		const adaptive = await simulate(gateway, 1000);
		const handTuned = await simulate(gateway, 1000, 100);
		expect(adaptive).toMatchObject({ lost: 0, refused: 0 });
		expect(adaptive.seconds).toBeLessThanOrEqual(1.3 * handTuned.seconds);
		expect(adaptive.peak).toBe(100);
		expect([adaptive.seconds, handTuned.seconds]).toEqual([2.2, 2]);
	});

	it('without a limit: no slower than Concurrency 50 (where the option starts when added), at 1 s an answer', async () => {
		const gateway = { capacity: Infinity, latencyMs: 1000 };
		const adaptive = await simulate(gateway, 300);
		const fifty = await simulate(gateway, 300, 50);
		expect(adaptive.seconds).toBeLessThanOrEqual(fifty.seconds);
		expect([adaptive.seconds, fifty.seconds]).toEqual([4, 6]);
	});

	it('what the start costs without a limit: never a round trip more than 50 at once, fewer from 101 items', async () => {
		const roundTrips = async (items: number, fixed?: number) =>
			(await simulate({ capacity: Infinity, latencyMs: 1000 }, items, fixed)).seconds;
		const compared: Array<[number, number, number]> = [];
		for (const items of [20, 21, 50, 51, 61, 100, 101, 141, 150, 151, 200, 240, 1000]) {
			compared.push([items, await roundTrips(items), await roundTrips(items, 50)]);
		}
		// [items, round trips of the adaptive limit, round trips at 50 at once], as docs/performance.md says.
		expect(compared).toEqual([
			[20, 1, 1], [21, 1, 1], [50, 1, 1], [51, 2, 2], [61, 2, 2], [100, 2, 2], [101, 2, 3],
			[141, 2, 3], [150, 2, 3], [151, 3, 4], [200, 3, 4], [240, 3, 5], [1000, 11, 20],
		]);
	});

	it('a provisional cut holds where the gateway refuses the climb: serving 10, it ends at 10 with 11 waiting', async () => {
		const adaptive = await simulate({ capacity: 10, latencyMs: 200, retryAfterMs: 1000 }, 300);
		expect(adaptive.limits).toContain(20);
		expect(adaptive).toMatchObject({ finalLimit: 10, lost: 0 });
		expect(adaptive.learned).toMatchObject({ limit: 10, slowStart: false, refusedAt: 11 });
	});

	it('a rate window that lets 5 of the first 50 through, at a gateway serving 100: back to 25 in three round trips, not held at 5', async () => {
		const gateway = { capacity: 100, latencyMs: 200, retryAfterMs: 1000, window: { capacity: 5, untilMs: 100 } };
		const adaptive = await simulate(gateway, 1000);
		const fromClean = await simulate({ capacity: 100, latencyMs: 200, retryAfterMs: 1000 }, 1000);
		expect(adaptive.lost).toBe(0);
		// The pause (1 s), then doubling from 5 to 25, where it holds while the level above waits, one more per round trip
		// after: 1,000 reads in 9.2 s against 2.2 s without the window (from 20 with a cut never below half, as before
		// this rule: 20.8 s, ending at 14).
		expect(adaptive.limits).toContain(25);
		expect(adaptive.finalLimit).toBeGreaterThanOrEqual(25);
		expect([adaptive.seconds, fromClean.seconds]).toEqual([9.201, 2.2]);
	});

	it('refusals slower than the answers (after 30 s) still cut to what was served, and the level shows', async () => {
		const adaptive = await simulate({ capacity: 10, latencyMs: 200, retryAfterMs: 1000, refusalMs: 30_000 }, 300);
		// Before the first refusal comes back the 10 served have answered: the burst is counted from the refused ones' own
		// numbers in flight, so the episode is not taken for a rate window that refused everything.
		expect(adaptive).toMatchObject({ finalLimit: 10, peak: 10 });
		expect(adaptive.learned).toMatchObject({ limit: 10, refusedAt: 11, confirms: true });
	});

	it('a rate window at the start of a run resumed from the memory neither stops its growth nor confirms its cut', async () => {
		// A gateway serving 100, but 10 for the first 500 ms of each run; the run starts from 60, learned earlier.
		const gateway = { capacity: 100, latencyMs: 200, retryAfterMs: 1000, window: { capacity: 10, untilMs: 500 } };
		const learned = { limit: 60, slowStart: false, refusedAt: Infinity, probeInMs: 0, confirms: true };
		const run = await simulate(gateway, 1000, undefined, learned);
		expect(run.lost).toBe(0);
		// Held at half (30) above refusals at 11: the level held back is above the limit, and nothing is confirmed.
		expect(run.learned!.refusedAt).toBeGreaterThan(run.learned!.limit);
		expect(run.learned!.confirms).toBe(false);
	});

	it('a gateway that slows down under load instead of refusing: the limit stops well short of the maximum', async () => {
		// 100 ms, plus 20 ms for each request it is already serving.
		const adaptive = await simulate({ capacity: Infinity, latencyMs: 100, loadLatencyMs: 20 }, 500);
		expect(adaptive.lost).toBe(0);
		// Without the latency signal it would grow to 100, where answers take 21 times as long. Its start of 50 grows for
		// the first answers (to 65) before their times say so, then settles at 40. On the simulated clock: nothing moves it.
		expect(Math.max(...adaptive.limits)).toBeLessThanOrEqual(1.3 * INITIAL_LIMIT);
		expect(adaptive.finalLimit).toBeLessThanOrEqual(INITIAL_LIMIT);
	});
});

describe('a second run, from what the first learned (transport/paceMemory.ts)', () => {
	it('a refusal with one request in flight (a rate window) leaves nothing to the next run, neither a level nor its cut', () => {
		let now = 0;
		const rule = new AdaptiveLimit(100, () => now);
		rule.finish(rule.start(), { kind: 'refused', pauseMs: 60_000 });
		now = 1000;
		// Kept, a level of 1 would hold every later run at its cut for 20 minutes, and each run would cut it again.
		expect(rule.limit).toBe(INITIAL_LIMIT / 2);
		expect(rule.learned()).toBeUndefined();
	});

	it('calls of one item each, refused one at a time by a rate limit (a model calling as often as it likes), do not talk the pace down', () => {
		let now = 0;
		const memory = new PaceMemory(10, KEEP_MS, () => now);
		memory.keep('gateway', { limit: 100, slowStart: true, refusedAt: Infinity, probeInMs: 0, rttMs: 200, confirms: true });
		for (let call = 0; call < 20; call++) {
			const pace = new Pace(new AdaptiveLimit(100, () => now));
			pace.recall(memory, 'gateway');
			const refused = pace.rule.start();
			now += 1;
			pace.rule.finish(refused, { kind: 'refused', pauseMs: 1000 });
			now += 1000;
			const retried = pace.rule.start();
			now += 200;
			pace.rule.finish(retried, { kind: 'answered' });
			pace.keepLearned();
		}
		expect(memory.recall('gateway')).toMatchObject({ limit: 100, slowStart: true });
	});

	it('serving 10 at once: the second run of 300 reads starts at 10, is refused nothing and takes the hand-tuned time', async () => {
		const gateway = { capacity: 10, latencyMs: 200, retryAfterMs: 1000 };
		const first = await simulate(gateway, 300);
		expect(first.refused).toBe(48);
		// Its last refusals came just above 10: it showed the level it ends at, and confirms it.
		expect(first.learned).toMatchObject({ limit: 10, slowStart: false, refusedAt: 11, confirms: true });
		// The refused level waits 20 s from its second refusal, at 1.0 s; the first run ended at 7.6 s.
		expect(first.learned!.probeInMs).toBeCloseTo(20_000 + 1_000 - 7_600, -2);
		const second = await simulate(gateway, 300, undefined, first.learned);
		const handTuned = await simulate(gateway, 300, 10);
		expect(second).toMatchObject({ refused: 0, lost: 0, peak: 10, seconds: handTuned.seconds });
		// The rest of the wait goes on across runs: the second used 6.0 s of the 13.4 left, the third another 6.0, so the
		// third still keeps to 10, refused nothing, and leaves 1.4 s of the wait to the next.
		const third = await simulate(gateway, 300, undefined, second.learned);
		expect(third).toMatchObject({ refused: 0, lost: 0, peak: 10 });
		expect(third.learned).toMatchObject({ limit: 10, refusedAt: 11 });
		expect(third.learned!.probeInMs).toBeCloseTo(1_400, -2);
		// A day later (a daily schedule) the wait has long passed: the run probes the level above once, is refused once
		// and pauses once, and still confirms the pace it found.
		const nextDay = await simulate(gateway, 300, undefined, { ...first.learned!, probeInMs: 0 });
		expect(nextDay).toMatchObject({ refused: 1, lost: 0, peak: 10, finalLimit: 10 });
		expect(nextDay.learned).toMatchObject({ limit: 10, refusedAt: 11, confirms: true });
	});

	it('serving 100 at once: the second run of 1,000 reads starts at 100 and takes the hand-tuned time', async () => {
		const gateway = { capacity: 100, latencyMs: 200, retryAfterMs: 1000 };
		const first = await simulate(gateway, 1000);
		expect(first.learned).toMatchObject({ limit: 100, slowStart: true, refusedAt: Infinity, probeInMs: 0, rttMs: 200 });
		const second = await simulate(gateway, 1000, undefined, first.learned);
		const handTuned = await simulate(gateway, 1000, 100);
		expect(second).toMatchObject({ refused: 0, seconds: handTuned.seconds, peak: 100 });
	});

	it('still adapts both ways: a gateway that now serves fewer cuts the learned limit, one that serves more lets it grow', async () => {
		const learned = { limit: 50, slowStart: false, refusedAt: Infinity, probeInMs: 0, confirms: true };
		const fewer = await simulate({ capacity: 10, latencyMs: 200, retryAfterMs: 1000 }, 300, undefined, learned);
		expect(fewer).toMatchObject({ lost: 0, finalLimit: 10 });
		const more = await simulate({ capacity: Infinity, latencyMs: 200 }, 2000, undefined, learned);
		expect(more.finalLimit).toBeGreaterThan(50);
		// Only a run that showed its level confirms it (and renews the memory's day for it): the first met the gateway
		// just above 10; the second grew without meeting it, short of the node's maximum.
		expect(more.finalLimit).toBeLessThan(100);
		expect([fewer.learned!.confirms, more.learned!.confirms]).toEqual([true, false]);
	});

	it('a run of one item at a time does not confirm the pace: it used fewer than half its places and showed nothing', async () => {
		const learned = { limit: 10, slowStart: false, refusedAt: Infinity, probeInMs: 0, confirms: true };
		let now = 0;
		const rule = new AdaptiveLimit(100, () => now);
		rule.resume(learned);
		for (let item = 0; item < 5; item++) {
			const ticket = rule.start();
			now += 200;
			rule.finish(ticket, { kind: 'answered' });
		}
		expect(rule.learned()).toBeUndefined();
		// A run of 300 items at the same gateway, serving 10: it tries 11 once, is refused, and so confirms 10.
		const filled = await simulate({ capacity: 10, latencyMs: 200, retryAfterMs: 1000 }, 300, undefined, learned);
		expect(filled).toMatchObject({ refused: 1, finalLimit: 10 });
		expect(filled.learned).toMatchObject({ limit: 10, refusedAt: 11, confirms: true });
		// Nor does a run that holds below a level it did not meet itself (within the wait of an earlier refusal).
		const held = await simulate({ capacity: 10, latencyMs: 200, retryAfterMs: 1000 }, 300, undefined, { ...learned, refusedAt: 11, probeInMs: 60_000 });
		expect(held).toMatchObject({ refused: 0, finalLimit: 10 });
		expect(held.learned).toMatchObject({ confirms: false });
	});

	it('a fixed Concurrency neither starts from the memory nor adds to it', () => {
		const rule = new AdaptiveLimit(100, () => 0, 7);
		rule.resume({ limit: 50, slowStart: true, refusedAt: Infinity, probeInMs: 0, confirms: true });
		expect(rule.limit).toBe(7);
		rule.finish(rule.start(), { kind: 'answered' });
		expect(rule.learned()).toBeUndefined();
	});

	it('a run that sent nothing teaches nothing', () => {
		expect(new AdaptiveLimit(100, () => 0).learned()).toBeUndefined();
	});
});
