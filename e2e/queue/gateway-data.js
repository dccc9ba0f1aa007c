'use strict';

// What the queue check finds in the sandbox before n8n runs: orders in every state a reconciliation meets, and
// pending payments whose completion notifies n8n. Made with signed requests straight to the sandbox, signed and
// encrypted by the package's own compiled functions (dist/), so that n8n's executions are the only thing measured.

const path = require('node:path');

const { paths } = require('../lib/package');

/** The package's signing and card encryption, as built (required late: the check builds the package first). */
const builtCrypto = () => require(path.join(paths.ROOT, 'dist', 'nodes', 'PaymentGateway', 'transport', 'crypto'));

const APPROVED_CARD = '4111111111111111';
const DECLINED_CARD = '4393570006367857';
const EXPIRY_YEAR = String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0');

/**
 * What a reconciliation must report for each order, in turn: the status of its payment; `unpaid` for an order
 * without a payment (the gateway's "Transaction not initiated", as data); `error 404` for an order the gateway does
 * not know (an error item, with Continue On Fail).
 */
const KINDS = ['success', 'success', 'success', 'success', 'failure', 'pending', 'unpaid', 'refunded', 'partially_refunded', 'error 404'];

/** What one output item of Status → Get by Order ID reports, in the terms of KINDS. */
function kindOf(item) {
	if (item.error !== undefined) return `error ${item.resCode}`;
	if (/not initiated/i.test(item.errMessage ?? '')) return 'unpaid';
	return item.status;
}

/** The short family of the sandbox's API as the active client, with the headers the gateway requires. */
function gatewayClient(sandbox) {
	const { clientId, clientSecret } = sandbox.clients.active;
	const { encryptCardDetails, signRequest } = builtCrypto();
	async function call(apiPath, body) {
		const payload = JSON.stringify(body);
		const res = await fetch(`${sandbox.baseUrl}${apiPath}`, {
			method: 'POST',
			headers: {
				authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
				'x-signature': signRequest(clientSecret, apiPath, payload),
				'x-merchant-browser-fingerprint': 'queue-check',
				'x-merchant-user-agent': 'queue-check',
				'x-merchant-domain': 'https://shop.example.com',
				'accept-language': 'en-US',
				'content-type': 'application/json',
			},
			body: payload,
		});
		const answer = await res.json();
		if (res.status !== 200 || answer.status !== 'success') {
			throw new Error(`POST ${apiPath} answered ${res.status}: ${answer.errMessage ?? answer.message}`);
		}
		return answer.data;
	}
	return {
		createOrder: (receiptId, amount) =>
			call('/order', {
				amount,
				currency: 'USD',
				uiMode: 'checkout',
				receiptId,
				customerFields: { name: 'Rae Queue', email: 'rae.queue@example.com', phone: '91000043' },
			}),
		/** A card payment; `settle` skips the customer's authentication, so the payment completes at once. */
		initiate: (orderId, { card = APPROVED_CARD, settle }) =>
			call('/transaction/initiate', {
				orderId,
				encryptedCardDetails: encryptCardDetails(
					{ cardNumber: card, cardExpMonth: '12', cardExpYear: EXPIRY_YEAR, cardCVV: '123' },
					sandbox.cardEncryptionKey,
				),
				paymentMethod: 'card',
				cardHolderName: 'Rae Queue',
				redirectionUrl: 'https://shop.example.com/payment/done',
				paymentMode: 'card',
				secureCard: false,
				skipCVVandOTP: settle,
				skipCVVOnlyFlag: false,
				apiType: 'hosted',
			}),
		refund: (paymentId, amount) => call('/transaction/refund', { paymentId, amount }),
	};
}

/** Runs `fn` over `items`, `width` at a time. */
async function inPool(items, width, fn) {
	const results = new Array(items.length);
	let next = 0;
	const lane = async () => {
		while (next < items.length) {
			const index = next++;
			results[index] = await fn(items[index], index);
		}
	};
	await Promise.all(Array.from({ length: width }, lane));
	return results;
}

/** `count` orders in the states of KINDS, in turn; resolves with [{ orderId, receiptId, expected }]. */
function seedOrders(sandbox, count) {
	const gateway = gatewayClient(sandbox);
	return inPool([...Array(count).keys()], 10, async (index) => {
		const expected = KINDS[index % KINDS.length];
		const receiptId = `RECON-${index}`;
		if (expected === 'error 404') {
			return { orderId: `wb-00000000-0000-4000-8000-${String(index).padStart(12, '0')}`, receiptId, expected };
		}
		const { orderId } = await gateway.createOrder(receiptId, 20);
		if (expected !== 'unpaid') {
			const { paymentId } = await gateway.initiate(orderId, {
				card: expected === 'failure' ? DECLINED_CARD : APPROVED_CARD,
				settle: expected !== 'pending',
			});
			if (expected === 'refunded') await gateway.refund(paymentId, 20);
			if (expected === 'partially_refunded') await gateway.refund(paymentId, 5);
		}
		return { orderId, receiptId, expected };
	});
}

/** `count` payments waiting for the customer's authentication; resolves with [{ orderId, paymentId }]. */
function seedPendingPayments(sandbox, count) {
	const gateway = gatewayClient(sandbox);
	return inPool([...Array(count).keys()], 10, async (index) => {
		const { orderId } = await gateway.createOrder(`NOTIFY-${index}`, 12.5);
		const { paymentId } = await gateway.initiate(orderId, { settle: false });
		return { orderId, paymentId };
	});
}

module.exports = { KINDS, kindOf, seedOrders, seedPendingPayments, inPool };
