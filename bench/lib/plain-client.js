'use strict';

// A plain gateway client: axios, HMAC signing with node:crypto, the very headers the node sends. It is what the
// node is measured against, so it does nothing the gateway does not need.

const crypto = require('node:crypto');
const http = require('node:http');
const axios = require('axios');

const { pool } = require('./pool');

const CHECK_STATUS_PATH = '/nac/api/v1/pg/orders/check-status';

// Headers that belong to one request or to the connection, not to the client.
const PER_REQUEST = new Set(['authorization', 'x-signature', 'host', 'connection', 'content-length', 'content-type']);

/** The client's fixed headers as the node sent them (from the sandbox log, names lowercase, secrets redacted). */
function fixedHeadersOf(loggedHeaders) {
	return Object.fromEntries(Object.entries(loggedHeaders).filter(([name]) => !PER_REQUEST.has(name)));
}

/**
 * `freshConnection`: a new http.Agent per request, so every request opens its own TCP connection as n8n's request
 * helper does; by default axios keeps connections alive (Node's global agent).
 */
function plainClient(sandbox, loggedHeaders, { freshConnection = false } = {}) {
	const { clientId, clientSecret } = sandbox.credentials;
	const headers = {
		...fixedHeadersOf(loggedHeaders),
		authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
	};
	const sign = (apiPath, payload) => crypto.createHmac('sha256', clientSecret).update(apiPath + payload).digest('hex');
	const agent = () => (freshConnection ? { httpAgent: new http.Agent() } : {});

	async function statusByOrderId(orderId) {
		const response = await axios.get(`${sandbox.checkoutBaseUrl}${CHECK_STATUS_PATH}`, {
			params: { orderId },
			headers: { ...headers, 'x-signature': sign(CHECK_STATUS_PATH, '') },
			...agent(),
		});
		if (response.data.orderId !== orderId) throw new Error(`check-status answered for ${response.data.orderId}`);
		return response.data;
	}

	async function createOrder(order) {
		const body = JSON.stringify(order);
		const response = await axios.post(`${sandbox.baseUrl}/order`, body, {
			headers: { ...headers, 'content-type': 'application/json', 'x-signature': sign('/order', body) },
			...agent(),
		});
		return response.data.data.orderId;
	}

	return {
		headers,
		statusByOrderId,
		createOrder,
		/** Status of every order, `concurrency` at a time; resolves to the records in input order. */
		statusOfAll: (orderIds, concurrency) => pool(orderIds.length, concurrency, (index) => statusByOrderId(orderIds[index])),
	};
}

module.exports = { CHECK_STATUS_PATH, plainClient };
