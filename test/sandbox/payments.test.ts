import * as crypto from 'node:crypto';
import { axios, call, cardOf, checkStatus, control, createOrder, DECLINED, encrypt, expectFailure, initiate, ISO_TIME, MASTERCARD, PAYMENT_ID, sign, statusByPayment, useSandbox, VISA } from './support';

const sb = useSandbox();

describe('payment flow', () => {
	test('order, initiate, authenticate, status by order and by payment id', async () => {
		const orderId = await createOrder();
		const init = await initiate(orderId);
		expect(init.status).toBe(200);
		const data = init.data.data;
		expect(data).toMatchObject({
			paymentId: expect.stringMatching(PAYMENT_ID),
			orderId,
			receiptId: 'rcpt-1',
			paymentStatus: 'pending',
			amount: 10.5,
			currency: 'USD',
			redirectionData: { method: 'POST' },
		});
		expect(data.securedCardDetails).toBeUndefined();
		expect(data.redirectionData.formData).toContain(`${sb().url}/__sandbox/authenticate/${data.paymentId}`);
		expect(data.redirectionData.formData).toContain('document.forms[0].submit()');

		const pending = await statusByPayment(data.paymentId);
		expect(pending.data.data).toMatchObject({ paymentStatus: 'pending', status: 'pending', completedAt: null });
		expect((await checkStatus(orderId)).data.status).toBe('pending');

		const page = await axios.get(control(`/authenticate/${data.paymentId}`));
		expect(page.headers['content-type']).toMatch(/text\/html/);
		expect(page.data).toContain('value="success"');

		sb().completeAuthentication(data.paymentId, 'success');
		const signature = sign(sb().clients.active.clientSecret, `${orderId}|${data.paymentId}`);

		const byPayment = await statusByPayment(data.paymentId);
		expect(byPayment.status).toBe(200);
		expect(byPayment.data).toEqual({
			resCode: 200,
			status: 'success',
			data: {
				paymentId: data.paymentId,
				orderId,
				receiptId: 'rcpt-1',
				paymentStatus: 'success',
				status: 'success',
				paymentMethod: 'card',
				transactionType: 'sales',
				amount: 10.5,
				currency: 'USD',
				initiatedAt: expect.stringMatching(ISO_TIME),
				completedAt: expect.stringMatching(ISO_TIME),
				signature,
				description: 'test order',
				paymentDetails: { paymentMethod: 'card', cardNetwork: 'visa', cardType: 'credit', cardUsageType: 'domestic' },
			},
		});
		const { initiatedAt, completedAt } = byPayment.data.data;
		expect(completedAt >= initiatedAt).toBe(true);

		const byOrder = await checkStatus(orderId);
		expect(byOrder.status).toBe(200);
		expect(byOrder.data).toEqual({
			orderId,
			status: 'success',
			paymentId: data.paymentId,
			receiptId: 'rcpt-1',
			amount: 10.5,
			signature,
			timestamp: completedAt,
			paymentDetails: { paymentMethod: 'card', cardNetwork: 'visa', cardType: 'credit' },
		});
	});

	test('a second initiate is 409 while pending or after success; a failure allows a retry', async () => {
		const orderId = await createOrder();
		const first = (await initiate(orderId)).data.data.paymentId;
		expectFailure(await initiate(orderId), 409, 'Transaction is already in progress');

		const done = await axios.post(control(`/payments/${first}/complete`), { result: 'failure' });
		expect(done.data.status).toBe('failure');
		const failed = await checkStatus(orderId);
		expect(failed.status).toBe(200);
		expect(failed.data).toMatchObject({ status: 'failure', paymentId: first });

		const retry = await initiate(orderId);
		expect(retry.status).toBe(200);
		sb().completeAuthentication(retry.data.data.paymentId, 'success');
		expectFailure(await initiate(orderId), 409, 'Transaction is already in progress');

		const status = await checkStatus(orderId);
		expect(status.data.paymentId).toBe(retry.data.data.paymentId);
		expect(status.data.status).toBe('success');
	});

	test('without authentication the payment succeeds at once, though the answer says pending', async () => {
		const orderId = await createOrder();
		const init = await initiate(orderId, { skipCVVandOTP: true }, { cardNumber: MASTERCARD, cardExpMonth: '12', cardExpYear: '30' });
		expect(init.data.data.paymentStatus).toBe('pending');
		const status = await statusByPayment(init.data.data.paymentId);
		expect(status.data.data.status).toBe('success');
		expect(status.data.data.completedAt).toMatch(ISO_TIME);
		expect(status.data.data.paymentDetails.cardNetwork).toBe('mastercard');
		expect(() => sb().completeAuthentication(init.data.data.paymentId, 'success')).toThrow(/not pending/);
	});

	test('OTP only: CVV may be left out', async () => {
		const orderId = await createOrder();
		const res = await initiate(orderId, { skipCVVOnlyFlag: true }, { cardNumber: VISA, cardExpMonth: '12', cardExpYear: '30' });
		expect(res.status).toBe(200);
	});

	test('the declined test card fails whatever the authentication result', async () => {
		const orderId = await createOrder();
		const paymentId = (await initiate(orderId, {}, cardOf(DECLINED))).data.data.paymentId;
		expect(sb().completeAuthentication(paymentId, 'success').status).toBe('failure');

		const orderId2 = await createOrder();
		const skipped = await initiate(orderId2, { skipCVVandOTP: true }, cardOf(DECLINED));
		const status = await statusByPayment(skipped.data.data.paymentId);
		expect(status.data.data.status).toBe('failure');
	});

	test('the authentication page completes the payment and offers the return to the merchant', async () => {
		const orderId = await createOrder();
		const paymentId = (await initiate(orderId)).data.data.paymentId;
		const page = await axios.post(control(`/authenticate/${paymentId}`), 'result=success', {
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		});
		expect(page.data).toContain('action="https://shop.example.com/return"');
		const status = await statusByPayment(paymentId);
		expect(status.data.data.status).toBe('success');
	});

	test('an order without receiptId or description leaves them out', async () => {
		const orderId = await createOrder({ receiptId: undefined, description: undefined });
		const paymentId = (await initiate(orderId, { skipCVVandOTP: true })).data.data.paymentId;
		const record = (await statusByPayment(paymentId)).data.data;
		expect(record).not.toHaveProperty('receiptId');
		expect(record).not.toHaveProperty('description');
	});

	test('unknown payment', async () => {
		expectFailure(await statusByPayment('PAY' + '0'.repeat(32)), 404, 'Payment not found');
	});
});

describe('initiate validation', () => {
	let orderId: string;
	beforeEach(async () => {
		orderId = await createOrder();
	});

	test('both skip flags true', async () => {
		const res = await initiate(orderId, { skipCVVandOTP: true, skipCVVOnlyFlag: true });
		expectFailure(res, 400, 'skipCVVandOTP and skipCVVOnlyFlag cannot both be true');
	});

	test('secureCard with token mode', async () => {
		const res = await initiate(orderId, { paymentMode: 'token', secureCard: true }, { digitalCardId: 'dc_x', cardCVV: '123' });
		expect(res.status).toBe(400);
		expect(res.data.message).toMatch(/secureCard/);
	});

	test.each([
		[{ paymentMethod: 'upi' }, /paymentMethod/],
		[{ apiType: 'direct' }, /apiType/],
		[{ cardHolderName: '' }, /cardHolderName/],
		[{ redirectionUrl: '/relative' }, /redirectionUrl/],
		[{ paymentMode: 'wallet' }, /paymentMode/],
		[{ skipCVVandOTP: null }, /skipCVVandOTP/],
		[{ skipCVVOnlyFlag: 'false' }, /skipCVVOnlyFlag/],
		[{ secureCard: 'yes' }, /secureCard/],
	])('invalid %j', async (overrides, pattern) => {
		const res = await initiate(orderId, overrides);
		expect(res.status).toBe(400);
		expect(res.data.message).toMatch(pattern);
	});

	test('unknown order', async () => {
		expectFailure(await initiate('wb-00000000-0000-4000-8000-000000000000'), 404, 'Order not found');
	});

	test('undecryptable card details', async () => {
		const wrongKey = crypto.randomBytes(32).toString('hex');
		const card = cardOf(VISA);
		for (const encryptedCardDetails of ['garbage', encrypt(card).toUpperCase(), encrypt(card, wrongKey)]) {
			const res = await initiate(orderId, { encryptedCardDetails });
			expectFailure(res, 400, 'Invalid encrypted card details');
		}
	});

	test.each([
		[{ cardNumber: '4111111111111112' }, /cardNumber/],
		[{ cardNumber: 4111111111111111 }, /cardNumber/],
		[{ cardExpMonth: '1' }, /cardExpMonth/],
		[{ cardExpMonth: '13' }, /cardExpMonth/],
		[{ cardExpYear: '2030' }, /cardExpYear/],
		[{ cardExpMonth: '01', cardExpYear: '20' }, /expired/],
		[{ cardCVV: '12' }, /cardCVV/],
		[{ cardCVV: '' }, /cardCVV/],
	])('invalid card %j, without echoing card data', async (overrides, pattern) => {
		const res = await initiate(orderId, {}, { ...cardOf(VISA), ...overrides });
		expect(res.status).toBe(400);
		expect(res.data.message).toMatch(pattern);
		expect(JSON.stringify(res.data)).not.toMatch(/\d{6,}/);
	});
});

describe('request log of a payment', () => {
	test('initiation bodies hold only the encrypted card details', async () => {
		const orderId = await createOrder();
		await call('POST', '/transaction/initiate', { orderId });
		await initiate(orderId);
		expect(JSON.stringify(sb().requests)).not.toContain(VISA);
	});
});
