import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { Confirmation } from '../PaymentGateway/actions/status/confirm';

// A notification's signature covers two ids and the customer's browser carries it: anyone holding one can post it
// again, as often as they like, with any other value beside the ids. Each delivery would cost the gateway a read (with
// retries), and a flood of reads of one payment crowds out the reads that confirm other payments. So the reads of a
// payment are shared and spaced, per process and trigger node:
//  - a claim already explained by a confirmation of this payment (the same notification again) needs no read at all;
//  - deliveries of one payment that arrive while a read of it is waiting to be sent share that read;
//  - the reads of one payment are sent one after another, each further one later than the one before (1 s, 2 s, 4 s,
//    ... at most a minute apart) until the payment has been quiet for ten minutes.
// A genuine new event of the payment (a refund after the payment) still gets a read sent after it arrived, at most a
// minute later; the reads of other payments never wait for these.

const FIRST_GAP_MS = 1000;
const MAX_GAP_MS = 60_000;
const QUIET_MS = 10 * 60_000;
/** Claims of one payment remembered as explained. */
const CLAIMS_PER_PAYMENT = 16;
/** Deliveries that may wait for one read; more of the same payment add nothing the read does not already answer. */
const WAITERS_PER_READ = 64;
const PAYMENTS_PER_SCOPE = 10_000;
const SCOPES_PER_PROCESS = 100;

/** One read of a payment, shared by the deliveries that wait for it. */
interface SharedRead {
	claims: Set<string>;
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

const scopes = new Map<string, Map<string, PaymentReads>>();

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
	/** Too many deliveries of this payment wait for its next read already: this one adds nothing to them. */
	| { kind: 'dropped' }
	/**
	 * The payment's confirmation, shared or remembered; `first` is false for a delivery that shares a failed read with
	 * an earlier one (an unconfirmed read need not start one execution per delivery).
	 */
	| { kind: 'confirmed'; confirmation: Confirmation; first: boolean };

/** The re-checks of one trigger node in this process. */
export class Rechecks {
	private readonly payments: Map<string, PaymentReads>;

	constructor(scope: string) {
		this.payments = touched(scopes, scope, () => new Map<string, PaymentReads>(), SCOPES_PER_PROCESS);
	}

	/**
	 * The confirmation of `paymentId` for a delivery carrying `claim`; `read` sends the request and is called at most
	 * once per shared read.
	 */
	async recheck(paymentId: string, claim: string, read: () => Promise<Confirmation>): Promise<Recheck> {
		const reads = touched(this.payments, paymentId, () => ({ lastSentAt: 0, streak: 0, explained: [] }), PAYMENTS_PER_SCOPE);
		if (reads.last && reads.explained.includes(claim)) return { kind: 'confirmed', confirmation: reads.last, first: true };
		let shared = [reads.inFlight, reads.next].find((candidate) => candidate?.claims.has(claim)) ?? reads.next;
		if (shared && !shared.claims.has(claim)) {
			if (shared.claims.size >= WAITERS_PER_READ) return { kind: 'dropped' };
			shared.claims.add(claim);
		}
		shared ??= this.schedule(reads, claim, read);
		const confirmation = await shared.result;
		const first = confirmation.verified || !shared.failureTaken;
		if (!confirmation.verified) shared.failureTaken = true;
		return { kind: 'confirmed', confirmation, first };
	}

	/** Notes that a confirmation explained this claim: the same notification again is answered from it, unread. */
	explained(paymentId: string, claim: string, confirmation: Confirmation): void {
		const reads = this.payments.get(paymentId);
		if (!reads) return;
		reads.last = confirmation;
		if (reads.explained.includes(claim)) return;
		reads.explained.push(claim);
		if (reads.explained.length > CLAIMS_PER_PAYMENT) reads.explained.shift();
	}

	private schedule(reads: PaymentReads, claim: string, read: () => Promise<Confirmation>): SharedRead {
		const before = reads.inFlight?.result;
		const shared: SharedRead = { claims: new Set([claim]), sent: false, failureTaken: false, result: Promise.resolve(undefined as never) };
		reads.next = shared;
		shared.result = (async () => {
			// One read of a payment at a time: the next is sent once the one in flight has its answer.
			if (before) await before.catch(() => undefined);
			if (Date.now() - reads.lastSentAt > QUIET_MS) reads.streak = 0;
			const wait = reads.lastSentAt + gapAfter(reads.streak) - Date.now();
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
