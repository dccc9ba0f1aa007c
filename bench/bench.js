'use strict';

// `npm run bench`: what the node costs over a plain HTTP client, and what Concurrency buys, measured in one run
// against the sandbox on loopback. Prints ratios; absolute times depend on the machine.

const crypto = require('node:crypto');
const path = require('node:path');
const axios = require('axios');

const { startSandbox } = require('../sandbox/gateway');
const { runWorkflow } = require('../test/support/engine');

const dist = path.join(__dirname, '..', 'dist');
const { PaymentGateway } = require(path.join(dist, 'nodes/PaymentGateway/PaymentGateway.node.js'));
const { PaymentGatewayApi } = require(path.join(dist, 'credentials/PaymentGatewayApi.credentials.js'));

const ITEMS = Number(process.env.BENCH_ITEMS || 200);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS || 10);

function plainClient(sandbox) {
	const { clientId, clientSecret } = sandbox.clients.active;
	const authorization = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
	return async (orderId) => {
		const apiPath = '/nac/api/v1/pg/orders/check-status';
		const response = await axios.get(`${sandbox.checkoutBaseUrl}${apiPath}`, {
			params: { orderId },
			headers: {
				Authorization: authorization,
				'X-Signature': crypto.createHmac('sha256', clientSecret).update(apiPath).digest('hex'),
				'X-MERCHANT-DOMAIN': 'https://shop.example.com',
				'X-MERCHANT-BROWSER-FINGERPRINT': 'bench',
				'X-MERCHANT-USER-AGENT': 'bench',
				'Accept-Language': 'en-US',
			},
		});
		return response.data;
	};
}

async function timed(run) {
	const start = process.hrtime.bigint();
	const result = await run();
	return { ms: Number(process.hrtime.bigint() - start) / 1e6, result };
}

async function main() {
	const sandbox = await startSandbox();
	const credentials = sandbox.credentialData();
	const run = (parameters, items) =>
		runWorkflow({ nodeType: PaymentGateway, credentialType: PaymentGatewayApi, credentials, parameters, items });

	const customer = { customerName: 'Bench', customerEmail: 'bench@example.com', customerPhone: '91234567' };
	const orders = await run(
		{ resource: 'order', operation: 'create', amount: 10, currency: 'USD', ...customer },
		Array.from({ length: ITEMS }, () => ({})),
	);
	const orderIds = orders.items.map((item) => item.json.orderId);
	// check-status of an order nobody has paid is a failure: pay each one (no authentication, settles at once).
	const paid = await run(
		{
			resource: 'transaction',
			operation: 'initiate',
			orderId: '={{ $json.orderId }}',
			paymentMode: 'card',
			cardNumber: '4111111111111111',
			cardExpMonth: '12',
			cardExpYear: String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0'),
			cardHolderName: 'Bench',
			redirectionUrl: 'https://shop.example.com/done',
			customerAuthentication: 'none',
		},
		orderIds.map((orderId) => ({ orderId })),
	);
	if (paid.error) throw new Error(`paying the orders failed: ${paid.error.message}`);
	const statusItems = orderIds.map((orderId) => ({ orderId }));
	const statusParameters = (concurrency) => ({
		resource: 'status',
		operation: 'getByOrderId',
		orderId: '={{ $json.orderId }}',
		options: { concurrency },
	});

	// Warm both paths once so that module loading and connection setup are not measured.
	const fetchStatus = plainClient(sandbox);
	await fetchStatus(orderIds[0]);
	await run(statusParameters(1), statusItems.slice(0, 5));

	sandbox.setLatency(LATENCY_MS);
	const plain = await timed(async () => {
		for (const orderId of orderIds) await fetchStatus(orderId);
	});
	const node1 = await timed(() => run(statusParameters(1), statusItems));
	const node8 = await timed(() => run(statusParameters(8), statusItems));
	sandbox.setLatency(0);

	global.gc?.();
	const heapBefore = process.memoryUsage().heapUsed;
	const big = await run(statusParameters(8), statusItems);
	const heapAfter = process.memoryUsage().heapUsed;

	for (const result of [node1.result, node8.result, big]) {
		if (result.error || result.items.length !== ITEMS) throw new Error('a benchmark run did not return every item');
	}
	await sandbox.close();

	const perItem = (ms) => (ms / ITEMS).toFixed(2);
	console.log(`${ITEMS} status reads, sandbox latency ${LATENCY_MS} ms, one run:`);
	console.log(`  plain axios client, sequential     ${plain.ms.toFixed(0)} ms (${perItem(plain.ms)} ms/item)`);
	console.log(`  node in n8n's engine, concurrency 1 ${node1.ms.toFixed(0)} ms (${perItem(node1.ms)} ms/item)`);
	console.log(`  node in n8n's engine, concurrency 8 ${node8.ms.toFixed(0)} ms (${perItem(node8.ms)} ms/item)`);
	console.log(`ratio node (concurrency 1) / plain client: ${(node1.ms / plain.ms).toFixed(2)}`);
	console.log(`speed-up of concurrency 8 over 1:        ${(node1.ms / node8.ms).toFixed(2)}`);
	console.log(`heap growth for one ${ITEMS}-item run: ${((heapAfter - heapBefore) / 1024).toFixed(0)} KiB (${global.gc ? 'after gc' : 'run with --expose-gc for a cleaner figure'})`);
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
