import { randomBytes } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../helpers/json';

// What a tool node of a workflow moved in the last 24 hours, across all its executions: a chat agent makes one
// execution per message, an MCP client one per call, so a budget per execution alone bounds nothing.
//
// Kept where n8n keeps a workflow's state, the tool node's static data, which n8n reads from its database when an
// execution starts and saves whole when it ends (not for manual runs in the editor), the last save winning. So, as the
// trigger does with its repeats, each process keeps what it knows in memory and writes all of it at every save: what
// one execution spends survives another's save in the same process; what another process saved, once read here,
// survives in this process's saves.
//
// Stored as counters, one per process and ten minutes: `<process>:<minute the ten minutes start>` → thousandths moved.
// Only the process that owns a counter adds to it, so merging two copies takes the larger of each: nothing is counted
// twice, nothing is lost. Amounts only: no payment id, nothing a model could read back. At most 144 counters a process
// a day; counters past the window are dropped at every save.

const BUCKET_MS = 10 * 60_000;
export const WINDOW_MS = 24 * 60 * 60_000;
/** The field of the tool node's static data. */
const FIELD = 'toolSpentLast24h';
/**
 * Far more counters than any set of processes writes in a day (144 a process): a stored value with more is not read,
 * and the ledger refuses to count (fails closed) rather than take it for empty.
 */
const MAX_COUNTERS = 200_000;
const COUNTER = /^[0-9a-f]{8}:\d{1,10}$/;
/** Tool nodes remembered per process; one with calls in flight is never forgotten. */
const SCOPES_PER_PROCESS = 1000;
/** Static data of executions still running, per tool node, that every change is written into (see save()). */
const COPIES_PER_SCOPE = 256;

/** This process, as counters name it: a new one at every start, so that a restart never reuses another's counters. */
const PROCESS = randomBytes(4).toString('hex');

interface Memory {
	/** Counter → thousandths. */
	counters: Map<string, number>;
	/** Thousandths of calls of this process still in flight. */
	held: number;
	/**
	 * The static data of this node's executions in this process, newest last. n8n saves each execution's own copy
	 * when it ends, the last save winning: an execution that ran longer would write back a copy without what another
	 * moved meanwhile. So every change goes into every copy, and whichever saves last saves it all.
	 */
	copies: IDataObject[];
}

const memories = new Map<string, Memory>();

function memoryOf(scope: string): Memory {
	let memory = memories.get(scope);
	if (memory) memories.delete(scope);
	else memory = { counters: new Map(), held: 0, copies: [] };
	memories.set(scope, memory);
	if (memories.size > SCOPES_PER_PROCESS) {
		// The least recently used without calls in flight: what it knew is in the static data it saved.
		for (const [name, known] of memories) {
			if (known.held === 0 && name !== scope) {
				memories.delete(name);
				break;
			}
		}
	}
	return memory;
}

const minuteOf = (counter: string) => Number(counter.slice(counter.indexOf(':') + 1));
/** When a counter's amounts leave the window: the end of its ten minutes, 24 hours on. Counted whole until then. */
const freedAt = (counter: string) => minuteOf(counter) * 60_000 + BUCKET_MS + WINDOW_MS;

/**
 * The counters a stored value holds; anything that is not this ledger's (hand-edited, from elsewhere) is left out.
 * Undefined when there are too many to read.
 */
function storedCounters(value: unknown): Array<[string, number]> | undefined {
	if (!isPlainObject(value)) return [];
	const entries = Object.entries(value);
	if (entries.length > MAX_COUNTERS) return undefined;
	return entries.filter(
		(entry): entry is [string, number] =>
			COUNTER.test(entry[0]) && typeof entry[1] === 'number' && Number.isSafeInteger(entry[1]) && entry[1] > 0,
	);
}

/** What one tool node has moved in the last 24 hours, as one call sees it. Amounts in thousandths. */
export class DailyLedger {
	private readonly memory: Memory;
	/** False when the stored value could not be read: nothing may be moved against it. */
	readonly readable: boolean;

	/**
	 * `staticData`: the tool node's static data as n8n loaded it for this execution; `scope` names the workflow and
	 * node. What it holds is merged into this process's memory at once.
	 */
	constructor(
		private readonly staticData: IDataObject,
		scope: string,
		private readonly now: () => number = Date.now,
	) {
		this.memory = memoryOf(scope);
		const stored = storedCounters(staticData[FIELD]);
		this.readable = stored !== undefined;
		for (const [counter, amount] of stored ?? []) {
			if (amount > (this.memory.counters.get(counter) ?? 0)) this.memory.counters.set(counter, amount);
		}
		const { copies } = this.memory;
		if (!copies.includes(staticData)) {
			copies.push(staticData);
			if (copies.length > COPIES_PER_SCOPE) copies.shift();
		}
	}

	/** Moved in the window (each counter whole until it leaves it), and held by calls of this process in flight. */
	spent(): { moved: number; held: number } {
		const now = this.now();
		let moved = 0;
		for (const [counter, amount] of this.memory.counters) if (freedAt(counter) > now) moved += amount;
		return { moved, held: this.memory.held };
	}

	/** When `needed` thousandths more will have left the window; undefined when never (more than was moved). */
	freesUpAt(needed: number): number | undefined {
		const now = this.now();
		const live = [...this.memory.counters].filter(([counter]) => freedAt(counter) > now).sort((a, b) => freedAt(a[0]) - freedAt(b[0]));
		let freed = 0;
		for (const [counter, amount] of live) {
			freed += amount;
			if (freed >= needed) return freedAt(counter);
		}
		return undefined;
	}

	/** Holds `amount` for a call in flight; checked by the caller in the same step, with no wait between. */
	hold(amount: number): (moved: boolean) => void {
		this.memory.held += amount;
		let open = true;
		return (moved) => {
			if (!open) return;
			open = false;
			this.memory.held -= amount;
			if (moved) this.add(amount);
		};
	}

	private add(amount: number): void {
		const counter = `${PROCESS}:${Math.floor(this.now() / BUCKET_MS) * (BUCKET_MS / 60_000)}`;
		this.memory.counters.set(counter, (this.memory.counters.get(counter) ?? 0) + amount);
		this.save();
	}

	/**
	 * Writes all this process knows of the window into the static data of this node's executions here (this one's and
	 * those still running), which n8n saves as each ends.
	 */
	save(): void {
		const now = this.now();
		const kept: IDataObject = {};
		for (const [counter, amount] of this.memory.counters) {
			if (freedAt(counter) > now) kept[counter] = amount;
			else this.memory.counters.delete(counter);
		}
		if (!this.memory.copies.includes(this.staticData)) this.memory.copies.push(this.staticData);
		for (const copy of this.memory.copies) copy[FIELD] = { ...kept };
	}
}
