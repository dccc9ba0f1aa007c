/* eslint-disable @typescript-eslint/no-unused-vars, no-console -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import type { IDataObject } from 'n8n-workflow';

import type { LoggedRequest } from '../../sandbox/gateway';
import { FAULTS } from '../support/faults';
import { startSandbox, withoutSubject } from '../support/fixtures';
import { expiryFragments, findLeaks } from '../support/leaks';
import type { Cell, CellRun, Mode } from '../support/matrix';
import { inPool, MAX_RETRIES, msBetween, requestsPerItem, runCell, textTable, TIMEOUT } from '../support/matrix';
import type { OperationCase } from '../support/matrix-operations';
import { CARD, CVV, EXPIRY_MONTH, EXPIRY_YEAR, OPERATIONS } from '../support/matrix-operations';

// Every operation × every fault × Continue On Fail off and on with Max Retries 0, and on with Max Retries 2, through
// n8n's engine with Concurrency 1, each cell against a sandbox of its own: three items, the fault on the middle one.
// What each cell must show:
// - every input item yields exactly one output item paired to it, or the node fails naming the item;
// - an error carries the gateway's resCode or the network code, and a description that says what to do;
// - reads given more retries than faults recover, waiting as asked (Retry-After, measured at the sandbox); a delete
//   whose first attempt went through unanswered is not reported as a deletion;
// - writes reach the sandbox exactly once per item, and say to check the status before trying again;
// - a time-out is bounded by the Timeout option and says so, naming the operation;
// - nothing secret or card data in anything n8n keeps of the run.

const CONCURRENT_CELLS = 12;

const MODES: Mode[] = ['stop', 'continue', 'retry'];
const MODE_TITLES: Record<Mode, string> = {
	stop: 'Continue On Fail off, Max Retries 0',
	continue: 'Continue On Fail on, Max Retries 0',
	retry: `Continue On Fail on, Max Retries ${MAX_RETRIES}`,
};

/**
 * The trigger has no Continue On Fail: it always emits the notification, the failed re-check noted in it. Its
 * re-check is a read: run with Max Retries 0 ("continue") and with Max Retries as the reads ("retry").
 */
const modesOf = (operation: OperationCase): Mode[] => (operation.kind === 'trigger' ? ['continue', 'retry'] : MODES);

const cells: Cell[] = OPERATIONS.flatMap((operation) =>
	FAULTS.flatMap((fault) =>
		modesOf(operation).map((mode) => ({ id: `${operation.name} × ${fault.name} × ${mode}`, operation, fault, mode })),
	),
);

const runs = new Map<string, CellRun>();
const passed = new Set<string>();

beforeAll(async () => {
	await inPool(
		cells.map((cell) => async () => {
			const sandbox = await startSandbox();
			try {
				runs.set(cell.id, await runCell(cell, sandbox));
			} finally {
				await sandbox.close();
			}
		}),
		CONCURRENT_CELLS,
	);
}, 240_000);

/** An error as the user sees it: the error item of Continue On Fail, or the node's error. */
interface Failure {
	message: unknown;
	description: unknown;
	resCode: unknown;
	code: unknown;
}

function failureOf(run: CellRun, mode: Mode): Failure {
	const { recheckError } = run.result.items[1]?.json ?? {};
	if (recheckError) {
		const noted = recheckError as IDataObject;
		return { message: noted.message, description: noted.description, resCode: noted.resCode, code: noted.code };
	}
	if (mode === 'stop') {
		const error = run.result.error!;
		return { message: error.message, description: error.description, resCode: error.context?.resCode, code: error.context?.code };
	}
	const json = run.result.items[1].json;
	return { message: json.error, description: json.description, resCode: json.resCode, code: json.code };
}

/** The failures of the node name the item (the middle one); the trigger's re-check is of no item. */
const namedItem = (cell: Cell) => cell.operation.kind !== 'trigger';

const WHAT_TO_DO = /\b(check|run again|raise|lower|try|contact|fix|ask|wait|delete|offer)\b/i;
const CHECK_STATUS_FIRST = /before[^.]*again.*Status → Get by (Order|Payment) ID|Status → Get by (Order|Payment) ID[^.]*before/i;
const UNREADABLE = new Set(['endless', 'truncated', 'empty', 'huge', 'deep']);

/** Requirements every failure meets. */
const REQUIREMENTS = {
	/** The gateway's or the proxy's status, or the network code, the fault calls for. */
	carriesCode(cell: Cell, failure: Failure) {
		expect(typeof failure.resCode === 'number' || (typeof failure.code === 'string' && failure.code !== '')).toBe(true);
		const { resCode, code } = cell.fault.expected;
		if (resCode !== undefined) expect(failure.resCode).toBe(resCode);
		if (code !== undefined) expect(failure.code).toBe(code);
	},
	/** Advice can be followed: no option the operation lacks (writes and the trigger have no Max Retries or Concurrency). */
	namesOnlyItsOptions(cell: Cell, failure: Failure) {
		if (cell.operation.kind !== 'read') expect(failure.description).not.toMatch(/Max Retries|Concurrency/);
	},
	/** The node names the failed item at the end of the message, as n8n's nodes do; the trigger's re-check has none. */
	namesTheItem(cell: Cell, failure: Failure) {
		expect(failure.message).toMatch(namedItem(cell) ? / \[item 1\]$/ : /^(?![\s\S]*\[item)/);
	},
};

function expectFailure(cell: Cell, failure: Failure) {
	const { fault, operation } = cell;
	expect(failure.message).toEqual(expect.any(String));
	expect(failure.description).toMatch(WHAT_TO_DO);
	if (fault.timesOut) {
		const item = namedItem(cell) ? ' [item 1]' : '';
		expect(withoutSubject(failure.message as string)).toBe(`${operation.label}: the gateway did not answer within the time-out of ${TIMEOUT} ms${item}`);
	}
	if (operation.kind === 'write' && !fault.refusedUnprocessed) expect(failure.description).toMatch(CHECK_STATUS_FIRST);
	for (const requirement of Object.values(REQUIREMENTS)) requirement(cell, failure);
}

/** The failure of the middle item, when the cell has one (reads given retries recover). */
function failureIfAny(cell: Cell): Failure | undefined {
	const run = runs.get(cell.id);
	if (!run || cell.operation.kind === 'local') return undefined;
	if (cell.mode === 'stop') return run.result.error ? failureOf(run, 'stop') : undefined;
	const middle = run.result.items[1]?.json ?? {};
	return middle.error === undefined && middle.recheckError === undefined ? undefined : failureOf(run, cell.mode);
}

/** The transport's first back-off when the gateway names no Retry-After. */
const BACK_OFF_MS = 500;

/** The retry of the middle item waited as asked: Retry-After, else the back-off (after the time-out, if any). */
function expectWaitedAsAsked(run: CellRun, itemRequests: LoggedRequest[]) {
	const [faulted, retried] = itemRequests;
	const retryAfter = run.armed?.retryAfter;
	const minimum =
		typeof retryAfter === 'number'
			? retryAfter * 1000
			: typeof retryAfter === 'string'
				? Date.parse(retryAfter) - Date.parse(faulted.time)
				: BACK_OFF_MS;
	// From arrival to arrival, which holds the whole wait whatever a busy machine delays: a sound lower bound. That
	// the wait is no longer than asked is shown where no load can move it: retryDelayMs's unit tests.
	expect(msBetween(faulted, retried)).toBeGreaterThanOrEqual(minimum - 20);
}

function checkCell(cell: Cell) {
	const run = runs.get(cell.id);
	expect(run).toBeDefined();
	const { result, prepared } = run!;
	const { operation, fault, mode } = cell;
	expect(run!.leaks).toEqual([]);
	// Bounded by the time-out: a fault that never ends by itself (a hang) or only after 16 s (a slow body) was ended
	// by the node hanging up, as the sandbox saw. Who ended the exchange, not how long it took: load moves only that.
	if (cell.fault.timesOut) expect(run!.requests.filter((request) => request.fault && request.answered)).toEqual([]);
	const retries = mode === 'retry' && (operation.kind === 'read' || operation.kind === 'trigger');

	if (operation.kind === 'local') {
		expect(run!.requests).toEqual([]);
		expect(run!.pendingFaults).toBe(1);
		expect(result.items.map((item) => item.json)).toEqual(prepared.outputs);
		return;
	}

	const perItem = requestsPerItem(run!.requests, prepared.keys);
	if (operation.kind === 'trigger') {
		// Every notification is answered 200 and starts one execution.
		expect(run!.answers!.map((answer) => answer.status)).toEqual([200, 200, 200]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(result.items[0].json).toMatchObject(prepared.outputs[0]);
		expect(result.items[2].json).toMatchObject(prepared.outputs[2]);
		// The gateway hears back before the re-check has ended: its answer sent, or the node hanging up on it. An order
		// of events on one monotonic clock, not a time limit: the trigger answers before it sends the re-check.
		const firstOf = prepared.keys.map((key) => run!.requests.find((request) => request.path.includes(key))!);
		run!.answers!.forEach((answer, item) => expect(answer.answeredAtMs).toBeLessThan(firstOf[item].closedAtMs!));
		if (retries) {
			expect(result.items[1].json).toMatchObject(prepared.outputs[1]);
			expect(perItem).toEqual([1, 2, 1]);
			expectWaitedAsAsked(run!, run!.requests.filter((request) => request.path.includes(prepared.keys[1])));
			return;
		}
		const { orderId, paymentId } = prepared.items[1];
		expect(result.items[1].json).toMatchObject({ orderId, paymentId, notifiedStatus: 'success', statusVerified: false });
		expect(result.items[1].json.status).toBeUndefined();
		expect(perItem).toEqual([1, 1, 1]);
		expectFailure(cell, failureOf(run!, mode));
		return;
	}
	if (mode === 'stop') {
		expect(result.items).toEqual([]);
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(perItem).toEqual([1, 1, 0]);
		expectFailure(cell, failureOf(run!, mode));
		return;
	}

	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	expect(result.items[0].json).toMatchObject(prepared.outputs[0]);
	expect(result.items[2].json).toMatchObject(prepared.outputs[2]);
	if (retries && operation.name === 'digitalCard.delete' && fault.processed) {
		// The first attempt removed the card and its answer was lost; the retry finds no card. That 404 is no deletion
		// the node can vouch for: an error saying the card is gone and that this run cannot tell who removed it.
		expect(result.items[1].json).toMatchObject({ resCode: 404, description: expect.stringMatching(/cannot tell whether it deleted it/) });
		expect(result.items[1].json.deleted).toBeUndefined();
		expect(perItem).toEqual([1, 2, 1]);
		return;
	}
	if (retries) {
		expect(result.items[1].json).toMatchObject(prepared.outputs[1]);
		expect(perItem).toEqual([1, 2, 1]);
		const middle = run!.requests.filter((request) => request.path.includes(prepared.keys[1]));
		expectWaitedAsAsked(run!, middle);
		return;
	}
	expect(perItem).toEqual([1, 1, 1]);
	expect(Object.keys(result.items[1].json)).not.toContain('orderId');
	expectFailure(cell, failureOf(run!, mode));
}

describe.each(MODES)('%s', (mode) => {
	for (const cell of cells.filter((candidate) => candidate.mode === mode)) {
		it(`${cell.operation.name} × ${cell.fault.name}`, () => {
			checkCell(cell);
			passed.add(cell.id);
		});
	}
});

describe('the leak search', () => {
	it('searched the errors the node threw, with their stacks, and the whole run of every cell', () => {
		const sending = cells.filter((cell) => cell.operation.kind !== 'local');
		for (const cell of sending.filter((candidate) => candidate.mode === 'stop')) {
			expect(runs.get(cell.id)?.searched).toMatchObject({ thrownErrors: 1, stack: true });
		}
		const bytes = cells.reduce((sum, cell) => sum + (runs.get(cell.id)?.searched.bytes ?? 0), 0);
		expect(bytes).toBeGreaterThan(cells.length * 2000);
	});

	it('finds the card data of the matrix where it would be', () => {
		const terms = { secrets: expiryFragments(EXPIRY_MONTH, EXPIRY_YEAR), cards: [CARD], cvvs: [CVV] };
		const plaintext = JSON.stringify({ cardNumber: CARD, cardExpMonth: EXPIRY_MONTH, cardExpYear: EXPIRY_YEAR, cardCVV: CVV });
		expect(findLeaks({ error: { cause: { body: plaintext } } }, terms)).toHaveLength(5);
		expect(findLeaks({ message: `card ${CARD.slice(0, 6)} ${CARD.slice(6)}` }, terms)).toHaveLength(1);
		// A stack frame's position is not data; the CVV anywhere else is.
		expect(findLeaks({ stack: `Error: x\n    at run (/app/dist/a.js:12:${CVV})\n    at b (/app/b.js:${CVV}:5)` }, terms)).toEqual([]);
		expect(findLeaks({ stack: `Error: cvv ${CVV}\n    at run (/app/dist/a.js:12:5)` }, terms)).toEqual([`contains the CVV ${CVV}`]);
	});
});

/** What happened in a cell, in a few characters: the middle item's outcome and how often it reached the sandbox. */
function outcome(cell: Cell): string {
	const run = runs.get(cell.id);
	if (!run) return 'not run';
	if (cell.operation.kind === 'local') return `${run.requests.length} req`;
	const sent = requestsPerItem(run.requests, run.prepared.keys)[1];
	let what: string;
	if (cell.mode === 'stop') {
		const failure = failureOf(run, 'stop');
		what = `stop ${String(failure.resCode ?? failure.code ?? '-')}`;
	} else if (!failureIfAny(cell)) {
		what = 'ok';
	} else {
		const failure = failureOf(run, cell.mode);
		what = `err ${String(failure.resCode ?? failure.code ?? '-')}`;
	}
	return `${what} ${sent}x${passed.has(cell.id) ? '' : ' FAIL'}`;
}

afterAll(() => {
	const tables = MODES.map((mode) => {
		const columns = OPERATIONS.filter((operation) => modesOf(operation).includes(mode));
		const header = ['fault', ...columns.map((operation) => operation.name.split('.')[operation.kind === 'trigger' ? 0 : 1])];
		const rows = FAULTS.map((fault) => [
			fault.name,
			...columns.map((operation) => outcome(cells.find((c) => c.operation === operation && c.fault === fault && c.mode === mode)!)),
		]);
		return `${MODE_TITLES[mode]} (middle item: outcome, requests it made):\n${textTable([header, ...rows])}`;
	});
	const nodeOperations = OPERATIONS.filter((operation) => operation.kind !== 'trigger').length;
	const counts =
		`Fault matrix: ${nodeOperations} operations × ${FAULTS.length} faults × ${MODES.length} modes + the trigger's re-check × ` +
		`${FAULTS.length} faults × 2 modes = ${cells.length} cells, ${passed.size} passed, ${cells.length - passed.size} failed`;
	// Through jest's console: it prints a file's output in one piece, where workers writing at once would interleave.
	console.log(`\n${tables.join('\n\n')}\n\n${counts}\n`);
});
