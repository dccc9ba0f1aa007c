import * as crypto from 'node:crypto';
import { axios, call, cardOf, control, createOrder, customer, DECLINED, expectFailure, initiate, luhnComplete, orderBody, statusByPayment, useSandbox, VISA, MASTERCARD } from './support';
import { storedVisa } from '../support/records';

const sb = useSandbox();

async function tokenize(cardNumber: string) {
	const orderId = await createOrder();
	return initiate(orderId, { secureCard: true }, cardOf(cardNumber));
}

describe('digital cards', () => {
	test('store, list, get, pay with token, delete, delete again', async () => {
		const stored = await tokenize(VISA);
		expect(stored.status).toBe(200);
		const { customerId, digitalCardId } = stored.data.data.securedCardDetails;
		const expectedCustomer = crypto
			.createHash('sha256')
			.update(`${customer.email.toLowerCase()}|${customer.phone}`)
			.digest('hex')
			.slice(0, 16);
		expect(customerId).toBe('cus_' + expectedCustomer);
		expect(digitalCardId).toMatch(/^dc_[0-9a-f]{16}$/);

		const list = await call('GET', `/customer/${customerId}/digitalCards`);
		expect(list.status).toBe(200);
		expect(list.data.data.remainingLimit).toBe(4);
		expect(list.data.data.digitalCards).toEqual([storedVisa(digitalCardId)]);
		expect(JSON.stringify(list.data)).not.toContain(VISA);

		// The same card again keeps its token.
		const again = await tokenize(VISA);
		expect(again.data.data.securedCardDetails.digitalCardId).toBe(digitalCardId);

		const one = await call('GET', `/customer/${customerId}/digitalCards/${digitalCardId}`);
		expect(one.data).toEqual({
			resCode: 200,
			status: 'success',
			data: { digitalCard: list.data.data.digitalCards[0], remainingLimit: 4 },
		});

		const orderId = await createOrder();
		const byToken = await initiate(orderId, { paymentMode: 'token', secureCard: false }, { digitalCardId, cardCVV: '123' });
		expect(byToken.status).toBe(200);
		expect(byToken.data.data.securedCardDetails).toBeUndefined();

		const del = await call('DELETE', `/customer/${customerId}/digitalCards/${digitalCardId}`);
		expect(del.data).toEqual({ resCode: 200, status: 'success', data: { customerId, digitalCardId } });
		expect(sb().requests[sb().requests.length - 1].apiPath).toBe(`/customer/${customerId}/digitalCards/${digitalCardId}`);

		const delAgain = await call('DELETE', `/customer/${customerId}/digitalCards/${digitalCardId}`);
		expectFailure(delAgain, 404, 'Card not found or already deleted');
		expectFailure(await call('GET', `/customer/${customerId}/digitalCards/${digitalCardId}`), 404, 'Card not found');

		const after = await call('GET', `/customer/${customerId}/digitalCards`);
		expect(after.data.data).toEqual({ digitalCards: [], remainingLimit: 5 });

		const orderId2 = await createOrder();
		const deletedToken = await initiate(orderId2, { paymentMode: 'token' }, { digitalCardId, cardCVV: '123' });
		expect(deletedToken.status).toBe(400);
		expect(deletedToken.data.message).toMatch(/digitalCardId/);
	});

	test('Mastercard is stored with the lower-case network name', async () => {
		const stored = await tokenize(MASTERCARD);
		const { customerId, digitalCardId } = stored.data.data.securedCardDetails;
		const one = await call('GET', `/customer/${customerId}/digitalCards/${digitalCardId}`);
		expect(one.data.data.digitalCard).toMatchObject({ network: 'mastercard', cardType: 'credit', panLastFour: '8785' });
	});

	test('unknown customer has no cards and the full limit', async () => {
		const res = await call('GET', '/customer/cus_nobody/digitalCards');
		expect(res.data).toEqual({ resCode: 200, status: 'success', data: { digitalCards: [], remainingLimit: 5 } });
	});

	test('remainingLimit counts down to 0, then tokenization is refused', async () => {
		let customerId = '';
		for (let i = 1; i <= 5; i++) {
			const res = await tokenize(luhnComplete('400000000000' + String(i).padStart(3, '0')));
			expect(res.status).toBe(200);
			customerId = res.data.data.securedCardDetails.customerId;
			const list = await call('GET', `/customer/${customerId}/digitalCards`);
			expect(list.data.data.remainingLimit).toBe(5 - i);
			expect(list.data.data.digitalCards).toHaveLength(i);
		}
		const sixth = await tokenize(luhnComplete('400000000000999'));
		expectFailure(sixth, 422, 'Tokenization limit reached for this customer');
	});

	test('token payment with a stored declined card fails', async () => {
		const { digitalCardId } = (await tokenize(DECLINED)).data.data.securedCardDetails;
		const orderId = await createOrder();
		const res = await initiate(orderId, { paymentMode: 'token', secureCard: false, skipCVVandOTP: true }, { digitalCardId });
		const status = await statusByPayment(res.data.data.paymentId);
		expect(status.data.data.status).toBe('failure');
	});
});

describe('ageing stored cards (control API)', () => {
	test('moves both dates of one card back by whole or fractional days; the list shows them', async () => {
		const first = (await tokenize(VISA)).data.data.securedCardDetails;
		const second = (await tokenize(MASTERCARD)).data.data.securedCardDetails;
		const listed = async () =>
			(await call('GET', `/customer/${first.customerId}/digitalCards`)).data.data.digitalCards as Array<{
				digitalCardId: string;
				createdAt: string;
				updatedAt: string;
			}>;
		const before = await listed();
		const card = (id: string, cards: typeof before) => cards.find((c) => c.digitalCardId === id)!;

		const aged = await axios.post(control(`/cards/${first.digitalCardId}/age`), { days: 40 });
		expect(aged.status).toBe(200);
		expect(aged.data).toMatchObject({ digitalCardId: first.digitalCardId, panLastFour: '1111', status: 'ACTIVE' });
		expect(Object.keys(aged.data).sort()).toEqual(
			['cardType', 'createdAt', 'digitalCardId', 'network', 'panLastFour', 'status', 'updatedAt'],
		);
		sb().ageCard(first.digitalCardId, 0.5);

		const after = await listed();
		const day = 86_400_000;
		for (const field of ['createdAt', 'updatedAt'] as const) {
			expect(Date.parse(card(first.digitalCardId, before)[field]) - Date.parse(card(first.digitalCardId, after)[field])).toBe(
				40.5 * day,
			);
			expect(card(second.digitalCardId, after)[field]).toBe(card(second.digitalCardId, before)[field]);
		}
		expect(card(first.digitalCardId, after).createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
	});

	test('unknown or deleted cards answer 404, a bad number of days 400, and nothing changes', async () => {
		const { customerId, digitalCardId } = (await tokenize(VISA)).data.data.securedCardDetails;
		const before = (await call('GET', `/customer/${customerId}/digitalCards`)).data.data.digitalCards;
		for (const days of [-1, '3', null, Number.NaN]) {
			const res = await axios.post(control(`/cards/${digitalCardId}/age`), { days }, { validateStatus: () => true });
			expect([days, res.status, res.data.error]).toEqual([days, 400, 'days must be a number >= 0']);
		}
		expect((await call('GET', `/customer/${customerId}/digitalCards`)).data.data.digitalCards).toEqual(before);

		const unknown = await axios.post(control('/cards/dc_nobody/age'), { days: 1 }, { validateStatus: () => true });
		expect([unknown.status, unknown.data]).toEqual([404, { error: 'Card not found' }]);
		await call('DELETE', `/customer/${customerId}/digitalCards/${digitalCardId}`);
		const deleted = await axios.post(control(`/cards/${digitalCardId}/age`), { days: 1 }, { validateStatus: () => true });
		expect(deleted.status).toBe(404);
	});
});

describe('magic triggers', () => {
	test('order amount 401.01', async () => {
		expectFailure(await call('POST', '/order', orderBody({ amount: 401.01 })), 401, 'Internal server error');
	});

	test('create-checkout amount 400.01', async () => {
		const res = await call(
			'POST',
			'/nac/api/v1/pg/orders/create-checkout',
			orderBody({ amount: 400.01, redirectType: 'redirect' }),
			{ family: 'long' },
		);
		expect(res.status).toBe(400);
		expect(res.data).toEqual({ receiptId: 'rcpt-1', status: 'failure', resCode: 400, errMessage: 'Order failed' });
	});

	test.each([
		[404.01, 404, 'No route found; try another card'],
		[404.02, 404, 'No route found; try an alternative payment method'],
		[404.03, 404, 'No route found for this merchant; contact support'],
		[409.01, 409, 'Sales transactions not allowed for this merchant; contact support'],
		[422.01, 422, 'Fraud-rule validation failed'],
		[500.01, 500, 'Internal server error'],
	])('initiate on an order of %s', async (amount, code, message) => {
		const orderId = await createOrder({ amount });
		expectFailure(await initiate(orderId), code, message);
	});

	test('card endpoints', async () => {
		expectFailure(await call('GET', '/customer/cus_fail_list/digitalCards'), 500, 'Error while fetching digital cards');
		expectFailure(await call('GET', '/customer/c1/digitalCards/dc_fail_fetch'), 500, 'Error while fetching digital card');
		expectFailure(await call('DELETE', '/customer/c1/digitalCards/dc_fail_delete'), 500, 'Error while removing digital card');
	});
});
