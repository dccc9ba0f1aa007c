import type { IDataObject } from 'n8n-workflow';

import { PaymentGatewayApi } from '../../credentials/PaymentGatewayApi.credentials';
import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import { runAsTool } from '../support/agent';
import { createOrder, initiateParameters, orderParameters, runNode, sandboxCredentials, settledPayment, useSandbox } from '../support/fixtures';

// n8n's node setting Retry On Fail runs the whole node again after a failure, every item included: an order, a
// payment or a refund that went through before the failure would be made twice. Writes refuse to run with it on,
// before anything is sent, in every shape of workflow; reads and Delete keep it.

const sandbox = useSandbox();

const REFUSAL = /^This node must not run with Retry On Fail: .* Nothing was sent\. \[item 0\]$/;

const writes: Array<[string, () => Promise<IDataObject>]> = [
	['Order → Create', async () => orderParameters()],
	['Order → Create Checkout', async () => orderParameters({ operation: 'createCheckout', redirectType: 'redirect' })],
	['Transaction → Initiate', async () => initiateParameters(await createOrder(sandbox))],
	[
		'Transaction → Refund',
		async () => ({ resource: 'transaction', operation: 'refund', paymentId: (await settledPayment(sandbox, 'success')).paymentId, amount: 1 }),
	],
	[
		'Transaction → Refund, the whole payment',
		async () => ({ resource: 'transaction', operation: 'refund', refundType: 'full', paymentId: (await settledPayment(sandbox, 'success')).paymentId }),
	],
];

describe.each(writes)('%s with Retry On Fail on', (_label, parametersFor) => {
	it('is refused before anything is sent, naming the setting and what to use instead', async () => {
		const parameters = await parametersFor();
		sandbox.clearLog();
		const result = await runNode(sandbox, parameters, [{}, {}], { retryOnFail: true });
		expect(result.error?.message).toMatch(REFUSAL);
		expect(result.error?.description).toMatch(/Turn off Retry On Fail .* On Error to "Continue \(using error output\)"/);
		expect(sandbox.requests).toEqual([]);
	});

	it('with Continue On Fail, every item gets the refusal, paired, and nothing is sent', async () => {
		const parameters = await parametersFor();
		sandbox.clearLog();
		const result = await runNode(sandbox, parameters, [{}, {}, {}], { retryOnFail: true, continueOnFail: true });
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		for (const item of result.items) expect(item.json.error).toMatch(/^This node must not run with Retry On Fail/);
		expect(sandbox.requests).toEqual([]);
	});

	it('as an AI agent’s tool, n8n’s retries of the call are refused too', async () => {
		const parameters = { ...(await parametersFor()), toolMaxAmount: 1000, amount: 25.5 };
		sandbox.clearLog();
		const result = await runAsTool({
			nodeType: PaymentGateway,
			credentialType: PaymentGatewayApi,
			credentials: sandboxCredentials(sandbox),
			parameters: { ...parameters, paymentMode: 'token', digitalCardId: 'dc_0000000000000000' } as never,
			calls: [{ args: {} }],
			retryOnFail: true,
		});
		expect(result.answers[0].error).toMatch(/^This node must not run with Retry On Fail/);
		expect(sandbox.requests).toEqual([]);
	});
});

describe('reads and Delete keep Retry On Fail', () => {
	it('Status → Get by Order ID and Get by Payment ID run with it on', async () => {
		const record = await settledPayment(sandbox, 'success');
		sandbox.clearLog();
		const byOrder = await runNode(sandbox, { resource: 'status', operation: 'getByOrderId', orderId: record.orderId }, [{}], { retryOnFail: true });
		const byPayment = await runNode(sandbox, { resource: 'status', operation: 'getByPaymentId', paymentId: record.paymentId }, [{}], { retryOnFail: true });
		expect(byOrder.error).toBeUndefined();
		expect(byPayment.error).toBeUndefined();
		expect(byOrder.items[0].json.status).toBe('success');
		expect(sandbox.requests).toHaveLength(2);
	});

	it('Digital Card → Get Many, Get and Delete run with it on, and a read that failed is tried again', async () => {
		const stored = await runNode(sandbox, initiateParameters(await createOrder(sandbox), { secureCard: true }));
		const { customerId, digitalCardId } = stored.items[0].json.securedCardDetails as IDataObject;
		sandbox.clearLog();
		const cards = { resource: 'digitalCard', customerId };
		expect((await runNode(sandbox, { ...cards, operation: 'getMany' }, [{}], { retryOnFail: true })).items).toHaveLength(1);
		expect((await runNode(sandbox, { ...cards, operation: 'get', digitalCardId }, [{}], { retryOnFail: true })).error).toBeUndefined();

		// One failure, then n8n's second try of the node reads the card.
		sandbox.injectFault({ match: '/digitalCards/', kind: 'status', status: 503, count: 1 });
		const retried = await runNode(sandbox, { ...cards, operation: 'get', digitalCardId }, [{}], { retryOnFail: true });
		expect(retried.error).toBeUndefined();
		expect(retried.items[0].json.digitalCardId).toBe(digitalCardId);

		const deleted = await runNode(sandbox, { ...cards, operation: 'delete', digitalCardId }, [{}], { retryOnFail: true });
		expect(deleted.items[0].json).toEqual({ customerId, digitalCardId, deleted: true });
	});
});
