import type { IDataObject, ITaskData } from 'n8n-workflow';

import { createOrder, initiateParameters, orderParameters, runNode, settledPayment, useSandbox, withoutSubject } from '../support/fixtures';

// Refund without guesswork (the whole payment read from the gateway, or an amount), and the hints a person reading a
// run gets: orders not paid, customers without cards, items that failed under Continue On Fail, checkout links that
// could not be built.

const sandbox = useSandbox();

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

	it('an amount left empty, as it starts, is refused as required, nothing sent', async () => {
		const payment = await settledPayment(sandbox, 'success');
		sandbox.clearLog();
		// A required text field left empty: n8n refuses to run the node at all, naming it.
		const result = await runNode(sandbox, refund(payment.paymentId));
		expect(result.error?.message).toMatch(/^The 'Payment Gateway' node has issues:\s+- Parameter "Amount" is required\.$/);
		// Empty by an expression, the node's own rule refuses it.
		const byExpression = await runNode(sandbox, refund(payment.paymentId, { amount: '={{ "" }}' }));
		expect(byExpression.error?.message).toBe('Amount (amount) is required [item 0]');
		expect(sandbox.requests).toEqual([]);
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
		expect(withoutSubject(result.error?.message)).toBe('Payment not found [item 0]');
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

	it('one customer of three without cards: "1 of 3 customers has no stored card, … for it"', async () => {
		const result = await runNode(sandbox, { resource: 'digitalCard', operation: 'getMany', customerId: '={{ $json.id }}' }, [{ id: 'cus_a' }]);
		expect(hintsOf(result.runData)[0]).toEqual(expect.objectContaining({ message: expect.stringMatching(/^1 of 1 customer has no stored card, so no item is output for it\./) }));
		sandbox.injectFault({ match: '/customer/cus_b/', status: 200, body: { resCode: 200, status: 'success', data: { digitalCards: [{ digitalCardId: 'dc_1', panLastFour: '1111' }], remainingLimit: 4 } } });
		sandbox.injectFault({ match: '/customer/cus_c/', status: 200, body: { resCode: 200, status: 'success', data: { digitalCards: [{ digitalCardId: 'dc_2', panLastFour: '2222' }], remainingLimit: 4 } } });
		const three = await runNode(sandbox, { resource: 'digitalCard', operation: 'getMany', customerId: '={{ $json.id }}' }, [{ id: 'cus_a' }, { id: 'cus_b' }, { id: 'cus_c' }]);
		expect(hintsOf(three.runData)[0]).toEqual(expect.objectContaining({ message: expect.stringMatching(/^1 of 3 customers has no stored card, so no item is output for it\./) }));
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

describe('Order → Create Checkout without what checkoutUrl needs', () => {
	const PAGE = { checkoutPageUrl: 'https://merchant.example.com/cpbs/pg' };
	const NO_PAGE =
		'the Payment Gateway API credential has no Hosted Checkout Page URL (checkoutPageUrl): set it there, e.g. https://merchant.example.com/cpbs/pg';
	const noRedirect = (which: string) =>
		`${which} had no Redirect URL: add it under Additional Fields → Redirect URL (additionalFields.redirectUrl), where the customer returns after paying`;
	const checkout = (redirectUrl: string, items: IDataObject[], credentials: IDataObject) =>
		runNode(
			sandbox,
			orderParameters({ operation: 'createCheckout', redirectType: 'redirect', additionalFields: { redirectUrl } }),
			items,
			{ credentials: credentials as never },
		);
	/** Each item's fields, checkoutUrl apart: the hint changes nothing in the output. */
	const keys = (result: Awaited<ReturnType<typeof checkout>>) =>
		result.items.map(({ json: { checkoutUrl, ...order } }) => `${checkoutUrl === undefined ? '' : 'checkoutUrl,'}${Object.keys(order).sort().join()}`);
	const ORDER_KEYS = ['amount', 'errMessage', 'orderId', 'resCode', 'status'].join();

	it('no Hosted Checkout Page URL in the credential: a warning naming the credential field; the orders as before', async () => {
		const result = await checkout('https://shop.example.com/done', [{}, {}], {});
		expect(result.error).toBeUndefined();
		expect(keys(result)).toEqual([ORDER_KEYS, ORDER_KEYS]);
		expect(hintsOf(result.runData)).toEqual([
			{ message: `No checkoutUrl in 2 of 2 orders: ${NO_PAGE}. Those orders were created all the same.`, type: 'warning', location: 'outputPane' },
		]);
	});

	it('no Redirect URL on some items: a warning naming the field and how many', async () => {
		const result = await checkout('={{ $json.back }}', [{ back: 'https://shop.example.com/done' }, { back: '' }, {}], PAGE);
		expect(result.error).toBeUndefined();
		expect(keys(result)).toEqual([`checkoutUrl,${ORDER_KEYS}`, ORDER_KEYS, ORDER_KEYS]);
		expect(hintsOf(result.runData)).toEqual([
			{ message: `No checkoutUrl in 2 of 3 orders: ${noRedirect('the orders')}. Those orders were created all the same.`, type: 'warning', location: 'outputPane' },
		]);
		const some = await checkout('={{ $json.back }}', [{ back: '' }, { back: 'https://shop.example.com/done' }], {});
		expect(hintsOf(some.runData)[0].message).toBe(`No checkoutUrl in 2 of 2 orders: ${NO_PAGE}; and ${noRedirect('1 of them')}. Those orders were created all the same.`);
	});

	it('neither: one warning naming both', async () => {
		const result = await checkout('', [{}], {});
		expect(keys(result)).toEqual([ORDER_KEYS]);
		expect(hintsOf(result.runData)).toEqual([
			expect.objectContaining({ message: `No checkoutUrl in 1 of 1 order: ${NO_PAGE}; and ${noRedirect('the order')}. That order was created all the same.` }),
		]);
	});

	it('both given: checkoutUrl in every item and no hint', async () => {
		const result = await checkout('https://shop.example.com/done', [{}, {}], PAGE);
		expect(keys(result)).toEqual([`checkoutUrl,${ORDER_KEYS}`, `checkoutUrl,${ORDER_KEYS}`]);
		expect(hintsOf(result.runData)).toEqual([]);
	});
});
