import type { IDataObject } from 'n8n-workflow';

import { DailyLedger, ledgerScope, linkLedgers, WINDOW_MS } from '../../nodes/PaymentGateway/shared/toolLedger';

// The daily budget's ledger on a simulated clock: the 24-hour window, calls in flight, two processes saving over each
// other, and stored values that are not the ledger's own.

const HOUR = 60 * 60_000;
let scopes = 0;
const clock = (start = Date.UTC(2026, 10, 27, 12)) => {
	let now = start;
	return { now: () => now, advance: (ms: number) => (now += ms) };
};

/** The static data as n8n saves it (JSON): the ledger's field is a view of the process's memory until then. */
const asSaved = (staticData: IDataObject) => JSON.parse(JSON.stringify(staticData)) as IDataObject;

/** The ledger module as another n8n process loads it: the same code, a memory (and a process name) of its own. */
function ledgerOfAnotherProcess(): typeof DailyLedger {
	let loaded: typeof DailyLedger | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		loaded = (require('../../nodes/PaymentGateway/shared/toolLedger') as { DailyLedger: typeof DailyLedger }).DailyLedger;
	});
	return loaded!;
}

it('counts what moved in the last 24 hours; an amount leaves the window 24 hours after its ten minutes end', () => {
	const time = clock();
	const scope = `s${++scopes}`;
	const staticData: IDataObject = {};
	new DailyLedger(staticData, scope, time.now).hold(10_000)(true);
	time.advance(5 * HOUR);
	new DailyLedger(staticData, scope, time.now).hold(5_000)(true);
	expect(new DailyLedger(staticData, scope, time.now).spent()).toEqual({ moved: 15_000, held: 0 });
	time.advance(WINDOW_MS - 5 * HOUR);
	// Still counted: its ten minutes have not all left the window.
	expect(new DailyLedger(staticData, scope, time.now).spent().moved).toBe(15_000);
	time.advance(10 * 60_000);
	expect(new DailyLedger(staticData, scope, time.now).spent().moved).toBe(5_000);
	time.advance(5 * HOUR);
	const ledger = new DailyLedger(staticData, scope, time.now);
	expect(ledger.spent().moved).toBe(0);
	ledger.save();
	expect(asSaved(staticData).toolSpentLast24h).toEqual({});
});

it('when enough frees up: the time the oldest amounts leave the window', () => {
	const time = clock(Date.UTC(2026, 10, 27, 12, 3));
	const scope = `s${++scopes}`;
	const staticData: IDataObject = {};
	new DailyLedger(staticData, scope, time.now).hold(10_000)(true);
	time.advance(HOUR);
	new DailyLedger(staticData, scope, time.now).hold(10_000)(true);
	const ledger = new DailyLedger(staticData, scope, time.now);
	expect(ledger.freesUpAt(5_000)).toBe(Date.UTC(2026, 10, 28, 12, 10));
	expect(ledger.freesUpAt(15_000)).toBe(Date.UTC(2026, 10, 28, 13, 10));
	expect(ledger.freesUpAt(25_000)).toBeUndefined();
});

it('calls in flight count until they settle; one not sent gives its amount back', () => {
	const time = clock();
	const scope = `s${++scopes}`;
	const staticData: IDataObject = {};
	const ledger = new DailyLedger(staticData, scope, time.now);
	const first = ledger.hold(10_000);
	const second = ledger.hold(7_000);
	expect(new DailyLedger(staticData, scope, time.now).spent()).toEqual({ moved: 0, held: 17_000 });
	first(true);
	second(false);
	second(true);
	expect(new DailyLedger(staticData, scope, time.now).spent()).toEqual({ moved: 10_000, held: 0 });
});

it('two processes saving over each other: each save holds both, nothing counted twice', () => {
	const time = clock();
	const scope = `s${++scopes}`;
	const Other = ledgerOfAnotherProcess();
	// Both executions read the store as it was, before either saved (n8n: the last save wins).
	const storeA: IDataObject = {};
	const storeB: IDataObject = {};
	new DailyLedger(storeA, scope, time.now).hold(10_000)(true);
	new Other(storeB, scope, time.now).hold(7_000)(true);
	// Process A's next execution reads B's save; A's own memory still has its own spending.
	const next = JSON.parse(JSON.stringify(storeB)) as IDataObject;
	const ledgerA = new DailyLedger(next, scope, time.now);
	expect(ledgerA.spent().moved).toBe(17_000);
	ledgerA.save();
	// B reads A's merged save: the same total, not 24,000.
	expect(new Other(JSON.parse(JSON.stringify(next)) as IDataObject, scope, time.now).spent().moved).toBe(17_000);
});

it('a stored value that is not the ledger’s own counts as empty where it is not, and is replaced at the next save', () => {
	const time = clock();
	const good = `${'0a1b2c3d'}:${Math.floor(time.now() / 60_000 / 10) * 10}`;
	for (const stored of [
		'not an object',
		[1, 2, 3],
		{ 'bad key': 5, '0a1b2c3d:x': 7, [good]: -4, other: 'text' },
	]) {
		const staticData: IDataObject = { toolSpentLast24h: stored as IDataObject };
		const ledger = new DailyLedger(staticData, `s${++scopes}`, time.now);
		expect(ledger.spent().moved).toBe(0);
		ledger.hold(1_000)(true);
		expect(Object.values(asSaved(staticData).toolSpentLast24h as IDataObject)).toEqual([1_000]);
	}
	const staticData: IDataObject = { toolSpentLast24h: { [good]: 4_000, junk: 1 } };
	expect(new DailyLedger(staticData, `s${++scopes}`, time.now).spent().moved).toBe(4_000);
	// Too many counters to read: not taken for empty; the ledger says it cannot count, and the tool refuses.
	const flood: IDataObject = { toolSpentLast24h: Object.fromEntries(Array.from({ length: 200_001 }, (_, index) => [`0a1b2c3d:${index}`, 1])) };
	expect(new DailyLedger(flood, `s${++scopes}`, time.now).readable).toBe(false);
});

it('every change is written into the static data of this node\'s executions still running: a longer one saving last keeps it', () => {
	const time = clock();
	const scope = `s${++scopes}`;
	// n8n gives each execution a copy of the saved static data and saves it when it ends, the last save winning.
	const longRunning: IDataObject = {};
	const quick: IDataObject = {};
	new DailyLedger(longRunning, scope, time.now).hold(10_000)(true);
	new DailyLedger(quick, scope, time.now).hold(10_000)(true);
	// The quick one saves first; the long one, ending last, writes its copy over it: it holds both.
	const saved = JSON.parse(JSON.stringify(longRunning)) as IDataObject;
	expect(new (ledgerOfAnotherProcess())(saved, scope, time.now).spent().moved).toBe(20_000);
});

const total = (counters: unknown) => Object.values(counters as Record<string, number>).reduce((sum, amount) => sum + amount, 0);

it('a save counts calls in flight as moved, where they are counted once they move; the process reads its own counters back from its memory', () => {
	const time = clock();
	const scope = `s${++scopes}`;
	const staticData: IDataObject = {};
	const ledger = new DailyLedger(staticData, scope, time.now);
	const settle = ledger.hold(10_000);
	// Saved while the call is out (a failed execution is saved at once): 10 counted.
	const whileOut = asSaved(staticData);
	expect(total(whileOut.toolSpentLast24h)).toBe(10_000);
	// Read back by this process while the call is still out: held, not moved as well.
	expect(new DailyLedger(JSON.parse(JSON.stringify(whileOut)) as IDataObject, scope, time.now).spent()).toEqual({ moved: 0, held: 10_000 });
	time.advance(3 * 60_000);
	settle(true);
	const after = asSaved(staticData);
	// The same counter as the save while out: another process, taking the larger of each, counts it once.
	expect(after.toolSpentLast24h).toEqual(whileOut.toolSpentLast24h);
	const Other = ledgerOfAnotherProcess();
	const other: IDataObject = JSON.parse(JSON.stringify(whileOut)) as IDataObject;
	new Other(other, scope, time.now);
	expect(new Other(after, scope, time.now).spent().moved).toBe(10_000);
	// A call the gateway refused: the save no longer counts it in this process.
	const refused = ledger.hold(5_000);
	expect(total(asSaved(staticData).toolSpentLast24h)).toBe(15_000);
	refused(false);
	expect(total(asSaved(staticData).toolSpentLast24h)).toBe(10_000);
});

it('the workflow\'s global static data holds every tool node\'s ledger, also in an execution that never ran the tool', () => {
	const time = clock();
	const workflowId = `w${++scopes}`;
	const nodeData: IDataObject = {};
	const global: IDataObject = {};
	new DailyLedger(nodeData, ledgerScope(workflowId, 'Refund'), time.now, { staticData: global, workflowId }).hold(7_000)(true);
	// Another execution, which loaded an empty store and runs only another node of this package.
	const loadedEarly: IDataObject = {};
	expect(linkLedgers(loadedEarly, workflowId, time.now)).toBe(true);
	const saved = asSaved(loadedEarly);
	expect(total((saved.toolSpentLast24h as IDataObject).Refund)).toBe(7_000);
	// A restarted process reads it from there, though the tool node's own static data was lost.
	const Other = ledgerOfAnotherProcess();
	expect(new Other({}, ledgerScope(workflowId, 'Refund'), time.now, { staticData: saved, workflowId }).spent().moved).toBe(7_000);
	// A workflow without a tool ledger is left untouched: no save for it.
	const untouched: IDataObject = {};
	linkLedgers(untouched, `w${++scopes}`, time.now);
	expect(untouched).toEqual({});
});
