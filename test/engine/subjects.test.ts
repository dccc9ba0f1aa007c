import type { IDataObject } from 'n8n-workflow';

import { createOrder, initiateParameters, runNode, settledPayment, useSandbox } from '../support/fixtures';

// A gateway failure names what it was about, beside the item's place: a reconciliation of 200 orders flags "Order not
// found (order wb-…) [item 199]", which a person can look up, not only "[item 199]".

const sandbox = useSandbox();

const cases: Array<[string, () => Promise<{ parameters: IDataObject; match: string; subject: string }>]> = [
	['Status → Get by Order ID', async () => ({ parameters: { resource: 'status', operation: 'getByOrderId', orderId: 'wb-reconcile-7' }, match: 'check-status', subject: 'order wb-reconcile-7' })],
	['Status → Get by Payment ID', async () => ({ parameters: { resource: 'status', operation: 'getByPaymentId', paymentId: 'PAY7' }, match: '/transaction/status/', subject: 'payment PAY7' })],
	['Transaction → Initiate', async () => {
		const orderId = await createOrder(sandbox);
		return { parameters: initiateParameters(orderId), match: '/transaction/initiate', subject: `order ${orderId}` };
	}],
	['Transaction → Refund', async () => {
		const { paymentId } = await settledPayment(sandbox, 'success');
		return { parameters: { resource: 'transaction', operation: 'refund', paymentId, amount: 1 }, match: '/transaction/refund', subject: `payment ${paymentId}` };
	}],
	['Digital Card → Get Many', async () => ({ parameters: { resource: 'digitalCard', operation: 'getMany', customerId: 'cus 7' }, match: '/digitalCards', subject: 'customer cus 7' })],
	['Digital Card → Delete', async () => ({ parameters: { resource: 'digitalCard', operation: 'delete', customerId: 'cus_7', digitalCardId: { mode: 'id', value: 'dc_7' } }, match: '/digitalCards/', subject: 'card dc_7 of customer cus_7' })],
];

it.each(cases)('%s: the failure names what it was about, then the item', async (_label, prepare) => {
	const { parameters, match, subject } = await prepare();
	// A 400: reads are retried on a 500, a refusal is not.
	sandbox.injectFault({ match, status: 400, body: { resCode: 400, status: 'failure', errMessage: 'Internal error' } });
	const result = await runNode(sandbox, parameters, [{}], { continueOnFail: true });
	expect(result.items[0].json.error).toBe(`Internal error (${subject}) [item 0]`);
});

it('Order → Create names nothing: the order has no id before the gateway gives it one', async () => {
	sandbox.injectFault({ match: '/order', status: 500, body: { resCode: 500, status: 'failure', errMessage: 'Internal error' } });
	const result = await runNode(sandbox, { resource: 'order', operation: 'create', amount: 5, currency: 'USD', uiMode: 'checkout', customerName: 'Jane', customerEmail: 'jane@example.com', customerPhone: '91234567' }, [{}], { continueOnFail: true });
	expect(result.items[0].json.error).toBe('Internal error [item 0]');
});

it('an id that is a card number is not repeated whole', async () => {
	sandbox.injectFault({ match: '/transaction/status/', status: 404, body: { resCode: 404, status: 'failure', errMessage: 'Payment not found' } });
	const result = await runNode(sandbox, { resource: 'status', operation: 'getByPaymentId', paymentId: '4111 1111 1111 1111' }, [{}], { continueOnFail: true });
	expect(result.items[0].json.error).toBe('Payment not found (payment …1111) [item 0]');
});
