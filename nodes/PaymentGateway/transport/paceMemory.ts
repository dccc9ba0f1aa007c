import { createHash } from 'node:crypto';

/**
 * What a run learned of a gateway's pace (transport/adaptiveLimit.ts), kept in this n8n process so that the next run
 * on the same gateway and credential starts from it instead of finding it again: a reconciliation on a schedule would
 * otherwise pay the same first refusals and the same slow start every run. Only numbers are kept, under a hash.
 */
export interface LearnedPace {
	/** The limit the run ended at. */
	readonly limit: number;
	/** Whether nothing had pushed back yet: the next run may still double its limit each round trip. */
	readonly slowStart: boolean;
	/** The level last refused, while it is not to be tried again; Infinity when there is none. */
	readonly refusedAt: number;
	/** Time left before the refused level may be tried again; the memory counts it on between runs too. */
	readonly probeInMs: number;
	/** The run's recent round trip, when it had an answer. */
	readonly rttMs?: number;
	/** The run showed the level it ends at (`AdaptiveLimit.confirms`): the memory's day for it starts again. */
	readonly confirms: boolean;
}

/**
 * A reconciliation a day is the slowest schedule it serves: an entry lives a day and an hour from the last run that
 * confirmed it (`LearnedPace.confirms`), so that a daily run finds it even when it starts a little later than the day
 * before. Runs that show nothing of the level (a few items, a climb from a cut that never met the gateway, a rate
 * window) do not renew it: a limit cut by an incident or a window holds later runs down for that long at most, then a
 * run starts afresh.
 */
export const KEEP_MS = 25 * 60 * 60 * 1000;
/** Far more gateways and credentials than one n8n holds, and a few kilobytes at most. */
export const MAX_ENTRIES = 256;

/**
 * The key of a gateway and credential: the addresses requests go to, the client id and n8n's id of the credential,
 * hashed, so that the memory holds no address or id in clear and nothing secret at all (the client secret and card key
 * are never part of it). Another Base URL or another credential gives another key, and so starts afresh: a credential
 * someone else makes with the same client id does not share, or cut, this one's pace.
 */
export function paceKey(addresses: readonly string[], clientId: string, credentialId: string): string {
	return createHash('sha256').update(JSON.stringify([...addresses, clientId, credentialId]), 'utf8').digest('hex').slice(0, 32);
}

interface Entry {
	readonly pace: LearnedPace;
	readonly renewedAt: number;
	readonly probeUntil: number;
}

/** A kept pace as of `now`: the wait before its refused level counted on to now. */
function paceOf(entry: Entry, now: number): LearnedPace {
	return { ...entry.pace, probeInMs: Math.max(0, entry.probeUntil - now) };
}

/**
 * Learned paces by key, the least recently kept dropped beyond `maxEntries`, each forgotten `keepMs` after it was first
 * kept or a run last confirmed it. The wait before a refused level is kept as a time of day, so the time between
 * runs counts.
 */
export class PaceMemory {
	private readonly entries = new Map<string, Entry>();

	constructor(
		readonly maxEntries = MAX_ENTRIES,
		readonly keepMs = KEEP_MS,
		private readonly now: () => number = () => Date.now(),
	) {}

	get size(): number {
		return this.entries.size;
	}

	recall(key: string): LearnedPace | undefined {
		const entry = this.entries.get(key);
		if (entry === undefined) return undefined;
		const now = this.now();
		if (now - entry.renewedAt >= this.keepMs) {
			this.entries.delete(key);
			return undefined;
		}
		return paceOf(entry, now);
	}

	keep(key: string, pace: LearnedPace): void {
		// Deleted first, so that the Map's order is the order of keeping: the first entry is the one to drop.
		const now = this.now();
		const kept = this.entries.get(key);
		const renewed = kept === undefined || now - kept.renewedAt >= this.keepMs || pace.confirms;
		this.entries.delete(key);
		this.entries.set(key, { pace, renewedAt: renewed ? now : kept.renewedAt, probeUntil: now + pace.probeInMs });
		for (const oldest of this.entries.keys()) {
			if (this.entries.size <= this.maxEntries) break;
			this.entries.delete(oldest);
		}
	}

	forget(): void {
		this.entries.clear();
	}

	/** The keys and paces, for checks that nothing else is kept. */
	contents(): Array<[string, LearnedPace]> {
		const now = this.now();
		return [...this.entries].map(([key, entry]) => [key, paceOf(entry, now)]);
	}
}

/** The one memory of this process: every execution of every workflow shares it (each queue-mode worker has its own). */
export const paceMemory = new PaceMemory();
