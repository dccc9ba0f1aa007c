import axios, { AxiosResponse } from 'axios';
import * as crypto from 'node:crypto';
import { startSandbox, Sandbox } from '../sandbox/gateway';

// Signing and encryption are done here from the spec, independently of the node's code,
// so the sandbox is checked against the spec rather than against our own client.

const VISA = '4111111111111111';
const MASTERCARD = '5186001700008785';
const DECLINED = '4393570006367857';

let sb: Sandbox;

beforeAll(async () => {
	sb = await startSandbox();
});

afterAll(async () => {
	await sb.close();
});

beforeEach(() => {
	sb.reset();
	sb.setLatency(0);
});

interface CallOptions {
	client?: { clientId: string; clientSecret: string };
	authorization?: string | null;
	signature?: string | null;
	signSecret?: string;
	signPath?: string;
	headers?: Record<string, string>;
	omitHeaders?: string[];
	family?: 'short' | 'long';
	rawBody?: string;
}

const sign = (secret: string, data: string) =>
	crypto.createHmac('sha256', secret).update(data).digest('hex');

function luhnComplete(partial: string): string {
	for (let check = 0; check <= 9; check++) {
		const candidate = partial + check;
		let sum = 0;
		for (let i = 0; i < candidate.length; i++) {
			let d = Number(candidate[candidate.length - 1 - i]);
			if (i % 2 === 1) {
				d *= 2;
				if (d > 9) d -= 9;
			}
			sum += d;
		}
		if (sum % 10 === 0) return candidate;
	}
	throw new Error('unreachable');
}

function encrypt(card: object, keyHex = sb.cardEncryptionKey): string {
	const iv = crypto.randomBytes(16);
	const cipher = crypto.createCipheriv('aes-256-cbc', Buffer.from(keyHex, 'hex'), iv);
	const enc = Buffer.concat([cipher.update(JSON.stringify(card), 'utf8'), cipher.final()]);
	return `${iv.toString('hex')}.${enc.toString('hex')}`;
}

async function call(
	method: 'GET' | 'POST' | 'DELETE',
	apiPath: string,
	body?: unknown,
	opts: CallOptions = {},
): Promise<AxiosResponse> {
	const client = opts.client ?? sb.clients.active;
	const payload = opts.rawBody ?? (body === undefined ? '' : JSON.stringify(body));
	const signedPath = (opts.signPath ?? apiPath).split('?')[0];
	const headers: Record<string, string> = {
		'X-MERCHANT-BROWSER-FINGERPRINT': 'fp-123',
		'X-MERCHANT-USER-AGENT': 'Mozilla/5.0 (test)',
		'X-MERCHANT-DOMAIN': 'https://shop.example.com',
		'X-MERCHANT-IP': '203.0.113.7',
		'Accept-Language': 'en-US',
		'X-Signature': sign(opts.signSecret ?? client.clientSecret, signedPath + (method === 'POST' ? payload : '')),
		Authorization:
			'Basic ' + Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64'),
	};
	if (method === 'POST') headers['Content-Type'] = 'application/json';
	if (opts.authorization === null) delete headers.Authorization;
	else if (opts.authorization !== undefined) headers.Authorization = opts.authorization;
	if (opts.signature === null) delete headers['X-Signature'];
	else if (opts.signature !== undefined) headers['X-Signature'] = opts.signature;
	for (const name of opts.omitHeaders ?? []) delete headers[name];
	Object.assign(headers, opts.headers);
	const base = opts.family === 'long' ? sb.checkoutBaseUrl : sb.baseUrl;
	return axios.request({
		method,
		url: base + apiPath,
		data: method === 'POST' ? payload : undefined,
		headers,
		validateStatus: () => true,
		transformRequest: [(d) => d],
	});
}

const customer = { name: 'Jane Doe', email: 'Jane@Example.com', phone: '12345678' };

function orderBody(overrides: Record<string, unknown> = {}) {
	return {
		amount: 10.5,
		currency: 'USD',
		uiMode: 'checkout',
		receiptId: 'rcpt-1',
		description: 'test order',
		customerFields: customer,
		...overrides,
	};
}

async function createOrder(overrides: Record<string, unknown> = {}): Promise<string> {
	const res = await call('POST', '/order', orderBody(overrides));
	expect(res.status).toBe(200);
	return res.data.data.orderId;
}

function initiateBody(orderId: string, overrides: Record<string, unknown> = {}, card?: object) {
	return {
		orderId,
		encryptedCardDetails: encrypt(
			card ?? { cardNumber: VISA, cardExpMonth: '12', cardExpYear: '30', cardCVV: '123' },
		),
		paymentMethod: 'card',
		cardHolderName: 'Jane Doe',
		redirectionUrl: 'https://shop.example.com/return',
		paymentMode: 'card',
		secureCard: false,
		skipCVVandOTP: false,
		skipCVVOnlyFlag: false,
		apiType: 'hosted',
		...overrides,
	};
}

const initiate = (orderId: string, overrides: Record<string, unknown> = {}, card?: object) =>
	call('POST', '/transaction/initiate', initiateBody(orderId, overrides, card));

function expectFailure(res: AxiosResponse, code: number, message: string) {
	expect(res.status).toBe(code);
	expect(res.data).toEqual({ resCode: code, status: 'failure', message });
}

describe('authentication and required headers', () => {
	const body = orderBody();

	test('missing Authorization header', async () => {
		expectFailure(await call('POST', '/order', body, { authorization: null }), 401, 'Missing Authorization header');
	});

	test('non-Basic Authorization header counts as missing', async () => {
		const res = await call('POST', '/order', body, { authorization: 'Bearer abc' });
		expectFailure(res, 401, 'Missing Authorization header');
	});

	test('wrong secret', async () => {
		const client = { clientId: sb.clients.active.clientId, clientSecret: 'nope' };
		const res = await call('POST', '/order', body, { client });
		expectFailure(res, 401, 'Invalid or inactive client credentials');
	});

	test('unknown client id', async () => {
		const client = { clientId: 'who', clientSecret: sb.clients.active.clientSecret };
		expectFailure(await call('POST', '/order', body, { client }), 401, 'Invalid or inactive client credentials');
	});

	test('inactive client, even with a correct signature', async () => {
		const res = await call('POST', '/order', body, { client: sb.clients.inactive });
		expectFailure(res, 401, 'Invalid or inactive client credentials');
	});

	test('missing signature', async () => {
		expectFailure(await call('POST', '/order', body, { signature: null }), 401, 'Signature missing in the header');
	});

	test('wrong signature: other key, prefixed path, re-serialized body, upper case', async () => {
		const invalid = 'Invalid signature; request cannot be processed';
		expectFailure(await call('POST', '/order', body, { signSecret: 'other' }), 401, invalid);
		const prefixed = new URL(sb.baseUrl).pathname + '/order';
		expectFailure(await call('POST', '/order', body, { signPath: prefixed }), 401, invalid);
		const spaced = JSON.stringify(body, null, 1);
		const signedCompact = sign(sb.clients.active.clientSecret, '/order' + JSON.stringify(body));
		expectFailure(
			await call('POST', '/order', body, { rawBody: spaced, signature: signedCompact }),
			401,
			invalid,
		);
		const upper = sign(sb.clients.active.clientSecret, '/order' + JSON.stringify(body)).toUpperCase();
		expectFailure(await call('POST', '/order', body, { signature: upper }), 401, invalid);
	});

	test('the raw body is signed as sent, spaces included', async () => {
		const res = await call('POST', '/order', undefined, { rawBody: JSON.stringify(body, null, 2) });
		expect(res.status).toBe(200);
	});

	test('missing X-MERCHANT-DOMAIN header', async () => {
		const res = await call('POST', '/order', body, { omitHeaders: ['X-MERCHANT-DOMAIN'] });
		expectFailure(res, 400, 'Missing required header: X-MERCHANT-DOMAIN');
	});

	test('other required headers, empty counts as missing', async () => {
		for (const name of ['X-MERCHANT-BROWSER-FINGERPRINT', 'X-MERCHANT-USER-AGENT', 'Accept-Language']) {
			const res = await call('GET', '/customer/c1/digitalCards', undefined, { headers: { [name]: '' } });
			expectFailure(res, 400, `Missing required header: ${name}`);
		}
	});

	test('X-MERCHANT-IP is optional but must be an address', async () => {
		const without = await call('GET', '/customer/c1/digitalCards', undefined, { omitHeaders: ['X-MERCHANT-IP'] });
		expect(without.status).toBe(200);
		const v6 = await call('GET', '/customer/c1/digitalCards', undefined, { headers: { 'X-MERCHANT-IP': '::1' } });
		expect(v6.status).toBe(200);
		const badIp = await call('GET', '/customer/c1/digitalCards', undefined, {
			headers: { 'X-MERCHANT-IP': 'localhost' },
		});
		expect(badIp.status).toBe(400);
		expect(badIp.data.message).toMatch(/X-MERCHANT-IP/);
	});

	test('checks run in order: credentials before signature before headers', async () => {
		const res = await call('POST', '/order', body, {
			client: sb.clients.inactive,
			signature: null,
			omitHeaders: ['X-MERCHANT-DOMAIN'],
		});
		expect(res.data.message).toBe('Invalid or inactive client credentials');
	});

	test('POST needs a JSON object with the JSON content type', async () => {
		const text = await call('POST', '/order', body, { headers: { 'Content-Type': 'text/plain' } });
		expectFailure(text, 400, 'Content-Type must be application/json');
		const notJson = await call('POST', '/order', undefined, { rawBody: '{nope' });
		expectFailure(notJson, 400, 'Request body must be valid JSON');
		const array = await call('POST', '/order', undefined, { rawBody: '[]' });
		expectFailure(array, 400, 'Request body must be a JSON object');
	});

	test('unknown route', async () => {
		expectFailure(await call('GET', '/nothing'), 404, 'No route found');
		expectFailure(await call('GET', '/order'), 404, 'No route found');
	});
});

describe('create order (short path)', () => {
	test('success echoes receiptId, amount and currency', async () => {
		const res = await call('POST', '/order', orderBody());
		expect(res.status).toBe(200);
		expect(res.data).toEqual({
			resCode: 200,
			status: 'success',
			data: { orderId: expect.stringMatching(/^ord_[0-9a-f]{16}$/), receiptId: 'rcpt-1', amount: 10.5, currency: 'USD' },
		});
	});

	test('three-decimal currencies answer the amount as a string', async () => {
		const res = await call('POST', '/order', orderBody({ amount: 1, currency: 'KWD' }));
		expect(res.data.data.amount).toBe('1.000');
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
	});
});

describe('long path family', () => {
	const checkout = (overrides: Record<string, unknown> = {}, opts: CallOptions = {}) =>
		call(
			'POST',
			'/nac/api/v1/pg/orders/create-checkout',
			orderBody({ redirectType: 'post', curn: 'c-1', customerFields: { ...customer, phone: 12345678 }, ...overrides }),
			{ family: 'long', ...opts },
		);

	test('create-checkout success is flat', async () => {
		const res = await checkout();
		expect(res.status).toBe(200);
		expect(res.data).toEqual({
			orderId: expect.stringMatching(/^ord_/),
			amount: 10.5,
			receiptId: 'rcpt-1',
			status: 'success',
			resCode: 200,
			errMessage: '',
		});
		expect(sb.requests[0].apiPath).toBe('/nac/api/v1/pg/orders/create-checkout');
		expect(sb.requests[0].family).toBe('long');
	});

	test('create-checkout validation failure is flat 400', async () => {
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

	test('create-checkout auth failure keeps the flat shape', async () => {
		const res = await checkout({}, { authorization: null });
		expect(res.status).toBe(401);
		expect(res.data).toEqual({
			receiptId: 'rcpt-1',
			status: 'failure',
			resCode: 401,
			errMessage: 'Missing Authorization header',
		});
	});

	test('check-status: created, missing and unknown order', async () => {
		const orderId = (await checkout()).data.orderId;
		const res = await call('GET', `/nac/api/v1/pg/orders/check-status?orderId=${orderId}`, undefined, {
			family: 'long',
		});
		expect(res.status).toBe(200);
		expect(res.data).toMatchObject({ orderId, status: 'created', paymentId: '', amount: 10.5 });
		expect(sb.requests[1].apiPath).toBe('/nac/api/v1/pg/orders/check-status');

		const missing = await call('GET', '/nac/api/v1/pg/orders/check-status', undefined, { family: 'long' });
		expect(missing.status).toBe(400);
		expect(missing.data).toEqual({ resCode: 400, status: 'failure', errMessage: 'orderId is required' });

		const unknown = await call('GET', '/nac/api/v1/pg/orders/check-status?orderId=ord_x', undefined, {
			family: 'long',
		});
		expect(unknown.status).toBe(404);
		expect(unknown.data).toEqual({ resCode: 404, status: 'failure', errMessage: 'Order not found' });
	});
});

describe('payment flow', () => {
	test('order, initiate, authenticate, status', async () => {
		const orderId = await createOrder();
		const init = await initiate(orderId);
		expect(init.status).toBe(200);
		const data = init.data.data;
		expect(data).toMatchObject({
			paymentId: expect.stringMatching(/^pay_[0-9a-f]{16}$/),
			orderId,
			receiptId: 'rcpt-1',
			paymentStatus: 'pending',
			amount: 10.5,
			currency: 'USD',
			redirectionData: { method: 'POST' },
		});
		expect(data.securedCardDetails).toBeUndefined();
		expect(data.redirectionData.formData).toContain(`${sb.url}/__sandbox/authenticate/${data.paymentId}`);
		expect(data.redirectionData.formData).toContain('document.forms[0].submit()');

		const pending = await call('GET', `/transaction/status/${data.paymentId}`);
		expect(pending.data.data.status).toBe('pending');

		const page = await axios.get(`${sb.url}/__sandbox/authenticate/${data.paymentId}`);
		expect(page.headers['content-type']).toMatch(/text\/html/);
		expect(page.data).toContain('value="success"');

		sb.completeAuthentication(data.paymentId, 'success');

		const byPayment = await call('GET', `/transaction/status/${data.paymentId}`);
		expect(byPayment.status).toBe(200);
		const record = byPayment.data.data;
		expect(record).toEqual({
			orderId,
			status: 'success',
			paymentId: data.paymentId,
			receiptId: 'rcpt-1',
			amount: 10.5,
			signature: sign(sb.clients.active.clientSecret, `${orderId}|${data.paymentId}`),
			timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
			paymentDetails: { paymentMethod: 'card', cardNetwork: 'VISA', cardType: 'credit' },
		});

		const byOrder = await call('GET', `/nac/api/v1/pg/orders/check-status?orderId=${orderId}`, undefined, {
			family: 'long',
		});
		expect(byOrder.data).toEqual(record);
	});

	test('a second initiate is 409 while pending or after success; a failure allows a retry', async () => {
		const orderId = await createOrder();
		const first = (await initiate(orderId)).data.data.paymentId;
		expectFailure(await initiate(orderId), 409, 'Transaction is already in progress');

		const done = await axios.post(`${sb.url}/__sandbox/payments/${first}/complete`, { result: 'failure' });
		expect(done.data.status).toBe('failure');

		const retry = await initiate(orderId);
		expect(retry.status).toBe(200);
		sb.completeAuthentication(retry.data.data.paymentId, 'success');
		expectFailure(await initiate(orderId), 409, 'Transaction is already in progress');

		const status = await call('GET', `/nac/api/v1/pg/orders/check-status?orderId=${orderId}`, undefined, {
			family: 'long',
		});
		expect(status.data.paymentId).toBe(retry.data.data.paymentId);
		expect(status.data.status).toBe('success');
	});

	test('without authentication the payment succeeds at once, though the answer says pending', async () => {
		const orderId = await createOrder();
		const init = await initiate(orderId, { skipCVVandOTP: true }, { cardNumber: MASTERCARD, cardExpMonth: '12', cardExpYear: '30' });
		expect(init.data.data.paymentStatus).toBe('pending');
		const status = await call('GET', `/transaction/status/${init.data.data.paymentId}`);
		expect(status.data.data.status).toBe('success');
		expect(status.data.data.paymentDetails.cardNetwork).toBe('MASTERCARD');
		expect(() => sb.completeAuthentication(init.data.data.paymentId, 'success')).toThrow(/not pending/);
	});

	test('OTP only: CVV may be left out', async () => {
		const orderId = await createOrder();
		const res = await initiate(orderId, { skipCVVOnlyFlag: true }, { cardNumber: VISA, cardExpMonth: '12', cardExpYear: '30' });
		expect(res.status).toBe(200);
	});

	test('the declined test card fails whatever the authentication result', async () => {
		const orderId = await createOrder();
		const card = { cardNumber: DECLINED, cardExpMonth: '12', cardExpYear: '30', cardCVV: '123' };
		const paymentId = (await initiate(orderId, {}, card)).data.data.paymentId;
		expect(sb.completeAuthentication(paymentId, 'success').status).toBe('failure');

		const orderId2 = await createOrder();
		const skipped = await initiate(orderId2, { skipCVVandOTP: true }, card);
		const status = await call('GET', `/transaction/status/${skipped.data.data.paymentId}`);
		expect(status.data.data.status).toBe('failure');
	});

	test('the authentication page completes the payment and offers the return to the merchant', async () => {
		const orderId = await createOrder();
		const paymentId = (await initiate(orderId)).data.data.paymentId;
		const page = await axios.post(`${sb.url}/__sandbox/authenticate/${paymentId}`, 'result=success', {
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		});
		expect(page.data).toContain('action="https://shop.example.com/return"');
		const status = await call('GET', `/transaction/status/${paymentId}`);
		expect(status.data.data.status).toBe('success');
	});

	test('unknown payment', async () => {
		expectFailure(await call('GET', '/transaction/status/pay_nope'), 404, 'Payment not found');
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
		expectFailure(await initiate('ord_unknown'), 404, 'Order not found');
	});

	test('undecryptable card details', async () => {
		const wrongKey = crypto.randomBytes(32).toString('hex');
		const card = { cardNumber: VISA, cardExpMonth: '12', cardExpYear: '30', cardCVV: '123' };
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
		const card = { cardNumber: VISA, cardExpMonth: '12', cardExpYear: '30', cardCVV: '123', ...overrides };
		const res = await initiate(orderId, {}, card);
		expect(res.status).toBe(400);
		expect(res.data.message).toMatch(pattern);
		expect(res.data.message).not.toMatch(/\d{6,}/);
	});
});

describe('digital cards', () => {
	const cardOf = (cardNumber: string) => ({ cardNumber, cardExpMonth: '12', cardExpYear: '30', cardCVV: '123' });

	async function tokenize(cardNumber: string) {
		const orderId = await createOrder();
		return initiate(orderId, { secureCard: true }, cardOf(cardNumber));
	}

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
		expect(list.data.data.digitalCards).toEqual([
			{
				digitalCardId,
				network: 'VISA',
				cardType: 'credit',
				status: 'ACTIVE',
				panLastFour: '1111',
				createdAt: expect.any(String),
				updatedAt: expect.any(String),
			},
		]);
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
		expect(sb.requests[sb.requests.length - 1].apiPath).toBe(`/customer/${customerId}/digitalCards/${digitalCardId}`);

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
		const status = await call('GET', `/transaction/status/${res.data.data.paymentId}`);
		expect(status.data.data.status).toBe('failure');
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

describe('faults, latency and the request log', () => {
	test('injected 503 with Retry-After, for the given count only', async () => {
		sb.injectFault({ match: '/digitalCards', status: 503, count: 2, retryAfter: 3 });
		for (let i = 0; i < 2; i++) {
			const res = await call('GET', '/customer/c1/digitalCards');
			expectFailure(res, 503, 'Service temporarily unavailable');
			expect(res.headers['retry-after']).toBe('3');
		}
		expect((await call('POST', '/order', orderBody())).status).toBe(200);
		expect((await call('GET', '/customer/c1/digitalCards')).status).toBe(200);
		expect(sb.requests.map((r) => r.status)).toEqual([503, 503, 200, 200]);
	});

	test('429 through the control API, before authentication', async () => {
		await axios.post(`${sb.url}/__sandbox/faults`, { match: 'check-status', status: 429, count: 1, retryAfter: 1 });
		const res = await call('GET', '/nac/api/v1/pg/orders/check-status?orderId=x', undefined, {
			family: 'long',
			authorization: null,
		});
		expect(res.status).toBe(429);
		expect(res.data).toEqual({ resCode: 429, status: 'failure', message: 'Too many requests' });
		expect(res.headers['retry-after']).toBe('1');
	});

	test('latency delays each answer', async () => {
		sb.setLatency(150);
		const start = Date.now();
		await call('GET', '/customer/c1/digitalCards');
		expect(Date.now() - start).toBeGreaterThanOrEqual(140);
	});

	test('log entries, redaction, clearing and the control endpoints', async () => {
		const body = orderBody();
		await call('POST', '/order?trace=1', body);
		await call('GET', '/customer/c%201/digitalCards', undefined, { authorization: null });
		expect(sb.requests).toHaveLength(2);
		const [first, second] = sb.requests;
		expect(first).toMatchObject({
			method: 'POST',
			path: new URL(sb.baseUrl).pathname + '/order?trace=1',
			apiPath: '/order',
			family: 'short',
			clientId: sb.clients.active.clientId,
			body: JSON.stringify(body),
			status: 200,
			resCode: 200,
		});
		expect(first.headers.authorization).toBe('Basic <redacted>');
		expect(first.headers['x-merchant-domain']).toBe('https://shop.example.com');
		expect(JSON.stringify(sb.requests)).not.toContain(sb.clients.active.clientSecret);
		expect(second).toMatchObject({ apiPath: '/customer/c%201/digitalCards', status: 401, resCode: 401, clientId: null });

		const viaHttp = await axios.get(`${sb.url}/__sandbox/requests`);
		expect(viaHttp.data).toHaveLength(2);
		await axios.delete(`${sb.url}/__sandbox/requests`);
		expect(sb.requests).toHaveLength(0);

		const orderId = await createOrder();
		await axios.post(`${sb.url}/__sandbox/reset`);
		expect(sb.requests).toHaveLength(0);
		expectFailure(await initiate(orderId), 404, 'Order not found');
	});

	test('control API rejects bad input', async () => {
		const opts = { validateStatus: () => true };
		expect((await axios.post(`${sb.url}/__sandbox/payments/pay_x/complete`, { result: 'success' }, opts)).status).toBe(404);
		expect((await axios.post(`${sb.url}/__sandbox/latency`, { ms: -1 }, opts)).status).toBe(400);
		expect((await axios.post(`${sb.url}/__sandbox/faults`, { status: 'x' }, opts)).status).toBe(400);
		expect((await axios.get(`${sb.url}/__sandbox/nothing`, opts)).status).toBe(404);
	});
});

describe('options', () => {
	test('empty shortPrefix serves the short family at the root; custom clients and key', async () => {
		const key = crypto.randomBytes(32).toString('hex');
		const other = await startSandbox({
			shortPrefix: '',
			clients: { active: { clientId: 'me', clientSecret: 'my-secret' } },
			cardEncryptionKey: key,
		});
		try {
			expect(other.baseUrl).toBe(other.url);
			const payload = JSON.stringify(orderBody());
			const res = await axios.post(`${other.url}/order`, payload, {
				headers: {
					Authorization: 'Basic ' + Buffer.from('me:my-secret').toString('base64'),
					'X-Signature': sign('my-secret', '/order' + payload),
					'X-MERCHANT-BROWSER-FINGERPRINT': 'fp',
					'X-MERCHANT-USER-AGENT': 'ua',
					'X-MERCHANT-DOMAIN': 'https://shop.example.com',
					'Accept-Language': 'en-US',
					'Content-Type': 'application/json',
				},
				validateStatus: () => true,
			});
			expect(res.status).toBe(200);
			expect(other.cardEncryptionKey).toBe(key);
		} finally {
			await other.close();
		}
	});
});
