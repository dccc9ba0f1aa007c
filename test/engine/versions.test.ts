import type { IDataObject, INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers, sleep } from 'n8n-workflow';

import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import type { CountingProxy } from '../support/counting-proxy';
import type { Sandbox, SandboxBehindProxy } from '../support/fixtures';
import { createOrder, orderParameters, runNode, settledPayment, startSandboxBehindProxy, withoutSubject } from '../support/fixtures';

// typeVersion 1.1 changed defaults only: the reads' Concurrency and Max Retries, and amounts that start empty; 1.2
// the reads' pace when Concurrency is not set (adaptive). Workflows saved at typeVersion 1 or 1.1 keep what they ran
// with. Seen from the network (a proxy counting requests in flight) and from the sandbox's log; no time is bounded
// from above.

const description = new PaymentGateway().description;

/** What the editor fills in for a node of this version and these choices, as n8n computes it. */
function editorDefaults(typeVersion: number, choices: INodeParameters): INodeParameters {
	const node = { typeVersion, parameters: choices } as unknown as INode;
	return NodeHelpers.getNodeParameters(description.properties, choices, true, false, node, description) ?? {};
}

/** The defaults of an option inside the Options collection this version shows. */
function optionDefault(typeVersion: number, choices: INodeParameters, option: string): unknown {
	const shown = description.properties.filter(
		(property) =>
			property.name === 'options' &&
			NodeHelpers.displayParameter(choices, property, { typeVersion } as INode, description),
	);
	expect(shown).toHaveLength(1);
	return (shown[0].options as INodeProperties[]).find((entry) => entry.name === option)?.default;
}

describe('the node description', () => {
	it('offers typeVersions 1, 1.1, 1.2 and 1.3, and the editor adds 1.3', () => {
		expect(description.version).toEqual([1, 1.1, 1.2, 1.3]);
		expect(description.defaultVersion).toBe(1.3);
	});

	it.each([
		[1, false],
		[1.1, false],
		[1.2, true],
		[1.3, true],
	])('Status → Verify Signature at typeVersion %p: Confirm With Gateway starts %p', (typeVersion, confirms) => {
		const defaults = editorDefaults(typeVersion, { resource: 'status', operation: 'verifySignature' });
		expect(defaults.confirmWithGateway).toBe(confirms);
	});

	it.each([
		[1, 'post'],
		[1.2, 'post'],
		[1.3, 'redirect'],
	])('Order → Create Checkout at typeVersion %p: Redirect Type starts %p (the live gateway\'s clients send redirect)', (typeVersion, redirectType) => {
		expect(editorDefaults(typeVersion, { resource: 'order', operation: 'createCheckout' }).redirectType).toBe(redirectType);
	});

	it.each([
		[1, 1, 0],
		[1.1, 50, 3],
		[1.2, 50, 3],
		[1.3, 50, 3],
	])('at typeVersion %s the reads offer Concurrency %s and Max Retries %s', (typeVersion, concurrency, maxRetries) => {
		for (const choices of [
			{ resource: 'status', operation: 'getByOrderId' },
			{ resource: 'digitalCard', operation: 'getMany' },
			{ resource: 'digitalCard', operation: 'delete' },
		]) {
			expect(optionDefault(typeVersion, choices, 'concurrency')).toBe(concurrency);
			expect(optionDefault(typeVersion, choices, 'maxRetries')).toBe(maxRetries);
		}
	});

	it('at typeVersion 1.2 Concurrency says that leaving it out adapts, and that setting it fixes the number', () => {
		const choices = { resource: 'status', operation: 'getByOrderId' };
		const shown = (typeVersion: number) =>
			(description.properties.find(
				(property) =>
					property.name === 'options' && NodeHelpers.displayParameter(choices, property, { typeVersion } as INode, description),
			)?.options as INodeProperties[]).find((option) => option.name === 'concurrency')?.description;
		expect(shown(1.2)).toMatch(/^Leave this option out and the node finds the gateway's pace itself/);
		expect(shown(1.2)).toMatch(/never above 100\. Set, exactly this many go at once/);
		expect(shown(1.1)).toMatch(/^How many requests may be in flight at once/);
		expect(shown(1)).toBe(shown(1.1));
	});

	it.each([
		[1, 0],
		[1.1, null],
		[1.2, null],
	])('at typeVersion %s an order and a refund amount start at %s', (typeVersion, amount) => {
		expect(editorDefaults(typeVersion, { resource: 'order', operation: 'create' }).amount).toBe(amount);
		expect(editorDefaults(typeVersion, { resource: 'transaction', operation: 'refund' }).amount).toBe(amount);
	});
});

describe('running untuned (no options set)', () => {
	let sandbox: Sandbox;
	let proxy: CountingProxy;
	let behindProxy: SandboxBehindProxy;
	beforeAll(async () => ({ sandbox, proxy } = behindProxy = await startSandboxBehindProxy()));
	afterAll(async () => await behindProxy.close());
	beforeEach(() => {
		sandbox.reset();
		sandbox.setLatency(0);
	});

	const viaProxy = (typeVersion: number, extra: IDataObject = {}) => ({
		typeVersion,
		credentials: behindProxy.credentials,
		...extra,
	});
	const statusRead = { resource: 'status', operation: 'getByOrderId', orderId: '={{ $json.orderId }}' };

	it.each([
		[1, 1],
		[1.1, 50],
	])('typeVersion %s: 60 status reads go %s at a time', async (typeVersion, inFlight) => {
		const orderId = await createOrder(sandbox);
		sandbox.clearLog();
		proxy.resetCount();
		// Held until that many are out: no answer can come back before the last of them is sent, however busy the machine.
		proxy.holdUntilInFlight(inFlight);
		const result = await runNode(sandbox, statusRead, Array.from({ length: 60 }, () => ({ orderId })), viaProxy(typeVersion));
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual(Array.from({ length: 60 }, (_unused, item) => ({ item })));
		expect(sandbox.requests).toHaveLength(60);
		expect(proxy.maxInFlight).toBe(inFlight);
	}, 30_000);

	it('typeVersion 1.2: 60 status reads start 20 at a time and add one for each answer, 40 at most after 20 answers', async () => {
		const orderId = await createOrder(sandbox);
		sandbox.clearLog();
		proxy.resetCount();
		// The proxy holds every request until the test lets it pass: which answer comes back when is the test's choice.
		const gate = proxy.gate();
		const run = runNode(sandbox, statusRead, Array.from({ length: 60 }, () => ({ orderId })), viaProxy(1.2));
		try {
			await gate.heldAt(20);
			// No answer yet, so no 21st request. Waiting can only let a late one in, never make one that came go away.
			await sleep(300);
			expect(gate.held()).toBe(20);
			// One answer: the limit grows to 21, so two more go out while the other 19 still wait; a third would be growth
			// by more than one.
			gate.release(1);
			await gate.heldAt(21);
			await sleep(300);
			expect(gate.held()).toBe(21);
		} finally {
			gate.open();
		}
		const result = await run;
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(60);
		expect(proxy.maxInFlight).toBeGreaterThan(20);
		expect(proxy.maxInFlight).toBeLessThanOrEqual(40);
	}, 30_000);

	it('typeVersion 1.2 with Concurrency set: exactly that many, as before', async () => {
		const orderId = await createOrder(sandbox);
		sandbox.clearLog();
		proxy.resetCount();
		proxy.holdUntilInFlight(7);
		const parameters = { ...statusRead, options: { concurrency: 7 } };
		const result = await runNode(sandbox, parameters, Array.from({ length: 30 }, () => ({ orderId })), viaProxy(1.2));
		expect(result.error).toBeUndefined();
		expect(proxy.maxInFlight).toBe(7);
	}, 30_000);

	it.each([
		{ typeVersion: 1, what: 'fails at the first 429', statuses: ['429'] },
		{ typeVersion: 1.1, what: 'waits out three 429s and gets the answer', statuses: ['429', '429', '429', '200'] },
		{ typeVersion: 1.2, what: 'waits out three 429s and gets the answer', statuses: ['429', '429', '429', '200'] },
	])('typeVersion $typeVersion: a status read $what', async ({ typeVersion, statuses }) => {
		const payment = await settledPayment(sandbox, 'success');
		sandbox.injectFault({ match: payment.orderId, status: 429, count: 3, retryAfter: 0 });
		sandbox.clearLog();
		const result = await runNode(sandbox, { ...statusRead, orderId: payment.orderId }, [{}], viaProxy(typeVersion));
		expect(sandbox.requests.map((request) => String(request.status))).toEqual(statuses);
		if (typeVersion === 1) expect(withoutSubject(result.error?.message)).toBe('Too many requests [item 0]');
		else expect(result.items[0].json).toMatchObject({ orderId: payment.orderId });
	}, 30_000);

	it.each([1.1, 1.2])('typeVersion %s: orders are still created one at a time and a failed one is not sent again', async (typeVersion) => {
		sandbox.setLatency(200);
		sandbox.injectFault({ match: '/order', method: 'POST', status: 503, count: 1, retryAfter: 0 });
		sandbox.clearLog();
		proxy.resetCount();
		const result = await runNode(sandbox, orderParameters(), [{}, {}, {}], viaProxy(typeVersion, { continueOnFail: true }));
		expect(result.items).toHaveLength(3);
		expect(result.items[0].json).toMatchObject({ resCode: 503 });
		expect(sandbox.requests.map((request) => request.status)).toEqual([503, 200, 200]);
		expect(proxy.maxInFlight).toBe(1);
	}, 30_000);

	it.each([
		{ typeVersion: 1, what: 'fails at a 503 of the payment read, no refund sent', statuses: [503] },
		{ typeVersion: 1.1, what: 'reads the payment again after a 503, then refunds once', statuses: [503, 200, 200] },
	])('typeVersion $typeVersion: a refund of The Whole Payment $what', async ({ typeVersion, statuses }) => {
		const payment = await settledPayment(sandbox, 'success');
		sandbox.injectFault({ match: `/transaction/status/${payment.paymentId}`, status: 503, count: 1, retryAfter: 0 });
		sandbox.clearLog();
		const parameters = { resource: 'transaction', operation: 'refund', paymentId: payment.paymentId, refundType: 'full' };
		const result = await runNode(sandbox, parameters, [{}], { typeVersion });
		expect(sandbox.requests.map((request) => request.status)).toEqual(statuses);
		expect(sandbox.requests.filter((request) => request.apiPath === '/transaction/refund')).toHaveLength(typeVersion === 1 ? 0 : 1);
		expect(result.error === undefined).toBe(typeVersion !== 1);
	});

	it.each([
		[1, 'Amount (amount) must be a number greater than 0 [item 0]'],
		[1.1, 'Amount (amount) is required [item 0]'],
	])('typeVersion %s: a refund with no Amount entered is refused, nothing sent: "%s"', async (typeVersion, message) => {
		const payment = await settledPayment(sandbox, 'success');
		sandbox.clearLog();
		const result = await runNode(sandbox, { resource: 'transaction', operation: 'refund', paymentId: payment.paymentId }, [{}], {
			typeVersion,
		});
		expect(result.error?.message).toBe(message);
		expect(sandbox.requests).toEqual([]);
	});
});
