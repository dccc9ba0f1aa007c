/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import type { StatusRecord } from '../support/fixtures';
import { runNode } from '../support/fixtures';
import { opensslHmacHex } from '../support/openssl';
import { claimsAside, DECLINED_CARD, PAYMENT_STATUS, useTriggerBench } from '../support/trigger';

// The Payment Gateway Trigger served as n8n serves a production webhook (test/support/webhook.js): real HTTP in,
// webhook() through n8n-core's WebhookContext, the workflow through WorkflowExecute, against the sandbox gateway.
// This file: which requests start an execution and what it holds. trigger-recheck.test.ts: the status re-check
// and the outcome filter.

const bench = useTriggerBench();
const { notify, post, paid, settled } = bench;

describe('authentic notifications start one execution with one flat item', () => {
	it('flat: 200, one item with orderId, paymentId and the gateway’s values, one read of that payment', async () => {
		const record = await paid();
		const answer = await notify(bench.server, record);
		expect(answer).toMatchObject({ status: 200, json: { received: true } });

		const executions = await settled();
		expect(executions).toHaveLength(1);
		expect(executions[0].status).toBe('success');
		expect(executions[0].items).toHaveLength(1);
		const item = executions[0].items[0].json;
		expect(item).toEqual({
			...claimsAside({ ...record }),
			status: 'success',
			amount: 25.5,
			currency: 'USD',
			statusVerified: true,
			statusMismatch: false,
		});
		expect(item).not.toHaveProperty('eventType');
		expect(bench.recheckRequests().map((request) => request.path)).toEqual([
			expect.stringMatching(new RegExp(`${PAYMENT_STATUS}${record.paymentId}$`)),
		]);
		expect(bench.sandbox.requests).toHaveLength(1);
	});

	it.each([
		['null', null],
		['TRANSACTION_COMPLETED', 'TRANSACTION_COMPLETED'],
	])('wrapped with eventType %s: the data, flat, with eventType kept', async (_label, eventType) => {
		const record = await paid();
		const data = { ...record, failureReason: null, redirectType: 'post', redirectUrl: 'https://shop.example.com/done' };
		expect(await notify(bench.server, { eventType, data })).toMatchObject({ status: 200 });

		const executions = await settled();
		expect(executions).toHaveLength(1);
		expect(executions[0].items).toHaveLength(1);
		const item = executions[0].items[0].json;
		expect(item).toEqual({
			eventType,
			...claimsAside(data),
			status: 'success',
			amount: 25.5,
			currency: 'USD',
			statusVerified: true,
			statusMismatch: false,
		});
		expect(item).not.toHaveProperty('data');
		expect(bench.recheckRequests()).toHaveLength(1);
	});

	it('stray spaces around the values (the provider document shows them) are accepted and trimmed', async () => {
		const record = await paid();
		const spaced = {
			...record,
			orderId: `  ${record.orderId} `,
			paymentId: `\t${record.paymentId} `,
			status: ' success ',
			signature: ` ${record.signature}\n`,
		};
		const answer = await notify(bench.server, { eventType: ' TRANSACTION_COMPLETED ', data: spaced });
		expect(answer.status).toBe(200);

		const executions = await settled();
		expect(executions).toHaveLength(1);
		expect(executions[0].items[0].json).toMatchObject({
			eventType: 'TRANSACTION_COMPLETED',
			orderId: record.orderId,
			paymentId: record.paymentId,
			status: 'success',
			notifiedStatus: 'success',
			signature: record.signature,
			statusVerified: true,
		});
		expect(bench.recheckRequests()[0].path).toMatch(new RegExp(`${PAYMENT_STATUS}${record.paymentId}$`));
	});

	it.each(['text/plain', 'application/octet-stream'])(
		'JSON sent as %s (n8n leaves it unparsed) is read from the raw body',
		async (contentType) => {
			const record = await paid();
			const answer = await post(bench.server, JSON.stringify({ eventType: null, data: record }), contentType);
			expect(answer.status).toBe(200);
			const executions = await settled();
			expect(executions.map((execution) => execution.items.map((item) => item.json.paymentId))).toEqual([
				[record.paymentId],
			]);
		},
	);

	it('a form-encoded body with the right fields and signature is not a JSON notification: 400, no execution', async () => {
		const record = await paid();
		const form = new URLSearchParams({
			orderId: record.orderId as string,
			paymentId: record.paymentId as string,
			status: 'success',
			signature: record.signature as string,
		}).toString();
		const answer = await post(bench.server, form, 'application/x-www-form-urlencoded');
		expect(answer.status).toBe(400);
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(bench.server.executions).toHaveLength(0);
	});

	it('the item reaches the nodes after the trigger (Status → Verify Signature finds it valid)', async () => {
		const record = await paid();
		const then = [{ nodeType: PaymentGateway, parameters: { resource: 'status', operation: 'verifySignature' } }];
		await bench.withServer(
			{},
			async (own) => {
				expect(await notify(own, record)).toMatchObject({ status: 200 });
				const [execution] = await settled(own);
				expect(execution.nodeExecutionOrder).toEqual(['Payment Gateway Trigger', 'Payment Gateway']);
				// Verify Signature confirms it again: the gateway's values stay on top, the notification's claims
				// beside them (only the currency, which the notification did not claim, is newly set aside).
				const item = execution.items[0].json;
				expect(item).toMatchObject({ statusVerified: true, notifiedStatus: 'success', currency: 'USD' });
				expect(execution.outputOf('Payment Gateway').map((output) => output.json)).toEqual([
					{ ...item, notifiedCurrency: 'USD', signatureValid: true, repeat: false },
				]);
			},
			{ then },
		);
	});
});

describe('anything else starts nothing', () => {
	const flipFirst = (signature: string) => (signature[0] === '0' ? '1' : '0') + signature.slice(1);
	it.each([
		['missing', async () => undefined],
		['empty', async () => ''],
		['with one character changed', async (record: StatusRecord) => flipFirst(record.signature)],
		['in upper case', async (record: StatusRecord) => record.signature.toUpperCase()],
		['of another payment', async () => (await paid()).signature],
		[
			'made with another client’s secret',
			async (record: StatusRecord) =>
				opensslHmacHex(bench.sandbox.clients.inactive.clientSecret, `${record.orderId}|${record.paymentId}`),
		],
	])('signature %s: 401, no execution, nothing sent to the gateway', async (_label, signatureFor) => {
		const record = await paid();
		const signature = await signatureFor(record);
		bench.sandbox.clearLog();
		const answer = await notify(bench.server, { ...record, signature });
		expect(answer).toMatchObject({ status: 401, json: { error: 'Missing or invalid signature' } });
		expect(await settled()).toHaveLength(0);
		expect(bench.sandbox.requests).toHaveLength(0);
	});

	it.each([
		['an array of notifications', (record: StatusRecord) => [record]],
		['a JSON string', () => 'a notification'],
		['a number', () => 42],
		['null', () => null],
		['an object without paymentId', (record: StatusRecord) => ({ ...record, paymentId: undefined })],
		['an object without orderId', (record: StatusRecord) => ({ ...record, orderId: undefined })],
		[
			'a wrapper whose data has no ids',
			(record: StatusRecord) => ({ eventType: null, data: { status: record.status } }),
		],
		['an empty object', () => ({})],
	])('%s: 400, no execution', async (_label, bodyOf) => {
		const record = await paid();
		const answer = await notify(bench.server, bodyOf(record));
		expect(answer.status).toBe(400);
		expect(answer.json.error).toMatch(/orderId and paymentId/);
		expect(await settled()).toHaveLength(0);
		expect(bench.sandbox.requests).toHaveLength(0);
	});

	it('invalid JSON: n8n refuses it with 422 before the node runs', async () => {
		const record = await paid();
		const answer = await post(bench.server, JSON.stringify(record).slice(0, -1));
		expect(answer).toMatchObject({ status: 422, json: { code: 422, message: 'Failed to parse request body' } });
		expect(await settled()).toHaveLength(0);
		expect(bench.server.calls[0].webhookResult).toBeUndefined();
		expect(bench.sandbox.requests).toHaveLength(0);
	});

	it('an empty body: 400', async () => {
		expect((await post(bench.server, '')).status).toBe(400);
		expect(await settled()).toHaveLength(0);
	});
});

describe('notifications the sandbox gateway itself sends', () => {
	it.each([
		['flat', false],
		['wrapped', false],
		['wrapped', true],
	] as const)('%s (stray spaces: %s): delivered with 200, one execution', async (format, pad) => {
		const { sandbox } = bench;
		sandbox.setNotifications({ url: bench.server.url, format, pad });
		const record = await paid();
		const [delivery] = await sandbox.waitForNotifications(1);
		expect(delivery).toMatchObject({ event: 'TRANSACTION_COMPLETED', status: 200, error: null });

		const executions = await settled();
		expect(executions).toHaveLength(1);
		expect(executions[0].items.map((item) => item.json)).toEqual([
			expect.objectContaining({
				orderId: record.orderId,
				paymentId: record.paymentId,
				status: 'success',
				signature: record.signature,
				statusVerified: true,
				statusMismatch: false,
				...(format === 'wrapped' ? { eventType: 'TRANSACTION_COMPLETED' } : {}),
			}),
		]);
	});

	it('a failed payment and a refund: the status the gateway confirms, the refund with its refundId', async () => {
		const { sandbox } = bench;
		sandbox.setNotifications({ url: bench.server.url, format: 'wrapped' });
		const failed = await paid('failure', DECLINED_CARD);
		const refunded = await paid('success');
		// The payment's own notification is handled first: re-checked after the refund, it would confirm the refund.
		await sandbox.waitForNotifications(2);
		await bench.server.waitForExecutions(2);
		const refund = await runNode(sandbox, {
			resource: 'transaction',
			operation: 'refund',
			paymentId: refunded.paymentId,
			amount: 5,
		});
		expect(refund.error).toBeUndefined();
		const deliveries = await sandbox.waitForNotifications(3);
		// Deliveries, and the executions they start, may settle in any order.
		expect(deliveries.map((delivery) => `${delivery.event} ${delivery.status}`).sort()).toEqual([
			'REFUND_SUCCESS 200',
			'TRANSACTION_COMPLETED 200',
			'TRANSACTION_FAILED 200',
		]);

		const items = (await settled()).map((execution) => execution.items[0].json);
		const byEvent = Object.fromEntries(items.map((item) => [item.eventType as string, item]));
		expect(Object.keys(byEvent).sort()).toEqual(['REFUND_SUCCESS', 'TRANSACTION_COMPLETED', 'TRANSACTION_FAILED']);
		expect(byEvent.TRANSACTION_FAILED).toMatchObject({ paymentId: failed.paymentId, status: 'failure' });
		expect(byEvent.REFUND_SUCCESS).toMatchObject({
			paymentId: refunded.paymentId,
			refundId: refund.items[0].json.refundId,
			status: 'partially_refunded',
			statusVerified: true,
			statusMismatch: false,
		});
	});

	it('a forged one (the sandbox sends it with another signature): 401, no execution', async () => {
		const { sandbox } = bench;
		const record = await paid();
		sandbox.setNotifications({ url: bench.server.url });
		const delivery = await sandbox.sendNotification({ paymentId: record.paymentId, signature: '0'.repeat(64) });
		expect(delivery.status).toBe(401);
		expect(await settled()).toHaveLength(0);
		expect(sandbox.requests).toHaveLength(0);
	});
});

it('no secret in any answer, item, run or error of this file', () => {
	bench.expectNoSecrets();
});
