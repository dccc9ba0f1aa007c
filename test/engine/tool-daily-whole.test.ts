import type { IDataObject } from 'n8n-workflow';

import { PaymentGatewayApi } from '../../credentials/PaymentGatewayApi.credentials';
import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import type { RunAsToolOptions, RunAsToolResult } from '../support/agent';
import { runAsTool } from '../support/agent';
import { createOrder, initiatePayment, sandboxCredentials, useSandboxBehindProxy } from '../support/fixtures';
import { refundTool as refundToolOf } from '../support/tool';

// Maximum Total per Day cannot be made to forget (issue 41, item 3). Here each execution gets its own copy of the
// workflow's static data as saved, and saves it whole when it ends if it changed, the last save winning: what n8n does
// with its database (WorkflowStaticDataService, workflowExecuteAfter). A restart is the node's module loaded afresh
// (a new process memory) reading the static data as last saved.

// The proxy in front of the sandbox, for executions held open: it holds a request until the test lets it pass.
const { sandbox, proxy } = useSandboxBehindProxy();
/** The executions held open: a test that fails midway leaves none behind to keep jest from ending. */
const held = new Set<() => void>();
afterEach(() => {
	for (const release of held) release();
	held.clear();
});


/** A refund tool: 10 per call, 20 per execution, 25 a day (unless told), in USD. */
const refundTool = (daily = 25) => refundToolOf({ toolLimitCurrency: 'USD', toolMaxAmount: 10, toolMaxTotal: 20, toolMaxDaily: daily });
const DAILY = 25;

let workflows = 0;
/** One workflow's row in n8n's database: its static data as last saved. */
class SavedWorkflow {
	readonly id = `whole-${++workflows}-${Date.now()}`;
	saved = '{}';

	constructor(private readonly parameters: IDataObject = refundTool()) {}
	/** The node as the n8n process running the executions loaded it; restart() loads it afresh. */
	node: typeof PaymentGateway = PaymentGateway;

	restart(): void {
		this.node = restartedNode();
	}

	/** What the last save's ledger holds: counters, thousandths each. */
	savedCounters(): Record<string, number> {
		const saved = JSON.parse(this.saved) as Record<string, { toolSpentLast24h?: Record<string, number> }>;
		return saved['node:Payment Gateway']?.toolSpentLast24h ?? {};
	}

	/** What the last save's ledger holds, in USD. */
	savedTotal(): number {
		return Object.values(this.savedCounters()).reduce((sum, amount) => sum + amount, 0) / 1000;
	}

	/** An execution of the tool (one chat message, one MCP call), from its start to its save. */
	async execution(calls: RunAsToolOptions['calls'], nodeType: typeof PaymentGateway = this.node, throughProxy = false, parallel = false): Promise<RunAsToolResult> {
		const staticData = JSON.parse(this.saved) as IDataObject;
		const result = await runAsTool({
			nodeType,
			credentialType: PaymentGatewayApi,
			credentials: throughProxy
				? sandboxCredentials(sandbox, { baseUrl: proxy.url + new URL(sandbox.baseUrl).pathname, checkoutBaseUrl: proxy.url })
				: sandboxCredentials(sandbox),
			parameters: this.parameters as RunAsToolOptions['parameters'],
			calls,
			parallel,
			mode: 'webhook',
			workflowId: this.id,
			staticData,
		});
		// n8n saves the execution's copy whole, only when something in it changed.
		if ((staticData as { __dataChanged?: boolean }).__dataChanged === true) this.saved = JSON.stringify(staticData);
		return result;
	}
}

/** The node as a restarted n8n loads it: the same code, a fresh memory. */
function restartedNode(): typeof PaymentGateway {
	let loaded: typeof PaymentGateway | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		loaded = (require('../../nodes/PaymentGateway/PaymentGateway.node') as { PaymentGateway: typeof PaymentGateway }).PaymentGateway;
	});
	return loaded!;
}

/** A paid payment of `amount` USD made outside the agent; its paymentId. */
async function paidPayment(amount: number): Promise<string> {
	const orderId = await createOrder(sandbox, { amount });
	const record = await sandbox.completeAuthentication(await initiatePayment(sandbox, orderId), 'success');
	return record.paymentId;
}

/** What the gateway refunded, in USD: every refund it accepted. */
const refunded = () =>
	sandbox.requests
		.filter((request) => request.path.endsWith('/transaction/refund') && request.status === 200)
		.reduce((sum, request) => sum + Number((JSON.parse(request.body) as { amount: number }).amount), 0);


/**
 * An execution held open: it moves `first`, then holds `second` while its read of another payment is held at the
 * proxy; it ends, nothing more moved, when `release` lets that read pass and the gateway answers it 404.
 */
async function heldOpen(workflow: SavedWorkflow, first: number, second: number) {
	const paymentId = await paidPayment(500);
	const stalled = await paidPayment(500);
	const path = `/transaction/status/${stalled}`;
	const read = proxy.holdMatching(path);
	const calls = [{ args: { paymentId, amount: first } }, { args: { paymentId: stalled, amount: second } }];
	const before = refunded();
	const running = workflow.execution(calls, workflow.node, true);
	await read.arrived;
	const moved = refunded() - before;
	const letGo = () => {
		held.delete(letGo);
		sandbox.injectFault({ match: path, status: 404, body: { resCode: 404, status: 'failure', errMessage: 'Payment not found' } });
		read.release();
	};
	held.add(letGo);
	return {
		moved,
		async release() {
			letGo();
			const result = await running;
			expect(result.answers[1].error).toMatch(/Payment not found|404/);
			return result;
		},
	};
}

it('256 refused calls with an execution held open leave the day whole after its save and a restart', async () => {
	const paymentId = await paidPayment(500);
	const workflow = new SavedWorkflow();
	// A: a chat execution that moves 10, then holds 10 more while it waits on the gateway.
	const a = await heldOpen(workflow, 10, 10);
	expect(a.moved).toBe(10);
	// 256 harmless calls, each an execution of its own, refused: 10 moved and 10 held leave 5 of the 25.
	for (let call = 0; call < 256; call++) {
		const refused = await workflow.execution([{ args: { paymentId, amount: 10 } }]);
		expect(refused.answers[0].error).toMatch(/Maximum Total per Day of 25 USD/);
	}
	// B moves 5 while A is still open; then A's read fails, its 10 are given back, and A ends last and saves.
	expect((await workflow.execution([{ args: { paymentId, amount: 5 } }])).answers[0].answer).toBeDefined();
	await a.release();
	// After a restart, the day reads the 15 that moved: 10 more may move, not 15 (a stale copy would say 10 moved).
	const after = await workflow.execution([{ args: { paymentId, amount: 10 } }, { args: { paymentId, amount: 5 } }], restartedNode());
	expect(refunded()).toBeLessThanOrEqual(DAILY);
	expect(after.answers[1].error).toMatch(/it has moved 25 USD in the last 24 hours/);
}, 120_000);

/** `count` counters of other processes, 0.001 USD each, in the current ten minutes: a ledger as full as wanted. */
function savedWithCounters(count: number): string {
	const minute = Math.floor(Date.now() / 600_000) * 10;
	const counters = Object.fromEntries(Array.from({ length: count }, (_, index) => [`${(0xf0000000 + index).toString(16)}:${minute}`, 1]));
	return JSON.stringify({ 'node:Payment Gateway': { toolSpentLast24h: counters } });
}

/** toolLedger.ts's MAX_ENTRIES, written out: the bound the docs state. */
const BOUND = 10_000;

it('at its bound of entries the ledger refuses a write, naming the bound, and forgets nothing', async () => {
	const paymentId = await paidPayment(500);
	const workflow = new SavedWorkflow();
	workflow.saved = savedWithCounters(BOUND);
	sandbox.clearLog();
	const refused = await workflow.execution([{ args: { paymentId, amount: 5 } }]);
	expect(refused.answers[0].error).toMatch(
		/^Refused: this tool's count for its Maximum Total per Day is full: it holds 10000 entries of the last 24 hours, its bound of 10000, and it forgets none of them, so it may not make any refund now; it frees up at \d{4}-\d\d-\d\d \d\d:\d\d UTC\. Nothing was sent/,
	);
	expect(sandbox.requests.filter((request) => request.path.includes('/transaction/'))).toEqual([]);
	// Its save holds every entry, and a restarted n8n refuses the same way.
	expect(Object.keys(workflow.savedCounters())).toHaveLength(BOUND);
	expect(workflow.savedTotal()).toBe(10);
	workflow.restart();
	expect((await workflow.execution([{ args: { paymentId, amount: 5 } }])).answers[0].error).toMatch(/its bound of 10000/);
	expect(refunded()).toBe(0);
});

it('one entry below its bound, a call is sent and fills it; the next call is refused; every entry is saved', async () => {
	const paymentId = await paidPayment(500);
	const workflow = new SavedWorkflow();
	workflow.saved = savedWithCounters(BOUND - 1);
	expect((await workflow.execution([{ args: { paymentId, amount: 5 } }])).answers[0].answer).toBeDefined();
	expect(Object.keys(workflow.savedCounters())).toHaveLength(BOUND);
	expect((await workflow.execution([{ args: { paymentId, amount: 1 } }])).answers[0].error).toMatch(/is full: it holds 10000 entries/);
	expect(refunded()).toBe(5);
	expect(workflow.savedTotal()).toBe(9.999 + 5);
});

it('one entry below its bound, calls at once: only one may take the last entry', async () => {
	const paymentId = await paidPayment(500);
	const workflow = new SavedWorkflow();
	workflow.saved = savedWithCounters(BOUND - 1);
	sandbox.setLatency(50);
	const answers = (await workflow.execution([1, 2, 3].map((amount) => ({ args: { paymentId, amount } })), undefined, false, true)).answers;
	sandbox.setLatency(0);
	// Each call in flight may need an entry of its own when it settles: the first holds the last one.
	expect(answers.filter((answer) => answer.answer !== undefined)).toHaveLength(1);
	expect(answers.filter((answer) => answer.error?.includes('is full: it holds 9999 entries of the last 24 hours, and calls under way (1) may each need one more, its bound of 10000'))).toHaveLength(2);
	expect(Object.keys(workflow.savedCounters()).length).toBeLessThanOrEqual(BOUND);
});

it('a model repeating calls: executions open at once, calls sent and refused interleaved, ends in any order, restarts: every save holds all that moved', async () => {
	const paymentId = await paidPayment(5000);
	const daily = 100;
	const workflow = new SavedWorkflow(refundTool(daily));
	let seed = 41;
	const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
	const open: Array<Awaited<ReturnType<typeof heldOpen>>> = [];
	const moved = refunded;
	// After any execution's save, the save holds all that moved, and the 1 each execution still open holds: a save
	// counts calls in flight as moved (they may move before a restart that knows only the store).
	const saveHoldsAll = () => expect(workflow.savedTotal()).toBe(moved() + open.length);
	const counts = { held: 0, released: 0, restarts: 0, sent: 0, refused: 0 };
	const release = async () => {
		const [one] = open.splice(Math.floor(random() * open.length), 1);
		await one.release();
		counts.released++;
		saveHoldsAll();
	};
	for (let step = 0; step < 150; step++) {
		const roll = random();
		if (roll < 0.2 && counts.held < 12 && open.length < 6 && daily - moved() - open.length >= 2) {
			// Moves 1 and holds 1 while it stays open.
			open.push(await heldOpen(workflow, 1, 1));
			counts.held++;
		} else if (roll < 0.4 && open.length > 0) {
			await release();
		} else if (roll < 0.45 && open.length === 0) {
			// n8n stops only once its executions have ended; the next process reads the last save.
			workflow.restart();
			counts.restarts++;
		} else {
			const amount = [0.5, 1, 2, 5, 10][Math.floor(random() * 5)];
			const { answers } = await workflow.execution([{ args: { paymentId, amount } }]);
			if (answers[0].answer === undefined) {
				expect(answers[0].error).toMatch(/Maximum Total per Day/);
				counts.refused++;
			} else counts.sent++;
			saveHoldsAll();
		}
		expect(moved()).toBeLessThanOrEqual(daily);
	}
	while (open.length > 0) await release();
	expect(counts.held).toBeGreaterThanOrEqual(8);
	expect(counts.restarts).toBeGreaterThan(1);
	expect(counts.refused).toBeGreaterThan(30);
	// Spent to the last cent, and after a restart still so.
	expect(moved()).toBe(daily);
	workflow.restart();
	expect((await workflow.execution([{ args: { paymentId, amount: 0.5 } }])).answers[0].error).toMatch(/it has moved 100 USD in the last 24 hours/);
}, 300_000);

it('executions that read the save before others moved, and end last without moving, save all that moved', async () => {
	const paymentId = await paidPayment(500);
	const workflow = new SavedWorkflow(refundTool(40));
	// Five executions open at once, each having moved 1 and holding 1; each read the save as it was when it began.
	const open = [];
	for (let one = 0; one < 5; one++) open.push(await heldOpen(workflow, 1, 1));
	expect((await workflow.execution([{ args: { paymentId, amount: 10 } }])).answers[0].answer).toBeDefined();
	// They end in the order they began, the first having read an empty save: each save holds the 15 that moved, and
	// the 1 that each execution still open holds (a save counts calls in flight as moved); the last save exactly 15.
	for (const [index, one] of open.entries()) {
		await one.release();
		expect(workflow.savedTotal()).toBe(15 + (open.length - 1 - index));
	}
	workflow.restart();
	const after = await workflow.execution([{ args: { paymentId, amount: 10 } }, { args: { paymentId, amount: 10 } }]);
	expect(after.answers.map((answer) => answer.answer !== undefined)).toEqual([true, true]);
	const last = await workflow.execution([{ args: { paymentId, amount: 10 } }, { args: { paymentId, amount: 5 } }]);
	expect(last.answers[0].error).toMatch(/Maximum Total per Day of 40 USD: it has moved 35 USD in the last 24 hours, 5 USD left/);
	expect(last.answers[1].answer).toBeDefined();
}, 120_000);
