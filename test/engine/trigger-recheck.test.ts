/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import * as net from 'node:net';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { createOrder, initiatePayment, runNode, sandboxCredentials } from '../support/fixtures';
import { claimsAside, CVV, DECLINED_CARD, PAYMENT_STATUS, useTriggerBench } from '../support/trigger';

// The Payment Gateway Trigger's status re-check and outcome filter, served as n8n serves a production webhook
// (test/support/webhook.js), against the sandbox gateway.

const bench = useTriggerBench();
const { notify, paid, settled } = bench;

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
	const probe = net.createServer();
	await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
	const { port } = probe.address() as net.AddressInfo;
	await new Promise((resolve) => probe.close(resolve));
	return port;
}

describe('the status re-check', () => {
	it('the item’s status is the gateway’s: a claimed success of a failed payment is a failure, flagged', async () => {
		const record = await paid('failure');
		expect(record.status).toBe('failure');
		expect(await notify(bench.server, { ...record, status: 'success' })).toMatchObject({ status: 200 });

		const executions = await settled();
		expect(executions).toHaveLength(1);
		expect(executions[0].items.map((item) => item.json)).toEqual([
			{
				...claimsAside({ ...record, status: 'success' }),
				status: 'failure',
				amount: 25.5,
				currency: 'USD',
				statusVerified: true,
				statusMismatch: true,
			},
		]);
		expect(bench.recheckRequests()).toHaveLength(1);
		expect(bench.sandbox.requests).toHaveLength(1);
	});

	it('answers the gateway before the re-check has finished', async () => {
		const record = await paid();
		// The re-check's answer is held back this long: a trigger that waited for it would answer after.
		const latencyMs = 1500;
		bench.sandbox.setLatency(latencyMs);
		const answer = await notify(bench.server, record);
		expect(answer.status).toBe(200);

		const [execution] = await bench.server.waitForExecutions(1);
		expect(execution.items[0].json).toMatchObject({ status: 'success', statusVerified: true });
		expect(execution.stoppedAt.getTime() - answer.started).toBeGreaterThanOrEqual(latencyMs);
		expect(bench.recheckRequests()).toHaveLength(1);
		// In the order the two servers saw it, on one clock: the trigger's answer went out before the sandbox's
		// answer to the re-check, however slow a busy machine made either.
		const [recheck] = bench.recheckRequests();
		expect(bench.server.calls[0].answeredAtMs).toBeLessThan(recheck.closedAtMs!);
		expect(bench.server.calls[0].answeredAt!.getTime()).toBeLessThan(execution.startedAt.getTime());
	});

	it('turned off, nothing is sent: the claims stay claims, unverified', async () => {
		const record = await paid('failure');
		await bench.withServer({ options: { recheckStatus: false } }, async (own) => {
			expect(await notify(own, { ...record, status: 'success' })).toMatchObject({ status: 200 });
			const [execution] = await settled(own);
			expect(execution.items.map((item) => item.json)).toEqual([
				{ ...claimsAside({ ...record, status: 'success' }), statusVerified: false },
			]);
		});
		expect(bench.sandbox.requests).toHaveLength(0);
	});

	interface RecheckFailure {
		breakIt: () => Promise<void>;
		parameters?: INodeParameters;
		gatewayDown?: boolean;
		noted: IDataObject;
	}
	const failures: Array<[string, RecheckFailure]> = [
		[
			'the gateway answers 503',
			{
				breakIt: async () => bench.sandbox.injectFault({ match: PAYMENT_STATUS, status: 503 }),
				parameters: { options: { maxRetries: 0 } },
				noted: { resCode: 503 },
			},
		],
		[
			'the gateway is down',
			{
				breakIt: async () => {},
				gatewayDown: true,
				parameters: { options: { maxRetries: 0 } },
				noted: { resCode: null, message: expect.stringMatching(/could not reach the payment gateway/) },
			},
		],
		[
			'the gateway answers after the time-out',
			{
				breakIt: async () => bench.sandbox.setLatency(2500),
				parameters: { options: { timeout: 1000, maxRetries: 0 } },
				noted: { message: expect.stringMatching(/did not answer within the time-out of 1000 ms/) },
			},
		],
	];

	it.each(failures)(
		'failing (%s): the item is still emitted, nothing confirmed, the claims set aside, the failure noted',
		async (_label, failure) => {
			const record = await paid();
			await failure.breakIt();
			const down = failure.gatewayDown ? `http://127.0.0.1:${await closedPort()}` : undefined;
			const credentials = down
				? sandboxCredentials(bench.sandbox, { baseUrl: `${down}/nac/api/v1/merchant-host`, checkoutBaseUrl: down })
				: undefined;
			await bench.withServer(
				failure.parameters ?? {},
				async (own) => {
					expect(await notify(own, { ...record, status: ' pending ' })).toMatchObject({ status: 200 });
					const executions = await settled(own);
					expect(executions).toHaveLength(1);
					expect(executions[0].status).toBe('success');
					const item = executions[0].items[0].json;
					expect(item).toMatchObject({
						orderId: record.orderId,
						paymentId: record.paymentId,
						notifiedStatus: 'pending',
						notifiedAmount: 25.5,
						statusVerified: false,
					});
					for (const name of ['status', 'amount', 'currency', 'receiptId', 'statusMismatch']) {
						expect([name, item[name]]).toEqual([name, undefined]);
					}
					expect(item.recheckError).toMatchObject({ message: expect.any(String), ...failure.noted });
				},
				credentials ? { credentials } : {},
			);
		},
	);

	describe('retried (Max Retries, 3 by default), as the gateway asks', () => {
		it.each([
			['one 503', { status: 503, count: 1 }, 2],
			['three 429s with Retry-After: 1', { status: 429, count: 3, retryAfter: 1 }, 4],
			['a reset connection', { kind: 'reset-before-body', count: 1 }, 2],
		])(
			'%s: the payment is confirmed and a workflow with Outcomes Succeeded and Failed starts',
			async (_label, fault, attempts) => {
				const record = await paid();
				await bench.withServer({ outcomes: ['succeeded', 'failed'] }, async (own) => {
					bench.sandbox.injectFault({ match: PAYMENT_STATUS, ...fault } as Parameters<typeof bench.sandbox.injectFault>[0]);
					expect((await notify(own, record)).status).toBe(200);
					const executions = await settled(own);
					expect(executions.map((execution) => execution.items[0].json)).toEqual([
						expect.objectContaining({ status: 'success', statusVerified: true }),
					]);
				});
				const rechecks = bench.recheckRequests();
				expect(rechecks).toHaveLength(attempts);
				// Retry-After honoured, as the sandbox's clock saw it.
				if ('retryAfter' in fault) {
					for (let at = 1; at < rechecks.length; at++) {
						expect(rechecks[at].receivedAtMs - rechecks[at - 1].receivedAtMs).toBeGreaterThanOrEqual(950);
					}
				}
			},
		);

		it('a gateway that keeps failing: four attempts, then Other, unconfirmed; never Succeeded', async () => {
			const record = await paid();
			bench.sandbox.injectFault({ match: PAYMENT_STATUS, status: 503, retryAfter: 0, count: 10 });
			await bench.withServer({ outcomes: ['succeeded', 'other'] }, async (own) => {
				await notify(own, record);
				const executions = await settled(own);
				expect(executions.map((execution) => execution.items[0].json)).toEqual([
					expect.objectContaining({ statusVerified: false, recheckError: expect.objectContaining({ resCode: 503 }) }),
				]);
			});
			expect(bench.recheckRequests()).toHaveLength(4);
		});

		it('a Retry-After past the 30 s bound on the waits is not waited out: unconfirmed at once', async () => {
			const record = await paid();
			bench.sandbox.injectFault({ match: PAYMENT_STATUS, status: 429, retryAfter: 31, count: 1 });
			await notify(bench.server, record);
			const [execution] = await settled();
			expect(execution.items[0].json).toMatchObject({ statusVerified: false, recheckError: { resCode: 429 } });
			expect(bench.recheckRequests()).toHaveLength(1);
		});

		it('Max Retries out of range: nothing sent, the notification emitted unconfirmed, the field named', async () => {
			const record = await paid();
			await bench.withServer({ options: { maxRetries: 11 } }, async (own) => {
				await notify(own, record);
				const [execution] = await settled(own);
				expect(execution.items[0].json).toMatchObject({
					statusVerified: false,
					recheckError: { message: expect.stringContaining('Max Retries (options.maxRetries)') },
				});
			});
			expect(bench.recheckRequests()).toHaveLength(0);
		});

		it('Max Retries 0: one attempt', async () => {
			const record = await paid();
			bench.sandbox.injectFault({ match: PAYMENT_STATUS, status: 503, count: 1 });
			await bench.withServer({ options: { maxRetries: 0 } }, async (own) => {
				await notify(own, record);
				const [execution] = await settled(own);
				expect(execution.items[0].json).toMatchObject({ statusVerified: false });
			});
			expect(bench.recheckRequests()).toHaveLength(1);
		});
	});

	// check-status tells the order's latest payment; the re-check reads the payment the notification names.
	it(
		'a late notification of an earlier, failed payment gets its own status, not that of the order’s later payment',
		async () => {
			const { sandbox } = bench;
			const orderId = await createOrder(sandbox);
			const declined = await initiatePayment(sandbox, orderId, { cardNumber: DECLINED_CARD, cardCVV: CVV });
			const failed = sandbox.completeAuthentication(declined, 'success');
			expect(failed.status).toBe('failure');
			const later = sandbox.completeAuthentication(
				await initiatePayment(sandbox, orderId, { cardCVV: CVV }),
				'success',
			);
			expect(later).toMatchObject({ orderId, status: 'success' });
			bench.signed(orderId, failed.paymentId);

			expect(await notify(bench.server, { ...failed, status: 'success' })).toMatchObject({ status: 200 });
			const [execution] = await settled();
			expect(execution.items[0].json).toMatchObject({
				paymentId: failed.paymentId,
				status: 'failure',
				notifiedStatus: 'success',
				statusVerified: true,
				statusMismatch: true,
			});
			expect(bench.recheckRequests().map((request) => request.path)).toEqual([
				expect.stringMatching(new RegExp(`${PAYMENT_STATUS}${failed.paymentId}$`)),
			]);
		},
	);
});

describe('the outcome filter', () => {
	/** One notification of each outcome: a success, a failure, a refund and a pending payment. */
	async function oneOfEach(): Promise<Record<string, IDataObject>> {
		const succeeded = await paid('success');
		const failed = await paid('failure', DECLINED_CARD);
		const refunded = await paid('success');
		const refund = await runNode(bench.sandbox, {
			resource: 'transaction',
			operation: 'refund',
			paymentId: refunded.paymentId,
			amount: 10,
		});
		expect(refund.error).toBeUndefined();
		const orderId = await createOrder(bench.sandbox);
		await initiatePayment(bench.sandbox, orderId, { cardCVV: CVV });
		const status = await runNode(bench.sandbox, { resource: 'status', operation: 'getByOrderId', orderId });
		const pending = status.items[0].json;
		bench.signed(orderId, pending.paymentId as string);
		bench.sandbox.clearLog();
		return {
			succeeded: { ...succeeded },
			failed: { ...failed },
			refunded: {
				eventType: 'REFUND_SUCCESS',
				data: { ...refunded, refundId: refund.items[0].json.refundId, status: 'partially_refunded', amount: 10 },
			},
			other: pending,
		};
	}

	const paymentIdOf = (body: IDataObject) => ((body.data as IDataObject | undefined) ?? body).paymentId;

	it.each([
		[['succeeded'], ['succeeded']],
		[['failed'], ['failed']],
		[['refunded'], ['refunded']],
		[['other'], ['other']],
		[
			['succeeded', 'refunded'],
			['succeeded', 'refunded'],
		],
		[[], ['succeeded', 'failed', 'refunded', 'other']],
	])('outcomes %j start the workflow for %j only; every notification is answered 200', async (outcomes, started) => {
		const notifications = await oneOfEach();
		await bench.withServer({ outcomes }, async (own) => {
			for (const [outcome, body] of Object.entries(notifications)) {
				expect([outcome, (await notify(own, body)).status]).toEqual([outcome, 200]);
				await own.idle();
			}
			const startedFor = own.executions.map((execution) => execution.items[0].json.paymentId);
			expect(startedFor).toEqual(started.map((outcome) => paymentIdOf(notifications[outcome])));
		});
	});

	it('judges by the confirmed status: a claimed success of a failed payment does not pass "succeeded"', async () => {
		const record = await paid('failure');
		await bench.withServer({ outcomes: ['succeeded'] }, async (own) => {
			expect((await notify(own, { ...record, status: 'success' })).status).toBe(200);
			expect(await settled(own)).toHaveLength(0);
		});
		expect(bench.recheckRequests()).toHaveLength(1);
	});
});

it('no secret in any answer, item, run or error of this file', () => {
	bench.expectNoSecrets();
});
