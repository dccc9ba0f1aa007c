import { call, checkStatus, createOrder, expectFailure, initiate, paidOrder, refund, REFUND_ID, ISO_TIME, statusByPayment, useSandbox, DECLINED, cardOf } from './support';

const sb = useSandbox();

describe('refunds', () => {
	test('a full refund: data, then the payment reads refunded everywhere', async () => {
		const { orderId, paymentId } = await paidOrder();
		const res = await refund(paymentId, 10.5);
		expect(res.status).toBe(200);
		expect(res.data).toEqual({
			resCode: 200,
			status: 'success',
			data: {
				refundId: expect.stringMatching(REFUND_ID),
				paymentId,
				orderId,
				receiptId: 'rcpt-1',
				paymentStatus: 'refunded',
				paymentMethod: 'card',
				amount: 10.5,
				currency: 'USD',
				initiatedAt: expect.stringMatching(ISO_TIME),
				completedAt: expect.stringMatching(ISO_TIME),
			},
		});
		expect(sb().requests.at(-1)).toMatchObject({ apiPath: '/transaction/refund', family: 'short', status: 200 });

		const byPayment = (await statusByPayment(paymentId)).data.data;
		expect(byPayment).toMatchObject({ paymentStatus: 'refunded', status: 'refunded', amount: 10.5 });
		expect((await checkStatus(orderId)).data).toMatchObject({ orderId, paymentId, status: 'refunded' });

		expectFailure(await refund(paymentId, 0.01), 400, 'Only successful payments can be refunded');
	});

	test('partial refunds add up exactly, in minor units', async () => {
		// 0.1 + 0.2 !== 0.3 in floating point; the sandbox must still let the last cent go.
		const { orderId, paymentId } = await paidOrder({ amount: 0.3 });
		const first = await refund(paymentId, 0.1);
		expect(first.data.data).toMatchObject({ paymentStatus: 'partially_refunded', amount: 0.1 });
		expect((await checkStatus(orderId)).data.status).toBe('partially_refunded');
		expect((await statusByPayment(paymentId)).data.data.paymentStatus).toBe('partially_refunded');

		const second = await refund(paymentId, 0.2);
		expect(second.status).toBe(200);
		expect(second.data.data).toMatchObject({ paymentStatus: 'refunded', amount: 0.2 });
		expect(second.data.data.refundId).not.toBe(first.data.data.refundId);
	});

	test('a refund above what is left is refused and changes nothing', async () => {
		const { paymentId } = await paidOrder({ amount: 10 });
		expect((await refund(paymentId, 4)).status).toBe(200);
		expectFailure(await refund(paymentId, 6.01), 400, 'Refund amount exceeds the refundable amount');
		expect((await statusByPayment(paymentId)).data.data.paymentStatus).toBe('partially_refunded');
		expect((await refund(paymentId, 6)).data.data.paymentStatus).toBe('refunded');
	});

	test('only successful payments: pending and failed ones are refused', async () => {
		const orderId = await createOrder();
		const pending = (await initiate(orderId)).data.data.paymentId;
		expectFailure(await refund(pending, 1), 400, 'Only successful payments can be refunded');

		const declinedOrder = await createOrder();
		const failed = (await initiate(declinedOrder, { skipCVVandOTP: true }, cardOf(DECLINED))).data.data.paymentId;
		expectFailure(await refund(failed, 1), 400, 'Only successful payments can be refunded');
	});

	test('unknown payment is 404', async () => {
		expectFailure(await refund('PAY' + 'A'.repeat(32), 1), 404, 'Payment not found');
	});

	test.each([
		[{ amount: 0 }, 'amount must be a number greater than 0'],
		[{ amount: -1 }, 'amount must be a number greater than 0'],
		[{ amount: '1' }, 'amount must be a number greater than 0'],
		[{ amount: 1.001 }, 'amount has more decimal places than USD allows (2)'],
	])('invalid %j is 400', async (overrides, message) => {
		const { paymentId } = await paidOrder();
		expectFailure(await call('POST', '/transaction/refund', { paymentId, ...overrides }), 400, message);
	});

	test('paymentId is required', async () => {
		expectFailure(await call('POST', '/transaction/refund', { amount: 1 }), 400, 'paymentId is required');
	});

	test('signed like every short-family call', async () => {
		const { paymentId } = await paidOrder();
		expectFailure(await refund(paymentId, 1, { signature: null }), 401, 'Signature missing in the header');
		expectFailure(await refund(paymentId, 1, { signSecret: 'x' }), 401, 'Invalid signature; request cannot be processed');
		expectFailure(await refund(paymentId, 1, { authorization: null }), 401, 'Missing Authorization header');
		expect((await statusByPayment(paymentId)).data.data.paymentStatus).toBe('success');
	});
});

describe('OMR 1.119, three decimals, end to end', () => {
	test('order → initiate → status → partial and full refund', async () => {
		const order = await call('POST', '/order', {
			amount: 1.119,
			currency: 'OMR',
			uiMode: 'checkout',
			receiptId: 'omr-1',
			customerFields: { name: 'Said', email: 'said@example.com', phone: '91234567' },
		});
		expect(order.data.data).toMatchObject({ amount: '1.119', currency: 'OMR' });
		const orderId = order.data.data.orderId;

		const init = await initiate(orderId);
		expect(init.data.data).toMatchObject({ amount: '1.119', currency: 'OMR', paymentStatus: 'pending' });
		const paymentId = init.data.data.paymentId;
		sb().completeAuthentication(paymentId, 'success');

		expect((await checkStatus(orderId)).data).toMatchObject({ status: 'success', amount: '1.119' });
		expect((await statusByPayment(paymentId)).data.data).toMatchObject({ amount: '1.119', currency: 'OMR' });

		const part = await refund(paymentId, 0.119);
		expect(part.data.data).toMatchObject({ amount: '0.119', currency: 'OMR', paymentStatus: 'partially_refunded' });
		expectFailure(await refund(paymentId, 1.0001), 400, 'amount has more decimal places than OMR allows (3)');
		expectFailure(await refund(paymentId, 1.001), 400, 'Refund amount exceeds the refundable amount');
		const rest = await refund(paymentId, 1);
		expect(rest.data.data).toMatchObject({ amount: '1.000', paymentStatus: 'refunded' });

		expect((await checkStatus(orderId)).data).toMatchObject({ status: 'refunded', amount: '1.119' });
		expect((await statusByPayment(paymentId)).data.data).toMatchObject({ paymentStatus: 'refunded', amount: '1.119' });
	});
});
