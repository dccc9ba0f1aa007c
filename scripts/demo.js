'use strict';

// `npm run demo [-- checkout|card]`: one payment story on the sandbox gateway, told by the built package (dist/)
// running in n8n's execution engine, with the sandbox's notifications reaching the Payment Gateway Trigger.
//
// - checkout (the default): the gateway's hosted checkout page takes the card. Order → Create Checkout gives the link,
//   the customer pays on that page (played by the sandbox's control API), the notification reaches the trigger,
//   Status → Get by Order ID, a partial refund and its notification, and the status again with the refunded and
//   remaining amounts.
// - card: the merchant's own page takes the card. Order → Create, Transaction → Initiate with the sandbox's approved
//   test card, the customer's authentication, the notification, Status → Get by Payment ID.
//
// A story stops at the first step that does not do what it should, and the exit code is then 1.

const path = require('node:path');

const { startSandbox } = require('../sandbox/gateway');
const { runWorkflow } = require('../test/support/engine');
const { startWebhookServer } = require('../test/support/webhook');

const dist = path.join(__dirname, '..', 'dist');
const { PaymentGateway } = require(path.join(dist, 'nodes/PaymentGateway/PaymentGateway.node.js'));
const { PaymentGatewayTrigger } = require(path.join(dist, 'nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node.js'));
const { PaymentGatewayApi } = require(path.join(dist, 'credentials/PaymentGatewayApi.credentials.js'));
const { currencyDigits } = require(path.join(dist, 'nodes/PaymentGateway/validation/input.js'));

const CUSTOMER = { customerName: 'Jane Doe', customerEmail: 'jane@example.com', customerPhone: '91234567' };
const RETURN_URL = 'https://shop.example.com/payment/done';

class StoryStopped extends Error {}

/** One item, a field a line; nested objects stay on their line, and the hosted form is long HTML whose size is what matters. */
function printItem(json) {
	const fields = Object.entries(json).filter(([, value]) => value !== undefined);
	const width = Math.max(...fields.map(([key]) => key.length));
	for (const [key, value] of fields) {
		const shown =
			key === 'redirectionData' && typeof value?.formData === 'string'
				? { ...value, formData: `<${value.formData.length} characters of auto-submitting HTML form>` }
				: value;
		console.log(`   ${key.padEnd(width)}  ${JSON.stringify(shown)}`);
	}
}

/** An amount as the gateway writes it ("12.500" or 12.5) in integer minor units, so that differences stay exact. */
function minorUnits(amount, digits) {
	const match = /^(\d+)(?:\.(\d+))?$/.exec(String(amount));
	if (!match || (match[2] ?? '').length > digits) throw new StoryStopped(`unexpected amount ${JSON.stringify(amount)}`);
	return BigInt(match[1] + (match[2] ?? '').padEnd(digits, '0'));
}

function formatMinor(minor, digits) {
	const text = minor.toString().padStart(digits + 1, '0');
	return digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

async function checkoutStory({ sandbox, step, heading, notified, check, note }) {
	const order = await step("Order → Create Checkout: an order the customer pays on the gateway's hosted page", {
		resource: 'order',
		operation: 'createCheckout',
		amount: 12.3,
		currency: 'OMR',
		...CUSTOMER,
		redirectType: 'redirect',
		additionalFields: { receiptId: 'INV-2001', redirectUrl: RETURN_URL },
	});
	check(typeof order.checkoutUrl === 'string', 'a checkoutUrl (the credential has a Hosted Checkout Page URL)');
	note('your workflow sends the customer to checkoutUrl (e.g. Respond to Webhook with a redirect)');
	note("checkoutUrl starts with the credential's Hosted Checkout Page URL, an example one here");

	heading('The customer pays on the hosted page (the sandbox plays the customer, with its approved test card)');
	const paid = sandbox.payCheckout(order.checkoutUrl);
	check(paid.status === 'success', 'a successful payment');
	note(`the gateway sends the customer back to ${paid.redirectTo}`);

	const completed = await notified("Payment Gateway Trigger: the gateway's notification, signature checked and status re-checked");
	check(completed.statusVerified === true && completed.status === 'success', 'a verified notification of success');

	const status = await step('Status → Get by Order ID: the workflow confirms the payment before fulfilling the order', {
		resource: 'status',
		operation: 'getByOrderId',
		orderId: order.orderId,
	});
	check(status.status === 'success' && status.paymentId === paid.paymentId, 'the payment, successful');

	const refund = await step('Transaction → Refund: 4.100 OMR back to the customer for a returned item', {
		resource: 'transaction',
		operation: 'refund',
		paymentId: status.paymentId,
		amount: 4.1,
	});
	check(refund.paymentStatus === 'partially_refunded', 'a partial refund');

	const refunded = await notified("Payment Gateway Trigger: the refund's notification");
	check(refunded.statusVerified === true && refunded.refundId === refund.refundId, 'a verified notification of this refund');

	const after = await step('Status → Get by Order ID: the payment, partially refunded', {
		resource: 'status',
		operation: 'getByOrderId',
		orderId: order.orderId,
	});
	check(after.status === 'partially_refunded', 'the status partially_refunded');
	// Status answers carry the payment's amount, not what was refunded: the story's one refund answered that, and
	// the currency.
	const digits = currencyDigits(refund.currency);
	const paidMinor = minorUnits(after.amount, digits);
	const refundedMinor = minorUnits(refund.amount, digits);
	check(refundedMinor < paidMinor, 'something left to refund');
	const shown = (minor) => `${formatMinor(minor, digits)} ${refund.currency}`;
	note(`paid ${shown(paidMinor)}, refunded ${shown(refundedMinor)}, remaining ${shown(paidMinor - refundedMinor)}`);
}

async function cardStory({ sandbox, step, heading, notified, check, note }) {
	const order = await step('Order → Create: an order to be paid with a card your own page collects', {
		resource: 'order',
		operation: 'create',
		amount: 12.5,
		currency: 'OMR',
		uiMode: 'checkout',
		...CUSTOMER,
		additionalFields: { receiptId: 'INV-2002' },
	});
	check(typeof order.orderId === 'string', 'an orderId');

	const expiryYear = String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0');
	const payment = await step("Transaction → Initiate: the card (the sandbox's approved test card), encrypted by the node", {
		resource: 'transaction',
		operation: 'initiate',
		orderId: order.orderId,
		paymentMode: 'card',
		cardNumber: '4111 1111 1111 1111',
		cardExpMonth: '12',
		cardExpYear: expiryYear,
		cardCVV: '123',
		cardHolderName: 'Jane Doe',
		redirectionUrl: RETURN_URL,
		customerAuthentication: 'cvvAndOtp',
	});
	check(payment.paymentStatus === 'pending' && payment.redirectionData !== undefined, 'a pending payment and its form');
	note("your page shows redirectionData.formData: it takes the customer's browser to the authentication page");

	heading('The customer confirms with CVV and OTP on the authentication page (the sandbox plays the customer)');
	const authenticated = sandbox.completeAuthentication(payment.paymentId, 'success');
	check(authenticated.status === 'success', 'a successful payment');
	note('the gateway completes the payment and notifies your webhook');

	const completed = await notified("Payment Gateway Trigger: the gateway's notification, signature checked and status re-checked");
	check(completed.statusVerified === true && completed.status === 'success', 'a verified notification of success');

	const status = await step('Status → Get by Payment ID: the workflow confirms the payment before fulfilling the order', {
		resource: 'status',
		operation: 'getByPaymentId',
		paymentId: payment.paymentId,
	});
	check(status.paymentStatus === 'success', 'the payment, successful');
}

const STORIES = {
	checkout: {
		title: "hosted checkout. The gateway's hosted page takes the card; your workflow never handles card data.",
		run: checkoutStory,
		other: ['npm run demo -- card', 'the other story: the card taken on your own page, then authenticated'],
	},
	card: {
		title: 'card on your own page. Your page collects the card, the node encrypts it and starts the payment.',
		run: cardStory,
		other: ['npm run demo', "the other story: the gateway's hosted checkout page, a partial refund"],
	},
};

function printNextSteps(story) {
	const next = [
		story.other,
		['npm run dev', 'a real n8n with this node, the sandbox gateway and the example workflows'],
		['npm test', 'the test suite'],
		['README.md, "Install"', 'how to install the node into your own n8n (a tarball or Docker: it is not on npm yet)'],
	];
	const width = Math.max(...next.map(([command]) => command.length));
	console.log('\nNext:');
	for (const [command, what] of next) console.log(`   ${command.padEnd(width)}  ${what}`);
}

async function main() {
	const name = process.argv[2] ?? 'checkout';
	const story = STORIES[name];
	if (!story) {
		console.error(`No story "${name}": npm run demo -- checkout (the default) or npm run demo -- card`);
		process.exitCode = 2;
		return;
	}

	const sandbox = await startSandbox();
	const credentials = sandbox.credentialData({ checkoutPageUrl: 'https://merchant.example.com/cpbs/pg' });
	const trigger = await startWebhookServer({ nodeType: PaymentGatewayTrigger, credentialType: PaymentGatewayApi, credentials });
	sandbox.setNotifications({ url: trigger.url, format: 'wrapped' });
	console.log(`Demo story: ${story.title}`);
	console.log(`Each step runs the built node in n8n's engine against the sandbox gateway (${sandbox.url});`);
	console.log('its notifications reach a workflow that starts with the Payment Gateway Trigger.');

	let steps = 0;
	let notifications = 0;
	const heading = (title) => console.log(`\n── ${++steps}. ${title}`);
	const note = (text) => console.log(`   → ${text}`);
	const check = (ok, expected) => {
		if (!ok) throw new StoryStopped(`step ${steps} did not give ${expected}`);
	};
	const step = async (title, parameters) => {
		const result = await runWorkflow({ nodeType: PaymentGateway, credentialType: PaymentGatewayApi, credentials, parameters });
		heading(title);
		if (result.error) throw new StoryStopped(`${result.error.message}\n   what to do: ${result.error.description}`);
		for (const item of result.items) printItem(item.json);
		return result.items[0]?.json ?? {};
	};
	const notified = async (title) => {
		const executions = await trigger.waitForExecutions(++notifications, 10_000).catch((error) => {
			throw new StoryStopped(`no notification reached the trigger: ${error.message}`);
		});
		heading(title);
		const { json } = executions[notifications - 1].items[0];
		printItem(json);
		return json;
	};

	try {
		await story.run({ sandbox, step, heading, notified, check, note });
		const sent = sandbox.notifications.length;
		console.log(
			`\nEvery step did what it should: the sandbox received ${sandbox.requests.length} API requests ` +
				`and sent ${sent} notification${sent === 1 ? '' : 's'}.`,
		);
		printNextSteps(story);
	} catch (error) {
		if (!(error instanceof StoryStopped)) throw error;
		console.log(`\nStopped: ${error.message}`);
		process.exitCode = 1;
	} finally {
		await trigger.close();
		await sandbox.close();
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
