import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { Confirmation } from './confirm';

// A notification's or status record's signature covers two ids and the customer's browser carries it: anyone holding
// one can post it again, as often as they like, with any other value beside the ids. Each delivery would cost the
// gateway a read (with retries), and a flood of reads of one payment crowds out the reads that confirm other payments.
// So the reads of a payment are shared and spaced, per process and node (the trigger, or a Verify Signature node):
//  - a claim already explained by a confirmation of this payment (the same record again) needs no read at all;
//  - deliveries of one payment that arrive while a read of it is waiting to be sent share that read;
//  - the reads of one payment are sent one after another, each further one three times later than the one before
//    (1 s, 3 s, 9 s, 27 s ... at most ten minutes apart) until the payment has been quiet for half an hour: a record
//    replayed once a second for 50 s costs five reads, and a sender spreading replays wider gains a read only at
//    three times the time;
//  - a delivery waits for its payment's next read only when that read goes within 10 s, counting the wait for a read
//    of it still out: the trigger's request holds the workflow's static data as n8n loaded it, which a long wait would
//    make stale. One that would wait longer is answered from the last confirmation or not at all: the next delivery
//    after the gap is read.
// The spacing is per payment and nothing else: a delivery of one payment never waits for reads of another, however
// many payments a sender replays. A genuine new event of a payment (a refund after its payment) is read at once,
// unless a flood of replays of that same payment is being spaced: then a later delivery, or a reconciliation, tells it.

const FIRST_GAP_MS = 1000;
const GROWTH = 3;
const MAX_GAP_MS = 10 * 60_000;
const QUIET_MS = 30 * 60_000;
/** The longest a delivery waits for its payment's next read. */
export const MAX_HOLD_MS = 10_000;
/** Claims of one payment remembered as explained. */
const CLAIMS_PER_PAYMENT = 16;
/** Trigger deliveries that may wait for one read, the same claim again or not; more add nothing the read does not answer. */
const WAITERS_PER_READ = 64;
const PAYMENTS_PER_SCOPE = 10_000;
const SCOPES_PER_PROCESS = 100;

/** One read of a payment, shared by the deliveries that wait for it. */
interface SharedRead {
	claims: Set<string>;
	/** Deliveries waiting for it, the same claim counted each time. */
	waiting: number;
	sent: boolean;
	result: Promise<Confirmation>;
	/** Whether a delivery already took this read's failure: an unconfirmed read starts one execution, not one each. */
	failureTaken: boolean;
}

interface PaymentReads {
	lastSentAt: number;
	streak: number;
	/** Claims a confirmation explained, and the newest such confirmation. */
	explained: string[];
	last?: Confirmation;
	next?: SharedRead;
	inFlight?: SharedRead;
}

/** One node's reads in this process, by payment. */
type Scope = Map<string, PaymentReads>;

const scopes = new Map<string, Scope>();

/** The least recently used entry goes once a map is full. */
function touched<V>(map: Map<string, V>, key: string, create: () => V, limit: number): V {
	let value = map.get(key);
	if (value !== undefined) map.delete(key);
	else value = create();
	map.set(key, value);
	if (map.size > limit) map.delete(map.keys().next().value as string);
	return value;
}

/** A notification as a claim: every value it carries, trimmed, in a fixed order. */
export function claimOf(notification: IDataObject): string {
	const canonical = (value: unknown): unknown =>
		value !== null && typeof value === 'object' && !Array.isArray(value)
			? Object.fromEntries(
					Object.keys(value)
						.sort()
						.map((key) => [key, canonical((value as IDataObject)[key])]),
				)
			: Array.isArray(value)
				? value.map(canonical)
				: value;
	return createHash('sha256').update(JSON.stringify(canonical(notification)), 'utf8').digest('base64url').slice(0, 16);
}

/**
 * The claim a confirmation explains, if any: only a record whose claimed status is the confirmed one is the same
 * record again when it comes back. Any other (a refund claimed of a paid payment) is read again, spaced.
 */
export function explainedClaim(confirmedStatus: unknown, claimedStatus: unknown, claim: string): string | undefined {
	const same =
		typeof confirmedStatus === 'string' &&
		typeof claimedStatus === 'string' &&
		confirmedStatus.trim().toLowerCase() === claimedStatus.trim().toLowerCase();
	return same ? claim : undefined;
}

/** How long after the last read of a payment the next may be sent. */
export function gapAfter(streak: number): number {
	return streak === 0 ? 0 : Math.min(FIRST_GAP_MS * GROWTH ** (streak - 1), MAX_GAP_MS);
}

export type Recheck =
	/**
	 * Nothing to wait for: the same claim waits for a read already (and only one delivery of it is wanted), or too many
	 * deliveries of this payment wait already; this one adds nothing to them.
	 */
	| { kind: 'dropped' }
	/**
	 * The payment's confirmation, shared or remembered; `first` is false for a delivery that shares a failed read with
	 * an earlier one (an unconfirmed read need not start one execution per delivery).
	 */
	| { kind: 'confirmed'; confirmation: Confirmation; first: boolean };

/**
 * How long a confirmation answers the same claim again: for as long as the payment is remembered (`remembered`: the
 * trigger, which only decides whether a notification is new), or until the payment's next read may be sent (`gap`:
 * Verify Signature, which outputs the status it confirms, so that a record verified again later reads the gateway's
 * state then, not one that may have changed since).
 */
export type Explained = 'remembered' | 'gap';

export interface RecheckOptions {
	explainedFor: Explained;
	/**
	 * Deliveries that may wait for one read. A trigger's delivery holds a request and the static data n8n loaded for it;
	 * a Verify Signature item is held by its execution anyway, and one past the bound would be answered unconfirmed.
	 */
	waitersPerRead: number;
}

const TRIGGER: RecheckOptions = { explainedFor: 'remembered', waitersPerRead: WAITERS_PER_READ };

/** The re-checks of one node (the trigger, or a Verify Signature node) in this process. */
export class Rechecks {
	private readonly payments: Scope;

	constructor(
		scope: string,
		private readonly options: RecheckOptions = TRIGGER,
	) {
		this.payments = touched(scopes, scope, (): Scope => new Map(), SCOPES_PER_PROCESS);
	}

	/**
	 * The confirmation of `paymentId` for a delivery carrying `claim`; `read` sends the request and is called at most
	 * once per shared read. `everyDelivery`: each delivery of the same claim is wanted (Ignore Repeats off), not one.
	 */
	async recheck(paymentId: string, claim: string, read: () => Promise<Confirmation>, everyDelivery = false): Promise<Recheck> {
		const reads = touched(this.payments, paymentId, () => ({ lastSentAt: 0, streak: 0, explained: [] }), PAYMENTS_PER_SCOPE);
		const explains = this.options.explainedFor === 'remembered' || Date.now() < reads.lastSentAt + Math.max(gapAfter(reads.streak), FIRST_GAP_MS);
		if (reads.last && explains && reads.explained.includes(claim)) return { kind: 'confirmed', confirmation: reads.last, first: true };
		const waitingWith = [reads.inFlight, reads.next].find((candidate) => candidate?.claims.has(claim));
		// The same claim at once: one delivery of it waits, the others are the same notification again.
		if (waitingWith && !everyDelivery) return { kind: 'dropped' };
		let shared = waitingWith ?? reads.next;
		if (shared) {
			if (shared.waiting >= this.options.waitersPerRead) return { kind: 'dropped' };
			shared.claims.add(claim);
			shared.waiting++;
		} else {
			if (Date.now() - reads.lastSentAt > QUIET_MS) reads.streak = 0;
			// Not held past MAX_HOLD_MS: answered from what is known, or by the next delivery after the gap.
			if (reads.lastSentAt + gapAfter(reads.streak) - Date.now() > MAX_HOLD_MS) {
				return everyDelivery && reads.last ? { kind: 'confirmed', confirmation: reads.last, first: true } : { kind: 'dropped' };
			}
			shared = this.schedule(reads, claim, read);
		}
		const confirmation = await shared.result;
		const first = confirmation.verified || !shared.failureTaken;
		if (!confirmation.verified) shared.failureTaken = true;
		return { kind: 'confirmed', confirmation, first };
	}

	/**
	 * Notes the gateway's newest confirmation of a payment and, when it explains the delivery's claim (the status it
	 * claimed is the confirmed one), the claim: the same notification again is answered from it, unread.
	 */
	learnt(paymentId: string, confirmation: Confirmation, explainedClaim?: string): void {
		const reads = this.payments.get(paymentId);
		if (!reads) return;
		reads.last = confirmation;
		const claim = explainedClaim;
		if (claim === undefined || reads.explained.includes(claim)) return;
		reads.explained.push(claim);
		if (reads.explained.length > CLAIMS_PER_PAYMENT) reads.explained.shift();
	}

	private schedule(reads: PaymentReads, claim: string, read: () => Promise<Confirmation>): SharedRead {
		const before = reads.inFlight?.result;
		const deadline = Date.now() + MAX_HOLD_MS;
		const shared: SharedRead = { claims: new Set([claim]), waiting: 1, sent: false, failureTaken: false, result: Promise.resolve(undefined as never) };
		reads.next = shared;
		shared.result = (async () => {
			// One read of a payment at a time, but no longer than the hold: a gateway slow to answer the read before
			// must not keep this delivery waiting past it. Then both are out, which only a slow gateway causes.
			if (before) await Promise.race([before.catch(() => undefined), sleep(deadline - Date.now())]);
			// The gap ends by the deadline: recheck() held no delivery whose gap would end later.
			const wait = Math.min(reads.lastSentAt + gapAfter(reads.streak), deadline) - Date.now();
			if (wait > 0) await sleep(wait);
			// From here on a delivery that arrives needs a read sent after it: it schedules the next.
			if (reads.next === shared) reads.next = undefined;
			shared.sent = true;
			reads.inFlight = shared;
			reads.lastSentAt = Date.now();
			reads.streak++;
			try {
				return await read();
			} finally {
				if (reads.inFlight === shared) reads.inFlight = undefined;
			}
		})();
		return shared;
	}
}
