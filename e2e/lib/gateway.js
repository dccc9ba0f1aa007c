'use strict';

// Asking the sandbox gateway directly, as its active client, signed the way the node signs: to compare what a workflow
// did with what the gateway holds afterwards, and to make beforehand what a check needs, so that n8n's executions do
// only what the check is about. Card details are encrypted by the package's own built function. Also notifications as
// an attacker or a repeating gateway sends them: made from the gateway's own signed record of a payment (status by
// payment id), then changed or sent again, straight to a trigger's production URL.

const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const path = require('node:path');
const { Readable } = require('node:stream');

const { paths } = require('./package');
const { post } = require('./rest');

const APPROVED_CARD = '4111111111111111';
const DECLINED_CARD = '4393570006367857';
const EXPIRY_YEAR = String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0');

/**
 * One API request; resolves with { status, body }. `family` 'long' goes to the checkout base URL; `query` is appended
 * unsigned, as the gateway signs paths without their query.
 */
async function gatewayRequest(sandbox, method, apiPath, { body, family = 'short', query = '' } = {}) {
	const { clientId, clientSecret } = sandbox.clients.active;
	const payload = body === undefined ? '' : JSON.stringify(body);
	const res = await fetch(`${family === 'long' ? sandbox.checkoutBaseUrl : sandbox.baseUrl}${apiPath}${query}`, {
		method,
		headers: {
			Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
			'X-Signature': crypto.createHmac('sha256', clientSecret).update(apiPath + payload).digest('hex'),
			'X-MERCHANT-BROWSER-FINGERPRINT': 'e2e-runner',
			'X-MERCHANT-USER-AGENT': 'e2e-runner',
			'X-MERCHANT-DOMAIN': 'https://shop.example.com',
			'Accept-Language': 'en-US',
			...(payload ? { 'Content-Type': 'application/json' } : {}),
		},
		body: payload || undefined,
	});
	return { status: res.status, body: await res.json() };
}

/** A request that must succeed: a POST of `body`, without one a GET; resolves with the answer's data. */
async function call(sandbox, apiPath, body) {
	const method = body === undefined ? 'GET' : 'POST';
	const { status, body: answer } = await gatewayRequest(sandbox, method, apiPath, { body });
	if (status !== 200 || answer.status !== 'success') throw new Error(`${method} ${apiPath} answered ${status}: ${answer.errMessage ?? answer.message}`);
	return answer.data;
}

/** The customer's active stored cards. */
const storedCards = async (sandbox, customerId) => (await call(sandbox, `/customer/${encodeURIComponent(customerId)}/digitalCards`)).digitalCards;

const GIA = { name: 'Gia Gateway', email: 'gia.gateway@example.com', phone: '91000077' };

/** An unpaid order; resolves with its orderId. */
async function unpaidOrder(sandbox, { amount, receiptId, currency = 'USD', customer = GIA }) {
	return (await call(sandbox, '/order', { amount, currency, uiMode: 'checkout', receiptId, customerFields: customer })).orderId;
}

/** A card payment of an order; `settle` skips the customer's authentication, so that it completes at once. */
function cardPayment(sandbox, orderId, { card = APPROVED_CARD, settle = true, secureCard = false, holder = 'Gia Gateway' } = {}) {
	const { encryptCardDetails } = require(path.join(paths.ROOT, 'dist', 'nodes', 'PaymentGateway', 'transport', 'crypto'));
	const details = { cardNumber: card, cardExpMonth: '12', cardExpYear: EXPIRY_YEAR, cardCVV: '123' };
	return call(sandbox, '/transaction/initiate', {
		orderId,
		encryptedCardDetails: encryptCardDetails(details, sandbox.cardEncryptionKey),
		paymentMethod: 'card',
		cardHolderName: holder,
		redirectionUrl: 'https://shop.example.com/payment/done',
		paymentMode: 'card',
		secureCard,
		skipCVVandOTP: settle,
		skipCVVOnlyFlag: false,
		apiType: 'hosted',
	});
}

/** An order paid in full on the sandbox's hosted checkout page: { orderId, paymentId, amount }. */
async function paidPayment(sandbox, { amount, receiptId, currency }) {
	const orderId = await unpaidOrder(sandbox, { amount, receiptId, currency });
	const query = new URLSearchParams({ actionType: 'checkout', orderId, clientId: sandbox.clients.active.clientId, redirectUrl: 'https://shop.example.com/payment/done' });
	const { paymentId, status } = sandbox.payCheckout(`https://pay.example.com/checkout?${query}`, 'success');
	if (status !== 'success') throw new Error(`the checkout payment of ${receiptId} ended ${status}`);
	return { orderId, paymentId, amount };
}

/** What `action` resolves with, and the delivery of the next notification the sandbox sends after it. */
async function notified(sandbox, action) {
	const before = sandbox.notifications.length;
	const result = await action();
	return { ...result, delivery: (await sandbox.waitForNotifications(before + 1, 15_000))[before] };
}

/** `fn` over `items`, `width` at a time; resolves with the results in the order of `items`. */
const inPool = (items, width, fn) => Readable.from(items).map((item) => fn(item), { concurrency: width }).toArray();

/** The path of a payment's status record (by payment id), which a refund reads first for the payment's currency. */
const statusPath = (paymentId) => `/transaction/status/${paymentId}`;

/** The flat notification the gateway would send for a payment, signed: from its status record. */
async function notificationOf(sandbox, paymentId) {
	const { orderId, paymentStatus, receiptId, amount, signature, completedAt, paymentDetails } = await call(sandbox, statusPath(paymentId));
	return { orderId, paymentId, status: paymentStatus, receiptId, amount, signature, timestamp: completedAt, paymentDetails };
}

/** A settled card payment of a new order (approved, or declined with `declined`); its notification. */
async function settledPayment(sandbox, { amount = 25.5, receiptId, declined = false } = {}) {
	const orderId = await unpaidOrder(sandbox, { amount, receiptId });
	const { paymentId } = await cardPayment(sandbox, orderId, declined ? { card: DECLINED_CARD } : {});
	return notificationOf(sandbox, paymentId);
}

/** Every body posted at the same moment to every URL, as a repeating gateway sends them; each must be answered 200. */
async function postAtOnce(urls, bodies) {
	const answers = await Promise.all(urls.flatMap((url) => bodies.map((body) => post(url, body))));
	assert.deepEqual(answers.map((answer) => answer.status), answers.map(() => 200), `every delivery to ${urls.join(', ')} answered 200`);
}

module.exports = { DECLINED_CARD, gatewayRequest, call, storedCards, unpaidOrder, cardPayment, paidPayment, notified, inPool, statusPath, notificationOf, settledPayment, postAtOnce };
