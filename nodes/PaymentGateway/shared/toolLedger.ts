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
// n8n saves the static data of an execution whole, every node's and the workflow's global part, whenever any of it
// changed: an execution that loaded the store before others moved money and changed only another node's static data
// would write the ledger back as it loaded it. So the ledgers are also kept in the workflow's global static data
// (GLOBAL_FIELD, by tool node), and every execution in which a node of this package runs links a view of all this
// process's ledgers of the workflow there (linkLedgers, from the router and the trigger): any save such an execution
// makes holds them. A save by an execution in which none of this package's nodes ran is the one hole left
// (docs/ai-agents.md).
//
// Stored as counters, one per process and ten minutes: `<process>:<minute the ten minutes start>` → thousandths moved.
// Only the process that owns a counter adds to it, so merging two copies takes the larger of each: nothing is counted
// twice, nothing is lost. Amounts only: no payment id, nothing a model could read back. A counter is dropped only once
// it has left the window. Refused calls write nothing. At MAX_ENTRIES counters the ledger refuses to move more rather
// than forget one; 144 a process a day, so the bound is met only by about 70 process starts in 24 hours.

const BUCKET_MS = 10 * 60_000;
export const WINDOW_MS = 24 * 60 * 60_000;
/** The field of the tool node's static data (what earlier versions read), and of the global one (by node name). */
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
const OWN = `${PROCESS}:`;

interface Memory {
	/** Counter → thousandths. */
	counters: Map<string, number>;
	/** Thousandths of calls of this process still in flight. */
	held: number;
	/** Calls of this process still in flight: each may need a counter of its own when it settles. */
	open: number;
	/** The latest ten minutes (start minute) a save put calls then in flight in: what moves later is counted there. */
	promised: number;
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
		memory = { counters: new Map(), held: 0, open: 0, promised: 0 };
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

const minuteAt = (now: number) => Math.floor(now / BUCKET_MS) * (BUCKET_MS / 60_000);

/**
 * What a save holds of one ledger. A call still in flight counts as moved (n8n saves a failed execution at once, with
 * its calls still out, and a restart knows only the store), in the ten minutes after the save's; once it moves it is
 * counted in that same counter (add), so a save never holds less than an earlier one and another process, which takes
 * the larger of each counter, never counts it twice. Only an amount that the gateway refused stays counted in another
 * process until it leaves the window: the safe side.
 */
function saved(memory: Memory, now: number): IDataObject {
	const counters: IDataObject = Object.fromEntries(live(memory, now));
	if (memory.held > 0) {
		memory.promised = Math.max(memory.promised, minuteAt(now) + BUCKET_MS / 60_000);
		const counter = `${OWN}${memory.promised}`;
		counters[counter] = ((counters[counter] as number | undefined) ?? 0) + memory.held;
	}
	return counters;
}

/**
 * Takes the larger of each counter read from a save. This process's own are left out: its memory knows them better
 * than any save (a save counts its calls then in flight, which may have moved nothing since).
 */
function mergeInto(memory: Memory, stored: Array<[string, number]>): void {
	for (const [counter, amount] of stored) {
		if (!counter.startsWith(OWN) && amount > (memory.counters.get(counter) ?? 0)) memory.counters.set(counter, amount);
	}
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
		return memory === undefined ? {} : saved(memory, this.now());
	}
}

/** The scope of a tool node's ledger: the workflow, then the node's name. */
export const ledgerScope = (workflowId: string, node: string) => `${workflowId}\u0000${node}`;

/**
 * What the workflow's global static data holds: every ledger of the workflow this process keeps, by node name, read
 * when n8n saves. Ledgers of tool nodes that this execution never ran are in it too: that is its purpose.
 */
class LedgersView {
	constructor(
		readonly workflowId: string,
		private readonly now: () => number,
	) {}

	toJSON(): IDataObject {
		const prefix = ledgerScope(this.workflowId, '');
		const all: IDataObject = {};
		for (const [scope, memory] of memories) {
			if (!scope.startsWith(prefix)) continue;
			const counters = saved(memory, this.now());
			if (Object.keys(counters).length > 0) all[scope.slice(prefix.length)] = counters;
		}
		return all;
	}
}

/**
 * Reads the ledgers the workflow's global static data holds into this process's memory, then puts the view of all of
 * them there (when this process keeps any for the workflow: a workflow without a tool ledger is left untouched). False,
 * and nothing written, when there are too many counters to read: no tool of the workflow may then move money.
 */
export function linkLedgers(global: IDataObject, workflowId: string, now: () => number = Date.now): boolean {
	const stored = global[FIELD];
	if (stored instanceof LedgersView && stored.workflowId === workflowId) return true;
	const plain: unknown = isPlainObject(stored) && typeof stored.toJSON === 'function' ? (stored.toJSON as () => unknown)() : stored;
	if (isPlainObject(plain)) {
		const nodes = Object.entries(plain);
		if (nodes.length > MAX_STORED) return false;
		const read: Array<[string, Array<[string, number]>]> = [];
		let total = 0;
		for (const [node, value] of nodes) {
			const counters = storedCounters(value);
			if (counters === undefined || (total += counters.length) > MAX_STORED) return false;
			if (counters.length > 0) read.push([node, counters]);
		}
		for (const [node, counters] of read) mergeInto(memoryOf(ledgerScope(workflowId, node), now()), counters);
	}
	putLedgers(global, workflowId, now);
	return true;
}

function putLedgers(global: IDataObject, workflowId: string, now: () => number): void {
	const stored = global[FIELD];
	if (stored instanceof LedgersView && stored.workflowId === workflowId) return;
	const prefix = ledgerScope(workflowId, '');
	for (const scope of memories.keys()) {
		if (scope.startsWith(prefix)) {
			global[FIELD] = new LedgersView(workflowId, now) as unknown as IDataObject;
			return;
		}
	}
}

/**
 * The counters a stored value holds; anything that is not this ledger's (hand-edited, from elsewhere) is left out.
 * Undefined when there are too many to read.
 */
function storedCounters(value: unknown): Array<[string, number]> | undefined {
	if (value instanceof LedgerView || value instanceof LedgersView) return [];
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
	 * node (ledgerScope). What it holds is merged into this process's memory at once, and from then on it holds the
	 * view. `global`: the workflow's global static data and id, read and linked the same way (linkLedgers).
	 */
	constructor(
		private readonly staticData: IDataObject,
		private readonly scope: string,
		private readonly now: () => number = Date.now,
		private readonly global?: { staticData: IDataObject; workflowId: string },
	) {
		this.memory = memoryOf(scope, now());
		const stored = storedCounters(staticData[FIELD]);
		mergeInto(this.memory, stored ?? []);
		this.readable = stored !== undefined && (global === undefined || linkLedgers(global.staticData, global.workflowId, now));
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
		// In the ten minutes a save promised for calls in flight, when that is later than now (saved()).
		const counter = `${OWN}${Math.max(minuteAt(this.now()), this.memory.promised)}`;
		this.memory.counters.set(counter, (this.memory.counters.get(counter) ?? 0) + amount);
		this.save();
	}

	/**
	 * Puts the view into this execution's static data (n8n then saves it), once. The other executions here that used
	 * this node hold the same view already: nothing to write into them.
	 */
	save(): void {
		if (!(this.staticData[FIELD] instanceof LedgerView)) this.staticData[FIELD] = new LedgerView(this.scope, this.now) as unknown as IDataObject;
		if (this.global !== undefined) putLedgers(this.global.staticData, this.global.workflowId, this.now);
	}
}
