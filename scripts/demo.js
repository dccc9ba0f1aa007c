'use strict';

// `npm run demo`: starts the sandbox gateway and runs the checkout story through n8n's execution engine
// with the built node (dist/), printing each step's output items.

const path = require('node:path');

const { startSandbox } = require('../sandbox/gateway');
const { runWorkflow } = require('../test/support/engine');

const dist = path.join(__dirname, '..', 'dist');
const { PaymentGateway } = require(path.join(dist, 'nodes/PaymentGateway/PaymentGateway.node.js'));
const { PaymentGatewayApi } = require(path.join(dist, 'credentials/PaymentGatewayApi.credentials.js'));

function print(title, result) {
	console.log(`\n── ${title}`);
	if (result.error) {
		console.log(`   error: ${result.error.message}`);
		if (result.error.description) console.log(`   what to do: ${result.error.description}`);
	}
	for (const item of result.items) {
		const json = { ...item.json };
		// The hosted form is long HTML; its size is what matters here.
		if (json.redirectionData && typeof json.redirectionData.formData === 'string') {
			json.redirectionData = { ...json.redirectionData, formData: `<${json.redirectionData.formData.length} characters of auto-submitting HTML form>` };
		}
		const paired = item.pairedItem && typeof item.pairedItem === 'object' ? item.pairedItem.item : '?';
		console.log(`   item ← input ${paired}: ${JSON.stringify(json, null, 2).replace(/\n/g, '\n   ')}`);
	}
}

async function main() {
	const sandbox = await startSandbox();
	const credentials = sandbox.credentialData();
	const run = (parameters, items, extra = {}) =>
		runWorkflow({ nodeType: PaymentGateway, credentialType: PaymentGatewayApi, credentials, parameters, items, ...extra });
	const expiryYear = String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0');

	console.log(`Sandbox gateway on ${sandbox.url}; the Payment Gateway node runs in n8n's engine.`);
	let failures = 0;
	const step = async (title, parameters, items, extra) => {
		const result = await run(parameters, items, extra);
		print(title, result);
		if (result.error && !extra?.expectError) failures++;
		return result;
	};

	const orders = await step(
		'Order → Create (two customers, one item each)',
		{
			resource: 'order',
			operation: 'create',
			amount: '={{ $json.amount }}',
			currency: 'USD',
			customerName: '={{ $json.name }}',
			customerEmail: '={{ $json.email }}',
			customerPhone: '={{ $json.phone }}',
			additionalFields: { receiptId: '={{ $json.receipt }}' },
		},
		[
			{ amount: 25.5, name: 'Jane Doe', email: 'jane@example.com', phone: '91234567', receipt: 'INV-1001' },
			{ amount: 422.01, name: 'Max Mustermann', email: 'max@example.com', phone: '97654321', receipt: 'INV-1002' },
		],
	);

	const payments = await step(
		'Transaction → Initiate (new card, stored for later; Continue On Fail: the second order trips the fraud rules)',
		{
			resource: 'transaction',
			operation: 'initiate',
			orderId: '={{ $json.orderId }}',
			paymentMode: 'card',
			cardNumber: '4111 1111 1111 1111',
			cardExpMonth: '12',
			cardExpYear: expiryYear,
			cardCVV: '123',
			cardHolderName: 'Card Holder',
			redirectionUrl: 'https://shop.example.com/payment/done',
			secureCard: true,
			customerAuthentication: 'cvvAndOtp',
		},
		orders.items.map((item) => item.json),
		{ continueOnFail: true },
	);

	const paid = payments.items.filter((item) => item.json.paymentId);
	for (const item of paid) sandbox.completeAuthentication(item.json.paymentId, 'success');
	console.log(`\n── The customer confirms the payment in the browser (the sandbox completes ${paid.length} authentication)`);

	await step(
		'Status → Get by Order ID',
		{ resource: 'status', operation: 'getByOrderId', orderId: '={{ $json.orderId }}' },
		paid.map((item) => item.json),
	);

	const cards = await step(
		'Digital Card → Get Many (one item per stored card)',
		{ resource: 'digitalCard', operation: 'getMany', customerId: '={{ $json.securedCardDetails.customerId }}' },
		paid.map((item) => item.json),
	);

	await step(
		'Digital Card → Delete',
		{
			resource: 'digitalCard',
			operation: 'delete',
			customerId: '={{ $json.customerId }}',
			digitalCardId: '={{ $json.digitalCardId }}',
		},
		cards.items.map((item) => item.json),
	);

	await step(
		'Digital Card → Delete again (the gateway answers 404)',
		{
			resource: 'digitalCard',
			operation: 'delete',
			customerId: '={{ $json.customerId }}',
			digitalCardId: '={{ $json.digitalCardId }}',
		},
		cards.items.map((item) => item.json),
		{ expectError: true },
	);

	console.log(`\nThe sandbox received ${sandbox.requests.length} signed requests.`);
	await sandbox.close();
	if (failures > 0) {
		console.log(`${failures} step(s) failed unexpectedly.`);
		process.exitCode = 1;
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
