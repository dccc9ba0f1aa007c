import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

// Gateways deliver a notification at least once, and repeat it. The only store a webhook has is the workflow's
// static data: n8n reads it from its database as each request starts and saves the whole of it after webhook()
// returns, with no lock, so the last save wins. Requests handled at the same time each read the store from before
// the others, and each save would drop what the others learned. So every process also keeps, per workflow, what it
// has learned itself (bounded), and merges that into every save: what one request learns survives another's save
// in the same process at once, and another process's at that process's next save.

/** At least this many of the newest handled notifications are remembered, per trigger node. */
export const REMEMBERED = 10_000;

/** A trigger node's memory in one process; past this many workflows the least recently used is forgotten. */
const SCOPES_PER_PROCESS = 100;

// One entry: 64 bits of SHA-256 of `paymentId|status` (11 base64url characters) and the second it was handled
// (6 base36 characters since 2020). 17 characters an entry: 10,000 entries are a 170,000-character string, read
// with slices and rewritten as one value.
const HASH_CHARS = 11;
const TIME_CHARS = 6;
const ENTRY_CHARS = HASH_CHARS + TIME_CHARS;
const EPOCH_SECONDS = Date.UTC(2020, 0, 1) / 1000;
const ENTRY = /^[A-Za-z0-9_-]{11}[0-9a-z]{6}$/;

/** The static data field of the store. */
const FIELD = 'handledNotifications';

type Entries = Map<string, number>;

const learnedByScope = new Map<string, Entries>();

/** What this process has learned for one trigger node, newest last. */
function learnedIn(scope: string): Entries {
	let learned = learnedByScope.get(scope);
	if (learned) learnedByScope.delete(scope);
	else learned = new Map();
	learnedByScope.set(scope, learned);
	if (learnedByScope.size > SCOPES_PER_PROCESS) learnedByScope.delete(learnedByScope.keys().next().value as string);
	return learned;
}

/** The key of one payment in one status: a different status of the same payment is news. */
export function repeatKey(paymentId: string, status: unknown): string {
	const text = `${paymentId}|${String(status ?? '').trim().toLowerCase()}`;
	return createHash('sha256').update(text, 'utf8').digest('base64url').slice(0, HASH_CHARS);
}

/** The stored entries, oldest first; a value that is not the store's own is an empty store. */
function parse(stored: unknown): Entries {
	const entries: Entries = new Map();
	if (typeof stored !== 'string' || stored.length % ENTRY_CHARS !== 0) return entries;
	for (let at = 0; at < stored.length; at += ENTRY_CHARS) {
		const entry = stored.slice(at, at + ENTRY_CHARS);
		if (!ENTRY.test(entry)) return new Map();
		entries.set(entry.slice(0, HASH_CHARS), parseInt(entry.slice(HASH_CHARS), 36));
	}
	return entries;
}

function serialize(entries: Array<[string, number]>): string {
	return entries.map(([key, time]) => key + time.toString(36).padStart(TIME_CHARS, '0')).join('');
}

/** The handled notifications of one trigger node, as one request sees them. */
export class Repeats {
	private readonly learned: Entries;
	private stored: Entries | undefined;

	/** `staticData` is the node's static data as n8n loaded it for this request; `scope` names the workflow and node. */
	constructor(
		private readonly staticData: IDataObject,
		scope: string,
	) {
		this.learned = learnedIn(scope);
	}

	private storedEntries(): Entries {
		return (this.stored ??= parse(this.staticData[FIELD]));
	}

	/** Whether a notification with this key was handled already (here, or by a save this request read). */
	has(key: string): boolean {
		return this.learned.has(key) || this.storedEntries().has(key);
	}

	/** Notes a notification as handled, at once: an identical one this process handles next is a repeat. */
	remember(key: string): void {
		this.learned.delete(key);
		this.learned.set(key, Math.floor(Date.now() / 1000 - EPOCH_SECONDS));
		if (this.learned.size > REMEMBERED) this.learned.delete(this.learned.keys().next().value as string);
	}

	/**
	 * Writes into the static data what it held with what this process learned, the newest REMEMBERED kept, when that
	 * adds anything: n8n saves the static data only when it changed.
	 */
	save(): void {
		const stored = this.storedEntries();
		const missing = [...this.learned].filter(([key]) => !stored.has(key));
		if (missing.length === 0) return;
		const merged = [...stored, ...missing];
		// Stable: of entries handled in the same second, the stored ones stay first.
		merged.sort((a, b) => a[1] - b[1]);
		this.staticData[FIELD] = serialize(merged.slice(-REMEMBERED));
	}
}
