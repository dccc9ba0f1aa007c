import type { LearnedPace } from '../../nodes/PaymentGateway/transport/paceMemory';
import { INITIAL_LIMIT } from '../../nodes/PaymentGateway/transport/adaptiveLimit';
import { MAX_ENTRIES, PaceMemory, paceMemory } from '../../nodes/PaymentGateway/transport/paceMemory';
import type { CountingProxy } from '../support/counting-proxy';
import { startCountingProxy } from '../support/counting-proxy';
import type { Sandbox, SandboxBehindProxy } from '../support/fixtures';
import { createOrder, initiateParameters, runNode, startSandboxBehindProxy } from '../support/fixtures';
import { until } from '../support/until';

// The memory of a gateway's pace through n8n's engine: what one run of status reads without Concurrency learned is
// where the next run on the same address and credential starts. Nothing is timed: the proxy in front of the sandbox
// holds requests until a number of them are out together, so the checks are counts (requests refused, requests in
// flight at once) and what the memory held when each run started.

// More than the rule's start, so that its first requests are all out together and some are left for after them.
const ITEMS = INITIAL_LIMIT + 20;

let sandbox: Sandbox;
let proxy: CountingProxy;
let behindProxy: SandboxBehindProxy;
let orderId: string;
beforeAll(async () => ({ sandbox, proxy } = behindProxy = await startSandboxBehindProxy()));
afterAll(async () => await behindProxy.close());

/** What the memory gave each run at its start (undefined: nothing kept, the rule's own start). */
let recalled: Array<LearnedPace | undefined>;
let recall: jest.SpyInstance;
beforeEach(async () => {
	paceMemory.forget();
	sandbox.reset();
	sandbox.setCapacity(null);
	sandbox.setLatency(0);
	// One paid order, read by every item (the gateway answers the status of an unpaid order with a failure).
	orderId = await createOrder(sandbox);
	const paid = await runNode(sandbox, initiateParameters(orderId));
	expect(paid.error).toBeUndefined();
	recalled = [];
	const original = PaceMemory.prototype.recall;
	recall = jest.spyOn(PaceMemory.prototype, 'recall').mockImplementation(function (this: PaceMemory, key: string) {
		const learned = original.call(this, key);
		recalled.push(learned === undefined ? undefined : { ...learned });
		return learned;
	});
});
afterEach(() => {
	recall.mockRestore();
	sandbox.setCapacity(null);
});

const statusReads = { resource: 'status', operation: 'getByOrderId', orderId: '={{ $json.id }}', options: {} };
const items = (count: number) => Array.from({ length: count }, () => ({ id: orderId }));
const refusals = () => sandbox.requests.filter((request) => request.status === 429).length;

/** A run of status reads without Concurrency through `via` (a proxy's address), none of its items lost. */
async function statusRun(via: CountingProxy, count = ITEMS, credentials = {}) {
	const result = await runNode(sandbox, statusReads, items(count), {
		credentials: { baseUrl: via.url + new URL(sandbox.baseUrl).pathname, checkoutBaseUrl: via.url, ...credentials },
		continueOnFail: true,
	});
	expect(result.error).toBeUndefined();
	return result;
}

/**
 * The first run at a gateway serving 10 at once: its first 50 requests reach the gateway together (the proxy holds
 * them until all are out), 40 are refused with Retry-After 1 s, and the 10 served answers are held until the proxy has
 * passed the refusals on, so that the node meets the refusals first on any machine.
 */
async function firstRunAtCapacity10() {
	sandbox.setCapacity({ serves: 10, retryAfter: 1 });
	sandbox.setLatency(300);
	sandbox.clearLog();
	proxy.resetCount();
	proxy.holdUntilInFlight(INITIAL_LIMIT);
	const served = proxy.holdAnswers(200);
	let ended = false;
	const running = statusRun(proxy).finally(() => (ended = true));
	try {
		await until(() => ended || (refusals() >= 10 && proxy.inFlight <= 10), 'the first refusals passed on');
	} finally {
		served.release();
	}
	const result = await running;
	expect(result.items.filter((item) => item.json.error !== undefined)).toHaveLength(0);
	return refusals();
}

describe('the memory of a gateway\'s pace, in one n8n process', () => {
	it('a second run starts at the limit the first one learned: 10 at once, none refused, at a gateway serving 10', async () => {
		expect(await firstRunAtCapacity10()).toBeGreaterThan(0);
		expect(recalled).toEqual([undefined]);
		const [[, learned]] = paceMemory.contents();
		expect(Math.floor(learned.limit)).toBe(10);

		sandbox.setLatency(100);
		sandbox.clearLog();
		proxy.resetCount();
		// All 10 must be out together before any passes: a start below 10 would hold them until the test's time-out.
		proxy.holdUntilInFlight(10);
		const second = await statusRun(proxy);
		expect(second.items.filter((item) => item.json.error !== undefined)).toHaveLength(0);
		expect(recalled).toHaveLength(2);
		expect(Math.floor(recalled[1]!.limit)).toBe(10);
		expect(refusals()).toBe(0);
		expect(sandbox.requests).toHaveLength(ITEMS);
		expect(proxy.maxInFlight).toBe(10);
	}, 60_000);

	it(`a run at another address (another proxy to the same gateway, same credential) starts afresh, at ${INITIAL_LIMIT}`, async () => {
		expect(await firstRunAtCapacity10()).toBeGreaterThan(0);
		sandbox.setCapacity(null);
		const other = await startCountingProxy(sandbox.url);
		try {
			sandbox.clearLog();
			other.holdUntilInFlight(INITIAL_LIMIT);
			await statusRun(other);
			expect(recalled).toEqual([undefined, undefined]);
			expect(other.maxInFlight).toBeGreaterThanOrEqual(INITIAL_LIMIT);
			expect(paceMemory.size).toBe(2);
		} finally {
			await other.close();
		}
	}, 60_000);

	it(`a run with another credential at the same address starts afresh, at ${INITIAL_LIMIT}`, async () => {
		expect(await firstRunAtCapacity10()).toBeGreaterThan(0);
		sandbox.setCapacity(null);
		sandbox.clearLog();
		proxy.resetCount();
		proxy.holdUntilInFlight(INITIAL_LIMIT);
		// The sandbox does not know this client and answers 401: still answers, which are all the pace needs.
		await statusRun(proxy, ITEMS, { clientId: 'another-client', clientSecret: 'another-secret' });
		expect(recalled).toEqual([undefined, undefined]);
		expect(proxy.maxInFlight).toBeGreaterThanOrEqual(INITIAL_LIMIT);
		expect(paceMemory.size).toBe(2);
	}, 60_000);

	it(`is bounded: ${MAX_ENTRIES} gateways and credentials at most, the least recently kept dropped, nothing secret kept`, async () => {
		// Each run has half its places used at once (the proxy passes none until all are out), the least a run must to
		// teach the memory anything. Which runs teach is counted, not assumed: runs go on with new client ids until
		// MAX_ENTRIES + 2 have taught it.
		const taught: string[] = [];
		const keep = jest.spyOn(PaceMemory.prototype, 'keep');
		try {
			for (let index = 0; taught.length < MAX_ENTRIES + 2; index++) {
				const clientId = `client-${index}`;
				const kept = keep.mock.calls.length;
				proxy.resetCount();
				proxy.holdUntilInFlight(INITIAL_LIMIT / 2);
				await statusRun(proxy, INITIAL_LIMIT / 2, { clientId, clientSecret: `secret-of-${clientId}` });
				if (keep.mock.calls.length > kept) taught.push(clientId);
				expect(paceMemory.size).toBeLessThanOrEqual(MAX_ENTRIES);
			}
		} finally {
			keep.mockRestore();
		}
		expect(paceMemory.size).toBe(MAX_ENTRIES);
		// The first two taught were dropped: a run with the first credential again starts with nothing kept (and, of one
		// item, teaches nothing).
		proxy.resetCount();
		recalled = [];
		await statusRun(proxy, 1, { clientId: taught[0], clientSecret: `secret-of-${taught[0]}` });
		await statusRun(proxy, 1, { clientId: taught[MAX_ENTRIES + 1], clientSecret: `secret-of-${taught[MAX_ENTRIES + 1]}` });
		expect(recalled[0]).toBeUndefined();
		expect(recalled[1]).toBeDefined();
		expect(paceMemory.size).toBe(MAX_ENTRIES);

		const kept = JSON.stringify(paceMemory.contents());
		for (const text of ['client-', 'secret-of-', sandbox.clients.active.clientSecret, new URL(proxy.url).host, 'http']) {
			expect(kept).not.toContain(text);
		}
		for (const [key, learned] of paceMemory.contents()) {
			expect(key).toMatch(/^[0-9a-f]{32}$/);
			expect(Object.values(learned).every((value) => typeof value === 'number' || typeof value === 'boolean')).toBe(true);
		}
	}, 120_000);
});
