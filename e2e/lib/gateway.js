'use strict';

// Asking the sandbox gateway directly, as the active client and signed the way the node signs: for checks that
// compare what a workflow did with what the gateway holds afterwards.

const crypto = require('node:crypto');

/**
 * One API request; resolves with { status, body (parsed JSON) }. `family` 'long' goes to the checkout base URL
 * (`/nac/api/v1/pg/...`); `query` is appended unsigned, as the gateway signs paths without their query.
 */
async function gatewayRequest(sandbox, method, apiPath, { body, family = 'short', query = '' } = {}) {
	const { clientId, clientSecret } = sandbox.clients.active;
	const payload = body === undefined ? '' : JSON.stringify(body);
	const base = family === 'long' ? sandbox.checkoutBaseUrl : sandbox.baseUrl;
	const res = await fetch(`${base}${apiPath}${query}`, {
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

/** The customer's active stored cards, as the gateway lists them. */
async function storedCards(sandbox, customerId) {
	const { status, body } = await gatewayRequest(sandbox, 'GET', `/customer/${encodeURIComponent(customerId)}/digitalCards`);
	if (status !== 200) throw new Error(`listing the cards of ${customerId} directly answered ${status}`);
	return body.data.digitalCards;
}

/**
 * An order made directly, unpaid; resolves with its orderId. A check that needs the gateway to hold something
 * before n8n runs makes it here, so that n8n's executions only do what the check is about.
 */
async function unpaidOrder(sandbox, { amount, receiptId, currency = 'USD' }) {
	const { status, body } = await gatewayRequest(sandbox, 'POST', '/order', {
		body: {
			amount,
			currency,
			uiMode: 'checkout',
			receiptId,
			customerFields: { name: 'Gia Gateway', email: 'gia.gateway@example.com', phone: '91000077' },
		},
	});
	if (status !== 200) throw new Error(`creating order ${receiptId} directly answered ${status}: ${body.errMessage ?? body.message}`);
	return body.data.orderId;
}

/** An order paid in full on the sandbox's hosted checkout page; resolves with { orderId, paymentId, amount }. */
async function paidPayment(sandbox, { amount, receiptId, currency }) {
	const orderId = await unpaidOrder(sandbox, { amount, receiptId, currency });
	const link = new URL('https://pay.example.com/checkout');
	link.search = new URLSearchParams({
		actionType: 'checkout',
		orderId,
		clientId: sandbox.clients.active.clientId,
		redirectUrl: 'https://shop.example.com/payment/done',
	}).toString();
	const { paymentId, status } = sandbox.payCheckout(link.href, 'success');
	if (status !== 'success') throw new Error(`the checkout payment of ${receiptId} ended ${status}`);
	return { orderId, paymentId, amount };
}

module.exports = { gatewayRequest, storedCards, unpaidOrder, paidPayment };
