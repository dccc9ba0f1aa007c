import axios, { AxiosRequestConfig, AxiosResponse } from 'axios';
import * as crypto from 'node:crypto';
import { startSandbox, Sandbox, SandboxOptions } from '../../sandbox/gateway';

// Signing and encryption are done here from the spec, independently of the node's code,
// so the sandbox is checked against the spec rather than against our own client.

export const VISA = '4111111111111111';
export const MASTERCARD = '5186001700008785';
export const DECLINED = '4393570006367857';

export const ORDER_ID = /^wb-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const PAYMENT_ID = /^PAY[0-9A-F]{32}$/;
export const REFUND_ID = /^RFD[0-9A-F]{32}$/;
export const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let current: Sandbox;

/** Starts one sandbox for the test file, reset before each test; `sb()` is that sandbox. */
export function useSandbox(options: SandboxOptions = {}): () => Sandbox {
	beforeAll(async () => {
		current = await startSandbox(options);
	});
	afterAll(async () => {
		await current.close();
	});
	beforeEach(() => {
		current.reset();
		current.setLatency(0);
		current.setNotifications({ url: null, format: 'flat', pad: false });
	});
	return () => current;
}

export interface CallOptions {
	client?: { clientId: string; clientSecret: string };
	authorization?: string | null;
	signature?: string | null;
	signSecret?: string;
	signPath?: string;
	headers?: Record<string, string>;
	omitHeaders?: string[];
	family?: 'short' | 'long';
	rawBody?: string;
	/** Another sandbox than the test file's. */
	sandbox?: Sandbox;
	/** Passed on to axios (timeout, responseType, ...). */
	axios?: AxiosRequestConfig;
}

export const sign = (secret: string, data: string) => crypto.createHmac('sha256', secret).update(data).digest('hex');

export function luhnComplete(partial: string): string {
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

export function encrypt(card: object, keyHex = current.cardEncryptionKey): string {
	const iv = crypto.randomBytes(16);
	const cipher = crypto.createCipheriv('aes-256-cbc', Buffer.from(keyHex, 'hex'), iv);
	const enc = Buffer.concat([cipher.update(JSON.stringify(card), 'utf8'), cipher.final()]);
	return `${iv.toString('hex')}.${enc.toString('hex')}`;
}

/** Signed API request as a correct client sends it; `opts` spoils one part of it. */
export async function call(
	method: 'GET' | 'POST' | 'DELETE',
	apiPath: string,
	body?: unknown,
	opts: CallOptions = {},
): Promise<AxiosResponse> {
	const target = opts.sandbox ?? current;
	const client = opts.client ?? target.clients.active;
	const payload = opts.rawBody ?? (body === undefined ? '' : JSON.stringify(body));
	const signedPath = (opts.signPath ?? apiPath).split('?')[0];
	const headers: Record<string, string> = {
		'X-MERCHANT-BROWSER-FINGERPRINT': 'fp-123',
		'X-MERCHANT-USER-AGENT': 'Mozilla/5.0 (test)',
		'X-MERCHANT-DOMAIN': 'https://shop.example.com',
		'X-MERCHANT-IP': '203.0.113.7',
		'Accept-Language': 'en-US',
		'X-Signature': sign(opts.signSecret ?? client.clientSecret, signedPath + (method === 'POST' ? payload : '')),
		Authorization: 'Basic ' + Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64'),
	};
	if (method === 'POST') headers['Content-Type'] = 'application/json';
	if (opts.authorization === null) delete headers.Authorization;
	else if (opts.authorization !== undefined) headers.Authorization = opts.authorization;
	if (opts.signature === null) delete headers['X-Signature'];
	else if (opts.signature !== undefined) headers['X-Signature'] = opts.signature;
	for (const name of opts.omitHeaders ?? []) delete headers[name];
	Object.assign(headers, opts.headers);
	const base = opts.family === 'long' ? target.checkoutBaseUrl : target.baseUrl;
	return axios.request({
		method,
		url: base + apiPath,
		data: method === 'POST' ? payload : undefined,
		headers,
		validateStatus: () => true,
		transformRequest: [(d) => d],
		...opts.axios,
	});
}

export const customer = { name: 'Jane Doe', email: 'Jane@Example.com', phone: '12345678' };

export function orderBody(overrides: Record<string, unknown> = {}) {
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

export async function createOrder(overrides: Record<string, unknown> = {}): Promise<string> {
	const res = await call('POST', '/order', orderBody(overrides));
	expect(res.status).toBe(200);
	return res.data.data.orderId;
}

export const checkout = (overrides: Record<string, unknown> = {}, opts: CallOptions = {}) =>
	call(
		'POST',
		'/nac/api/v1/pg/orders/create-checkout',
		orderBody({ redirectType: 'post', curn: 'c-1', customerFields: { ...customer, phone: 12345678 }, ...overrides }),
		{ family: 'long', ...opts },
	);

export const checkStatus = (orderId: string, opts: CallOptions = {}) =>
	call('GET', `/nac/api/v1/pg/orders/check-status?orderId=${encodeURIComponent(orderId)}`, undefined, {
		family: 'long',
		...opts,
	});

export const statusByPayment = (paymentId: string) => call('GET', `/transaction/status/${paymentId}`);

export const cardOf = (cardNumber: string) => ({ cardNumber, cardExpMonth: '12', cardExpYear: '30', cardCVV: '123' });

export function initiateBody(orderId: string, overrides: Record<string, unknown> = {}, card?: object) {
	return {
		orderId,
		encryptedCardDetails: encrypt(card ?? cardOf(VISA)),
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

export const initiate = (orderId: string, overrides: Record<string, unknown> = {}, card?: object) =>
	call('POST', '/transaction/initiate', initiateBody(orderId, overrides, card));

/** An order paid with the Visa test card, settled at once (no authentication). */
export async function paidOrder(orderOverrides: Record<string, unknown> = {}) {
	const orderId = await createOrder(orderOverrides);
	const init = await initiate(orderId, { skipCVVandOTP: true });
	expect(init.status).toBe(200);
	return { orderId, paymentId: init.data.data.paymentId as string };
}

export const refund = (paymentId: string, amount: unknown, opts: CallOptions = {}) =>
	call('POST', '/transaction/refund', { paymentId, amount }, opts);

/** Short-family failure: the message under both names clients read. */
export function expectFailure(res: AxiosResponse, code: number, message: string) {
	expect(res.status).toBe(code);
	expect(res.data).toEqual({ resCode: code, status: 'failure', errMessage: message, message });
}

export const control = (path: string) => `${current.url}/__sandbox${path}`;
export { axios };
