import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { confirmedOutcome } from './confirm';

// Gateways deliver a notification at least once, and repeat it, and a customer can post their own signed record again
// (to the trigger, or to a webhook whose Verify Signature node confirms it). The only store a workflow has is its
// static data: n8n reads it from its database as each request starts and saves the whole of it after webhook()
// returns, with no lock, so the last save wins. Requests handled at the same time each read the store from before
// the others, and each save would drop what the others learned. So every process keeps, per workflow, everything it
// has learned or read (bounded) and writes all of it at every save: what one request learns survives another's save
// in the same process at once; what another process saved, once read here, survives in this process's saves even
// when a later save overwrote it in the store. And what is written is not a copy but a view of that memory, which n8n
// turns into text only when it saves (toJSON): an execution that copied the memory early and ends late (a slow node after
// Verify Signature) would otherwise save the store without what executions that ended meanwhile learnt, and a restart,
// which reads only the store, would forget them.

/** At least this many of the newest handled notifications of each kind are remembered, per node. */
export const REMEMBERED = 10_000;

/**
 * Payments that moved money (succeeded, refunded) are remembered apart from the rest: a flood of declined or pending
 * payments, which cost a sender nothing, cannot push a paid one out.
 */
export type RepeatKind = 'paid' | 'unpaid';

/** Where a confirmed status is remembered: with the paid payments when it moved money. */
export function repeatKindOf(confirmedStatus: unknown): RepeatKind {
	const outcome = confirmedOutcome(confirmedStatus);
	return outcome === 'succeeded' || outcome === 'refunded' ? 'paid' : 'unpaid';
}

/** The static data fields of a store, one string per kind. */
export type RepeatFields = Record<RepeatKind, string>;
/** The trigger's store, in its node's static data (and Verify Signature's, per node, before it was per workflow). */
export const NODE_FIELDS: RepeatFields = { paid: 'handledNotifications', unpaid: 'handledUnpaidNotifications' };
/**
 * Verify Signature's store, in the workflow's global static data: `repeat` is per workflow (all its Verify Signature
 * nodes), and a save by an execution in which any node of this package ran holds it (linkVerified).
 */
export const VERIFIED_FIELDS: RepeatFields = { paid: 'verifiedPayments', unpaid: 'verifiedUnpaidPayments' };
const KINDS = Object.keys(NODE_FIELDS) as RepeatKind[];

/** The scope of Verify Signature's memory of a workflow; no node's scope (workflow, NUL, name) looks like it. */
export const verifiedScope = (workflowId: string) => `verified\u0000${workflowId}`;

/** A node's memory in one process; past this many workflows the least recently used is forgotten. */
const SCOPES_PER_PROCESS = 100;

// One entry: 64 bits of SHA-256 of the key (11 base64url characters) and the second it was handled (6 base36
// characters since 2020). 17 characters an entry, oldest first: 10,000 entries are a 170,000-character string, looked
// up with indexOf, appended to and trimmed at the front, and written as one value.
const HASH_CHARS = 11;
const TIME_CHARS = 6;
const ENTRY_CHARS = HASH_CHARS + TIME_CHARS;
const MAX_CHARS = REMEMBERED * ENTRY_CHARS;
const EPOCH_SECONDS = Date.UTC(2020, 0, 1) / 1000;
const STORE = /^(?:[A-Za-z0-9_-]{11}[0-9a-z]{6})*$/;

type Memory = Record<RepeatKind, string>;

const memoryByScope = new Map<string, Memory>();

/** What this process knows for one node. */
function memoryOf(scope: string): Memory {
	let memory = memoryByScope.get(scope);
	if (memory) memoryByScope.delete(scope);
	else memory = { paid: '', unpaid: '' };
	memoryByScope.set(scope, memory);
	if (memoryByScope.size > SCOPES_PER_PROCESS) memoryByScope.delete(memoryByScope.keys().next().value as string);
	return memory;
}

/**
 * The key of one payment in one confirmed state: its status and, where the gateway's record has them, the values that
 * change with each event (`progress`: a refunded total, an update time). Nothing a sender wrote is in it, so no made-up
 * refundId or time makes a notification new, and no sender can push another payment's entry out of the store.
 */
export function repeatKey(paymentId: string, status: unknown, progress = ''): string {
	const text = `${paymentId}|${String(status ?? '').trim().toLowerCase()}${progress ? `|${progress}` : ''}`;
	return createHash('sha256').update(text, 'utf8').digest('base64url').slice(0, HASH_CHARS);
}

const timeAt = (entries: string, at: number) => parseInt(entries.slice(at + HASH_CHARS, at + ENTRY_CHARS), 36);

function holds(entries: string, key: string): boolean {
	for (let at = entries.indexOf(key); at !== -1; at = entries.indexOf(key, at + 1)) {
		if (at % ENTRY_CHARS === 0) return true;
	}
	return false;
}

/** Both lists by time, each key once (its first time), the newest REMEMBERED. */
function merged(mine: string, read: string): string {
	if (read === '' || mine.includes(read)) return mine;
	const seen = new Set<string>();
	const out: string[] = [];
	let i = 0;
	let j = 0;
	while (i < mine.length || j < read.length) {
		const fromMine = j >= read.length || (i < mine.length && timeAt(mine, i) <= timeAt(read, j));
		const entry = fromMine ? mine.slice(i, (i += ENTRY_CHARS)) : read.slice(j, (j += ENTRY_CHARS));
		const key = entry.slice(0, HASH_CHARS);
		if (!seen.has(key)) {
			seen.add(key);
			out.push(entry);
		}
	}
	return out.slice(-REMEMBERED).join('');
}

/** What the static data holds: this process's memory of one kind, read when n8n saves (JSON.stringify calls toJSON). */
class RepeatsView {
	constructor(
		private readonly memory: Memory,
		private readonly kind: RepeatKind,
	) {}

	toJSON(): string {
		return this.memory[this.kind];
	}

	/** Whether it shows this memory: one forgotten by the process since (SCOPES_PER_PROCESS) is read like a save. */
	shows(memory: Memory): boolean {
		return this.memory === memory;
	}
}

/** The handled notifications of one node (the trigger, or a Verify Signature node), as one request or execution sees them. */
export class Repeats {
	private readonly memory: Memory;

	/**
	 * `staticData` is the static data as n8n loaded it for this request (the trigger's node's, or the workflow's global
	 * part for Verify Signature); `scope` names the memory (a workflow and node, or a workflow). What it holds is merged
	 * into this process's memory at once, before anything is decided: a value that is not the store's own counts as
	 * empty.
	 */
	constructor(
		private readonly staticData: IDataObject,
		scope: string,
		private readonly fields: RepeatFields = NODE_FIELDS,
	) {
		this.memory = memoryOf(scope);
		this.learn(staticData, fields);
	}

	/** Merges what a store holds into this process's memory: the constructor's, and a store of an earlier version. */
	learn(staticData: IDataObject, fields: RepeatFields): void {
		for (const kind of KINDS) {
			const stored: unknown = staticData[fields[kind]];
			// A view of another memory (one this process forgot, or another module's: tests load the module twice in one
			// heap): read what it would save.
			const read =
				stored instanceof RepeatsView
					? stored.shows(this.memory)
						? undefined
						: stored.toJSON()
					: stored !== null && typeof stored === 'object' && typeof (stored as { toJSON?: unknown }).toJSON === 'function'
						? (stored as { toJSON: () => unknown }).toJSON()
						: stored;
			if (typeof read === 'string' && read !== this.memory[kind] && read.length % ENTRY_CHARS === 0 && STORE.test(read)) {
				this.memory[kind] = merged(this.memory[kind], read);
			}
		}
	}

	/** Whether a notification with this key was handled already (here, in a store read here, or in this one). */
	has(key: string): boolean {
		return KINDS.some((kind) => holds(this.memory[kind], key));
	}

	/** Notes a notification as handled, at once: an identical one this process handles next is a repeat. */
	remember(key: string, kind: RepeatKind): void {
		if (this.has(key)) return;
		const entries = this.memory[kind];
		const last = entries ? timeAt(entries, entries.length - ENTRY_CHARS) : 0;
		// Never before the newest entry, so that the list stays in order and a new entry is only appended.
		const time = Math.max(Math.floor(Date.now() / 1000 - EPOCH_SECONDS), last);
		const next = entries + key + time.toString(36).padStart(TIME_CHARS, '0');
		this.memory[kind] = next.length > MAX_CHARS ? next.slice(next.length - MAX_CHARS) : next;
	}

	/** Whether this payment in this confirmed state was handled already; if not, it is remembered as handled now. */
	handledBefore(paymentId: string, status: unknown, progress: string, kind: RepeatKind): boolean {
		const key = repeatKey(paymentId, status, progress);
		if (this.has(key)) return true;
		this.remember(key, kind);
		return false;
	}

	/**
	 * Puts into the static data a view of all this process knows (n8n saves the static data only when it changed), once
	 * per execution: whatever this process learns until n8n saves is in the save.
	 */
	save(): void {
		for (const kind of KINDS) {
			const field = this.fields[kind];
			const stored = this.staticData[field];
			if (stored instanceof RepeatsView && stored.shows(this.memory)) continue;
			if (stored === this.memory[kind]) continue;
			if (stored === undefined && this.memory[kind] === '') continue;
			this.staticData[field] = new RepeatsView(this.memory, kind) as unknown as IDataObject;
		}
	}
}

/**
 * Puts the view of this process's Verify Signature memory of the workflow into its global static data, having read
 * what that holds, when there is anything to keep: called wherever a node of this package runs, so that any save of
 * such an execution holds it.
 */
export function linkVerified(global: IDataObject, workflowId: string): void {
	const scope = verifiedScope(workflowId);
	if (!memoryByScope.has(scope) && KINDS.every((kind) => global[VERIFIED_FIELDS[kind]] === undefined)) return;
	new Repeats(global, scope, VERIFIED_FIELDS).save();
}
