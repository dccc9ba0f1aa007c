import { randomBytes } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../helpers/json';

// What a tool node of a workflow moved in the last 24 hours, across all its executions: a chat agent makes one
// execution per message, an MCP client one per call, so a budget per execution alone bounds nothing.
//
// Kept where n8n keeps a workflow's state, the tool node's static data, which n8n reads from its database when an
// execution starts and saves whole when it ends (not for manual runs in the editor), the last save winning. So each
// process keeps one ledger per workflow and tool node in memory, and the static data of every execution that has used
// the tool holds not a copy of it but a view of it, which n8n turns into JSON only when it saves (toJSON). Whichever
// execution ends last, in whatever order, saves everything this process knows of the last 24 hours: no list of copies
// to fall out of, and nothing an execution loaded can be written back stale.
//
// Stored as counters, one per process and ten minutes: `<process>:<minute the ten minutes start>` → thousandths moved.
// Only the process that owns a counter adds to it, so merging two copies takes the larger of each: nothing is counted
// twice, nothing is lost. Amounts only: no payment id, nothing a model could read back. A counter is dropped only once
// it has left the window. Refused calls write nothing. At MAX_ENTRIES counters the ledger refuses to move more rather
// than forget one; 144 a process a day, so the bound is met only by about 70 process starts in 24 hours.

const BUCKET_MS = 10 * 60_000;
export const WINDOW_MS = 24 * 60 * 60_000;
/** The field of the tool node's static data. */
const FIELD = 'toolSpentLast24h';
/**
 * The counters one tool node's ledger may write up to. A call that could need one more is refused (nothing sent), never
 * met by dropping one; counters read from a save are kept even above it.
 */
export const MAX_ENTRIES = 10_000;
/**
 * A stored value with more counters than this is not read: the ledger refuses to count (fails closed) rather than take
 * it for empty, and leaves it as it is.
 */
const MAX_STORED = 200_000;
const COUNTER = /^[0-9a-f]{8}:\d{1,10}$/;

/** This process, as counters name it: a new one at every start, so that a restart never reuses another's counters. */
const PROCESS = randomBytes(4).toString('hex');

interface Memory {
	/** Counter → thousandths. */
	counters: Map<string, number>;
	/** Thousandths of calls of this process still in flight. */
	held: number;
	/** Calls of this process still in flight: each may need a counter of its own when it settles. */
	open: number;
}

/**
 * One ledger per workflow and tool node in this process. Never dropped while it holds a counter of the window or a
 * call in flight; an empty one is dropped when another is made (it would be made again, empty, from the next save).
 */
const memories = new Map<string, Memory>();

function memoryOf(scope: string, now: number): Memory {
	let memory = memories.get(scope);
	if (memory === undefined) {
		for (const [name, known] of memories) {
			if (known.open === 0 && live(known, now).length === 0) memories.delete(name);
		}
		memory = { counters: new Map(), held: 0, open: 0 };
		memories.set(scope, memory);
	}
	return memory;
}

const minuteOf = (counter: string) => Number(counter.slice(counter.indexOf(':') + 1));
/** When a counter's amounts leave the window: the end of its ten minutes, 24 hours on. Counted whole until then. */
const freedAt = (counter: string) => minuteOf(counter) * 60_000 + BUCKET_MS + WINDOW_MS;

/** The counters still in the window; those past it are dropped here, the only place one is ever dropped. */
function live(memory: Memory, now: number): Array<[string, number]> {
	const kept: Array<[string, number]> = [];
	for (const [counter, amount] of memory.counters) {
		if (freedAt(counter) > now) kept.push([counter, amount]);
		else memory.counters.delete(counter);
	}
	return kept;
}

/**
 * What the static data holds: the process's ledger for this node, read when n8n saves (JSON.stringify calls toJSON).
 * Looked up by scope then, so it is the ledger as it is at the save, whatever happened since the execution began.
 */
class LedgerView {
	constructor(
		private readonly scope: string,
		private readonly now: () => number,
	) {}

	toJSON(): IDataObject {
		const memory = memories.get(this.scope);
		return memory === undefined ? {} : Object.fromEntries(live(memory, this.now()));
	}
}

/**
 * The counters a stored value holds; anything that is not this ledger's (hand-edited, from elsewhere) is left out.
 * Undefined when there are too many to read.
 */
function storedCounters(value: unknown): Array<[string, number]> | undefined {
	if (value instanceof LedgerView) return [];
	// Another module's view (tests load the module twice in one heap): read what it would save.
	const plain: unknown = isPlainObject(value) && typeof value.toJSON === 'function' ? (value.toJSON as () => unknown)() : value;
	if (!isPlainObject(plain)) return [];
	const entries = Object.entries(plain);
	if (entries.length > MAX_STORED) return undefined;
	return entries.filter(
		(entry): entry is [string, number] =>
			COUNTER.test(entry[0]) && typeof entry[1] === 'number' && Number.isSafeInteger(entry[1]) && entry[1] > 0,
	);
}

/** What one tool node has moved in the last 24 hours, as one call sees it. Amounts in thousandths. */
export class DailyLedger {
	private readonly memory: Memory;
	/** False when the stored value could not be read: nothing may be moved against it, and it is left as it is. */
	readonly readable: boolean;

	/**
	 * `staticData`: the tool node's static data as n8n loaded it for this execution; `scope` names the workflow and
	 * node. What it holds is merged into this process's memory at once, and from then on it holds the view.
	 */
	constructor(
		private readonly staticData: IDataObject,
		private readonly scope: string,
		private readonly now: () => number = Date.now,
	) {
		this.memory = memoryOf(scope, now());
		const stored = storedCounters(staticData[FIELD]);
		this.readable = stored !== undefined;
		for (const [counter, amount] of stored ?? []) {
			if (amount > (this.memory.counters.get(counter) ?? 0)) this.memory.counters.set(counter, amount);
		}
		if (this.readable) this.save();
	}

	/** Moved in the window (each counter whole until it leaves it), and held by calls of this process in flight. */
	spent(): { moved: number; held: number } {
		let moved = 0;
		for (const [, amount] of live(this.memory, this.now())) moved += amount;
		return { moved, held: this.memory.held };
	}

	/** When `needed` thousandths more will have left the window; undefined when never (more than was moved). */
	freesUpAt(needed: number): number | undefined {
		const counters = live(this.memory, this.now()).sort((a, b) => freedAt(a[0]) - freedAt(b[0]));
		let freed = 0;
		for (const [counter, amount] of counters) {
			freed += amount;
			if (freed >= needed) return freedAt(counter);
		}
		return undefined;
	}

	/**
	 * Undefined while a call may be held; else how many counters the ledger holds and when the oldest leaves the
	 * window. Counted with the calls in flight, each of which may need one: the ledger never goes past its bound.
	 */
	full(): { entries: number; open: number; freesAt: number | undefined } | undefined {
		const counters = live(this.memory, this.now());
		if (counters.length + this.memory.open < MAX_ENTRIES) return undefined;
		const oldest = counters.reduce<number | undefined>((at, [counter]) => (at === undefined ? freedAt(counter) : Math.min(at, freedAt(counter))), undefined);
		return { entries: counters.length, open: this.memory.open, freesAt: oldest };
	}

	/** Holds `amount` for a call in flight; checked by the caller in the same step (spent(), full()), with no wait between. */
	hold(amount: number): (moved: boolean) => void {
		this.memory.held += amount;
		this.memory.open += 1;
		let open = true;
		return (moved) => {
			if (!open) return;
			open = false;
			this.memory.held -= amount;
			this.memory.open -= 1;
			if (moved) this.add(amount);
		};
	}

	private add(amount: number): void {
		const counter = `${PROCESS}:${Math.floor(this.now() / BUCKET_MS) * (BUCKET_MS / 60_000)}`;
		this.memory.counters.set(counter, (this.memory.counters.get(counter) ?? 0) + amount);
		this.save();
	}

	/**
	 * Puts the view into this execution's static data (n8n then saves it), once. The other executions here that used
	 * this node hold the same view already: nothing to write into them.
	 */
	save(): void {
		if (!(this.staticData[FIELD] instanceof LedgerView)) this.staticData[FIELD] = new LedgerView(this.scope, this.now) as unknown as IDataObject;
	}
}
