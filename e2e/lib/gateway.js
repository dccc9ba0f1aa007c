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

module.exports = { gatewayRequest, storedCards };
