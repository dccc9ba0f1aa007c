/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { execFileSync } from 'node:child_process';

import { PaymentGatewayApi } from '../../credentials/PaymentGatewayApi.credentials';
import { baseAddresses, InvalidCredential } from '../../nodes/PaymentGateway/validation/credential';

const credentials = {
	baseUrl: 'https://gateway.example.com/nac/api/v1/merchant-host',
	checkoutBaseUrl: '',
	clientId: 'client-1',
	clientSecret: 'secret-1',
	cardEncryptionKey: 'ab'.repeat(32),
	merchantDomain: 'https://shop.example.com',
	merchantIp: '',
	browserFingerprint: '',
	userAgent: '',
	acceptLanguage: 'en-US',
};

function opensslHmac(secret: string, data: string): string {
	return execFileSync('openssl', ['dgst', '-sha256', '-hmac', secret], { input: data }).toString().trim().split(/\s+/).pop()!;
}

describe('PaymentGatewayApi.authenticate', () => {
	const credential = new PaymentGatewayApi();

	it('signs each request of one credential object for its own path, and follows a changed secret', async () => {
		const same = { ...credentials };
		const sign = async (url: string) =>
			(await credential.authenticate(same, { method: 'GET', baseURL: same.baseUrl, url })).headers as Record<string, string>;
		const first = await sign('/transaction/status/PAY1');
		expect(first['X-Signature']).toBe(opensslHmac('secret-1', '/transaction/status/PAY1'));
		expect((await sign('/transaction/status/PAY1'))['X-Signature']).toBe(first['X-Signature']);
		expect((await sign('/transaction/status/PAY2'))['X-Signature']).toBe(opensslHmac('secret-1', '/transaction/status/PAY2'));
		same.clientSecret = 'secret-2';
		const changed = await sign('/transaction/status/PAY2');
		expect(changed['X-Signature']).toBe(opensslHmac('secret-2', '/transaction/status/PAY2'));
		expect(changed.Authorization).toBe(`Basic ${Buffer.from('client-1:secret-2').toString('base64')}`);
	});

	it('signs apiPath + the exact body string it sends, and adds Basic auth and merchant headers', async () => {
		const body = { amount: 10.5, currency: 'USD', customerFields: { name: 'Zoë' } };
		const signed = await credential.authenticate(credentials, {
			method: 'POST',
			baseURL: credentials.baseUrl,
			url: '/order',
			body,
		});
		expect(typeof signed.body).toBe('string');
		const sent = signed.body as string;
		expect(JSON.parse(sent)).toEqual(body);
		const headers = signed.headers!;
		expect(headers['X-Signature']).toBe(opensslHmac('secret-1', `/order${sent}`));
		expect(headers.Authorization).toBe(`Basic ${Buffer.from('client-1:secret-1').toString('base64')}`);
		expect(headers['X-MERCHANT-DOMAIN']).toBe('https://shop.example.com');
		expect(headers['Accept-Language']).toBe('en-US');
		expect(headers['X-MERCHANT-BROWSER-FINGERPRINT']).toMatch(/^[0-9a-f]{64}$/);
		expect(headers['X-MERCHANT-USER-AGENT']).toBeTruthy();
		expect(headers['X-MERCHANT-IP']).toBeUndefined();
	});

	it('keeps a string body byte for byte', async () => {
		const raw = '{"b":1,  "a":"x"}';
		const signed = await credential.authenticate(credentials, { method: 'POST', url: '/order', body: raw });
		expect(signed.body).toBe(raw);
		expect(signed.headers!['X-Signature']).toBe(opensslHmac('secret-1', `/order${raw}`));
	});

	it('signs GET and DELETE over the path alone, without the query string', async () => {
		const get = await credential.authenticate(credentials, {
			method: 'GET',
			url: '/nac/api/v1/pg/orders/check-status',
			qs: { orderId: 'ord_1' },
		});
		expect(get.headers!['X-Signature']).toBe(opensslHmac('secret-1', '/nac/api/v1/pg/orders/check-status'));
		const del = await credential.authenticate(credentials, { method: 'DELETE', url: '/customer/c/digitalCards/d' });
		expect(del.headers!['X-Signature']).toBe(opensslHmac('secret-1', '/customer/c/digitalCards/d'));
	});

	it('lets per-item headers win over the credential defaults, whatever their case', async () => {
		const signed = await credential.authenticate(
			{ ...credentials, merchantIp: '203.0.113.1', userAgent: 'Default UA' },
			{
				method: 'GET',
				url: '/transaction/status/p1',
				headers: { 'accept-language': 'fr-FR', 'X-MERCHANT-USER-AGENT': 'Item UA' },
			},
		);
		const headers = signed.headers!;
		expect(headers['accept-language']).toBe('fr-FR');
		expect(headers['Accept-Language']).toBeUndefined();
		expect(headers['X-MERCHANT-USER-AGENT']).toBe('Item UA');
		expect(headers['X-MERCHANT-IP']).toBe('203.0.113.1');
	});
});

describe('the Base URLs requests are sent to', () => {
	const fields = (baseUrl: string, checkoutBaseUrl = '') => ({ ...credentials, baseUrl, checkoutBaseUrl });

	it.each([
		'https://gateway.example.com/nac/api/v1/merchant-host',
		'HTTPS://gateway.example.com',
		'http://localhost:8080/merchant-host',
		'http://127.0.0.1:3000',
		'http://127.200.3.4',
		'http://[::1]:3000/merchant-host',
	])('%s is accepted', (url) => {
		expect(() => baseAddresses(fields(url))).not.toThrow();
		expect(() => baseAddresses(fields('https://gateway.example.com', url))).not.toThrow();
	});

	it.each([
		['http://gateway.example.com', 'https'],
		['http://0.0.0.0:3000', 'https'],
		['http://10.0.0.5', 'https'],
		['http://localhost.example.com', 'https'],
		['http://127.0.0.1.example.com', 'https'],
		['http://[::2]', 'https'],
		['https://user:pass-91e3@gateway.example.com', 'user name or password'],
		['https://user@gateway.example.com', 'user name or password'],
		['http://user:pass-91e3@127.0.0.1:3000', 'user name or password'],
	])('%s is refused, naming the field, the value not repeated', (url, problem) => {
		for (const [credential, field] of [
			[fields(url), 'Base URL'],
			[fields('https://gateway.example.com', url), 'Checkout Base URL'],
		] as const) {
			let error: unknown;
			try {
				baseAddresses(credential);
			} catch (thrown) {
				error = thrown;
			}
			expect(error).toBeInstanceOf(InvalidCredential);
			expect((error as InvalidCredential).field).toBe(field);
			expect((error as InvalidCredential).problem).toContain(problem);
			expect((error as InvalidCredential).message).not.toContain(url.replace(/^https?:\/\//, ''));
		}
	});
});
