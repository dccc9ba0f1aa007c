import type { IDataObject } from 'n8n-workflow';

import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import type { RunAsToolOptions } from '../support/agent';
import { useSandbox } from '../support/fixtures';
import { paidPayment as paidPaymentOf, refundTool as refundToolOf, runPaymentTool } from '../support/tool';

// Maximum Total per Day, through n8n's engine: a chat agent makes one execution per message and an MCP client one per
// call, so what a tool moves is bounded across executions. Each run below is one execution; they share the workflow's
// static data as n8n's database keeps it between executions (n8n saves it for every mode but manual runs).

const sandbox = useSandbox();

let workflows = 0;
const refundTool = (limits: IDataObject) => refundToolOf({ toolLimitCurrency: 'USD', ...limits });

/** One execution of the tool (one chat message, one MCP call) with these calls, on the workflow's static data. */
async function execution(workflow: { id: string; staticData: IDataObject }, parameters: IDataObject, calls: RunAsToolOptions['calls'], extra: Partial<RunAsToolOptions> = {}) {
	return await runPaymentTool(sandbox, parameters, calls, { mode: 'webhook', workflowId: workflow.id, staticData: workflow.staticData, ...extra });
}

const newWorkflow = () => ({ id: `daily-${++workflows}-${Date.now()}`, staticData: {} as IDataObject });

/** A paid payment of `amount` USD made outside the agent; its paymentId. */
const paidPayment = (amount: number) => paidPaymentOf(sandbox, { amount });

const refundsSent = () => sandbox.requests.filter((request) => request.path.endsWith('/transaction/refund')).length;

it('a Maximum Amount per Call without a Maximum Total per Day refuses, nothing sent', async () => {
	const paymentId = await paidPayment(50);
	const result = await execution(newWorkflow(), refundTool({ toolMaxAmount: 10 }), [{ args: { paymentId, amount: 5 } }]);
	expect(result.answers[0].error).toMatch(/^Refused: this tool's Maximum Total per Day is 0 \(not set\)/);
	expect(sandbox.requests).toEqual([]);
});

it('10 per call, 10 per execution, 30 per day, on a payment of 500: 8 executions of one 10 refund each send exactly 3', async () => {
	const paymentId = await paidPayment(500);
	const workflow = newWorkflow();
	const answers = [];
	for (let message = 0; message < 8; message++) {
		answers.push((await execution(workflow, refundTool({ toolMaxAmount: 10, toolMaxTotal: 10, toolMaxDaily: 30 }), [{ args: { paymentId, amount: 10 } }])).answers[0]);
	}
	expect(refundsSent()).toBe(3);
	expect(answers.slice(0, 3).every((answer) => answer.answer !== undefined)).toBe(true);
	for (const answer of answers.slice(3)) {
		expect(answer.error).toMatch(/^Refused: a refund of 10 USD would take this tool above its Maximum Total per Day of 30 USD: it has moved 30 USD in the last 24 hours, 0 USD left\. Enough for it frees up at \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
	}
	// Amounts only: no payment id a model could read back.
	expect(JSON.stringify(workflow.staticData)).not.toContain(paymentId);
});

it('executions at the same moment in one process never spend more than the day together', async () => {
	const paymentId = await paidPayment(500);
	const workflow = newWorkflow();
	sandbox.setLatency(100);
	const parameters = refundTool({ toolMaxAmount: 10, toolMaxTotal: 10, toolMaxDaily: 30 });
	const results = await Promise.all(Array.from({ length: 6 }, async () => await execution(workflow, parameters, [{ args: { paymentId, amount: 10 } }])));
	// However the six interleave (a busy machine may run them one after another), three are sent and three refused.
	expect(refundsSent()).toBe(3);
	expect(results.filter((result) => result.answers[0].error?.includes('Maximum Total per Day'))).toHaveLength(3);
});

it('a refund the gateway refused (4xx) gives its amount back to the day; one whose answer was lost does not', async () => {
	const paymentId = await paidPayment(500);
	const workflow = newWorkflow();
	const parameters = refundTool({ toolMaxAmount: 10, toolMaxTotal: 10, toolMaxDaily: 20 });
	sandbox.injectFault({ match: '/transaction/refund', status: 400, body: { resCode: 400, status: 'failure', errMessage: 'Refund refused' } });
	expect((await execution(workflow, parameters, [{ args: { paymentId, amount: 10 } }])).answers[0].error).toMatch(/Refund refused/);
	sandbox.injectFault({ match: '/transaction/refund', kind: 'reset-after-body' });
	expect((await execution(workflow, parameters, [{ args: { paymentId, amount: 10 } }])).answers[0].error).toBeDefined();
	expect((await execution(workflow, parameters, [{ args: { paymentId, amount: 10 } }])).answers[0].answer).toBeDefined();
	expect((await execution(workflow, parameters, [{ args: { paymentId, amount: 10 } }])).answers[0].error).toMatch(/Maximum Total per Day of 20 USD: it has moved 20 USD/);
});

it('after a restart (a new process, the static data as saved) the day’s spending still counts', async () => {
	const paymentId = await paidPayment(500);
	const workflow = newWorkflow();
	const parameters = refundTool({ toolMaxAmount: 10, toolMaxTotal: 10, toolMaxDaily: 20 });
	for (let message = 0; message < 2; message++) await execution(workflow, parameters, [{ args: { paymentId, amount: 10 } }]);
	const saved = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
	let restarted: typeof PaymentGateway | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		restarted = (require('../../nodes/PaymentGateway/PaymentGateway.node') as { PaymentGateway: typeof PaymentGateway }).PaymentGateway;
	});
	const after = await execution({ id: workflow.id, staticData: saved }, parameters, [{ args: { paymentId, amount: 10 } }], { nodeType: restarted! });
	expect(after.answers[0].error).toMatch(/Maximum Total per Day of 20 USD: it has moved 20 USD in the last 24 hours/);
	expect(refundsSent()).toBe(2);
});

it('manual runs, whose static data n8n does not save, still count in the process that ran them', async () => {
	const paymentId = await paidPayment(500);
	const id = `daily-manual-${Date.now()}`;
	const parameters = refundTool({ toolMaxAmount: 10, toolMaxTotal: 10, toolMaxDaily: 20 });
	const answers = [];
	for (let run = 0; run < 3; run++) {
		answers.push((await execution({ id, staticData: {} }, parameters, [{ args: { paymentId, amount: 10 } }], { mode: 'manual' })).answers[0]);
	}
	expect(refundsSent()).toBe(2);
	expect(answers[2].error).toMatch(/Maximum Total per Day/);
});
