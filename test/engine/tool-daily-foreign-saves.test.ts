/* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-explicit-any -- test code, not shipped */
import type { IDataObject } from 'n8n-workflow';
import { NodeConnectionTypes, Workflow, createRunExecutionData, sleep } from 'n8n-workflow';

import { PaymentGatewayApi } from '../../credentials/PaymentGatewayApi.credentials';
import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import { AGENT_DESCRIPTION, toolVariantOf } from '../support/agent';
import { sandboxCredentials, useSandboxBehindProxy } from '../support/fixtures';
import { fromAI, paidRecord, refundTool } from '../support/tool';

// Saves the daily ledger must survive (attack41). n8n saves the whole static data of an execution (every node's part
// and the global one) when anything in it changed, the last save winning. (1) An execution that loaded the store
// before others moved money, never touched the refund tool, but changed another node's static data (the same agent's
// Verify Signature tool) saves last: the ledger is linked into the global static data of every execution a node of
// this package runs in, so that save holds it. (2) n8n saves a failed execution at once, a refund of it still out: a
// save counts calls in flight as moved. In both a restarted n8n, which reads only the store, finds the day spent.

const { ensureSetup, internals } = require('../support/engine');
const { HarnessNodeTypes, HarnessCredentialsHelper, harnessNode, registerNodeType, setUpCredentials, executeWorkflow, latestVersion } = internals;

const { sandbox, proxy } = useSandboxBehindProxy({ reset: false });

const REFUND = refundTool({ toolLimitCurrency: 'USD', toolMaxAmount: 10, toolMaxTotal: 20, toolMaxDaily: 25 });
const VERIFY = {
	resource: 'status',
	operation: 'verifySignature',
	orderId: fromAI('orderId', 'The orderId of the record'),
	paymentId: fromAI('paymentId', 'The paymentId of the record'),
	signature: fromAI('signature', 'The signature of the record'),
};

interface Call {
	tool: 'Refund' | 'Verify';
	args: IDataObject;
	/** Invoked and not waited for; then the agent fails (a model error while a parallel tool call is still out). */
	detachThenFail?: boolean;
}

/** Tool calls left in flight by an agent that failed. */
const detached: Array<Promise<unknown>> = [];

/** An agent that calls its tools by name, in turn. */
function agentOf(calls: Call[]) {
	return {
		description: AGENT_DESCRIPTION,
		async execute(this: any) {
			const supplied = await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0);
			const tools = (Array.isArray(supplied) ? supplied : [supplied]).flatMap((tool: any) => tool.tools ?? [tool]);
			const answers = [];
			for (const call of calls) {
				const tool = tools.find((candidate: any) => candidate.name === call.tool);
				if (!tool) throw new Error(`no tool ${call.tool} among ${tools.map((candidate: any) => candidate.name).join(', ')}`);
				if (call.detachThenFail) {
					detached.push(tool.invoke(call.args).catch((error: Error) => error));
					// Let the call reach the gateway before the agent fails.
					await sleep(300);
					throw new Error('The model failed while a tool call was still out');
				}
				try {
					answers.push({ answer: await tool.invoke(call.args) });
				} catch (error) {
					answers.push({ error: (error as Error).message });
				}
			}
			return [[{ json: { answers } }]];
		},
	};
}

/** A workflow of its own for each test: the process's memory of one would spend another's budget. */
let WORKFLOW_ID = '';
beforeEach(() => {
	WORKFLOW_ID = `attack41-two-tools-${Date.now()}-${Math.random()}`;
});

/** One execution of the agent workflow (Refund and Verify tools) on `staticData` as it loaded it; n8n's whole save. */
async function execution(nodeType: typeof PaymentGateway, staticData: IDataObject, calls: Call[], save: (text: string) => void, credentials_ = sandboxCredentials(sandbox)) {
	ensureSetup();
	const nodeTypes = new HarnessNodeTypes();
	nodeTypes.register('n8n-nodes-harness.agent', agentOf(calls));
	const { nodeType: registered, fullTypeName } = registerNodeType(nodeTypes, toolVariantOf(nodeType));
	const credentialsHelper = new HarnessCredentialsHelper(nodeTypes);
	const credentials = setUpCredentials(credentialsHelper, { credentialType: PaymentGatewayApi, credentials: credentials_ });
	const tool = (name: string, parameters: IDataObject, y: number) =>
		harnessNode({ id: `tool-${name}`, name, type: fullTypeName, typeVersion: latestVersion(registered), position: [0, y], parameters, credentials });
	const agent = { id: 'agent', name: 'Agent', type: 'n8n-nodes-harness.agent', typeVersion: 1, position: [0, 0], parameters: {} };
	const toAgent = { [NodeConnectionTypes.AiTool]: [[{ node: 'Agent', type: NodeConnectionTypes.AiTool, index: 0 }]] };
	const workflow = new Workflow({
		id: WORKFLOW_ID,
		staticData,
		name: 'Agent with two tools',
		nodes: [agent, tool('Refund', REFUND, 200), tool('Verify', VERIFY, 400)],
		connections: { Refund: toAgent, Verify: toAgent },
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});
	const runExecutionData = createRunExecutionData({
		executionData: { nodeExecutionStack: [{ node: workflow.getNode('Agent')!, data: { main: [[{ json: {} }]] }, source: null }] },
	});
	const { run } = await executeWorkflow({ workflow, mode: 'webhook', credentialsHelper, runExecutionData });
	if ((staticData as { __dataChanged?: boolean }).__dataChanged === true || (workflow.staticData as { __dataChanged?: boolean }).__dataChanged === true) {
		save(JSON.stringify(workflow.staticData));
	}
	const output = run.data.resultData.runData.Agent?.[0]?.data?.main?.[0]?.[0]?.json ?? {};
	return (output.answers ?? []) as Array<{ answer?: string; error?: string }>;
}

function restartedNode(): typeof PaymentGateway {
	let loaded: typeof PaymentGateway | undefined;
	jest.isolateModules(() => {
		loaded = (require('../../nodes/PaymentGateway/PaymentGateway.node') as { PaymentGateway: typeof PaymentGateway }).PaymentGateway;
	});
	return loaded!;
}

/** The Refund tool's ledger in a save, in USD: its node's copy and the workflow's global one, the larger of each counter. */
function inStoreOf(saved: string): number {
	const store = JSON.parse(saved) as Record<string, IDataObject>;
	const copies = [store['node:Refund']?.toolSpentLast24h, (store.global?.toolSpentLast24h as IDataObject | undefined)?.Refund] as Array<Record<string, number> | undefined>;
	const counters: Record<string, number> = {};
	for (const copy of copies) for (const [counter, amount] of Object.entries(copy ?? {})) counters[counter] = Math.max(counters[counter] ?? 0, amount);
	return Object.values(counters).reduce((sum, amount) => sum + amount, 0) / 1000;
}

const refunded = () =>
	sandbox.requests
		.filter((request) => request.path.endsWith('/transaction/refund') && request.status === 200)
		.reduce((sum, request) => sum + Number((JSON.parse(request.body) as { amount: number }).amount), 0);

/** n8n restarts (the node's memory afresh, the store as last saved) and the model makes these calls: sent or refused. */
const askedAfterRestart = async (saved: string, save: (text: string) => void, calls: Call[]) =>
	(await execution(restartedNode(), JSON.parse(saved), calls, save)).map((answer) => (answer.answer !== undefined ? 'sent' : 'refused'));

it('an execution that loaded the store early and changed only another node’s static data (the agent’s Verify Signature tool) saves the whole ledger; after a restart the day is spent', async () => {
	const record = await paidRecord(sandbox, { amount: 500 });
	const { paymentId } = record;
	let saved = '{}';
	const save = (text: string) => (saved = text);
	// X: a chat message whose agent takes its time; n8n loaded the store as X began.
	const loadedByX = JSON.parse(saved) as IDataObject;
	// Meanwhile two other messages refund the whole day's budget, each saved as it ends.
	const refund = (amount: number): Call => ({ tool: 'Refund', args: { paymentId, amount } });
	expect((await execution(PaymentGateway, JSON.parse(saved), [refund(10), refund(10)], save)).every((answer) => answer.answer !== undefined)).toBe(true);
	expect((await execution(PaymentGateway, JSON.parse(saved), [refund(5)], save))[0].answer).toBeDefined();
	expect(refunded()).toBe(25);
	// X now only verifies a record (Verify Signature remembers it in its own static data) and ends last.
	const verify: Call = { tool: 'Verify', args: { orderId: record.orderId, paymentId, signature: record.signature } };
	const answers = await execution(PaymentGateway, loadedByX, [verify], save);
	expect(answers[0].answer).toMatch(/"signatureValid":true/);
	// Every save must hold what moved in the last 24 hours.
	const inStore = inStoreOf(saved);
	// n8n restarts; the model asks again.
	const after = await askedAfterRestart(saved, save, [refund(10), refund(10)]);
	expect({ inStore, refunded: refunded(), after }).toEqual({
		inStore: 25,
		refunded: 25,
		after: ['refused', 'refused'],
	});
}, 60_000);

it('a refund still in flight when its execution fails counts as moved in its save; after a restart the day does not move it again', async () => {
	const record = await paidRecord(sandbox, { amount: 500 });
	const { paymentId } = record;
	let saved = '{}';
	const save = (text: string) => (saved = text);
	const throughProxy = sandboxCredentials(sandbox, { baseUrl: proxy.url + new URL(sandbox.baseUrl).pathname, checkoutBaseUrl: proxy.url });
	const held = proxy.holdMatching('/transaction/refund');
	// A: the model asks for a refund of 10 and fails while it is out; n8n saves A's static data as A ends.
	const running = execution(PaymentGateway, JSON.parse(saved), [{ tool: 'Refund', args: { paymentId, amount: 10 }, detachThenFail: true }], save, throughProxy);
	await held.arrived;
	await running;
	// The refund goes through afterwards; no other execution of the tool ends before n8n restarts.
	held.release();
	await Promise.all(detached);
	expect(refunded()).toBe(10);
	const inStore = inStoreOf(saved);
	const refund = (amount: number): Call => ({ tool: 'Refund', args: { paymentId, amount } });
	const after = await askedAfterRestart(saved, save, [refund(10), refund(10)]);
	expect({ inStore, refunded: refunded(), after }).toEqual({
		inStore: 10,
		refunded: 20,
		after: ['sent', 'refused'],
	});
}, 60_000);
