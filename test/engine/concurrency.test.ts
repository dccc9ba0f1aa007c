import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { CountingProxy } from '../support/counting-proxy';
import type { RunWorkflowResult } from '../support/engine';
import type { Sandbox, SandboxBehindProxy } from '../support/fixtures';
import { createOrder, initiateParameters, orderParameters, runNode, startSandboxBehindProxy } from '../support/fixtures';
import { INITIAL_LIMIT } from '../../nodes/PaymentGateway/transport/adaptiveLimit';
import { paceMemory } from '../../nodes/PaymentGateway/transport/paceMemory';
import { until } from '../support/until';

// The item runner's Concurrency option through n8n's engine, seen from the network: a proxy in front of the
// sandbox counts the requests in flight, and holds earlier items longer so that answers come back out of order.
// Nothing here is timed: the checks are counts and orders. Where a test counts how many went at once, the proxy holds
// the requests until that many are out (holdUntilInFlight), so that a slow machine cannot answer the first before
// the last is sent.

const ITEMS = 10;
const CONCURRENCY = 5;
const LATENCY_MS = 50;

let sandbox: Sandbox;
let proxy: CountingProxy;
let behindProxy: SandboxBehindProxy;
beforeAll(async () => ({ sandbox, proxy } = behindProxy = await startSandboxBehindProxy()));
afterAll(async () => await behindProxy.close());

let orderIds: string[];
let paymentIds: string[];
beforeEach(async () => {
	// Every test here starts as the first run in its process: what earlier tests learned of the sandbox's pace would
	// set the start (test/engine/pace-memory.test.ts checks that it does).
	paceMemory.forget();
	sandbox.reset();
	sandbox.setLatency(0);
	proxy.delayFor = () => 0;
	const created = await runNode(
		sandbox,
		orderParameters({ amount: '={{ $json.amount }}' }),
		Array.from({ length: ITEMS }, (_unused, index) => ({ amount: index + 1 })),
	);
	expect(created.error).toBeUndefined();
	orderIds = created.items.map((item) => item.json.orderId as string);
	expect(new Set(orderIds).size).toBe(ITEMS);
	// The gateway answers the status of an order nobody has paid with a failure: give every order a payment.
	const initiated = await runNode(sandbox, initiateParameters('={{ $json.orderId }}'), orderIds.map((orderId) => ({ orderId })));
	expect(initiated.error).toBeUndefined();
	paymentIds = initiated.items.map((item) => item.json.paymentId as string);
});

/** From now on the first id answers last: each request waits longer the earlier its id comes in `ids`. */
function answerInReverse(ids: string[]) {
	proxy.delayFor = (path) => {
		const index = ids.findIndex((id) => path.includes(id));
		return index < 0 ? 0 : (ids.length - index) * 15;
	};
	sandbox.clearLog();
	sandbox.setLatency(LATENCY_MS);
	proxy.resetCount();
}

const viaProxy = (extra: IDataObject = {}) => ({
	credentials: behindProxy.credentials,
	...extra,
});

function status(operation: 'getByOrderId' | 'getByPaymentId', options: IDataObject = {}): IDataObject {
	const field = operation === 'getByOrderId' ? 'orderId' : 'paymentId';
	return { resource: 'status', operation, [field]: '={{ $json.id }}', options };
}

const requestsFor = (id: string) => sandbox.requests.filter((request) => request.path.includes(id));

/** One output per id, paired and in input order: the status of each order, the error item at `failed`. */
function expectInPlace(result: RunWorkflowResult, ids: string[], failed: number, error: IDataObject) {
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.pairedItem)).toEqual(ids.map((_id, item) => ({ item })));
	expect(result.items[failed].json).toMatchObject(error);
	result.items.forEach((item, index) => {
		if (index !== failed) expect(item.json.orderId).toBe(ids[index]);
	});
}

describe(`Status with concurrency ${CONCURRENCY}`, () => {
	it.each(['getByOrderId', 'getByPaymentId'] as const)(
		'%s: outputs in input order and paired, never more than 5 requests in flight',
		async (operation) => {
			const ids = operation === 'getByOrderId' ? orderIds : paymentIds;
			answerInReverse(ids);
			proxy.holdUntilInFlight(CONCURRENCY);

			const result = await runNode(sandbox, status(operation, { concurrency: CONCURRENCY }), ids.map((id) => ({ id })), viaProxy());

			expect(result.error).toBeUndefined();
			const field = operation === 'getByOrderId' ? 'orderId' : 'paymentId';
			expect(result.items.map((item) => item.json[field])).toEqual(ids);
			expect(result.items.map((item) => item.pairedItem)).toEqual(ids.map((_id, item) => ({ item })));
			expect(sandbox.requests).toHaveLength(ITEMS);
			// Exactly the bound: more would break the option, fewer would mean the items ran one after another.
			expect(proxy.maxInFlight).toBe(CONCURRENCY);
		},
	);

	it(`without the option, all 10 at once (the adaptive limit starts at ${INITIAL_LIMIT}), outputs in input order and paired`, async () => {
		answerInReverse(orderIds);
		proxy.holdUntilInFlight(ITEMS);
		const result = await runNode(sandbox, status('getByOrderId'), orderIds.map((id) => ({ id })), viaProxy());
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.orderId)).toEqual(orderIds);
		expect(result.items.map((item) => item.pairedItem)).toEqual(orderIds.map((_id, item) => ({ item })));
		expect(sandbox.requests).toHaveLength(ITEMS);
		expect(proxy.maxInFlight).toBe(ITEMS);
	});

	it('a failing item in the middle keeps its place under Continue On Fail', async () => {
		const ids = [...orderIds];
		ids[4] = 'ord_unknown';
		answerInReverse(ids);
		proxy.holdUntilInFlight(CONCURRENCY);
		const result = await runNode(
			sandbox,
			status('getByOrderId', { concurrency: CONCURRENCY }),
			ids.map((id) => ({ id })),
			viaProxy({ continueOnFail: true }),
		);
		expectInPlace(result, ids, 4, { error: 'Order not found (order ord_unknown) [item 4]', resCode: 404 });
		expect(proxy.maxInFlight).toBe(CONCURRENCY);
	});

	it('retries keep the order: retried items stay in place, one that runs out of retries fails in its place', async () => {
		answerInReverse(orderIds);
		for (const index of [1, 3, 8]) sandbox.injectFault({ match: orderIds[index], status: 503, count: 1, retryAfter: 0 });
		sandbox.injectFault({ match: orderIds[6], status: 503, count: 3, retryAfter: 0 });

		const result = await runNode(
			sandbox,
			status('getByOrderId', { concurrency: CONCURRENCY, maxRetries: 2 }),
			orderIds.map((id) => ({ id })),
			viaProxy({ continueOnFail: true }),
		);

		expectInPlace(result, orderIds, 6, { error: `Service temporarily unavailable (order ${orderIds[6]}) [item 6]`, resCode: 503 });
		for (const index of [1, 3, 8]) expect(requestsFor(orderIds[index]).map((request) => request.status)).toEqual([503, 200]);
		expect(requestsFor(orderIds[6]).map((request) => request.status)).toEqual([503, 503, 503]);
		expect(sandbox.requests).toHaveLength(ITEMS + 3 + 2);
		expect(proxy.maxInFlight).toBeLessThanOrEqual(CONCURRENCY);
	});
});

describe(`Digital Card → Get Many with concurrency ${CONCURRENCY}`, () => {
	it("each customer's cards stay together, in input order, paired to the customer's item", async () => {
		// Cards per input customer; a customer without cards gives no item.
		const cardCounts = [2, 0, 1, 2, 1, 0, 1];
		const customerIds: string[] = [];
		for (const [index, count] of cardCounts.entries()) {
			const customerEmail = `customer-${index}@example.com`;
			let customerId = `cus_without_cards_${index}`;
			for (const cardNumber of ['4111111111111111', '5186001700008785'].slice(0, count)) {
				const orderId = await createOrder(sandbox, { customerEmail });
				const paid = await runNode(sandbox, initiateParameters(orderId, { cardNumber, secureCard: true }));
				customerId = (paid.items[0].json.securedCardDetails as IDataObject).customerId as string;
			}
			customerIds.push(customerId);
		}
		expect(new Set(customerIds).size).toBe(cardCounts.length);
		answerInReverse(customerIds);
		proxy.holdUntilInFlight(CONCURRENCY);

		const result = await runNode(
			sandbox,
			{ resource: 'digitalCard', operation: 'getMany', customerId: '={{ $json.id }}', options: { concurrency: CONCURRENCY } },
			customerIds.map((id) => ({ id })),
			viaProxy(),
		);

		expect(result.error).toBeUndefined();
		const expected = cardCounts.flatMap((count, item) => Array.from({ length: count }, () => item));
		expect(result.items.map((card) => card.pairedItem)).toEqual(expected.map((item) => ({ item })));
		expect(result.items.map((card) => card.json.customerId)).toEqual(expected.map((item) => customerIds[item]));
		expect(sandbox.requests).toHaveLength(cardCounts.length);
		expect(proxy.maxInFlight).toBe(CONCURRENCY);
	});
});

describe('the Concurrency cap', () => {
	it('a saved workflow asking for more than 100 gets 100 in flight at most', async () => {
		const many = Array.from({ length: 130 }, () => ({ id: orderIds[0] }));
		sandbox.clearLog();
		proxy.resetCount();
		// Held until 100 are out: the node reaches its cap whatever the load, and only the node could go beyond it.
		proxy.holdUntilInFlight(100);
		const result = await runNode(sandbox, status('getByOrderId', { concurrency: 500 }), many, viaProxy());
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(130);
		expect(proxy.maxInFlight).toBe(100);
	});
});

describe('without Concurrency: the gateway\'s pace', () => {
	it(`${INITIAL_LIMIT + 40} status reads start ${INITIAL_LIMIT} at a time and add one for each answer`, async () => {
		const many = Array.from({ length: INITIAL_LIMIT + 40 }, () => ({ id: orderIds[0] }));
		sandbox.clearLog();
		proxy.resetCount();
		// The proxy holds every request until the test lets it pass: which answer comes back when is the test's choice.
		const gate = proxy.gate();
		const run = runNode(sandbox, status('getByOrderId'), many, viaProxy());
		try {
			await gate.heldAt(INITIAL_LIMIT);
			// No answer yet, so no more requests. Waiting can only let a late one in, never make one that came go away.
			await sleep(300);
			expect(gate.held()).toBe(INITIAL_LIMIT);
			// One answer: the limit grows by one, so two more go out while the others still wait; a third would be growth
			// by more than one.
			gate.release(1);
			await gate.heldAt(INITIAL_LIMIT + 1);
			await sleep(300);
			expect(gate.held()).toBe(INITIAL_LIMIT + 1);
		} finally {
			gate.open();
		}
		const result = await run;
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(INITIAL_LIMIT + 40);
		expect(proxy.maxInFlight).toBeGreaterThan(INITIAL_LIMIT);
	}, 30_000);

	it('orders are still created one at a time, and a failed one is not sent again', async () => {
		sandbox.setLatency(200);
		sandbox.injectFault({ match: '/order', method: 'POST', status: 503, count: 1, retryAfter: 0 });
		sandbox.clearLog();
		proxy.resetCount();
		const result = await runNode(sandbox, orderParameters(), [{}, {}, {}], viaProxy({ continueOnFail: true }));
		expect(result.items).toHaveLength(3);
		expect(result.items[0].json).toMatchObject({ resCode: 503 });
		expect(sandbox.requests.map((request) => request.status)).toEqual([503, 200, 200]);
		expect(proxy.maxInFlight).toBe(1);
	}, 30_000);
});

describe('without Concurrency, against a gateway that serves 3 at once (429, Retry-After 1 s, beyond)', () => {
	// More than the rule's start, so that its first requests all meet the gateway together and some are left after them.
	const ITEMS_UNDER_LIMIT = INITIAL_LIMIT + 10;
	let served: { release(): void } | undefined;
	afterEach(() => {
		// A failed test must not leave answers held for the next one.
		served?.release();
		sandbox.setCapacity(null);
	});

	async function throttledRun() {
		const orderId = orderIds[0];
		sandbox.setCapacity({ serves: 3, retryAfter: 1 });
		// The proxy passes the first requests only once the 50 the run starts with are out, so the gateway meets them
		// together; the 500 ms it takes to serve one keeps its 3 places taken meanwhile. The served answers are held until
		// the refusals of the first wave have all passed the proxy: the node meets the refusals first on any machine.
		const firstWave = INITIAL_LIMIT;
		sandbox.setLatency(500);
		sandbox.clearLog();
		proxy.resetCount();
		proxy.holdUntilInFlight(firstWave);
		served = proxy.holdAnswers(200);
		let ended = false;
		const running = runNode(
			sandbox,
			status('getByOrderId'),
			Array.from({ length: ITEMS_UNDER_LIMIT }, () => ({ id: orderId })),
			viaProxy({ continueOnFail: true }),
		).finally(() => (ended = true));
		// A run that ended first is judged below by what it returned.
		const refusals = () => sandbox.requests.filter((request) => request.status === 429).length;
		await until(() => ended || (refusals() >= firstWave - 3 && proxy.inFlight <= 3), 'the first refusals passed on');
		served.release();
		const result = await running;
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual(
			Array.from({ length: ITEMS_UNDER_LIMIT }, (_unused, item) => ({ item })),
		);
		const failed = result.items.filter((item) => item.json.error !== undefined).length;
		return { failed, refused: sandbox.requests.filter((request) => request.status === 429) };
	}

	it(`loses no item: every one gets its status, in place, and the limit starts at ${INITIAL_LIMIT} in flight`, async () => {
		const { failed, refused } = await throttledRun();
		expect(failed).toBe(0);
		expect(sandbox.requests.filter((request) => request.status === 200)).toHaveLength(ITEMS_UNDER_LIMIT);
		expect(sandbox.requests).toHaveLength(ITEMS_UNDER_LIMIT + refused.length);
		expect(refused.length).toBeGreaterThan(0);
		// A count that load cannot move: the proxy holds the first 50 until all are out and the served answers until the
		// refusals have passed, so the run has cut before any place frees; after that it climbs at most back to half.
		expect(proxy.maxInFlight).toBeLessThanOrEqual(INITIAL_LIMIT);
	}, 120_000);

	it(`a 429's Retry-After pauses every request of the run: nothing after the first ${INITIAL_LIMIT} arrives within 1 s of the first refusal`, async () => {
		const { refused } = await throttledRun();
		const firstRefusalEnded = Math.min(...refused.map((request) => request.closedAtMs!));
		const later = [...sandbox.requests].sort((a, b) => a.receivedAtMs - b.receivedAtMs).slice(INITIAL_LIMIT);
		expect(later.length).toBeGreaterThan(0);
		// A lower bound by the sandbox's clock: the client can only have paused later than the refusal ended.
		for (const request of later) expect(request.receivedAtMs - firstRefusalEnded).toBeGreaterThanOrEqual(1000 - 10);
	}, 120_000);
});
