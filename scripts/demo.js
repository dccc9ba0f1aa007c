'use strict';

// `npm run demo`: the payment lifecycle on the sandbox gateway, with the built package (dist/) running in n8n's
// execution engine: a checkout order and its hosted-page link, a card payment, the gateway's notification reaching
// the Payment Gateway Trigger, the status, a partial refund (notified too) and the status again.

const path = require('node:path');

const { startSandbox } = require('../sandbox/gateway');
const { runWorkflow } = require('../test/support/engine');
const { startWebhookServer } = require('../test/support/webhook');

const dist = path.join(__dirname, '..', 'dist');
const { PaymentGateway } = require(path.join(dist, 'nodes/PaymentGateway/PaymentGateway.node.js'));
const { PaymentGatewayTrigger } = require(path.join(dist, 'nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node.js'));
const { PaymentGatewayApi } = require(path.join(dist, 'credentials/PaymentGatewayApi.credentials.js'));

function printItems(items) {
	for (const item of items) {
		const json = { ...item.json };
		// The hosted form is long HTML; its size is what matters here.
		if (json.redirectionData && typeof json.redirectionData.formData === 'string') {
			json.redirectionData = { ...json.redirectionData, formData: `<${json.redirectionData.formData.length} characters of auto-submitting HTML form>` };
		}
		console.log(`   ${JSON.stringify(json, null, 2).replace(/\n/g, '\n   ')}`);
	}
}

async function main() {
	const sandbox = await startSandbox();
	const credentials = sandbox.credentialData({ checkoutPageUrl: 'https://merchant.example.com/cpbs/pg' });
	const trigger = await startWebhookServer({
		nodeType: PaymentGatewayTrigger,
		credentialType: PaymentGatewayApi,
		credentials,
	});
	sandbox.setNotifications({ url: trigger.url, format: 'wrapped' });
	console.log(`Sandbox gateway on ${sandbox.url}; its notifications go to the Payment Gateway Trigger at ${trigger.url}.`);
	console.log("Every step runs the built node in n8n's engine.");

	let failures = 0;
	const step = async (title, parameters, items = [{}]) => {
		const result = await runWorkflow({ nodeType: PaymentGateway, credentialType: PaymentGatewayApi, credentials, parameters, items });
		console.log(`\n── ${title}`);
		if (result.error) {
			failures++;
			console.log(`   error: ${result.error.message}\n   what to do: ${result.error.description}`);
		}
		printItems(result.items);
		return result.items.map((item) => item.json);
	};
	const notified = async (title, count) => {
		const executions = await trigger.waitForExecutions(count, 10_000);
		console.log(`\n── ${title}`);
		printItems(executions[count - 1].items);
	};

	const [order] = await step('Order → Create Checkout, with the credential’s Hosted Checkout Page URL and a Redirect URL', {
		resource: 'order',
		operation: 'createCheckout',
		amount: 40,
		currency: 'USD',
		customerName: 'Jane Doe',
		customerEmail: 'jane@example.com',
		customerPhone: '91234567',
		redirectType: 'redirect',
		additionalFields: { receiptId: 'INV-2001', redirectUrl: 'https://shop.example.com/payment/done' },
	});
	console.log('   → the workflow sends the customer to checkoutUrl (e.g. Respond to Webhook with a redirect)');

	const expiryYear = String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0');
	const [payment] = await step('Transaction → Initiate: the customer pays by card (and stores it)', {
		resource: 'transaction',
		operation: 'initiate',
		orderId: order.orderId,
		paymentMode: 'card',
		cardNumber: '4111 1111 1111 1111',
		cardExpMonth: '12',
		cardExpYear: expiryYear,
		cardCVV: '123',
		cardHolderName: 'Jane Doe',
		redirectionUrl: 'https://shop.example.com/payment/done',
		secureCard: true,
		customerAuthentication: 'cvvAndOtp',
	});

	sandbox.completeAuthentication(payment.paymentId, 'success');
	console.log('\n── The customer confirms with CVV and OTP on the authentication page; the gateway notifies the merchant');
	await notified('Payment Gateway Trigger: the notification, signature checked and status re-checked with the gateway', 1);

	await step('Status → Get by Order ID', { resource: 'status', operation: 'getByOrderId', orderId: order.orderId });

	await step('Transaction → Refund: 15 of the 40 back to the customer', {
		resource: 'transaction',
		operation: 'refund',
		paymentId: payment.paymentId,
		amount: 15,
	});
	await notified('Payment Gateway Trigger: the refund notification', 2);

	await step('Status → Get by Payment ID', { resource: 'status', operation: 'getByPaymentId', paymentId: payment.paymentId });

	console.log(`\nThe sandbox received ${sandbox.requests.length} signed requests and sent ${sandbox.notifications.length} notifications.`);
	await trigger.close();
	await sandbox.close();
	if (failures > 0) {
		console.log(`${failures} step(s) failed.`);
		process.exitCode = 1;
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
