/* eslint-disable @n8n/community-nodes/no-restricted-globals, prefer-const -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import type { PaceOutcome, Ticket } from '../../nodes/PaymentGateway/transport/adaptiveLimit';
import { AdaptiveLimit, INITIAL_LIMIT, Pace } from '../../nodes/PaymentGateway/transport/adaptiveLimit';
import type { LearnedPace } from '../../nodes/PaymentGateway/transport/paceMemory';

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
			if (serving >= gateway.capacity) {
				refused++;
				clock.at(clock.now() + 1, () => resolve({ ok: false }));
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
		const tickets = started(rule, 20);
		clock.now = 1;
		// The gateway served 12: the 13th and later were refused.
		for (const ticket of tickets.slice(12)) rule.finish(ticket, { kind: 'refused', pauseMs: 1000 });
		expect(rule.limit).toBe(12);
	});

	it('cuts once per episode, never below half the limit it started from', () => {
		const { rule, clock } = clocked();
		const tickets = started(rule, 20);
		clock.now = 1;
		// Refused at every level, even the first request: the floor is half of 20.
		for (const ticket of tickets) rule.finish(ticket, { kind: 'refused' });
		expect(rule.limit).toBe(10);
		// A request sent after the cut and refused again starts a new episode: half again.
		const [later] = started(rule, 1);
		rule.finish(later, { kind: 'refused' });
		expect(rule.limit).toBe(5);
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
		const tickets = started(rule, 20);
		for (const ticket of tickets.slice(10)) rule.finish(ticket, { kind: 'refused', pauseMs: 1000 });
		for (const ticket of tickets.slice(0, 10)) rule.finish(ticket, { kind: 'answered' });
		expect(rule.limit).toBe(10);
		const roundTrips = (count: number) => {
			for (let trip = 0; trip < count; trip++) round(200);
		};
		roundTrips(98); // 19.6 s of answers without a refusal
		expect(rule.limit).toBe(10);
		roundTrips(3);
		expect(rule.limit).toBe(11);
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
		const { rule, clock, round } = clocked();
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
	it('serving 10 at once: 300 reads, none lost, at most 5 % refused, within 1.3x the time of a limit of 10', async () => {
		const gateway = { capacity: 10, latencyMs: 200, retryAfterMs: 1000 };
		const adaptive = await simulate(gateway, 300);
		const handTuned = await simulate(gateway, 300, 10);
		expect(handTuned).toMatchObject({ lost: 0, refused: 0, seconds: 6 });
		expect(adaptive.lost).toBe(0);
		expect(adaptive.refused / adaptive.requests).toBeLessThanOrEqual(0.05);
		expect(adaptive.seconds).toBeLessThanOrEqual(1.3 * handTuned.seconds);
		expect(adaptive.finalLimit).toBe(10);
		// The figures docs/performance.md gives: one pause of 1 s, 10 of 310 requests refused.
		expect(adaptive).toMatchObject({ requests: 310, refused: 10 });
		expect(adaptive.seconds).toBeCloseTo(6.8, 1);
	});

	it('serving 100 at once: 1,000 reads within 1.3x the time of a limit of 100, none refused', async () => {
		const gateway = { capacity: 100, latencyMs: 200, retryAfterMs: 1000 };
		const adaptive = await simulate(gateway, 1000);
		const handTuned = await simulate(gateway, 1000, 100);
		expect(adaptive).toMatchObject({ lost: 0, refused: 0 });
		expect(adaptive.seconds).toBeLessThanOrEqual(1.3 * handTuned.seconds);
		expect(adaptive.peak).toBe(100);
		expect([adaptive.seconds, handTuned.seconds]).toEqual([2.4, 2]);
	});

	it('without a limit: no slower than Concurrency 50 (where the option starts when added), at 1 s an answer', async () => {
		const gateway = { capacity: Infinity, latencyMs: 1000 };
		const adaptive = await simulate(gateway, 300);
		const fifty = await simulate(gateway, 300, 50);
		expect(adaptive.seconds).toBeLessThanOrEqual(fifty.seconds);
		expect([adaptive.seconds, fifty.seconds]).toEqual([5, 6]);
	});

	it('what the start costs without a limit: one round trip more than 50 at once on some short runs, none from 151 items', async () => {
		const roundTrips = async (items: number, fixed?: number) =>
			(await simulate({ capacity: Infinity, latencyMs: 1000 }, items, fixed)).seconds;
		const compared: Array<[number, number, number]> = [];
		for (const items of [20, 21, 50, 51, 61, 100, 101, 141, 150, 151, 200, 240, 1000]) {
			compared.push([items, await roundTrips(items), await roundTrips(items, 50)]);
		}
		// [items, round trips of the adaptive limit, round trips at 50 at once], as docs/performance.md says.
		expect(compared).toEqual([
			[20, 1, 1], [21, 2, 1], [50, 2, 1], [51, 2, 2], [61, 3, 2], [100, 3, 2], [101, 3, 3],
			[141, 4, 3], [150, 4, 3], [151, 4, 4], [200, 4, 4], [240, 4, 5], [1000, 12, 20],
		]);
	});

	it('a gateway that slows down under load instead of refusing: the limit stops well short of the maximum', async () => {
		// 100 ms, plus 20 ms for each request it is already serving.
		const adaptive = await simulate({ capacity: Infinity, latencyMs: 100, loadLatencyMs: 20 }, 500);
		expect(adaptive.lost).toBe(0);
		// Without the latency signal it would grow to 100, where answers take 21 times as long.
		expect(Math.max(...adaptive.limits)).toBeLessThanOrEqual(50);
	});
});

describe('a second run, from what the first learned (transport/paceMemory.ts)', () => {
	it('a refusal with one request in flight (a rate window) leaves no refused level to the next run, only its cut', () => {
		let now = 0;
		const rule = new AdaptiveLimit(100, () => now);
		rule.finish(rule.start(), { kind: 'refused', pauseMs: 60_000 });
		now = 1000;
		// Kept, a level of 1 would hold every later run at its cut for 20 minutes, and each run would cut it again.
		expect(rule.learned()).toMatchObject({ limit: 10, refusedAt: Infinity, probeInMs: 0 });
	});

	it('serving 10 at once: the second run of 300 reads starts at 10, is refused nothing and takes the hand-tuned time', async () => {
		const gateway = { capacity: 10, latencyMs: 200, retryAfterMs: 1000 };
		const first = await simulate(gateway, 300);
		expect(first.refused).toBe(10);
		expect(first.learned).toMatchObject({ limit: 10, slowStart: false, refusedAt: 11 });
		// The refused level waits 20 s of runs; the first run used 6.8 of them.
		expect(first.learned!.probeInMs).toBeCloseTo(20_000 - 6_800, -2);
		const second = await simulate(gateway, 300, undefined, first.learned);
		const handTuned = await simulate(gateway, 300, 10);
		expect(second).toMatchObject({ refused: 0, lost: 0, peak: 10, seconds: handTuned.seconds });
		// The rest of the wait goes on across runs: the second used 6.0 s of the 13.2 left, the third another 6.0, so the
		// third still keeps to 10, refused nothing, and leaves 1.2 s of the wait to the next.
		const third = await simulate(gateway, 300, undefined, second.learned);
		expect(third).toMatchObject({ refused: 0, lost: 0, peak: 10 });
		expect(third.learned).toMatchObject({ limit: 10, refusedAt: 11 });
		expect(third.learned!.probeInMs).toBeCloseTo(1_200, -2);
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
		const learned = { limit: 50, slowStart: false, refusedAt: Infinity, probeInMs: 0 };
		const fewer = await simulate({ capacity: 10, latencyMs: 200, retryAfterMs: 1000 }, 300, undefined, learned);
		expect(fewer).toMatchObject({ lost: 0, finalLimit: 10 });
		const more = await simulate({ capacity: Infinity, latencyMs: 200 }, 2000, undefined, learned);
		expect(more.finalLimit).toBeGreaterThan(50);
	});

	it('a fixed Concurrency neither starts from the memory nor adds to it', () => {
		const rule = new AdaptiveLimit(100, () => 0, 7);
		rule.resume({ limit: 50, slowStart: true, refusedAt: Infinity, probeInMs: 0 });
		expect(rule.limit).toBe(7);
		rule.finish(rule.start(), { kind: 'answered' });
		expect(rule.learned()).toBeUndefined();
	});

	it('a run that sent nothing teaches nothing', () => {
		expect(new AdaptiveLimit(100, () => 0).learned()).toBeUndefined();
	});
});
