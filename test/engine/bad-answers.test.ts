/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import type { FaultOptions } from '../../sandbox/gateway';
import { READ, TIMEOUT, WRITE } from '../support/bad-answers';
import type { Sandbox } from '../support/fixtures';
import { runNode, startSandbox, useSandbox, withoutSubject } from '../support/fixtures';
import { until } from '../support/until';

// A gateway's slowest answers: a connection that hangs, a body that comes at 5 bytes a second, a body that
// trickles in for ever. Each must end in a clear error within the Timeout option, naming the operation. Answers
// too large or too deep: large-answers.test.ts.

const sandbox = useSandbox();

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

/**
 * What the clocks may differ by: Node starts a timer from the event loop's clock, read afresh but in whole
 * milliseconds (and, where the system offers it, from a coarse clock a tick behind), while `performance.now()` and the
 * sandbox's log read the precise one. A few milliseconds, whatever the load.
 */
const CLOCKS_MS = 10;

/** A sandbox of its own, so that tests that wait for time-outs can run at the same time. */
async function withSandbox(body: (own: Sandbox) => Promise<void>) {
	const own = await startSandbox();
	try {
		await body(own);
	} finally {
		await own.close();
	}
}

describe('the Timeout option bounds every request, and the error names the operation and the time-out', () => {
	const timedOut = (label: string, timeout = TIMEOUT) => `${label}: the gateway did not answer within the time-out of ${timeout} ms [item 0]`;
	const slow: Array<[string, FaultOptions | 'trickle']> = [
		['a connection that hangs', { kind: 'hang' }],
		['a body at 5 bytes a second (16 s for the whole answer)', { kind: 'slow-body' }],
		['a body that trickles in for ever', 'trickle'],
	];
	for (const operation of [READ, WRITE]) {
		it.concurrent.each(slow)(`${operation.label}: %s`, async (_name, fault) =>
			await withSandbox(async (own) => {
				// Max Retries 0: one attempt, whose time-out is reported (retried: the next test).
				const parameters: IDataObject = { ...(await operation.parameters(own)), options: { timeout: TIMEOUT, maxRetries: 0 } };
				const trickle = fault === 'trickle' ? await startTrickle() : undefined;
				const extra = trickle ? { credentials: { baseUrl: trickle.url, checkoutBaseUrl: trickle.url } } : {};
				if (fault !== 'trickle') own.injectFault({ match: operation.match, ...fault });
				const started = performance.now();
				const result = await runNode(own, parameters, [{}], extra);
				const ms = performance.now() - started;
				await trickle?.close();
				expect(withoutSubject(result.error?.message)).toBe(timedOut(operation.label));
				expect(result.error?.context?.code).toBe('ETIMEDOUT');
				// The node's timer started after `started`, from a clock read afresh: the whole time-out, whatever the load.
				expect(ms).toBeGreaterThanOrEqual(TIMEOUT - CLOCKS_MS);
				// The node hung up before the answer was whole: its time-out ended the exchange, not the fault (a hang and a
				// trickle never end, the slow body only after 16 s). Who ended it, not how long it took: load moves only that.
				await until(() => own.requests.every((request) => request.closedAtMs !== null), 'every connection to close');
				expect(own.requests.filter((request) => request.fault && request.answered)).toEqual([]);
			}),
		);
	}

	it.concurrent('with Max Retries, each attempt has the whole time-out, and the last one is reported', async () =>
		await withSandbox(async (own) => {
			const parameters = { ...(await READ.parameters(own)), options: { timeout: 1000, maxRetries: 2 } };
			own.clearLog();
			own.injectFault({ match: READ.match, kind: 'hang', count: 3 });
			const started = performance.now();
			const result = await runNode(own, parameters);
			const ms = performance.now() - started;
			expect(withoutSubject(result.error?.message)).toBe(timedOut(READ.label, 1000));
			// Three time-outs and two back-offs (0.5 s, then 1 s), all inside the run: load only makes it longer.
			expect(ms).toBeGreaterThanOrEqual(3 * 1000 + 1500 - CLOCKS_MS);

			// Each attempt as the sandbox saw it. The HTTP client hangs up on its own timer, a moment after the
			// node's deadline: for the last attempt that may be just after the node has reported.
			await until(() => own.requests.every((request) => request.closedAtMs !== null), 'every connection to close');
			expect(own.requests).toHaveLength(3);
			// A hang never ends by itself: the node hung up on each attempt.
			expect(own.requests.map((request) => request.answered)).toEqual([false, false, false]);
			// Each attempt as the sandbox saw it, on the same clock as `started` and counted from it: the node's timers
			// run one after the other from there (a time-out of 1 s, a back-off of 0.5 s, a time-out, a back-off of 1 s,
			// a time-out), and the sandbox sees each hang-up and each retry after the timer that caused it fired. Not
			// from when a request reached the sandbox: that comes after its time-out started, by a delay a busy machine
			// stretches without bound. An attempt sharing the first one's deadline would be cut at once, a retry
			// without back-off would follow within milliseconds: both far below these bounds.
			const [first, second, third] = own.requests.map((request) => ({
				sent: request.receivedAtMs - started,
				hungUp: request.closedAtMs! - started,
			}));
			expect(first.hungUp).toBeGreaterThanOrEqual(1000 - CLOCKS_MS);
			expect(second.sent).toBeGreaterThanOrEqual(1500 - CLOCKS_MS);
			expect(second.hungUp).toBeGreaterThanOrEqual(2500 - CLOCKS_MS);
			expect(third.sent).toBeGreaterThanOrEqual(3500 - CLOCKS_MS);
			expect(third.hungUp).toBeGreaterThanOrEqual(4500 - CLOCKS_MS);
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
