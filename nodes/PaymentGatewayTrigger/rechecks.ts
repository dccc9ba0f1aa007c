import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { Confirmation } from '../PaymentGateway/shared/confirm';

// A notification's signature covers two ids and the customer's browser carries it: anyone holding one can post it
// again, as often as they like, with any other value beside the ids. Each delivery would cost the gateway a read (with
// retries), and a flood of reads of one payment crowds out the reads that confirm other payments. So the reads of a
// payment are shared and spaced, per process and trigger node:
//  - a claim already explained by a confirmation of this payment (the same notification again) needs no read at all;
//  - deliveries of one payment that arrive while a read of it is waiting to be sent share that read;
//  - the reads of one payment are sent one after another, each further one later than the one before (1 s, 2 s, 4 s,
//    ... at most ten minutes apart) until the payment has been quiet for half an hour;
//  - a delivery waits for its payment's next read only when that read goes within 10 s: it holds the workflow's static
//    data as n8n loaded it, which a long wait would make stale. One that would wait longer is answered from the last
//    confirmation (Ignore Repeats off) or not at all: the next delivery after the gap is read.
// A genuine new event of a payment (a refund after its payment) is read at once, unless a flood of replays of that
// same payment is being spaced: then a later delivery, or a reconciliation, tells it. Other payments never wait.

const FIRST_GAP_MS = 1000;
const MAX_GAP_MS = 10 * 60_000;
const QUIET_MS = 30 * 60_000;
/** The longest a delivery waits for its payment's next read. */
export const MAX_HOLD_MS = 10_000;
/** Claims of one payment remembered as explained. */
const CLAIMS_PER_PAYMENT = 16;
/** Deliveries that may wait for one read, the same claim again or not; more add nothing the read does not answer. */
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

/**
 * One trigger node's reads in this process. Re-reads of payments read before (what replays cause) go one at a time,
 * all payments together, so that however many payments a sender replays, first reads of new payments find the
 * gateway free.
 */
interface Scope {
	payments: Map<string, PaymentReads>;
	rereads: Promise<unknown>;
}

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

/** How long after the last read of a payment the next may be sent. */
export function gapAfter(streak: number): number {
	return streak === 0 ? 0 : Math.min(FIRST_GAP_MS * 2 ** (streak - 1), MAX_GAP_MS);
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

/** The re-checks of one trigger node in this process. */
export class Rechecks {
	private readonly scope: Scope;
	private readonly payments: Map<string, PaymentReads>;

	constructor(scope: string) {
		this.scope = touched(scopes, scope, () => ({ payments: new Map<string, PaymentReads>(), rereads: Promise.resolve() }), SCOPES_PER_PROCESS);
		this.payments = this.scope.payments;
	}

	/**
	 * The confirmation of `paymentId` for a delivery carrying `claim`; `read` sends the request and is called at most
	 * once per shared read. `everyDelivery`: each delivery of the same claim is wanted (Ignore Repeats off), not one.
	 */
	async recheck(paymentId: string, claim: string, read: () => Promise<Confirmation>, everyDelivery = false): Promise<Recheck> {
		const reads = touched(this.payments, paymentId, () => ({ lastSentAt: 0, streak: 0, explained: [] }), PAYMENTS_PER_SCOPE);
		if (reads.last && reads.explained.includes(claim)) return { kind: 'confirmed', confirmation: reads.last, first: true };
		const waitingWith = [reads.inFlight, reads.next].find((candidate) => candidate?.claims.has(claim));
		// The same claim at once: one delivery of it waits, the others are the same notification again.
		if (waitingWith && !everyDelivery) return { kind: 'dropped' };
		let shared = waitingWith ?? reads.next;
		if (shared) {
			if (shared.waiting >= WAITERS_PER_READ) return { kind: 'dropped' };
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
		const shared: SharedRead = { claims: new Set([claim]), waiting: 1, sent: false, failureTaken: false, result: Promise.resolve(undefined as never) };
		reads.next = shared;
		shared.result = (async () => {
			// One read of a payment at a time: the next is sent once the one in flight has its answer.
			if (before) await before.catch(() => undefined);
			const wait = reads.lastSentAt + gapAfter(reads.streak) - Date.now();
			if (wait > 0) await sleep(wait);
			// A re-read waits for the scope's one place for re-reads; a first read of a payment does not.
			const reread = reads.streak > 0;
			let free = () => {};
			if (reread) {
				const before = this.scope.rereads;
				const place = new Promise<void>((resolve) => (free = resolve));
				this.scope.rereads = before.then(async () => await place);
				await before;
			}
			// From here on a delivery that arrives needs a read sent after it: it schedules the next.
			if (reads.next === shared) reads.next = undefined;
			shared.sent = true;
			reads.inFlight = shared;
			reads.lastSentAt = Date.now();
			reads.streak++;
			try {
				return await read();
			} finally {
				free();
				if (reads.inFlight === shared) reads.inFlight = undefined;
			}
		})();
		return shared;
	}
}
