/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import type { AxiosResponse } from 'axios';
import type { Readable } from 'node:stream';
import type { FaultOptions } from '../../sandbox/gateway';
import { until } from '../support/until';
import { axios, call, checkStatus, control, createOrder, initiateBody, orderBody, useSandbox } from './support';

// Each fault kind against a real client: what arrives, and whether the request changed state.

const sb = useSandbox();

const MIB = 1024 * 1024;
const asText = { responseType: 'text' as const, transformResponse: [(d: string) => d] };

/** A card payment request for a fresh order; `processed` tells from check-status whether it ran. */
async function paymentRequest() {
	const orderId = await createOrder();
	const processed = async () => (await checkStatus(orderId)).data.status === 'pending';
	return { body: initiateBody(orderId), processed };
}

const initiateWith = (body: object, axiosOptions = {}) =>
	call('POST', '/transaction/initiate', body, { axios: axiosOptions });

/** Reads a streamed answer until `limit` bytes (then hangs up) or its end. */
function readStream(res: AxiosResponse, limit = Infinity): Promise<Buffer> {
	const stream = res.data as Readable;
	const chunks: Buffer[] = [];
	let size = 0;
	return new Promise((resolve, reject) => {
		stream.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= 64 * 1024) chunks.push(chunk);
			if (size >= limit) {
				stream.destroy();
				resolve(Object.assign(Buffer.concat(chunks), { total: size }));
			}
		});
		stream.on('end', () => resolve(Object.assign(Buffer.concat(chunks), { total: size })));
		stream.on('error', reject);
	});
}

const lastEntry = () => sb().requests[sb().requests.length - 1];

test('reset-before-body: the connection drops at once, nothing is processed', async () => {
	const { body, processed } = await paymentRequest();
	sb().injectFault({ match: '/transaction/initiate', kind: 'reset-before-body' });
	await expect(initiateWith(body)).rejects.toMatchObject({ code: 'ECONNRESET' });
	expect(lastEntry()).toMatchObject({ apiPath: '/transaction/initiate', fault: 'reset-before-body', status: null });
	expect(typeof lastEntry().body).toBe('string');
	expect(await processed()).toBe(false);
});

test('reset-after-body: processed, then the connection drops without an answer', async () => {
	const { body, processed } = await paymentRequest();
	sb().injectFault({ match: '/transaction/initiate', kind: 'reset-after-body' });
	await expect(initiateWith(body)).rejects.toMatchObject({ code: 'ECONNRESET' });
	expect(lastEntry()).toMatchObject({ fault: 'reset-after-body', status: null, body: JSON.stringify(body) });
	expect(await processed()).toBe(true);
});

test('hang: no answer until the client gives up; nothing is processed', async () => {
	const { body, processed } = await paymentRequest();
	sb().injectFault({ match: '/transaction/initiate', kind: 'hang' });
	// performance.now(), the clock of the sandbox's log. The client's 300 ms start after it (Node starts a timer from
	// its loop's clock, read afresh in whole milliseconds: hence 10 ms for the clocks).
	const started = performance.now();
	await expect(initiateWith(body, { timeout: 300 })).rejects.toMatchObject({ code: 'ECONNABORTED' });
	expect(performance.now() - started).toBeGreaterThanOrEqual(300 - 10);
	const hung = lastEntry();
	expect(hung).toMatchObject({ fault: 'hang', status: null });
	await until(() => hung.closedAtMs !== null, 'the sandbox to see the client hang up');
	// Open until the client gave up at its 300 ms, not closed by the sandbox: counted from before the request, not
	// from its arrival, which a busy machine can delay by more than any allowance.
	expect(hung.closedAtMs! - started).toBeGreaterThanOrEqual(300 - 10);
	expect(await processed()).toBe(false);
});

test('slow-body: processed; headers at once, the body far slower than a short time-out', async () => {
	const { body, processed } = await paymentRequest();
	sb().injectFault({ match: '/transaction/initiate', kind: 'slow-body' });
	// A byte every 200 ms (5 a second) from the answer's start: the second not before 400 ms after the request. Counted
	// from before the request, not from when the headers reached the client: a busy machine can deliver them late,
	// with bytes already waiting behind them (10 ms for the clocks, as above).
	const started = performance.now();
	const res = await initiateWith(body, { responseType: 'stream' });
	expect(res.status).toBe(200);
	expect(res.headers['content-type']).toMatch(/application\/json/);
	const length = Number(res.headers['content-length']);
	expect(length).toBeGreaterThan(100);
	const first = await readStream(res, 2);
	expect(performance.now() - started).toBeGreaterThanOrEqual(400 - 10);
	expect(first.toString()).toBe('{"');
	expect(lastEntry()).toMatchObject({ fault: 'slow-body', status: 200, resCode: 200 });
	expect(await processed()).toBe(true);

	// axios' `timeout` is a socket idle time-out, which a trickle of bytes keeps resetting; an overall deadline ends it.
	sb().injectFault({ match: '/transaction/initiate', kind: 'slow-body' });
	await expect(initiateWith(body, { signal: AbortSignal.timeout(300) })).rejects.toMatchObject({ code: 'ERR_CANCELED' });
});

test('slow-body at a higher rate delivers the real answer whole, with a correct Content-Length', async () => {
	sb().injectFault({ match: '/digitalCards', kind: 'slow-body', bytesPerSecond: 400 });
	const res = await call('GET', '/customer/c1/digitalCards', undefined, { axios: asText });
	expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.data));
	expect(JSON.parse(res.data)).toEqual({ resCode: 200, status: 'success', data: { digitalCards: [], remainingLimit: 5 } });
});

test('endless: 200 JSON, chunked, a body that never ends until the client hangs up', async () => {
	sb().injectFault({ match: '/digitalCards', kind: 'endless' });
	const res = await call('GET', '/customer/c1/digitalCards', undefined, { axios: { responseType: 'stream' } });
	expect(res.status).toBe(200);
	expect(res.headers['transfer-encoding']).toBe('chunked');
	expect(res.headers['content-length']).toBeUndefined();
	const received = await readStream(res, 8 * MIB);
	expect((received as Buffer & { total: number }).total).toBeGreaterThanOrEqual(8 * MIB);
	expect(received.toString().startsWith('{"resCode":200,"status":"success","data":"xxx')).toBe(true);
	// The sandbox keeps serving after the client hung up.
	expect((await call('GET', '/customer/c1/digitalCards')).status).toBe(200);
});

test('html: an HTML error page with the status (default 502); nothing is processed', async () => {
	sb().injectFault({ match: '/order', kind: 'html' });
	const res = await call('POST', '/order', orderBody(), { axios: asText });
	expect(res.status).toBe(502);
	expect(res.headers['content-type']).toMatch(/^text\/html/);
	expect(res.data).toContain('<title>502 Bad Gateway</title>');
	expect(lastEntry()).toMatchObject({ fault: 'html', status: 502, resCode: null });

	sb().injectFault({ match: '/order', kind: 'html', status: 504, retryAfter: 2 });
	const gateway = await call('POST', '/order', orderBody(), { axios: asText });
	expect(gateway.status).toBe(504);
	expect(gateway.headers['retry-after']).toBe('2');
});

test('failure-envelope: HTTP 200 carrying a failure resCode (default 503)', async () => {
	sb().injectFault({ match: 'check-status', kind: 'failure-envelope' });
	const res = await checkStatus('wb-x');
	expect(res.status).toBe(200);
	expect(res.data).toEqual({ resCode: 503, status: 'failure', errMessage: 'Service temporarily unavailable' });
	sb().injectFault({ match: 'check-status', kind: 'failure-envelope', status: 429 });
	expect((await checkStatus('wb-x')).data).toEqual({ resCode: 429, status: 'failure', errMessage: 'Too many requests' });
});

test('echo: the status (default 500) with the request as received, Authorization and body included; nothing is processed', async () => {
	const { body, processed } = await paymentRequest();
	sb().injectFault({ match: '/transaction/initiate', kind: 'echo' });
	const res = await initiateWith(body);
	expect(res.status).toBe(500);
	expect(res.data).toMatchObject({ resCode: 500, status: 'failure', errMessage: 'Internal Server Error' });
	expect(res.data.request).toMatchObject({ method: 'POST', body: JSON.stringify(body) });
	expect(res.data.request.headers.authorization).toMatch(/^Basic [A-Za-z0-9+/=]+$/);
	expect(JSON.parse(res.data.error)).toEqual(res.data.request);
	expect(await processed()).toBe(false);
	sb().injectFault({ match: 'check-status', kind: 'echo', status: 502 });
	expect((await checkStatus('wb-x')).status).toBe(502);
});

test('truncated-json: processed, then half of the real JSON with its own Content-Length', async () => {
	const { body, processed } = await paymentRequest();
	sb().injectFault({ match: '/transaction/initiate', kind: 'truncated-json' });
	const res = await initiateWith(body, asText);
	expect(res.status).toBe(200);
	expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.data));
	expect(res.data.startsWith('{"resCode":200,"status":"success","data":{"paymentId":"PAY')).toBe(true);
	expect(() => JSON.parse(res.data)).toThrow(SyntaxError);
	expect(await processed()).toBe(true);
});

test('empty: HTTP 200 and no body; nothing is processed', async () => {
	const { body, processed } = await paymentRequest();
	sb().injectFault({ match: '/transaction/initiate', kind: 'empty' });
	const res = await initiateWith(body, asText);
	expect(res.status).toBe(200);
	expect(res.headers['content-length']).toBe('0');
	expect(res.data).toBe('');
	expect(await processed()).toBe(false);
});

test('huge: a valid 64 MiB JSON envelope by default, streamed', async () => {
	sb().injectFault({ match: '/digitalCards', kind: 'huge' });
	const res = await call('GET', '/customer/c1/digitalCards', undefined, { axios: { responseType: 'stream' } });
	expect(res.status).toBe(200);
	expect(Number(res.headers['content-length'])).toBe(64 * MIB);
	const received = await readStream(res);
	expect((received as Buffer & { total: number }).total).toBe(64 * MIB);
	expect(received.toString().startsWith('{"resCode":200,"status":"success","data":{"padding":"xxx')).toBe(true);
});

test('huge: a smaller size parses as JSON', async () => {
	sb().injectFault({ match: '/digitalCards', kind: 'huge', sizeBytes: 100000 });
	const res = await call('GET', '/customer/c1/digitalCards', undefined, { axios: asText });
	expect(Buffer.byteLength(res.data)).toBe(100000);
	expect(JSON.parse(res.data)).toMatchObject({ resCode: 200, status: 'success', data: { padding: expect.any(String) } });
});

test('huge with fill "spaces": the same size of valid JSON, spaces between its tokens', async () => {
	sb().injectFault({ match: '/digitalCards', kind: 'huge', sizeBytes: 100000, fill: 'spaces' });
	const res = await call('GET', '/customer/c1/digitalCards', undefined, { axios: asText });
	expect(Buffer.byteLength(res.data)).toBe(100000);
	expect(JSON.parse(res.data)).toEqual({ resCode: 200, status: 'success', data: { padding: '' } });
	expect(() => sb().injectFault({ kind: 'huge', fill: 'zeros' } as unknown as FaultOptions)).toThrow(/fill must be/);
});

test('many-values: just under 1 MiB of empty objects by default, valid JSON of exactly sizeBytes, streamed', async () => {
	sb().injectFault({ match: '/digitalCards', kind: 'many-values' });
	const res = await call('GET', '/customer/c1/digitalCards', undefined, { axios: asText });
	expect(res.status).toBe(200);
	expect(Number(res.headers['content-length'])).toBe(MIB - 1);
	expect(Buffer.byteLength(res.data)).toBe(MIB - 1);
	const parsed = JSON.parse(res.data);
	expect(parsed).toMatchObject({ resCode: 200, status: 'success' });
	expect(parsed.data.length).toBeGreaterThan(349_000);
	expect(parsed.data.every((entry: unknown) => JSON.stringify(entry) === '{}')).toBe(true);
	for (const sizeBytes of [64, 100, 101, 102]) {
		sb().injectFault({ match: '/digitalCards', kind: 'many-values', sizeBytes });
		const small = await call('GET', '/customer/c1/digitalCards', undefined, { axios: asText });
		expect(Buffer.byteLength(small.data)).toBe(sizeBytes);
		expect(JSON.parse(small.data).data).toEqual(expect.arrayContaining([{}]));
	}
});

test('deep: a valid JSON envelope whose data nests 100000 arrays', async () => {
	sb().injectFault({ match: '/digitalCards', kind: 'deep' });
	const res = await call('GET', '/customer/c1/digitalCards', undefined, { axios: asText });
	expect(res.status).toBe(200);
	const head = '{"resCode":200,"status":"success","data":';
	expect(res.data).toBe(head + '['.repeat(100000) + ']'.repeat(100000) + '}');

	sb().injectFault({ match: '/digitalCards', kind: 'deep', depth: 3 });
	const shallow = await call('GET', '/customer/c1/digitalCards');
	expect(shallow.data).toEqual({ resCode: 200, status: 'success', data: [[[]]] });
});

test('faults are logged with their kind; the control API takes every kind', async () => {
	await axios.post(control('/faults'), { match: '/digitalCards', kind: 'empty', count: 2 });
	await call('GET', '/customer/c1/digitalCards');
	await call('GET', '/customer/c1/digitalCards');
	await call('GET', '/customer/c1/digitalCards');
	expect(sb().requests.map((r) => r.fault)).toEqual(['empty', 'empty', null]);
});
