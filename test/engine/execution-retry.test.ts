import type { IDataObject } from 'n8n-workflow';

import type { RunWorkflowResult } from '../support/engine';
import { createOrder, initiateParameters, orderParameters, runNode, settledPayment, useSandbox } from '../support/fixtures';

// Writes are sent once, whatever n8n does. n8n's "Retry" of a failed execution runs the failed node again with all
// its input items, those that went through before the failure included: orders, payments and refunds refuse it
// before sending anything. A write batch stopped by a failure names the items it sent, with the gateway's ids.

const sandbox = useSandbox();

const RETRY_REFUSAL = /^This node does not send orders, payments or refunds again in a retry of a failed execution: .* Nothing was sent\. \[item 0\]$/;
const refunds = () => sandbox.requests.filter((request) => request.path.endsWith('/transaction/refund'));
const REFUND = { resource: 'transaction', operation: 'refund', paymentId: '={{ $json.paymentId }}', amount: '={{ $json.amount }}' };

/** Three settled payments of 25.50 and a refund of 5, 500 and 5: the middle one is more than was paid. */
async function refundBatch(): Promise<IDataObject[]> {
	const payments = [await settledPayment(sandbox, 'success'), await settledPayment(sandbox, 'success'), await settledPayment(sandbox, 'success')];
	return payments.map(({ paymentId }, index) => ({ paymentId, amount: index === 1 ? 500 : 5 }));
}

describe('a refund batch (5, 500, 5) stopped by the refused 500, then retried as n8n retries a failed execution', () => {
	let items: IDataObject[];
	let failed: RunWorkflowResult;
	let sentInFailed: Array<number | null>;
	beforeAll(async () => {
		sandbox.reset();
		items = await refundBatch();
		sandbox.clearLog();
		failed = await runNode(sandbox, REFUND, items);
		sentInFailed = refunds().map((request) => request.status);
	});

	it('the failed execution: the first refund went through, the second was refused, the third not sent', () => {
		expect(failed.status).toBe('error');
		expect(sentInFailed).toEqual([200, 400]);
	});

	it('its error names the item sent with its refundId and says the item after it was not sent', () => {
		const sent = failed.error?.context?.sentItems as IDataObject[];
		expect(sent).toEqual([{ item: 0, refundId: expect.stringMatching(/^RFD[0-9A-F]{32}$/) }]);
		expect(failed.error?.message).toMatch(/more than is left|exceed/i);
		expect(failed.error?.description).toContain(`Sent before this failure: item 0 (refundId ${sent[0].refundId as string}).`);
		expect(failed.error?.description).toContain('Not sent: item 2.');
		expect(failed.error?.description).toMatch(/Do not run this node again with the same items/);
	});

	it.each([
		['with the original workflow', false],
		['with the currently saved workflow', true],
	])('a retry %s sends no refund and says why and what to do instead', async (_label, loadWorkflow) => {
		sandbox.clearLog();
		const retried = await runNode(sandbox, REFUND, [], { retryOf: { run: failed.run!, loadWorkflow } });
		expect(retried.error?.message).toMatch(RETRY_REFUSAL);
		expect(retried.error?.description).toMatch(/names the items it sent .* new execution/);
		expect(sandbox.requests).toEqual([]);
	});

	it('the retry ran the refund node again with all three input items, as n8n does', async () => {
		const retried = await runNode(sandbox, REFUND, [], { retryOf: { run: failed.run!, loadWorkflow: true }, continueOnFail: true });
		expect(retried.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(retried.items.map((item) => item.json.error)).toEqual(Array(3).fill(expect.stringMatching(/in a retry of a failed execution/)));
		expect(sandbox.requests).toEqual([]);
	});
});

const writes: Array<[string, () => Promise<IDataObject>]> = [
	['Order → Create', async () => orderParameters()],
	['Order → Create Checkout', async () => orderParameters({ operation: 'createCheckout', redirectType: 'redirect' })],
	['Transaction → Initiate', async () => initiateParameters(await createOrder(sandbox))],
	['Transaction → Refund', async () => ({ resource: 'transaction', operation: 'refund', paymentId: (await settledPayment(sandbox, 'success')).paymentId, amount: 1 })],
	[
		'Transaction → Refund, the whole payment',
		async () => ({ resource: 'transaction', operation: 'refund', refundType: 'full', paymentId: (await settledPayment(sandbox, 'success')).paymentId }),
	],
];

describe.each(writes)('%s in execution mode "retry"', (_label, parametersFor) => {
	it('refused before anything is sent', async () => {
		const parameters = await parametersFor();
		sandbox.clearLog();
		const result = await runNode(sandbox, parameters, [{}, {}], { mode: 'retry' });
		expect(result.error?.message).toMatch(RETRY_REFUSAL);
		expect(sandbox.requests).toEqual([]);
	});

	it('with Continue On Fail, every item gets the refusal, paired, and nothing is sent', async () => {
		const parameters = await parametersFor();
		sandbox.clearLog();
		const result = await runNode(sandbox, parameters, [{}, {}], { mode: 'retry', continueOnFail: true });
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		for (const item of result.items) expect(item.json.error).toMatch(/in a retry of a failed execution/);
		expect(sandbox.requests).toEqual([]);
	});
});

describe('a sub-workflow run again by a retried execution (its own mode "integrated", its root\'s "retry")', () => {
	it.each(writes)('%s: refused before anything is sent', async (_label, parametersFor) => {
		const parameters = await parametersFor();
		sandbox.clearLog();
		const result = await runNode(sandbox, parameters, [{}], { mode: 'integrated', rootExecutionMode: 'retry' });
		expect(result.error?.message).toMatch(RETRY_REFUSAL);
		expect(sandbox.requests).toEqual([]);
	});

	it('a sub-workflow of an execution that is no retry sends as usual', async () => {
		sandbox.clearLog();
		const result = await runNode(sandbox, orderParameters(), [{}], { mode: 'integrated', rootExecutionMode: 'trigger' });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
	});
});

describe('reads and Delete run in a retried execution', () => {
	it('Status → Get by Payment ID reads the payment', async () => {
		const { paymentId } = await settledPayment(sandbox, 'success');
		const result = await runNode(sandbox, { resource: 'status', operation: 'getByPaymentId', paymentId }, [{}], { mode: 'retry' });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.paymentId).toBe(paymentId);
	});
});

describe('a stopped write batch names the items it sent', () => {
	it('Order → Create: the orders made before an item refused, with their orderIds; the rest not sent', async () => {
		const items = [{ amount: 10 }, { amount: 12 }, { amount: 0 }, { amount: 14 }, { amount: 15 }];
		const result = await runNode(sandbox, orderParameters({ amount: '={{ $json.amount }}' }), items);
		expect(result.error?.message).toMatch(/^Amount \(amount\) .*\[item 2\]$/);
		expect(result.error?.context?.sentItems).toEqual([0, 1].map((item) => ({ item, orderId: expect.stringMatching(/^wb-/) })));
		const [first, second] = result.error?.context?.sentItems as Array<{ orderId: string }>;
		expect(result.error?.description).toContain(`Sent before this failure: item 0 (orderId ${first.orderId}), item 1 (orderId ${second.orderId}).`);
		expect(result.error?.description).toContain('Not sent: items 3-4.');
		expect(sandbox.requests).toHaveLength(2);
	});

	it('Transaction → Initiate: the payment made before an unknown order, with its paymentId', async () => {
		const orderId = await createOrder(sandbox);
		sandbox.clearLog();
		const items = [{ orderId }, { orderId: 'wb-00000000-0000-4000-8000-000000000000' }, { orderId: await createOrder(sandbox) }];
		sandbox.clearLog();
		const result = await runNode(sandbox, initiateParameters('={{ $json.orderId }}', { customerAuthentication: 'none', cardCVV: '' }), items);
		expect(result.error?.context?.resCode).toBe(404);
		expect(result.error?.context?.sentItems).toEqual([{ item: 0, paymentId: expect.stringMatching(/^PAY/) }]);
		expect(result.error?.description).toMatch(/does not know this order\. .*Sent before this failure: item 0 \(paymentId PAY[0-9A-F]+\)\. Not sent: item 2\./);
		expect(sandbox.requests.map((request) => request.status)).toEqual([200, 404]);
	});

	it('a failure of the first item names nothing as sent, and the items after it as not sent', async () => {
		const result = await runNode(sandbox, orderParameters({ amount: '={{ $json.amount }}' }), [{ amount: 0 }, { amount: 5 }]);
		expect(result.error?.context?.sentItems).toEqual([]);
		expect(result.error?.description).not.toMatch(/Sent before/);
		expect(result.error?.description).toMatch(/Not sent: item 1\.$/);
		expect(sandbox.requests).toEqual([]);
	});
});
