import { sleep } from 'n8n-workflow';

import type { LearnedPace, PaceMemory } from './paceMemory';

/**
 * How many repeatable calls (reads, card deletes) one run keeps in flight when the workflow sets no Concurrency, and
 * the run-wide pause a Retry-After asks for. Nobody knows their gateway's limit, the live test environment answers in
 * 30-40 s, and any fixed default is too timid for one gateway and too greedy for another.
 *
 * The rule is TCP's congestion control (AIMD with slow start, RFC 5681) applied to requests in flight, as Netflix's
 * concurrency-limits and Envoy's adaptive concurrency do, with their latency signal (Gradient2, after TCP Vegas):
 * - start at INITIAL_LIMIT (where the Concurrency option starts when added) and, while nothing pushes back, add one
 *   for every answer (slow start: doubles each round trip), then one per round trip;
 * - a refusal (429, 503, no answer within the time-out) ends slow start and lowers the limit at once to just under
 *   the number in flight when the refused request was sent; in slow start to what the gateway served of the burst,
 *   provisionally when that is below half (the run doubles back up to half, and holds only where refused again); after
 *   slow start, or when everything in flight was refused, not below half of what it was when the refusals began;
 *   refusals of requests sent before the episode's first refusal came back belong to it (NewReno);
 * - the refused level is not tried again for PROBE_WAIT times the pause the refusal asked for (or the round trip):
 *   a refusal with Retry-After stops the whole run, so probing for more costs at most about a twentieth of the time;
 * - answers that take more than LATENCY_TOLERANCE times the run's usual time (a recent average against the lowest it
 *   has been, as Vegas' base time, which follows slower times up as Gradient2's long average does) cut the limit in
 *   proportion, to half at most, at most once per round trip, before the gateway has to refuse anything.
 * Loss-based AIMD alone would probe above a known limit every few round trips and pay a Retry-After pause each time;
 * a latency signal alone (Vegas) sees nothing at a gateway that refuses quickly instead of slowing down.
 */
// 50 rather than TCP's small start: at a gateway serving 100 a smaller start lost more than a tenth of a 1,000-item run
// to its climb, while an overshoot at a smaller gateway costs two Retry-After pauses however many it refuses (the first
// burst's, and the provisional climb's, below), and only in a process's first run on a credential.
export const INITIAL_LIMIT = 50;
// Gradient2 tolerates 1.5; here answers are timed in n8n's busy process, where on a loaded 2-core machine the node's
// own CPU made 200 ms answers look twice as slow at 100 in flight, and cut a limit the gateway was not pushing on.
const LATENCY_TOLERANCE = 3;
const BACKOFF = 0.5;
const PROBE_WAIT = 20;
const SHORT_SMOOTHING = 0.2;
const BASE_DRIFT = 0.1;

/** How an attempt ended, as far as the load on the gateway goes. */
export type PaceOutcome =
	| { kind: 'answered' }
	| { kind: 'refused'; pauseMs?: number }
	/** A 5xx other than 503, a reset, an answer that is not JSON: it says nothing about the load. */
	| { kind: 'other' };

/** One attempt in flight. */
export interface Ticket {
	readonly sentAt: number;
	readonly sequence: number;
	/** Requests in flight when it was sent, itself included. */
	readonly inFlightAtSend: number;
}

/** The rule, on a clock given to it (tests run it on a simulated one). */
export class AdaptiveLimit {
	inFlight = 0;
	private value: number;
	private slowStart: boolean;
	/** Where slow start ends after a provisional cut (below). */
	private threshold = Infinity;
	private pausedUntil = -Infinity;
	private sent = 0;
	private shortRtt: number | undefined;
	private baseRtt: number | undefined;
	private lastLatencyCut = -Infinity;
	private episodeFrom = 0;
	private episodeFloor = 1;
	private episodeInSlowStart = false;
	/**
	 * The burst the episode refused from: requests in flight when its first refusal came back, itself included, or
	 * more if a refused one was sent among more (its answers may have come back before slow refusals did); how many were
	 * refused, and the lowest number in flight any of them was sent at.
	 */
	private episodeInFlight = 0;
	private episodeRefused = 0;
	private episodeLowest = Infinity;
	private episodeProvisional = false;
	/** The level not tried again until `probeAfter`. */
	private refusedAt = Infinity;
	private probeAfter = -Infinity;
	/** A round trip an earlier run measured: stands in for this run's until it has one. */
	private learnedRtt: number | undefined;
	/** An answer came back with at least half the places used: the run put its limit to the test. */
	private tested = false;
	/** The limit the run started at (the rule's start, or what an earlier run learned). */
	private startedAt: number;

	/** `fixed`: the workflow's own Concurrency, never changed; Retry-After still pauses the run. */
	constructor(
		readonly max: number,
		private readonly now: () => number = () => performance.now(),
		readonly fixed?: number,
	) {
		this.value = Math.min(fixed ?? INITIAL_LIMIT, max);
		this.startedAt = this.value;
		this.slowStart = fixed === undefined;
	}

	/** Requests allowed in flight now. */
	get limit(): number {
		return Math.max(1, Math.floor(this.value));
	}

	/** Milliseconds until a Retry-After pause ends; 0 when there is none. */
	pauseLeft(): number {
		return Math.max(0, this.pausedUntil - this.now());
	}

	mayStart(): boolean {
		return this.inFlight < this.limit && this.pauseLeft() === 0;
	}

	start(): Ticket {
		this.inFlight++;
		return { sentAt: this.now(), sequence: this.sent++, inFlightAtSend: this.inFlight };
	}

	finish(ticket: Ticket, outcome: PaceOutcome): void {
		this.inFlight--;
		if (outcome.kind === 'refused') this.refused(ticket, outcome.pauseMs ?? 0);
		else if (outcome.kind === 'answered') this.answered(ticket);
	}

	private refused(ticket: Ticket, pauseMs: number) {
		const now = this.now();
		this.pausedUntil = Math.max(this.pausedUntil, now + pauseMs);
		if (this.fixed !== undefined) return;
		if (ticket.sequence >= this.episodeFrom) {
			this.episodeFrom = this.sent;
			this.episodeFloor = Math.max(1, this.value * BACKOFF);
			this.episodeInSlowStart = this.slowStart;
			this.episodeInFlight = this.inFlight + 1;
			this.episodeRefused = 0;
			this.episodeLowest = Infinity;
		}
		this.episodeInFlight = Math.max(this.episodeInFlight, ticket.inFlightAtSend);
		this.episodeLowest = Math.min(this.episodeLowest, ticket.inFlightAtSend);
		this.episodeRefused++;
		// In slow start nothing had pushed back before: the gateway served what it did not refuse of that burst, so the
		// cut goes there (the first 50 at a gateway serving 10: to 10; a stray 503 among them: to 49). Later, or when it
		// refused everything, never below half.
		const served =
			this.episodeInSlowStart && !this.episodeRefusedAll
				? Math.max(1, this.episodeInFlight - this.episodeRefused)
				: this.episodeFloor;
		this.value = Math.max(served, Math.min(this.value, this.episodeLowest - 1));
		// One burst cannot tell a gateway that serves this few from a rate window with this many places left (or another
		// workflow holding the rest): below half, the cut is provisional, and the run doubles back up to half before it
		// holds there, as TCP's slow start after a time-out. A gateway that does serve this few refuses that climb, and
		// the next episode's cut, no longer below half of where it came from, holds.
		this.episodeProvisional = this.value < this.episodeFloor;
		this.slowStart = this.episodeProvisional;
		this.threshold = this.episodeProvisional ? this.episodeFloor : Infinity;
		// The level not tried again for a while is above the limit held, never at or below it: after a cut held at half
		// above lower refusals (a window met after slow start) it is the next one up, not a level the run never met.
		this.refusedAt = this.episodeProvisional
			? Math.floor(this.episodeFloor) + 1
			: Math.max(this.episodeLowest, Math.floor(this.value) + 1);
		this.probeAfter = now + PROBE_WAIT * Math.max(pauseMs, this.shortRtt ?? this.learnedRtt ?? 0);
	}

	/**
	 * Starts from what an earlier run learned, before anything is sent: its limit, its slow start if nothing had
	 * pushed back, and a refused level not tried again until the rest of its wait has passed in this run. The rule
	 * goes on adapting both ways from there. A fixed Concurrency ignores it.
	 */
	resume(learned: LearnedPace): void {
		if (this.fixed !== undefined || this.sent > 0) return;
		this.value = Math.min(this.max, Math.max(1, learned.limit));
		this.startedAt = this.value;
		this.slowStart = learned.slowStart;
		if (learned.probeInMs > 0 && Number.isFinite(learned.refusedAt)) {
			this.refusedAt = learned.refusedAt;
			this.probeAfter = this.now() + learned.probeInMs;
		}
		this.learnedRtt = learned.rttMs;
	}

	/** The episode refused everything it had in flight: a rate window or an outage, which says nothing of a level. */
	private get episodeRefusedAll(): boolean {
		return this.episodeRefused > 0 && this.episodeRefused >= this.episodeInFlight;
	}

	/**
	 * What this run learned, for the next one. Nothing when it kept a fixed Concurrency, or showed nothing of the
	 * gateway: it never used half its places (a tool's call, one status read), or it ended lower than it started without
	 * meeting a level (its last refusals were everything in flight, a rate window, or a provisional cut; a latency cut
	 * is a level met). So calls that meet a rate limit one at a time, as many as a model makes, cannot talk the pace of
	 * the next reconciliation down.
	 */
	learned(): LearnedPace | undefined {
		if (this.fixed !== undefined || !this.tested) return undefined;
		const lastRefusalsSayNothing = this.episodeRefused > 0 && (this.episodeRefusedAll || this.episodeProvisional);
		const metLevel = !lastRefusalsSayNothing && (this.episodeRefused > 0 || this.lastLatencyCut > -Infinity);
		if (!metLevel && Math.floor(this.value) < Math.floor(this.startedAt)) return undefined;
		// An episode that refused everything in flight (one request alone, too) tells of a rate window, not of a level:
		// kept, it would hold every later run at the limit it was cut to for the whole wait.
		const probeInMs = this.episodeRefusedAll ? 0 : Math.max(0, this.probeAfter - this.now());
		return {
			limit: this.value,
			slowStart: this.slowStart,
			refusedAt: probeInMs > 0 ? this.refusedAt : Infinity,
			probeInMs,
			rttMs: this.shortRtt ?? this.learnedRtt,
			confirms: this.confirms(),
		};
	}

	/**
	 * Whether this run showed the level it ends at: it filled its places at the node's maximum, or its last refusals
	 * (not all in flight, not a provisional cut) came exactly one above it. A run that grew from a cut without meeting
	 * the gateway again, one held at half above lower refusals (a window), or a run of a few items (a tool's call, one
	 * status read) shows nothing and does not renew the memory's day for it.
	 */
	private confirms(): boolean {
		const limit = Math.floor(this.value);
		if (limit >= this.max) return true;
		return !this.episodeProvisional && !this.episodeRefusedAll && this.episodeLowest === limit + 1;
	}

	private answered(ticket: Ticket) {
		const now = this.now();
		const rtt = now - ticket.sentAt;
		this.shortRtt = this.shortRtt === undefined ? rtt : this.shortRtt + SHORT_SMOOTHING * (rtt - this.shortRtt);
		// The run's usual time: the lowest the recent average has been, followed upwards by about a tenth each round
		// trip, so that a gateway slower for everyone is not taken for one slowed down by this run.
		this.baseRtt =
			this.baseRtt === undefined || this.shortRtt < this.baseRtt
				? this.shortRtt
				: this.baseRtt + (this.shortRtt - this.baseRtt) * (BASE_DRIFT / this.limit);
		if (this.fixed !== undefined) return;

		if (this.shortRtt > LATENCY_TOLERANCE * this.baseRtt) {
			if (now - this.lastLatencyCut >= this.shortRtt) {
				this.value = Math.max(1, this.value * Math.max(BACKOFF, (LATENCY_TOLERANCE * this.baseRtt) / this.shortRtt));
				this.slowStart = false;
				this.threshold = Infinity;
				this.lastLatencyCut = now;
			}
			return;
		}
		// Fewer in flight than half the limit, when it went and when it came back: the items ran out, not the limit,
		// which has then shown nothing about more.
		if (Math.max(ticket.inFlightAtSend, this.inFlight + 1) * 2 < this.limit) return;
		this.tested = true;
		const grown = this.value + (this.slowStart ? 1 : 1 / this.value);
		const ceiling = Math.min(this.max, now < this.probeAfter ? this.refusedAt - 1 : Infinity);
		if (grown <= ceiling) this.value = grown;
		else this.value = Math.max(this.value, ceiling);
		if (this.value >= this.threshold) {
			this.slowStart = false;
			this.threshold = Infinity;
		}
	}
}

/**
 * The gate every repeatable attempt of a run passes: it waits for a free place under the limit and for the end of
 * any Retry-After pause, then holds its place until `release`. Places go to the waiting in arrival order.
 */
export class Pace {
	private readonly waiting: Array<(ticket: Ticket) => void> = [];
	private pauseTimer: Promise<void> | undefined;
	private memory: { store: PaceMemory; key: string } | undefined;

	constructor(
		readonly rule: AdaptiveLimit,
		private readonly wait: (ms: number) => Promise<void> = sleep,
	) {}

	/** Starts from what `store` learned under `key` (the gateway and credential), and keeps there what this run learns. */
	recall(store: PaceMemory, key: string): void {
		this.memory = { store, key };
		const learned = store.recall(key);
		if (learned) this.rule.resume(learned);
	}

	/** At the run's end: what it learned, for the next run on the same gateway and credential. */
	keepLearned(): void {
		const learned = this.rule.learned();
		if (this.memory && learned) this.memory.store.keep(this.memory.key, learned);
	}

	async acquire(): Promise<Ticket> {
		if (this.waiting.length === 0 && this.rule.mayStart()) return this.rule.start();
		return await new Promise<Ticket>((resolve) => {
			this.waiting.push(resolve);
			this.admit();
		});
	}

	release(ticket: Ticket, outcome: PaceOutcome): void {
		this.rule.finish(ticket, outcome);
		this.admit();
	}

	private admit() {
		const pause = this.rule.pauseLeft();
		if (pause > 0) {
			this.pauseTimer ??= this.wait(pause).then(() => {
				this.pauseTimer = undefined;
				this.admit();
			});
			return;
		}
		while (this.rule.mayStart()) {
			const next = this.waiting.shift();
			if (!next) return;
			next(this.rule.start());
		}
	}
}
