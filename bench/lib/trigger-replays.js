'use strict';

// The trigger under replays: signed notifications of paid payments posted to the Payment Gateway Trigger, built from
// dist/ and served as a production webhook by the project's harness (test/support/webhook.js: n8n-core's real
// WebhookContext and WorkflowExecute), the sandbox in its own process. Beside it, the floor: a minimal trigger that
// checks the same signature and reads the payment through n8n's own HTTP helper once per delivery, as a trigger that
// re-checks every notification would, and starts every one. Figures: distinct notifications a second (each
// confirmed and started), repeats a second (identical ones again), replays with made-up claims a second, and the
// gateway's reads per delivery, all from one run. Then Status → Verify Signature under replays (one signed record posted
// again and again to a Webhook → Verify Signature workflow: reads per delivery, repeats), and the delay of a genuine
// notification of a handled payment amid replays of others at 1.5 s a read.

const crypto = require('node:crypto');
const path = require('node:path');

const { startWebhookServer } = require('../../test/support/webhook');
const { PaymentGatewayApi, runNode } = require('./node-runs');
const { timed } = require('./pool');

const dist = path.join(__dirname, '..', '..', 'dist');
const { PaymentGatewayTrigger } = require(path.join(dist, 'nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node.js'));
const { PaymentGateway } = require(path.join(dist, 'nodes/PaymentGateway/PaymentGateway.node.js'));

/** The floor: signature checked in constant time, the payment read by its id through the helper, every delivery started. */
class FloorTrigger {
	description = {
		displayName: 'Floor Trigger',
		name: 'benchFloorTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Checks a notification and reads its payment, every time',
		defaults: { name: 'Floor Trigger' },
		inputs: [],
		outputs: ['main'],
		credentials: [{ name: 'paymentGatewayApi', required: true }],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: [],
	};

	webhookMethods = { default: { checkExists: async () => true, create: async () => true, delete: async () => true } };

	async webhook() {
		const body = this.getBodyData();
		const credentials = await this.getCredentials('paymentGatewayApi');
		const expected = crypto.createHmac('sha256', credentials.clientSecret).update(`${body.orderId}|${body.paymentId}`).digest('hex');
		const response = this.getResponseObject();
		const valid = typeof body.signature === 'string' && body.signature.length === expected.length && crypto.timingSafeEqual(Buffer.from(body.signature), Buffer.from(expected));
		response.statusCode = valid ? 200 : 401;
		response.end();
		if (!valid) return { noWebhookResponse: true };
		// The credential signs the path after the base URL, as for the node's own requests.
		const record = await this.helpers.httpRequestWithAuthentication.call(this, 'paymentGatewayApi', {
			method: 'GET',
			baseURL: credentials.baseUrl,
			url: `/transaction/status/${encodeURIComponent(body.paymentId)}`,
			json: true,
		});
		if (record?.data?.paymentId !== body.paymentId) throw new Error('the floor read another payment');
		return { workflowData: [[{ json: { ...body, status: record.data.paymentStatus, statusVerified: true } }]], noWebhookResponse: true };
	}
}

/** n8n's Webhook node as far as the bench needs it: the request as one item, `{ headers, params, query, body }`. */
class RecordWebhook {
	description = {
		displayName: 'Webhook',
		name: 'benchWebhook',
		group: ['trigger'],
		version: 1,
		description: 'A posted record as one item',
		defaults: { name: 'Webhook' },
		inputs: [],
		outputs: ['main'],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'record' }],
		properties: [],
	};

	async webhook() {
		return { workflowData: [[{ json: { headers: this.getHeaderData(), params: this.getParamsData(), query: this.getQueryData(), body: this.getBodyData() } }]] };
	}
}

/** Posts every body, `atOnce` in flight at a time; every answer must be 200. */
async function deliver(url, bodies, atOnce) {
	let next = 0;
	await Promise.all(
		Array.from({ length: atOnce }, async () => {
			while (next < bodies.length) {
				const body = bodies[next++];
				const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
				await response.arrayBuffer();
				if (response.status !== 200) throw new Error(`a delivery answered ${response.status}`);
			}
		}),
	);
}

/** The signed notifications of `count` paid payments, as the gateway sends them (from their status records). */
async function notificationsOf(sandbox, orderIds) {
	const records = await runNode(
		sandbox,
		{ resource: 'status', operation: 'getByOrderId', orderId: '={{ $json.orderId }}', options: { concurrency: 20 } },
		orderIds.map((orderId) => ({ orderId })),
	);
	await sandbox.takeLog();
	return records.map(({ json }) => ({ orderId: json.orderId, paymentId: json.paymentId, status: json.status, amount: json.amount, signature: json.signature, timestamp: json.timestamp }));
}

/** One phase: deliveries posted, then every execution they start finished; its rate and the gateway's reads. */
async function phase(server, sandbox, bodies, atOnce) {
	const before = server.executions.length;
	let answeredMs = 0;
	const { ms } = await timed(async () => {
		answeredMs = (await timed(() => deliver(server.url, bodies, atOnce))).ms;
		await server.idle(120_000);
	});
	const reads = (await sandbox.takeLog()).count;
	return {
		deliveries: bodies.length,
		/** Until every delivery was answered (the gateway hears back at once). */
		answeredMs: Math.round(answeredMs),
		/** Until every execution they started had finished and every shared read was answered. */
		ms: Math.round(ms),
		perSecond: Math.round((bodies.length / ms) * 1000),
		executions: server.executions.length - before,
		gatewayReads: reads,
		readsPerDelivery: Number((reads / bodies.length).toFixed(3)),
	};
}

/**
 * `orderIds`: paid orders, at least `distinct`. Per trigger: `distinct` notifications of distinct payments, then
 * each again `repeatsEach` times, then `replays` of one payment with a made-up refundId each; `atOnce` in flight.
 */
async function triggerReplays(sandbox, orderIds, { distinct = 200, repeatsEach = 5, replays = 1000, atOnce = 50 } = {}, progress = () => {}) {
	const notifications = await notificationsOf(sandbox, orderIds.slice(0, distinct));
	const repeats = Array.from({ length: repeatsEach }, () => notifications).flat();
	const made = Array.from({ length: replays }, (_, index) => ({ ...notifications[0], refundId: `RFD-MADE-UP-${index}`, status: 'partially_refunded' }));
	const results = {};
	for (const [key, nodeType, packageName] of [
		['trigger', PaymentGatewayTrigger, undefined],
		['floor', FloorTrigger, 'n8n-nodes-bench-floor'],
	]) {
		progress(`  ${key}: ${distinct} distinct notifications, ${repeats.length} repeats, ${replays} replays with made-up claims ...`);
		const server = await startWebhookServer({ nodeType, credentialType: PaymentGatewayApi, credentials: sandbox.credentials, packageName });
		try {
			await sandbox.takeLog();
			results[key] = {
				distinct: await phase(server, sandbox, notifications, atOnce),
				repeats: await phase(server, sandbox, repeats, atOnce),
				madeUpClaims: await phase(server, sandbox, made, atOnce),
			};
		} finally {
			await server.close();
		}
	}
	const ratio = (what, figure) => Number((results.trigger[what][figure] / results.floor[what][figure]).toFixed(2));
	results.ratios = {
		distinctPerSecond: ratio('distinct', 'perSecond'),
		repeatsPerSecond: ratio('repeats', 'perSecond'),
		madeUpClaimsPerSecond: ratio('madeUpClaims', 'perSecond'),
		readsPerRepeat: ratio('repeats', 'readsPerDelivery'),
		readsPerMadeUpClaim: ratio('madeUpClaims', 'readsPerDelivery'),
	};
	results.settings = { distinct, repeats: repeats.length, replays, atOnce };
	progress(`  Verify Signature: one record posted ${replays} times ...`);
	results.verifySignature = await verifySignatureReplays(sandbox, notifications[1], replays, atOnce);
	progress('  a genuine notification amid replays of 8 other payments at 1.5 s a read ...');
	results.genuineAmidReplays = await genuineAmidReplays(sandbox, notifications.slice(2, 11), 1500);
	return results;
}

/** One signed record posted `replays` times to a Webhook → Status → Verify Signature workflow (from dist/). */
async function verifySignatureReplays(sandbox, record, replays, atOnce) {
	const server = await startWebhookServer({
		nodeType: RecordWebhook,
		packageName: 'n8n-nodes-bench-webhook',
		credentialType: PaymentGatewayApi,
		credentials: sandbox.credentials,
		then: [
			{
				nodeType: PaymentGateway,
				name: 'Verify Signature',
				parameters: { resource: 'status', operation: 'verifySignature', orderId: '={{ $json.body.orderId }}', paymentId: '={{ $json.body.paymentId }}', signature: '={{ $json.body.signature }}' },
			},
		],
	});
	try {
		await sandbox.takeLog();
		const figures = await phase(server, sandbox, Array.from({ length: replays }, () => record), atOnce);
		const outputs = server.executions.map((execution) => execution.outputOf('Verify Signature')[0]?.json ?? {});
		return {
			...figures,
			confirmed: outputs.filter((output) => output.statusVerified === true).length,
			repeats: outputs.filter((output) => output.repeat === true).length,
			before: 'one read a delivery (Verify Signature read the payment for every record)',
		};
	} finally {
		await server.close();
	}
}

/**
 * The trigger: `payments[0]` and the others notified once each, then one replay with a made-up claim of each other
 * (a re-read each) at `latencyMs` a read, then a genuine refund notification of `payments[0]` (a re-read too); how long
 * until its execution started, and how many reads the gateway answered meanwhile.
 */
async function genuineAmidReplays(sandbox, payments, latencyMs) {
	const [genuine, ...others] = payments;
	const server = await startWebhookServer({ nodeType: PaymentGatewayTrigger, credentialType: PaymentGatewayApi, credentials: sandbox.credentials });
	try {
		await deliver(server.url, payments, payments.length);
		await server.idle(120_000);
		const [refund] = await runNode(sandbox, { resource: 'transaction', operation: 'refund', paymentId: genuine.paymentId, amount: genuine.amount }, [{}]);
		// Past every payment's first gap (1 s after its read).
		await new Promise((resolve) => setTimeout(resolve, 1100));
		await sandbox.takeLog();
		await sandbox.setLatency(latencyMs);
		const before = server.executions.length;
		await deliver(server.url, others.map((record, index) => ({ ...record, timestamp: `made-up-${index}` })), others.length);
		const postedAt = Date.now();
		await deliver(server.url, [{ ...genuine, refundId: refund.json.refundId, status: 'refunded' }], 1);
		await server.idle(120_000);
		const started = server.executions.slice(before);
		const reads = (await sandbox.takeLog()).count;
		return {
			replayedPayments: others.length,
			latencyMs,
			executions: started.length,
			genuineStatus: started[0]?.items[0]?.json.status,
			genuineDelayMs: started[0] ? started[0].startedAt.getTime() - postedAt : null,
			gatewayReads: reads,
			before: 'the 8 re-reads went one at a time ahead of it: 13.6 s (test/engine/trigger-fair.test.ts on 66efd05)',
		};
	} finally {
		await sandbox.setLatency(0);
		await server.close();
	}
}

module.exports = { triggerReplays };
