import { call, checkout, checkStatus, customer, expectFailure, ORDER_ID, orderBody, useSandbox } from './support';

const sb = useSandbox();

describe('create order (short path)', () => {
	test('success echoes receiptId, amount and currency; the id is wb-<uuid v4>', async () => {
		const res = await call('POST', '/order', orderBody());
		expect(res.status).toBe(200);
		expect(res.data).toEqual({
			resCode: 200,
			status: 'success',
			data: { orderId: expect.stringMatching(ORDER_ID), receiptId: 'rcpt-1', amount: 10.5, currency: 'USD' },
		});
	});

	test('phone may be a number', async () => {
		const res = await call('POST', '/order', orderBody({ customerFields: { ...customer, phone: 12345678 } }));
		expect(res.status).toBe(200);
	});

	test('uiMode other than checkout is 422', async () => {
		expectFailure(await call('POST', '/order', orderBody({ uiMode: 'embedded' })), 422, 'Incorrect UI mode');
	});

	test.each([
		[{ amount: 1.001 }, /amount/],
		[{ amount: 0 }, /amount/],
		[{ amount: '10' }, /amount/],
		[{ currency: '' }, /currency/],
		[{ receiptId: 'x'.repeat(41) }, /receiptId/],
		[{ description: 5 }, /description/],
		[{ customerFields: null }, /customerFields/],
		[{ customerFields: { ...customer, name: ' ' } }, /customerFields\.name/],
		[{ customerFields: { ...customer, email: 'not-an-email' } }, /customerFields\.email/],
		[{ customerFields: { ...customer, phone: '' } }, /customerFields\.phone/],
	])('invalid %j is 400 naming the field', async (overrides, pattern) => {
		const res = await call('POST', '/order', orderBody(overrides));
		expect(res.status).toBe(400);
		expect(res.data.resCode).toBe(400);
		expect(res.data.status).toBe('failure');
		expect(res.data.message).toMatch(pattern);
		expect(res.data.errMessage).toBe(res.data.message);
	});
});

describe('amounts follow the currency minor units', () => {
	test.each([
		['OMR', 1.119, '1.119'],
		['KWD', 1, '1.000'],
		['BHD', 0.221, '0.221'],
		['JOD', 0.38, '0.380'],
		['IQD', 2.5, '2.500'],
		['LYD', 3, '3.000'],
		['USD', 10.5, 10.5],
		['EUR', 0.01, 0.01],
		['JPY', 500, 500],
		['PKR', 10.25, 10.25],
		['IDR', 1000.5, 1000.5],
		['CLF', 1.2345, 1.2345],
	])('%s %s is answered as %j', async (currency, amount, expected) => {
		const res = await call('POST', '/order', orderBody({ amount, currency }));
		expect(res.status).toBe(200);
		expect(res.data.data.amount).toStrictEqual(expected);
	});

	test.each([
		['OMR', 1.1191, 3],
		['USD', 1.001, 2],
		['JPY', 10.5, 0],
		['KRW', 1.1, 0],
		['HUF', 1.001, 2],
		['IQD', 1.0001, 3],
	])('%s %s: more decimals than allowed is 400 naming the currency and its digits', async (currency, amount, digits) => {
		const res = await call('POST', '/order', orderBody({ amount, currency }));
		expectFailure(res, 400, `amount has more decimal places than ${currency} allows (${digits})`);
	});

	test('lower-case codes go by the same table', async () => {
		const res = await call('POST', '/order', orderBody({ amount: 1.5, currency: 'omr' }));
		expect(res.data.data).toMatchObject({ amount: '1.500', currency: 'omr' });
	});

	test('create-checkout applies the same rule, inside its flat failure', async () => {
		const res = await checkout({ amount: 1.1191, currency: 'OMR' });
		expect(res.status).toBe(400);
		expect(res.data.errMessage).toBe('Order failed: amount has more decimal places than OMR allows (3)');
		expect((await checkout({ amount: 1.119, currency: 'OMR' })).data.amount).toBe('1.119');
	});
});

describe('create-checkout (long path)', () => {
	test('success is flat', async () => {
		const res = await checkout();
		expect(res.status).toBe(200);
		expect(res.data).toEqual({
			orderId: expect.stringMatching(ORDER_ID),
			amount: 10.5,
			receiptId: 'rcpt-1',
			status: 'success',
			resCode: 200,
			errMessage: '',
		});
		expect(sb().requests[0].apiPath).toBe('/nac/api/v1/pg/orders/create-checkout');
		expect(sb().requests[0].family).toBe('long');
	});

	test('validation failure is flat 400', async () => {
		const res = await checkout({ redirectType: 'iframe' });
		expect(res.status).toBe(400);
		expect(res.data).toEqual({
			receiptId: 'rcpt-1',
			status: 'failure',
			resCode: 400,
			errMessage: expect.stringMatching(/^Order failed: redirectType/),
		});
		const uiMode = await checkout({ uiMode: 'x' });
		expect(uiMode.status).toBe(400);
		expect(uiMode.data.errMessage).toMatch(/^Order failed/);
	});

	test('auth failure keeps the flat shape', async () => {
		const res = await checkout({}, { authorization: null });
		expect(res.status).toBe(401);
		expect(res.data).toEqual({
			receiptId: 'rcpt-1',
			status: 'failure',
			resCode: 401,
			errMessage: 'Missing Authorization header',
		});
	});
});

describe('check-status (long path)', () => {
	test('an order not paid yet is a failure: "Transaction not initiated", without orderId', async () => {
		const orderId = (await checkout()).data.orderId;
		const res = await checkStatus(orderId);
		expect(res.status).toBe(400);
		expect(res.data).toEqual({ status: 'failure', resCode: 400, errMessage: 'Transaction not initiated' });
		expect(sb().requests[1].apiPath).toBe('/nac/api/v1/pg/orders/check-status');
	});

	test('missing and unknown order', async () => {
		const missing = await call('GET', '/nac/api/v1/pg/orders/check-status', undefined, { family: 'long' });
		expect(missing.status).toBe(400);
		expect(missing.data).toEqual({ resCode: 400, status: 'failure', errMessage: 'orderId is required' });

		const unknown = await checkStatus('wb-00000000-0000-4000-8000-000000000000');
		expect(unknown.status).toBe(404);
		expect(unknown.data).toEqual({ resCode: 404, status: 'failure', errMessage: 'Order not found' });
	});

});
