import type { IDataObject, ITaskData } from 'n8n-workflow';

import type { Sandbox } from '../support/fixtures';
import { createOrder, initiateParameters, runNode, settledPayment, startSandbox } from '../support/fixtures';

// Refund without guesswork (the whole payment read from the gateway, or an amount), and the hints a person reading a
// run gets: orders not paid, customers without cards, items that failed under Continue On Fail.

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox();
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.reset());

const refund = (paymentId: string, extra: IDataObject = {}) => ({ resource: 'transaction', operation: 'refund', paymentId, ...extra });
const refundsSent = () => sandbox.requests.filter((request) => request.apiPath === '/transaction/refund');
const hintsOf = (runData: Record<string, ITaskData[]>) => (runData['Payment Gateway']?.[0] as ITaskData & { hints?: IDataObject[] })?.hints ?? [];

describe('Transaction → Refund: the whole payment or an amount', () => {
	it('the whole payment: its amount is read from the gateway, then refunded once', async () => {
		const payment = await settledPayment(sandbox, 'success');
		sandbox.clearLog();
		const result = await runNode(sandbox, refund(payment.paymentId, { refundType: 'full' }));
		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((request) => `${request.method} ${request.apiPath}`)).toEqual([
			`GET /transaction/status/${payment.paymentId}`,
			'POST /transaction/refund',
		]);
		expect(JSON.parse(refundsSent()[0].body)).toEqual({ paymentId: payment.paymentId, amount: 25.5 });
		expect(result.items[0].json).toMatchObject({ paymentStatus: 'refunded', amount: 25.5 });
	});

	it('an amount: what is given is sent, as saved workflows always did (no Refund choice stored)', async () => {
		const payment = await settledPayment(sandbox, 'success');
		sandbox.clearLog();
		const result = await runNode(sandbox, refund(payment.paymentId, { amount: 5 }));
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expect(JSON.parse(refundsSent()[0].body)).toEqual({ paymentId: payment.paymentId, amount: 5 });
	});

	it('the whole payment of one refunded in part already is refused, with only the read sent', async () => {
		const payment = await settledPayment(sandbox, 'success');
		await runNode(sandbox, refund(payment.paymentId, { amount: 5 }));
		sandbox.clearLog();
		const result = await runNode(sandbox, refund(payment.paymentId, { refundType: 'full' }));
		expect(result.error?.message).toBe(
			'The whole payment cannot be refunded: it is partially refunded already, and the gateway does not say how much is left [item 0]',
		);
		expect(result.error?.description).toMatch(/^No refund was sent; the payment was only read\./);
		expect(refundsSent()).toEqual([]);
	});

	it('the whole payment of one not paid yet is refused, with only the read sent', async () => {
		const orderId = await createOrder(sandbox);
		const pending = await runNode(sandbox, initiateParameters(orderId));
		sandbox.clearLog();
		const result = await runNode(sandbox, refund(pending.items[0].json.paymentId as string, { refundType: 'full' }));
		expect(result.error?.message).toMatch(/its status is "pending", and only a successful payment can be refunded/);
		expect(refundsSent()).toEqual([]);
	});

	it('an unknown payment: the read fails with the gateway’s message and code, and no refund is sent', async () => {
		const result = await runNode(sandbox, refund('PAY00000000000000000000000000000000', { refundType: 'full' }));
		expect(result.error?.message).toBe('Payment not found [item 0]');
		expect(result.error?.context?.resCode).toBe(404);
		expect(result.error?.description).toMatch(/does not know this identifier/);
		expect(refundsSent()).toEqual([]);
	});
});

describe('hints', () => {
	it('a reconciliation that found orders not paid says how many and in which status', async () => {
		const paid = await settledPayment(sandbox, 'success');
		const failed = await settledPayment(sandbox, 'failure');
		const unpaid = await createOrder(sandbox);
		const items = [paid.orderId, failed.orderId, unpaid].map((orderId) => ({ orderId }));
		const result = await runNode(sandbox, { resource: 'status', operation: 'getByOrderId', orderId: '={{ $json.orderId }}' }, items);
		expect(hintsOf(result.runData)).toEqual([
			expect.objectContaining({
				message: '2 of 3 orders are not in status "success" (2 failure). An order nobody has paid yet reads failure, "Transaction not initiated".',
				type: 'info',
			}),
		]);
	});

	it('all orders paid: no hint', async () => {
		const paid = await settledPayment(sandbox, 'success');
		const result = await runNode(sandbox, { resource: 'status', operation: 'getByOrderId', orderId: paid.orderId });
		expect(hintsOf(result.runData)).toEqual([]);
	});

	it('Get Many that found no cards says so, and how to get an item anyway', async () => {
		const result = await runNode(sandbox, { resource: 'digitalCard', operation: 'getMany', customerId: '={{ $json.id }}' }, [{ id: 'cus_a' }, { id: 'cus_b' }]);
		expect(result.items).toEqual([]);
		expect(hintsOf(result.runData)).toEqual([
			expect.objectContaining({ message: expect.stringMatching(/^2 of 2 customers have no stored card, .* Output Summary When Empty/) }),
		]);
	});

	it('a Continue On Fail run with failed items says how many and where they went', async () => {
		const paid = await settledPayment(sandbox, 'success');
		const items = [{ orderId: paid.orderId }, { orderId: 'wb-unknown' }, { orderId: '' }];
		const regular = await runNode(sandbox, { resource: 'status', operation: 'getByOrderId', orderId: '={{ $json.orderId }}' }, items, { continueOnFail: true });
		expect(hintsOf(regular.runData)).toContainEqual(
			expect.objectContaining({ message: '2 of 3 items failed and went on as error items in the output, with an "error" field.', type: 'warning' }),
		);
		const split = await runNode(sandbox, { resource: 'status', operation: 'getByOrderId', orderId: '={{ $json.orderId }}' }, items, { onError: 'continueErrorOutput' });
		expect(hintsOf(split.runData)).toContainEqual(expect.objectContaining({ message: '2 of 3 items failed and went on as error items in the error output.' }));
	});
});
