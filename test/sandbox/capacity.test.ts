/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import * as http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

import { startSandbox } from '../../sandbox/gateway';
import { axios, checkStatus, control, createOrder, useSandbox } from './support';

// The capacity setting: a gateway that serves so many requests at once and refuses, or queues, the rest. What is
// asserted is counted by the sandbox (statuses, places held, its own clock's lower bounds), not timed by the test.

const sb = useSandbox();
afterEach(() => sb().setCapacity(null));

/** Samples how many requests hold a place while `work` runs; the most it saw. */
async function mostServing<T>(work: Promise<T>): Promise<{ result: T; most: number }> {
	let most = 0;
	const sampler = setInterval(() => (most = Math.max(most, sb().serving)), 1);
	try {
		return { result: await work, most };
	} finally {
		clearInterval(sampler);
	}
}

test('refuse: serves 3 at once, answers the others 429 with Retry-After 1 at once, and logs them', async () => {
	const orderId = await createOrder();
	sb().setCapacity({ serves: 3 });
	sb().setLatency(300);
	sb().clearLog();
	const { result: answers, most } = await mostServing(Promise.all(Array.from({ length: 6 }, () => checkStatus(orderId))));
	const statuses = answers.map((res) => res.status).sort();
	// The gateway says "Transaction not initiated" (400) for an order without a payment: served all the same.
	expect(statuses).toEqual([400, 400, 400, 429, 429, 429]);
	for (const refused of answers.filter((res) => res.status === 429)) {
		expect(refused.headers['retry-after']).toBe('1');
		expect(refused.data).toMatchObject({ resCode: 429, status: 'failure', errMessage: 'Too many requests' });
	}
	expect(sb().requests.filter((entry) => entry.fault === 'capacity').map((entry) => entry.status)).toEqual([429, 429, 429]);
	expect(most).toBeLessThanOrEqual(3);
	expect(sb().serving).toBe(0);
});

test('refuse: a place is free again once its answer has been sent', async () => {
	const orderId = await createOrder();
	sb().setCapacity({ serves: 1, retryAfter: null });
	for (let round = 0; round < 3; round++) expect((await checkStatus(orderId)).status).toBe(400);
	sb().setLatency(200);
	const [first, second] = await Promise.all([checkStatus(orderId), checkStatus(orderId)]);
	expect([first.status, second.status].sort()).toEqual([400, 429]);
	// retryAfter null: no Retry-After header.
	expect([first, second].find((res) => res.status === 429)!.headers['retry-after']).toBeUndefined();
});

test('wait: serves 2 at once and queues the rest, so each waits its turn: nothing refused, latency grows with load', async () => {
	const orderId = await createOrder();
	sb().setCapacity({ serves: 2, beyond: 'wait' });
	sb().setLatency(200);
	sb().clearLog();
	const { result: answers, most } = await mostServing(Promise.all(Array.from({ length: 6 }, () => checkStatus(orderId))));
	expect(answers.map((res) => res.status)).toEqual([400, 400, 400, 400, 400, 400]);
	expect(most).toBeLessThanOrEqual(2);
	// Three turns of 200 ms each, by the sandbox's own clock: two places, each serving one answer per 200 ms from the
	// first arrival on, so the answers end two by two at least 200, 400 and 600 ms after it. Counted from the first
	// arrival, not each request's own: on a busy machine the six arrive spread out, which only makes the wait shorter.
	const received = Math.min(...sb().requests.map((entry) => entry.receivedAtMs));
	const ended = sb().requests.map((entry) => entry.closedAtMs! - received).sort((a, b) => a - b);
	for (const [index, ms] of ended.entries()) expect(ms).toBeGreaterThanOrEqual(200 * Math.ceil((index + 1) / 2) - 5);
});

test('injected faults answer whatever the load, and hold no place', async () => {
	const orderId = await createOrder();
	sb().setCapacity({ serves: 1 });
	sb().injectFault({ match: orderId, status: 503, count: 2 });
	const answers = await Promise.all([checkStatus(orderId), checkStatus(orderId), checkStatus(orderId)]);
	expect(answers.map((res) => res.status).sort()).toEqual([400, 503, 503]);
});

test('the control API reads and sets it; reset() keeps it, like the latency; bad settings are refused', async () => {
	expect((await axios.get(control('/capacity'))).data).toEqual({ serves: null });
	const set = await axios.post(control('/capacity'), { serves: 10, retryAfter: 2 });
	expect(set.data).toEqual({ serves: 10, beyond: 'refuse', retryAfter: 2 });
	sb().reset();
	expect((await axios.get(control('/capacity'))).data).toEqual({ serves: 10, beyond: 'refuse', retryAfter: 2 });
	for (const bad of [{ serves: 0 }, { serves: 1.5 }, { serves: 2, beyond: 'drop' }, { serves: 2, retryAfter: -1 }]) {
		const refused = await axios.post(control('/capacity'), bad, { validateStatus: () => true });
		expect(refused.status).toBe(400);
	}
	expect((await axios.post(control('/capacity'), { serves: null })).data).toEqual({ serves: null });
});

test('startSandbox takes it as an option, and refuses a bad one', async () => {
	const other = await startSandbox({ capacity: { serves: 4, beyond: 'wait', retryAfter: null } });
	try {
		expect(other.capacity).toEqual({ serves: 4, beyond: 'wait', retryAfter: null });
	} finally {
		await other.close();
	}
	await expect(startSandbox({ capacity: { serves: -1 } })).rejects.toThrow('serves must be a positive integer');
});

test("an idle kept-alive connection stays open past Node's 5 s default, so the next request on it is answered", async () => {
	const agent = new http.Agent({ keepAlive: true });
	const get = () =>
		new Promise<{ status?: number; reused: boolean; socket: import('node:net').Socket }>((resolve, reject) => {
			const request = http.get(`${sb().url}/no-such-path`, { agent }, (res) => {
				const { socket } = res;
				res.resume().on('end', () => resolve({ status: res.statusCode, reused: request.reusedSocket, socket }));
			});
			request.on('error', reject);
		});
	try {
		const first = await get();
		// Past Node's default (5 s, and a buffer of 1 s) after which it would be closed: a lower bound, load only lengthens it.
		await sleep(7_000);
		expect(first.socket.destroyed).toBe(false);
		const second = await get();
		expect([first.status, second.status, second.reused]).toEqual([404, 404, true]);
	} finally {
		agent.destroy();
	}
}, 20_000);
