/* eslint-disable @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import * as http from 'node:http';
import { call, checkout, checkStatus, customer, expectFailure, orderBody, sign, useSandbox } from './support';

/**
 * A request with exactly the headers the gateway's public clients send to the long family: Authorization (Basic) and
 * Content-Type, nothing else (node:http adds only Host, Content-Length and Connection, as any client does).
 */
function publicClientCall(
	url: string,
	method: 'GET' | 'POST',
	auth: { clientId: string; clientSecret: string },
	body?: unknown,
): Promise<{ status: number; headersSent: string[]; data: any }> {
	const payload = body === undefined ? undefined : JSON.stringify(body);
	return new Promise((resolve, reject) => {
		const req = http.request(url, { method });
		req.setHeader('Authorization', 'Basic ' + Buffer.from(`${auth.clientId}:${auth.clientSecret}`).toString('base64'));
		req.setHeader('Content-Type', 'application/json');
		if (payload !== undefined) req.setHeader('Content-Length', Buffer.byteLength(payload));
		const headersSent = req.getHeaderNames();
		req.on('response', (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, headersSent, data: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
			res.on('error', reject);
		});
		req.on('error', reject);
		req.end(payload);
	});
}


const sb = useSandbox();

describe('short family: credentials, signature and required headers', () => {
	const body = orderBody();

	test('missing Authorization header', async () => {
		expectFailure(await call('POST', '/order', body, { authorization: null }), 401, 'Missing Authorization header');
	});

	test('non-Basic Authorization header counts as missing', async () => {
		const res = await call('POST', '/order', body, { authorization: 'Bearer abc' });
		expectFailure(res, 401, 'Missing Authorization header');
	});

	test('wrong secret', async () => {
		const client = { clientId: sb().clients.active.clientId, clientSecret: 'nope' };
		const res = await call('POST', '/order', body, { client });
		expectFailure(res, 401, 'Invalid or inactive client credentials');
	});

	test('unknown client id', async () => {
		const client = { clientId: 'who', clientSecret: sb().clients.active.clientSecret };
		expectFailure(await call('POST', '/order', body, { client }), 401, 'Invalid or inactive client credentials');
	});

	test('inactive client, even with a correct signature', async () => {
		const res = await call('POST', '/order', body, { client: sb().clients.inactive });
		expectFailure(res, 401, 'Invalid or inactive client credentials');
	});

	test('missing signature', async () => {
		expectFailure(await call('POST', '/order', body, { signature: null }), 401, 'Signature missing in the header');
		const empty = await call('GET', '/customer/c1/digitalCards', undefined, { signature: '' });
		expectFailure(empty, 401, 'Signature missing in the header');
	});

	test('wrong signature: other key, prefixed path, re-serialized body, upper case', async () => {
		const invalid = 'Invalid signature; request cannot be processed';
		expectFailure(await call('POST', '/order', body, { signSecret: 'other' }), 401, invalid);
		const prefixed = new URL(sb().baseUrl).pathname + '/order';
		expectFailure(await call('POST', '/order', body, { signPath: prefixed }), 401, invalid);
		const spaced = JSON.stringify(body, null, 1);
		const signedCompact = sign(sb().clients.active.clientSecret, '/order' + JSON.stringify(body));
		expectFailure(await call('POST', '/order', body, { rawBody: spaced, signature: signedCompact }), 401, invalid);
		const upper = sign(sb().clients.active.clientSecret, '/order' + JSON.stringify(body)).toUpperCase();
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
		expect(badIp.data.errMessage).toBe(badIp.data.message);
	});

	test('checks run in order: credentials before signature before headers', async () => {
		const res = await call('POST', '/order', body, {
			client: sb().clients.inactive,
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

describe('long family: Basic alone, as every public client calls it', () => {
	test('create-checkout and check-status answer without X-Signature', async () => {
		const created = await checkout({}, { signature: null });
		expect(created.status).toBe(200);
		expect(created.data.status).toBe('success');
		const status = await checkStatus(created.data.orderId, { signature: null });
		expect(status.data).toEqual({
			status: 'failure',
			resCode: 400,
			errMessage: 'Transaction not initiated',
		});
	});

	test('exactly what a public client sends (Basic and Content-Type alone) is accepted on both long endpoints', async () => {
		const { checkoutBaseUrl, clients } = sb();
		const created = await publicClientCall(
			checkoutBaseUrl + '/nac/api/v1/pg/orders/create-checkout',
			'POST',
			clients.active,
			orderBody({ redirectType: 'post', curn: 'c-1', customerFields: { ...customer, phone: 12345678 } }),
		);
		expect(created.headersSent.sort()).toEqual(['authorization', 'content-length', 'content-type', 'host']);
		expect(created.status).toBe(200);
		expect(created.data.status).toBe('success');
		const orderId = created.data.orderId;
		expect(typeof orderId).toBe('string');

		const status = await publicClientCall(
			`${checkoutBaseUrl}/nac/api/v1/pg/orders/check-status?orderId=${encodeURIComponent(orderId)}`,
			'GET',
			clients.active,
		);
		expect(status.headersSent.sort()).toEqual(['authorization', 'content-type', 'host']);
		// Known and not yet paid: the gateway's own answer, not a header refusal.
		expect(status.data).toEqual({ status: 'failure', resCode: 400, errMessage: 'Transaction not initiated' });

		const seen = sb().requests.slice(-2);
		expect(seen.map((r) => [r.method, r.status])).toEqual([
			['POST', 200],
			['GET', 400],
		]);
		expect(seen.every((r) => r.headers['x-merchant-browser-fingerprint'] === undefined)).toBe(true);
	});

	test('on the long family a merchant header that is sent is still checked for its form', async () => {
		const empty = await checkout({}, { signature: null, headers: { 'X-MERCHANT-DOMAIN': ' ' } });
		expect(empty.status).toBe(400);
		expect(empty.data.errMessage).toBe('Invalid header: X-MERCHANT-DOMAIN is empty');
		const badIp = await checkStatus('wb-x', { signature: null, headers: { 'X-MERCHANT-IP': 'not-an-ip' } });
		expect(badIp.status).toBe(400);
		expect(badIp.data.errMessage).toBe('Invalid header: X-MERCHANT-IP must be an IPv4 or IPv6 address');
	});

	test('the short family still requires every merchant header', async () => {
		const res = await call('POST', '/order', orderBody(), { omitHeaders: ['X-MERCHANT-BROWSER-FINGERPRINT'] });
		expectFailure(res, 400, 'Missing required header: X-MERCHANT-BROWSER-FINGERPRINT');
	});

	test('a correct X-Signature there is accepted too', async () => {
		expect((await checkout()).status).toBe(200);
	});

	test('an X-Signature there, when sent, must be valid', async () => {
		const res = await checkout({}, { signSecret: 'other' });
		expect(res.status).toBe(401);
		expect(res.data).toEqual({
			receiptId: 'rcpt-1',
			status: 'failure',
			resCode: 401,
			errMessage: 'Invalid signature; request cannot be processed',
		});
		const status = await checkStatus('wb-x', { signature: 'f'.repeat(64) });
		expect(status.status).toBe(401);
		expect(status.data).toEqual({
			resCode: 401,
			status: 'failure',
			errMessage: 'Invalid signature; request cannot be processed',
		});
	});

	test('Basic credentials are still required', async () => {
		const res = await checkStatus('wb-x', { authorization: null, signature: null });
		expect(res.status).toBe(401);
		expect(res.data.errMessage).toBe('Missing Authorization header');
		const inactive = await checkout({}, { client: sb().clients.inactive, signature: null });
		expect(inactive.status).toBe(401);
		expect(inactive.data.errMessage).toBe('Invalid or inactive client credentials');
	});

	test('the short family still requires the signature', async () => {
		expectFailure(await call('GET', '/customer/c1/digitalCards', undefined, { signature: null }), 401, 'Signature missing in the header');
	});
});
