import type { IDataObject } from 'n8n-workflow';

import { createOrder, initiateParameters, orderParameters, runNode, useSandbox, withoutSubject } from '../support/fixtures';

// status.getByOrderId (long path) and status.getByPaymentId (short path) through n8n's engine against the
// sandbox, with the transport's retries. Concurrency of the item runner: concurrency.test.ts.

const sandbox = useSandbox({ reset: false });
beforeEach(() => {
	sandbox.reset();
	sandbox.setLatency(0);
});

const CHECK_STATUS_PATH = '/nac/api/v1/pg/orders/check-status';

function byOrderId(orderId: string, options: IDataObject = {}): IDataObject {
	return { resource: 'status', operation: 'getByOrderId', orderId, options };
}

function byPaymentId(paymentId: string, options: IDataObject = {}): IDataObject {
	return { resource: 'status', operation: 'getByPaymentId', paymentId, options };
}

/** Creates an order and initiates a card payment for it; returns both ids. */
async function pendingPayment(overrides: IDataObject = {}, orderOverrides: IDataObject = {}) {
	const orderId = await createOrder(sandbox, orderOverrides);
	const result = await runNode(sandbox, initiateParameters(orderId, overrides));
	if (result.error) throw new Error(`initiate failed: ${result.error.message}`);
	const paymentId = result.items[0].json.paymentId as string;
	expect(paymentId).toBeTruthy();
	return { orderId, paymentId };
}

describe('status after a payment', () => {
	it('is pending after initiation, success after successful authentication (by order id and by payment id)', async () => {
		const { orderId, paymentId } = await pendingPayment();

		const pendingByOrder = await runNode(sandbox, byOrderId(orderId));
		expect(pendingByOrder.error).toBeUndefined();
		expect(pendingByOrder.items[0].json).toMatchObject({ orderId, paymentId, status: 'pending' });
		const pendingByPayment = await runNode(sandbox, byPaymentId(paymentId));
		expect(pendingByPayment.items[0].json).toMatchObject({ orderId, paymentId, status: 'pending' });

		const record = sandbox.completeAuthentication(paymentId, 'success');
		sandbox.clearLog();

		const byOrder = await runNode(sandbox, byOrderId(orderId));
		expect(byOrder.error).toBeUndefined();
		expect(byOrder.items).toHaveLength(1);
		expect(byOrder.items[0].pairedItem).toEqual({ item: 0 });
		// The flat record as the gateway gives it, no envelope.
		expect(byOrder.items[0].json).toEqual(record);
		expect(byOrder.items[0].json).toMatchObject({
			orderId,
			paymentId,
			status: 'success',
			amount: 25.5,
			signature: expect.stringMatching(/^[0-9a-f]{64}$/),
			paymentDetails: { paymentMethod: 'card', cardNetwork: 'visa', cardType: 'credit' },
		});

		const byPayment = await runNode(sandbox, byPaymentId(paymentId));
		expect(byPayment.error).toBeUndefined();
		// Status by payment id is the gateway's payment record: the same facts under its own field names.
		expect(byPayment.items[0].json).toMatchObject({
			orderId,
			paymentId,
			status: 'success',
			paymentStatus: 'success',
			amount: record.amount,
			signature: record.signature,
		});

		expect(sandbox.requests.map((request) => [request.method, request.path, request.status])).toEqual([
			['GET', `${CHECK_STATUS_PATH}?orderId=${orderId}`, 200],
			['GET', `${new URL(sandbox.baseUrl).pathname}/transaction/status/${paymentId}`, 200],
		]);
	});

	it('a failed authentication is data (status "failure"), not an error', async () => {
		const { orderId, paymentId } = await pendingPayment();
		sandbox.completeAuthentication(paymentId, 'failure');

		const byOrder = await runNode(sandbox, byOrderId(orderId));
		expect(byOrder.error).toBeUndefined();
		expect(byOrder.status).toBe('success');
		expect(byOrder.items[0].json).toMatchObject({ orderId, paymentId, status: 'failure' });

		const byPayment = await runNode(sandbox, byPaymentId(paymentId));
		expect(byPayment.error).toBeUndefined();
		expect(byPayment.items[0].json).toMatchObject({ orderId, paymentId, status: 'failure' });
	});

	it('a declined card ends "failure" even after successful authentication', async () => {
		const { orderId, paymentId } = await pendingPayment({ cardNumber: '4393570006367857' });
		sandbox.completeAuthentication(paymentId, 'success');
		const result = await runNode(sandbox, byOrderId(orderId));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.status).toBe('failure');
	});

	it('an order without a payment is data: the gateway\'s "Transaction not initiated" (400) with the order named', async () => {
		const orderId = await createOrder(sandbox);
		const result = await runNode(sandbox, byOrderId(orderId));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toEqual({ orderId, resCode: 400, status: 'failure', errMessage: 'Transaction not initiated' });
	});
});

describe('status errors', () => {
	it('unknown order id → error with resCode 404', async () => {
		const result = await runNode(sandbox, byOrderId('ord_does_not_exist'));
		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeApiError');
		expect(withoutSubject(result.error?.message)).toBe('Order not found [item 0]');
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.context?.resCode).toBe(404);
	});

	it('a failure answered with HTTP 200 and no resCode is an error, but a failed payment is data', async () => {
		sandbox.injectFault({
			match: 'check-status',
			status: 200,
			count: 1,
			body: { status: 'failure', errMessage: 'Order not found' },
		});
		const refused = await runNode(sandbox, byOrderId('ord_unknown_to_this_gateway'));
		expect(refused.error?.name).toBe('NodeApiError');
		expect(withoutSubject(refused.error?.message)).toBe('Order not found [item 0]');

		const { orderId, paymentId } = await pendingPayment();
		sandbox.completeAuthentication(paymentId, 'failure');
		const failedPayment = await runNode(sandbox, byOrderId(orderId));
		expect(failedPayment.error).toBeUndefined();
		expect(failedPayment.items[0].json).toMatchObject({ orderId, paymentId, status: 'failure' });
	});

	it('unknown payment id → error with resCode 404', async () => {
		const result = await runNode(sandbox, byPaymentId('pay_does_not_exist'));
		expect(withoutSubject(result.error?.message)).toBe('Payment not found [item 0]');
		expect(result.error?.context?.resCode).toBe(404);
	});

	it('unknown ids under Continue On Fail are paired error items with resCode 404', async () => {
		const { orderId } = await pendingPayment();
		const result = await runNode(sandbox, byOrderId('={{ $json.id }}'), [{ id: 'ord_nope' }, { id: orderId }], {
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
		expect(result.items[0]).toEqual({
			json: expect.objectContaining({ error: 'Order not found (order ord_nope) [item 0]', resCode: 404 }),
			pairedItem: { item: 0 },
		});
		expect(result.items[1]).toEqual({
			json: expect.objectContaining({ orderId, status: 'pending' }),
			pairedItem: { item: 1 },
		});
	});

	it('an empty id from an expression is refused before sending', async () => {
		const result = await runNode(sandbox, byPaymentId('={{ $json.paymentId }}'), [{}]);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toContain('paymentId');
		expect(result.error?.message).toContain('[item 0]');
		expect(sandbox.requests).toEqual([]);
	});

	it.each([
		['Order ID', byOrderId('{{ $json.orderId }}'), 'Order ID (orderId)'],
		['Payment ID', byPaymentId(' {{ $json.paymentId }} '), 'Payment ID (paymentId)'],
	])('%s typed as an expression in Fixed mode is refused, naming the field and the switch to Expression; nothing sent', async (_name, parameters, field) => {
		const result = await runNode(sandbox, parameters, [{ orderId: 'ord_1', paymentId: 'pay_1' }]);
		expect(result.error?.message).toMatch(new RegExp(`^${field.replace(/[()]/g, '\\$&')} holds an expression \\(\\{\\{ … \\}\\}\\) typed in Fixed mode.*switch the field to Expression.*\\[item 0\\]$`));
		expect(sandbox.requests).toEqual([]);
	});

	it.each([
		['a slash', 'pay/../../order', 'pay%2F..%2F..%2Forder'],
		['a question mark', 'pay_1?orderId=x', 'pay_1%3ForderId%3Dx'],
		['a hash and a space', 'pay #1', 'pay%20%231'],
	])('a paymentId with %s is URL-encoded into one path segment', async (_name, paymentId, encoded) => {
		const result = await runNode(sandbox, byPaymentId(paymentId));
		// The sandbox only answers "not found" once the (encoded) path was signed correctly.
		expect(withoutSubject(result.error?.message)).toBe('Payment not found [item 0]');
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0].path).toBe(`${new URL(sandbox.baseUrl).pathname}/transaction/status/${encoded}`);
		expect(sandbox.requests[0].apiPath).toBe(`/transaction/status/${encoded}`);
		expect(sandbox.requests[0].status).toBe(404);
	});

	it('an orderId with & and = stays one query parameter', async () => {
		const result = await runNode(sandbox, byOrderId('ord_1&orderId=ord_2'));
		expect(withoutSubject(result.error?.message)).toBe('Order not found [item 0]');
		const url = new URL(sandbox.requests[0].path, sandbox.url);
		expect(url.pathname).toBe(CHECK_STATUS_PATH);
		expect(url.searchParams.getAll('orderId')).toEqual(['ord_1&orderId=ord_2']);
	});
});

describe('retries', () => {
	let orderId: string;
	let paymentId: string;
	beforeEach(async () => {
		({ orderId, paymentId } = await pendingPayment());
		sandbox.clearLog();
	});

	it('getByOrderId: two 503s and maxRetries 2 → success after 3 requests', async () => {
		sandbox.injectFault({ match: 'check-status', status: 503, count: 2, retryAfter: 0 });
		const result = await runNode(sandbox, byOrderId(orderId, { maxRetries: 2 }));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ orderId, status: 'pending' });
		expect(sandbox.requests.map((request) => request.status)).toEqual([503, 503, 200]);
	});

	it('getByOrderId: maxRetries 0 → error resCode 503 after exactly 1 request', async () => {
		sandbox.injectFault({ match: 'check-status', status: 503, count: 2, retryAfter: 0 });
		const result = await runNode(sandbox, byOrderId(orderId, { maxRetries: 0 }));
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.context?.resCode).toBe(503);
		expect(result.error?.httpCode).toBe('503');
		expect(withoutSubject(result.error?.message)).toBe('Service temporarily unavailable [item 0]');
		expect(sandbox.requests).toHaveLength(1);
	});

	it('getByPaymentId: a 500 told only by the body under HTTP 200 is retried too', async () => {
		sandbox.injectFault({
			match: '/transaction/status/',
			status: 200,
			count: 1,
			body: { resCode: 500, status: 'failure', message: 'Internal server error' },
		});
		const result = await runNode(sandbox, byPaymentId(paymentId, { maxRetries: 1 }));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ paymentId, status: 'pending' });
		expect(sandbox.requests.map((request) => request.status)).toEqual([200, 200]);
	});

	it('getByOrderId: without the option, 3 retries, then the last failure is the error', async () => {
		sandbox.injectFault({ match: 'check-status', status: 503, count: 4, retryAfter: 0 });
		const result = await runNode(sandbox, byOrderId(orderId));
		expect(result.error?.context?.resCode).toBe(503);
		expect(sandbox.requests.map((request) => request.status)).toEqual([503, 503, 503, 503]);
	});

	it('getByOrderId: without the option, three 429s are waited out and the fourth answer is the status', async () => {
		sandbox.injectFault({ match: 'check-status', status: 429, count: 3, retryAfter: 0 });
		const result = await runNode(sandbox, byOrderId(orderId));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ orderId, status: 'pending' });
		expect(sandbox.requests.map((request) => request.status)).toEqual([429, 429, 429, 200]);
	});

	it('getByOrderId: with Max Retries 0, no retry', async () => {
		sandbox.injectFault({ match: 'check-status', status: 503, count: 1, retryAfter: 0 });
		const result = await runNode(sandbox, byOrderId(orderId, { maxRetries: 0 }));
		expect(result.error?.context?.resCode).toBe(503);
		expect(sandbox.requests).toHaveLength(1);
	});

	it('getByOrderId: retries run out → the last failure is the error', async () => {
		sandbox.injectFault({ match: 'check-status', status: 503, count: 3, retryAfter: 0 });
		const result = await runNode(sandbox, byOrderId(orderId, { maxRetries: 2 }));
		expect(result.error?.context?.resCode).toBe(503);
		expect(sandbox.requests).toHaveLength(3);
	});

	it('getByPaymentId: a 500 is retried too', async () => {
		sandbox.injectFault({ match: '/transaction/status/', status: 500, count: 1, retryAfter: 0 });
		const result = await runNode(sandbox, byPaymentId(paymentId, { maxRetries: 1 }));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ paymentId, status: 'pending' });
		expect(sandbox.requests.map((request) => request.status)).toEqual([500, 200]);
	});

	it('a 404 is not retried', async () => {
		const result = await runNode(sandbox, byPaymentId('pay_unknown', { maxRetries: 3 }));
		expect(result.error?.context?.resCode).toBe(404);
		expect(sandbox.requests).toHaveLength(1);
	});

	it('a 429 with Retry-After: 1 is honoured', async () => {
		sandbox.injectFault({ match: 'check-status', status: 429, count: 1, retryAfter: 1 });
		const started = Date.now();
		const result = await runNode(sandbox, byOrderId(orderId, { maxRetries: 1 }));
		const elapsed = Date.now() - started;
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.status).toBe('pending');
		expect(sandbox.requests.map((request) => request.status)).toEqual([429, 200]);
		expect(elapsed).toBeGreaterThanOrEqual(950);
		const [first, second] = sandbox.requests.map((request) => Date.parse(request.time));
		expect(second - first).toBeGreaterThanOrEqual(950);
	});

	it('a 429 without retries is an error with resCode 429', async () => {
		sandbox.injectFault({ match: 'check-status', status: 429, count: 1, retryAfter: 1 });
		const result = await runNode(sandbox, byOrderId(orderId, { maxRetries: 0 }));
		expect(result.error?.context?.resCode).toBe(429);
		expect(withoutSubject(result.error?.message)).toBe('Too many requests [item 0]');
		expect(result.error?.description).toMatch(/Max Retries/);
		expect(sandbox.requests).toHaveLength(1);
	});
});

describe('writes are never retried', () => {
	it('order.create: a 503 is an error after exactly 1 request, even with a retry option forced in', async () => {
		sandbox.injectFault({ match: '/order', status: 503, count: 3, retryAfter: 0 });
		const result = await runNode(sandbox, orderParameters({ options: { maxRetries: 3 } }));
		expect(result.status).toBe('error');
		expect(result.error?.context?.resCode).toBe(503);
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0].apiPath).toBe('/order');
	});

	it('order.createCheckout: a 503 is an error after exactly 1 request', async () => {
		sandbox.injectFault({ match: 'create-checkout', status: 503, count: 3, retryAfter: 0 });
		const result = await runNode(sandbox, orderParameters({ operation: 'createCheckout', redirectType: 'post' }));
		expect(result.error?.context?.resCode).toBe(503);
		expect(sandbox.requests).toHaveLength(1);
	});

	it('transaction.initiate: a 503 is an error after exactly 1 request; the payment was never started', async () => {
		const orderId = await createOrder(sandbox);
		sandbox.clearLog();
		sandbox.injectFault({ match: '/transaction/initiate', status: 503, count: 3, retryAfter: 0 });
		const result = await runNode(sandbox, initiateParameters(orderId, { options: { maxRetries: 3 } }));
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.context?.resCode).toBe(503);
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0].apiPath).toBe('/transaction/initiate');

		const status = await runNode(sandbox, byOrderId(orderId));
		expect(status.items[0].json.errMessage).toBe('Transaction not initiated');
	});
});

describe('options: the same for every item unless an expression makes them differ', () => {
	it('an expression in the options is read for each item', async () => {
		const orderIds = [await createOrder(sandbox), await createOrder(sandbox)];
		sandbox.clearLog();
		const result = await runNode(
			sandbox,
			{ ...byOrderId('={{ $json.orderId }}'), options: { acceptLanguage: '={{ $json.lang }}', concurrency: 2 } },
			[
				{ orderId: orderIds[0], lang: 'ar-OM' },
				{ orderId: orderIds[1], lang: 'fr-FR' },
			],
		);
		expect(result.error).toBeUndefined();
		const byOrder = new Map(sandbox.requests.map((request) => [new URL(request.path, 'http://x').searchParams.get('orderId'), request]));
		expect(byOrder.get(orderIds[0])?.headers['accept-language']).toBe('ar-OM');
		expect(byOrder.get(orderIds[1])?.headers['accept-language']).toBe('fr-FR');
	});

	it('fixed options apply to every item, and a refused fixed option names each item it refuses', async () => {
		const orderIds = [await createOrder(sandbox), await createOrder(sandbox), await createOrder(sandbox)];
		sandbox.clearLog();
		const fixed = await runNode(
			sandbox,
			{ ...byOrderId('={{ $json.orderId }}'), options: { acceptLanguage: 'de-DE' } },
			orderIds.map((orderId) => ({ orderId })),
		);
		expect(fixed.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.headers['accept-language'])).toEqual(['de-DE', 'de-DE', 'de-DE']);

		sandbox.clearLog();
		const refused = await runNode(
			sandbox,
			{ ...byOrderId('={{ $json.orderId }}'), options: { timeout: 0.5 } },
			orderIds.map((orderId) => ({ orderId })),
			{ continueOnFail: true },
		);
		expect(sandbox.requests).toHaveLength(0);
		expect(refused.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(refused.items.map((item) => item.json.itemIndex)).toEqual([0, 1, 2]);
		for (const item of refused.items) expect(item.json.error).toMatch(/Timeout \(options\.timeout\)/);
	});
});
