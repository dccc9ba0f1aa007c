import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

import type { IDataObject } from 'n8n-workflow';

import type { FaultOptions } from '../../sandbox/gateway';
import type { Sandbox } from '../support/fixtures';
import { createOrder, orderParameters, runNode, startSandbox } from '../support/fixtures';

// A gateway's worst answers: many megabytes, JSON nested a hundred thousand deep, a body that never ends, a
// connection that hangs, a body that trickles in for ever. Each must end in a clear error within the Timeout
// option, naming the operation, without filling memory.

v8.setFlagsFromString('--expose_gc');
const gc = vm.runInNewContext('gc') as () => void;

const TIMEOUT = 1500;
const MIB = 1024 * 1024;

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox();
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.reset());

/** A server that answers 200 with the start of a JSON envelope, then one byte every 50 ms, for ever. */
async function startTrickle(): Promise<{ url: string; close: () => Promise<void> }> {
	const server: Server = createServer((_request, response) => {
		response.writeHead(200, { 'Content-Type': 'application/json' });
		response.write('{"resCode":200,"status":"success","data":{"note":"');
		const timer = setInterval(() => response.write('x'), 50);
		response.on('close', () => clearInterval(timer));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

/** Memory the process holds: JavaScript heap plus buffers outside it, and the resident set. */
const memory = () => {
	const usage = process.memoryUsage();
	return { js: usage.heapUsed + usage.external, rss: usage.rss };
};

/** Runs `work`, sampling memory every few milliseconds: growth at the peak, what stays after collection, time taken. */
async function measured<T>(work: () => Promise<T>) {
	gc();
	const before = memory();
	const peak = { ...before };
	const sampler = setInterval(() => {
		const now = memory();
		peak.js = Math.max(peak.js, now.js);
		peak.rss = Math.max(peak.rss, now.rss);
	}, 2);
	const started = Date.now();
	try {
		const result = await work();
		const ms = Date.now() - started;
		gc();
		const after = memory();
		return { result, ms, peakJs: peak.js - before.js, peakRss: peak.rss - before.rss, keptJs: after.js - before.js };
	} finally {
		clearInterval(sampler);
	}
}

const READ = {
	label: 'Status → Get by Order ID',
	match: 'check-status',
	parameters: async (on: Sandbox) => ({ resource: 'status', operation: 'getByOrderId', orderId: await createOrder(on) }),
};
const WRITE = { label: 'Order → Create', match: '/order', parameters: async (_on: Sandbox) => orderParameters() };

/** A sandbox of its own, so that tests that wait for time-outs can run at the same time. */
async function withSandbox(body: (own: Sandbox) => Promise<void>) {
	const own = await startSandbox();
	try {
		await body(own);
	} finally {
		await own.close();
	}
}

describe('answers too large or too deep are not read: a clear error, memory bounded', () => {
	const cases: Array<[string, FaultOptions, RegExp]> = [
		['64 MiB of valid JSON', { kind: 'huge', sizeBytes: 64 * MIB }, /an answer larger than 1 MiB, which was not read$/],
		['JSON nested 100,000 deep', { kind: 'deep', depth: 100_000 }, /nested deeper than 64 levels, which was not read$/],
		['JSON nested 400,000 deep (800 kB, under the size limit)', { kind: 'deep', depth: 400_000 }, /nested deeper than 64 levels, which was not read$/],
		['a body that never ends', { kind: 'endless' }, /an answer larger than 1 MiB, which was not read$/],
	];
	for (const operation of [READ, WRITE]) {
		it.each(cases)(`${operation.label}: %s`, async (_name, fault, message) => {
			const parameters = { ...(await operation.parameters(sandbox)), options: { timeout: TIMEOUT } };
			sandbox.injectFault({ match: operation.match, ...fault });
			const run = await measured(() => runNode(sandbox, parameters));
			expect(run.result.error?.message).toMatch(new RegExp(`^${operation.label}: `));
			expect(run.result.error?.message).toMatch(message);
			expect(run.result.error?.description).toEqual(expect.any(String));
			expect(run.ms).toBeLessThan(TIMEOUT + 1000);
			// Reading the whole 64 MiB answer would hold at least that much; the node stops at 1 MiB.
			expect(run.peakJs).toBeLessThan(24 * MIB);
			expect(run.peakRss).toBeLessThan(48 * MIB);
			expect(run.keptJs).toBeLessThan(8 * MIB);
			expect(sandbox.requests.filter((request) => request.fault)).toHaveLength(1);
		});
	}
});

describe('the Timeout option bounds every request, and the error names the operation and the time-out', () => {
	const timedOut = (label: string, timeout = TIMEOUT) => `${label}: the gateway did not answer within the time-out of ${timeout} ms`;
	const slow: Array<[string, FaultOptions | 'trickle']> = [
		['a connection that hangs', { kind: 'hang' }],
		['a body at 5 bytes a second (16 s for the whole answer)', { kind: 'slow-body' }],
		['a body that trickles in for ever', 'trickle'],
	];
	for (const operation of [READ, WRITE]) {
		it.concurrent.each(slow)(`${operation.label}: %s`, async (_name, fault) =>
			await withSandbox(async (own) => {
				const parameters: IDataObject = { ...(await operation.parameters(own)), options: { timeout: TIMEOUT } };
				const trickle = fault === 'trickle' ? await startTrickle() : undefined;
				const extra = trickle ? { credentials: { baseUrl: trickle.url, checkoutBaseUrl: trickle.url } } : {};
				if (fault !== 'trickle') own.injectFault({ match: operation.match, ...fault });
				const started = Date.now();
				const result = await runNode(own, parameters, [{}], extra);
				const ms = Date.now() - started;
				await trickle?.close();
				expect(result.error?.message).toBe(timedOut(operation.label));
				expect(result.error?.context?.code).toBe('ETIMEDOUT');
				expect(ms).toBeGreaterThanOrEqual(TIMEOUT - 50);
				expect(ms).toBeLessThan(TIMEOUT + 1500);
			}),
		);
	}

	it.concurrent('with Max Retries, each attempt has the whole time-out, and the last one is reported', async () =>
		await withSandbox(async (own) => {
			const parameters = { ...(await READ.parameters(own)), options: { timeout: 1000, maxRetries: 2 } };
			own.clearLog();
			own.injectFault({ match: READ.match, kind: 'hang', count: 3 });
			const started = Date.now();
			const result = await runNode(own, parameters);
			const ms = Date.now() - started;
			expect(result.error?.message).toBe(timedOut(READ.label, 1000));
			expect(own.requests).toHaveLength(3);
			// Three time-outs and two back-offs (0.5 s, then 1 s).
			expect(ms).toBeGreaterThanOrEqual(3 * 1000 + 1500 - 100);
			expect(ms).toBeLessThan(3 * 1000 + 1500 + 2000);
		}),
	);

	it.concurrent('a time-out of a write says that it may have reached the gateway, and to check the status first', async () =>
		await withSandbox(async (own) => {
			own.injectFault({ match: WRITE.match, kind: 'hang' });
			const result = await runNode(own, { ...(await WRITE.parameters(own)), options: { timeout: TIMEOUT } });
			expect(result.error?.description).toMatch(/may or may not have reached the gateway/);
			expect(result.error?.description).toMatch(/Status → Get by Order ID/);
		}),
	);

	// Node's timers hold at most 2^31-1 ms; a longer one would fire after 1 ms and cut every request off.
	it('a Timeout above 2^31-1 ms is refused before sending, naming the option', async () => {
		const result = await runNode(sandbox, { ...(await WRITE.parameters(sandbox)), options: { timeout: 2 ** 31 } });
		expect(result.error).toBeDefined();
		expect(result.error?.message).toMatch(/^Timeout \(options\.timeout\) .* \[item 0\]$/);
		expect(sandbox.requests).toEqual([]);
	});
});
