import * as crypto from 'node:crypto';
import { startSandbox } from '../../sandbox/gateway';
import { axios, call, control, createOrder, expectFailure, initiate, orderBody, sign, useSandbox } from './support';

const sb = useSandbox();

describe('latency and the request log', () => {
	test('latency delays each answer', async () => {
		sb().setLatency(150);
		const start = Date.now();
		await call('GET', '/customer/c1/digitalCards');
		expect(Date.now() - start).toBeGreaterThanOrEqual(140);
		const [entry] = sb().requests;
		// Timers count whole milliseconds and may fire up to one early by this clock.
		expect(entry.closedAtMs! - entry.receivedAtMs).toBeGreaterThanOrEqual(149);
	});

	test('log entries, redaction, clearing and the control endpoints', async () => {
		const body = orderBody();
		await call('POST', '/order?trace=1', body);
		await call('GET', '/customer/c%201/digitalCards', undefined, { authorization: null });
		expect(sb().requests).toHaveLength(2);
		const [first, second] = sb().requests;
		expect(first).toMatchObject({
			method: 'POST',
			path: new URL(sb().baseUrl).pathname + '/order?trace=1',
			apiPath: '/order',
			family: 'short',
			clientId: sb().clients.active.clientId,
			body: JSON.stringify(body),
			status: 200,
			resCode: 200,
			fault: null,
		});
		expect(first.headers.authorization).toBe('Basic <redacted>');
		expect(first.headers['x-merchant-domain']).toBe('https://shop.example.com');
		expect(JSON.stringify(sb().requests)).not.toContain(sb().clients.active.clientSecret);
		expect(second).toMatchObject({ apiPath: '/customer/c%201/digitalCards', status: 401, resCode: 401, clientId: null });
		// The second was sent once the first was answered; the clock is the process's monotonic one.
		expect(first.receivedAtMs).toBeGreaterThan(0);
		expect(first.closedAtMs).toBeGreaterThanOrEqual(first.receivedAtMs);
		expect(second.receivedAtMs).toBeGreaterThanOrEqual(first.closedAtMs!);
		expect(second.closedAtMs).toBeLessThanOrEqual(performance.now());

		const viaHttp = await axios.get(control('/requests'));
		expect(viaHttp.data).toHaveLength(2);
		await axios.delete(control('/requests'));
		expect(sb().requests).toHaveLength(0);

		const orderId = await createOrder();
		await axios.post(control('/reset'));
		expect(sb().requests).toHaveLength(0);
		expectFailure(await initiate(orderId), 404, 'Order not found');
	});

	test('bodies over 1 MB are refused with 413 and not logged', async () => {
		const res = await call('POST', '/order', undefined, { rawBody: 'x'.repeat(1024 * 1024 + 1) });
		expect(res.status).toBe(413);
		expect(sb().requests).toHaveLength(0);
	});
});

describe('status faults through the JS and control APIs', () => {
	test('injected 503 with Retry-After, for the given count only', async () => {
		sb().injectFault({ match: '/digitalCards', status: 503, count: 2, retryAfter: 3 });
		for (let i = 0; i < 2; i++) {
			const res = await call('GET', '/customer/c1/digitalCards');
			expectFailure(res, 503, 'Service temporarily unavailable');
			expect(res.headers['retry-after']).toBe('3');
		}
		expect((await call('POST', '/order', orderBody())).status).toBe(200);
		expect((await call('GET', '/customer/c1/digitalCards')).status).toBe(200);
		expect(sb().requests.map((r) => [r.status, r.fault])).toEqual([
			[503, 'status'],
			[503, 'status'],
			[200, null],
			[200, null],
		]);
	});

	test('429 through the control API, before authentication', async () => {
		await axios.post(control('/faults'), { match: 'check-status', status: 429, count: 1, retryAfter: 1 });
		const res = await call('GET', '/nac/api/v1/pg/orders/check-status?orderId=x', undefined, {
			family: 'long',
			authorization: null,
		});
		expect(res.status).toBe(429);
		expect(res.data).toEqual({ resCode: 429, status: 'failure', errMessage: 'Too many requests', message: 'Too many requests' });
		expect(res.headers['retry-after']).toBe('1');
	});

	test('an HTTP date as Retry-After, a custom body, and the method filter', async () => {
		const date = 'Wed, 21 Oct 2037 07:28:00 GMT';
		sb().injectFault({ match: '/order', method: 'post', status: 200, retryAfter: date, body: { status: 'failure' } });
		expect((await call('GET', '/order')).status).toBe(404); // a GET does not use it up
		const res = await call('POST', '/order', orderBody());
		expect(res.status).toBe(200);
		expect(res.data).toEqual({ status: 'failure' });
		expect(res.headers['retry-after']).toBe(date);
		expect(sb().faults).toEqual([]);
	});

	test('listing and clearing pending faults', async () => {
		await axios.post(control('/faults'), { match: '/order', kind: 'html', count: 3 });
		const listed = await axios.get(control('/faults'));
		expect(listed.data.faults).toEqual([{ match: '/order', kind: 'html', count: 3, status: 502 }]);
		await axios.delete(control('/faults'));
		expect(sb().faults).toEqual([]);
		expect((await call('POST', '/order', orderBody())).status).toBe(200);
	});

	test('control API rejects bad input', async () => {
		const opts = { validateStatus: () => true };
		expect((await axios.post(control('/payments/PAY0/complete'), { result: 'success' }, opts)).status).toBe(404);
		expect((await axios.post(control('/latency'), { ms: -1 }, opts)).status).toBe(400);
		expect((await axios.post(control('/faults'), { status: 'x' }, opts)).status).toBe(400);
		expect((await axios.post(control('/faults'), { match: 'x' }, opts)).data.error).toMatch(/kind or status/);
		expect((await axios.post(control('/faults'), { kind: 'melt' }, opts)).data.error).toMatch(/kind must be one of/);
		expect((await axios.post(control('/faults'), { kind: 'huge', sizeBytes: 10 }, opts)).status).toBe(400);
		expect((await axios.post(control('/faults'), { kind: 'slow-body', bytesPerSecond: 0 }, opts)).status).toBe(400);
		expect((await axios.post(control('/notifications'), { url: 'ftp://x' }, opts)).status).toBe(400);
		expect((await axios.post(control('/notifications'), { format: 'xml' }, opts)).status).toBe(400);
		expect((await axios.post(control('/notifications'), '[1]', { ...opts, headers: { 'Content-Type': 'application/json' } })).status).toBe(400);
		expect((await axios.get(control('/nothing'), opts)).status).toBe(404);
		expect(sb().faults).toEqual([]);
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

	test('bad options are refused', async () => {
		await expect(startSandbox({ cardEncryptionKey: 'abc' })).rejects.toThrow(/64 hex/);
		await expect(startSandbox({ notificationUrl: 'not a url' })).rejects.toThrow(/url/);
		await expect(startSandbox({ notificationFormat: 'xml' as 'flat' })).rejects.toThrow(/format/);
	});

	test('notification options are taken at start', async () => {
		const other = await startSandbox({ notificationUrl: 'http://127.0.0.1:9/hook', notificationFormat: 'wrapped', notificationPadding: true });
		try {
			expect(other.notificationSettings).toEqual({ url: 'http://127.0.0.1:9/hook', format: 'wrapped', pad: true });
			const viaHttp = await axios.post(`${other.url}/__sandbox/notifications`, { url: '' });
			expect(viaHttp.data).toEqual({ url: null, format: 'wrapped', pad: true });
		} finally {
			await other.close();
		}
	});
});
