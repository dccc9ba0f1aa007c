/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @typescript-eslint/no-unused-vars -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import type { IDataObject } from 'n8n-workflow';

import { createOrder, initiateParameters, runNode, useSandbox } from '../support/fixtures';

// Gateway failures of Transaction → Initiate through n8n's engine: each row of the spec's error table for
// initiation (triggered by the sandbox's magic order amounts), sent exactly once, and Continue On Fail.

const sandbox = useSandbox();

function initiateRequests() {
	return sandbox.requests.filter((request) => request.apiPath === '/transaction/initiate');
}

function sentOrderIds(): string[] {
	return initiateRequests().map((request) => (JSON.parse(request.body) as IDataObject).orderId as string);
}

const gatewayRows = [
	{ amount: 404.01, resCode: 404, message: 'No route found; try another card', advice: /another card/i },
	{
		amount: 404.02,
		resCode: 404,
		message: 'No route found; try an alternative payment method',
		advice: /another payment method/i,
	},
	{
		amount: 404.03,
		resCode: 404,
		message: 'No route found for this merchant; contact support',
		advice: /merchant account.*support/i,
	},
	{
		amount: 409.01,
		resCode: 409,
		message: 'Sales transactions not allowed for this merchant; contact support',
		advice: /sales transactions.*support/i,
	},
	{ amount: 422.01, resCode: 422, message: 'Fraud-rule validation failed', advice: /fraud rules/i },
	{ amount: 500.01, resCode: 500, message: 'Internal server error', advice: /internal error.*charged twice/i },
];

describe('transaction.initiate: gateway errors', () => {
	it.each(gatewayRows)(
		'order amount $amount → $resCode "$message", one request',
		async ({ amount, resCode, message, advice }) => {
			const orderId = await createOrder(sandbox, { amount });
			sandbox.clearLog();

			const result = await runNode(sandbox, initiateParameters(orderId));

			expect(result.status).toBe('error');
			expect(result.items).toEqual([]);
			expect(result.error).toMatchObject({
				name: 'NodeApiError',
				message: `${message} (order ${orderId}) [item 0]`,
				httpCode: String(resCode),
				context: expect.objectContaining({ itemIndex: 0, resCode }),
			});
			expect(result.error?.description).toMatch(advice);
			const sent = initiateRequests();
			expect(sent).toHaveLength(1);
			expect(sent[0].status).toBe(resCode);
			expect(sandbox.requests).toHaveLength(1);
		},
	);

	it('409 "Transaction is already in progress" on a second initiation of the same order, one request', async () => {
		const orderId = await createOrder(sandbox);
		const first = await runNode(sandbox, initiateParameters(orderId));
		expect(first.error).toBeUndefined();
		sandbox.clearLog();

		const second = await runNode(sandbox, initiateParameters(orderId));

		expect(second.error).toMatchObject({
			name: 'NodeApiError',
			message: `Transaction is already in progress (order ${orderId}) [item 0]`,
			httpCode: '409',
			context: expect.objectContaining({ resCode: 409 }),
		});
		expect(second.error?.description).toMatch(/transaction for this order is already in progress/i);
		expect(second.error?.description).toMatch(/Status → Get by Order ID/);
		expect(initiateRequests()).toHaveLength(1);
		expect(sandbox.requests[0].status).toBe(409);
	});

	it('after a failed payment the order can be paid again', async () => {
		const orderId = await createOrder(sandbox);
		const first = await runNode(sandbox, initiateParameters(orderId));
		sandbox.completeAuthentication(first.items[0].json.paymentId as string, 'failure');

		const second = await runNode(sandbox, initiateParameters(orderId));

		expect(second.error).toBeUndefined();
		expect(second.items[0].json.paymentId).not.toBe(first.items[0].json.paymentId);
	});

	it('no retry of a payment, even when a saved workflow carries a Max Retries option (500 and 503)', async () => {
		const orderId = await createOrder(sandbox, { amount: 500.01 });
		sandbox.clearLog();
		const withRetries = initiateParameters(orderId, { options: { maxRetries: 3 } });

		const failed = await runNode(sandbox, withRetries);
		expect(failed.error).toMatchObject({ httpCode: '500', message: `Internal server error (order ${orderId}) [item 0]` });
		expect(initiateRequests()).toHaveLength(1);

		const healthyOrderId = await createOrder(sandbox);
		sandbox.clearLog();
		sandbox.injectFault({ match: '/transaction/initiate', status: 503, count: 1 });
		const unavailable = await runNode(sandbox, initiateParameters(healthyOrderId, { options: { maxRetries: 3 } }));
		expect(unavailable.error).toMatchObject({ name: 'NodeApiError', httpCode: '503' });
		expect(unavailable.error?.description).toMatch(/charged twice|try again later/i);
		expect(initiateRequests()).toHaveLength(1);
	});

	it.each([
		{ case: 'wrong client secret', client: 'active' as const, clientSecret: 'not-the-secret-0123456789' },
		{ case: 'inactive client', client: 'inactive' as const, clientSecret: undefined },
	])('401 on $case: gateway message, advice about the credential, one request', async ({ client, clientSecret }) => {
		const orderId = await createOrder(sandbox);
		sandbox.clearLog();
		const override = { ...sandbox.clients[client], ...(clientSecret ? { clientSecret } : {}) };

		const result = await runNode(sandbox, initiateParameters(orderId), [{}], { credentials: override });

		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			message: `Invalid or inactive client credentials (order ${orderId}) [item 0]`,
			httpCode: '401',
			context: expect.objectContaining({ resCode: 401 }),
		});
		expect(result.error?.description).toMatch(/Client ID and Client Secret/);
		expect(result.error?.description).toMatch(/active/);
		const { node, stack, ...visible } = result.error as IDataObject;
		expect(JSON.stringify(visible)).not.toContain(override.clientSecret);
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0]).toMatchObject({ apiPath: '/transaction/initiate', status: 401 });
		expect(sandbox.requests[0].clientId).toBe(override.clientId);
	});
});

describe('transaction.initiate: Continue On Fail', () => {
	/** Three orders; the middle one trips the gateway's fraud rules. */
	async function threeOrders() {
		const orderIds = [
			await createOrder(sandbox, { amount: 10 }),
			await createOrder(sandbox, { amount: 422.01 }),
			await createOrder(sandbox, { amount: 30 }),
		];
		sandbox.clearLog();
		return orderIds;
	}

	const parameters = initiateParameters('={{ $json.orderId }}', { cardNumber: '={{ $json.cardNumber }}' });
	const GOOD_CARD = '4111111111111111';

	it('on: a gateway failure becomes an error item paired to its input; the others are paid', async () => {
		const orderIds = await threeOrders();
		const items = orderIds.map((orderId) => ({ orderId, cardNumber: GOOD_CARD }));

		const result = await runNode(sandbox, parameters, items, { continueOnFail: true });

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(3);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(result.items[0].json).toMatchObject({ orderId: orderIds[0], paymentStatus: 'pending', amount: 10 });
		expect(result.items[1].json).toEqual({
			error: `Fraud-rule validation failed (order ${orderIds[1]}) [item 1]`,
			resCode: 422,
			description: expect.stringMatching(/fraud rules/i),
		});
		expect(result.items[2].json).toMatchObject({ orderId: orderIds[2], paymentStatus: 'pending', amount: 30 });
		expect(sentOrderIds()).toEqual(orderIds);
		expect(initiateRequests().map((request) => request.status)).toEqual([200, 422, 200]);
	});

	it('off: the run fails at the failing item, which the error names, and nothing is sent after it', async () => {
		const orderIds = await threeOrders();
		const items = orderIds.map((orderId) => ({ orderId, cardNumber: GOOD_CARD }));

		const result = await runNode(sandbox, parameters, items);

		expect(result.status).toBe('error');
		expect(result.items).toEqual([]);
		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			message: `Fraud-rule validation failed (order ${orderIds[1]}) [item 1]`,
			httpCode: '422',
			context: expect.objectContaining({ itemIndex: 1, resCode: 422 }),
		});
		expect(sentOrderIds()).toEqual([orderIds[0], orderIds[1]]);
	});

	it('on: a validation failure becomes an error item naming the field and item; nothing sent for it', async () => {
		const orderIds = [await createOrder(sandbox), await createOrder(sandbox), await createOrder(sandbox)];
		sandbox.clearLog();
		const badCard = '4111111111111112';
		const items = orderIds.map((orderId, index) => ({ orderId, cardNumber: index === 1 ? badCard : GOOD_CARD }));

		const result = await runNode(sandbox, parameters, items, { continueOnFail: true });

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(result.items[0].json).toMatchObject({ orderId: orderIds[0], paymentStatus: 'pending' });
		expect(result.items[1].json).toEqual({
			error: expect.stringMatching(/\(cardNumber\).*\[item 1\]/),
			resCode: null,
			description: expect.stringMatching(/Nothing was sent to the gateway/),
			itemIndex: 1,
		});
		expect(JSON.stringify(result.items[1].json)).not.toContain(badCard);
		expect(result.items[2].json).toMatchObject({ orderId: orderIds[2], paymentStatus: 'pending' });
		expect(sentOrderIds()).toEqual([orderIds[0], orderIds[2]]);
	});

	it('off: a validation failure stops the run at that item; only the items before it were sent', async () => {
		const orderIds = [await createOrder(sandbox), await createOrder(sandbox), await createOrder(sandbox)];
		sandbox.clearLog();
		const badCard = '4111111111111112';
		const items = orderIds.map((orderId, index) => ({ orderId, cardNumber: index === 1 ? badCard : GOOD_CARD }));

		const result = await runNode(sandbox, parameters, items);

		expect(result.status).toBe('error');
		expect(result.error).toMatchObject({
			name: 'NodeOperationError',
			message: expect.stringMatching(/\(cardNumber\).*\[item 1\]$/),
			context: expect.objectContaining({ itemIndex: 1 }),
		});
		expect(result.error?.message).not.toContain(badCard);
		expect(sentOrderIds()).toEqual([orderIds[0]]);
	});
});
