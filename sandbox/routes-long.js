'use strict';

// The long path family (/nac/api/v1/pg/orders/...), under the Checkout Base
// URL: flat answers, no envelope.

const { HttpError, bad, isObject, nonEmptyString } = require('./http');
const { validateOrder } = require('./checks');
const { presentAmount } = require('./currency');
const { statusRecord } = require('./records');

const LONG_PREFIX = '/nac/api/v1/pg/orders';
const CHECKOUT_MAGIC = { 400.01: [400, 'Order failed'] };

function longRoutes({ state }) {
	function createCheckout({ client, body }) {
		let fields;
		try {
			fields = validateOrder(body);
			if (body.redirectType !== 'post' && body.redirectType !== 'redirect') {
				throw bad('redirectType must be "post" or "redirect"');
			}
			if (body.curn !== undefined && typeof body.curn !== 'string') throw bad('curn must be a string');
		} catch (err) {
			throw new HttpError(400, `Order failed: ${err.message}`);
		}
		if (CHECKOUT_MAGIC[body.amount]) throw new HttpError(...CHECKOUT_MAGIC[body.amount]);
		const { amount, currency, receiptId, description, curn, redirectType } = body;
		const order = state.createOrder(client.clientId, {
			family: 'long',
			amount,
			amountMinor: fields.amountMinor,
			currency,
			receiptId,
			description,
			customer: fields.customer,
			curn,
			redirectType,
		});
		return {
			status: 200,
			body: {
				orderId: order.orderId,
				amount: presentAmount(order.amountMinor, currency),
				receiptId,
				status: 'success',
				resCode: 200,
				errMessage: '',
			},
		};
	}

	function checkStatus({ client, query }) {
		const orderId = query.get('orderId');
		if (!nonEmptyString(orderId)) throw bad('orderId is required');
		const order = state.own(state.orders, orderId, client.clientId);
		if (!order) throw new HttpError(404, 'Order not found');
		const payment = state.latestPayment(order);
		// The live gateway reports an order nobody has paid yet as a failure, not as pending.
		if (!payment) throw new HttpError(400, 'Transaction not initiated');
		return { status: 200, body: statusRecord(order, payment, client.clientSecret) };
	}

	return [
		['POST', /^\/nac\/api\/v1\/pg\/orders\/create-checkout$/, createCheckout],
		['GET', /^\/nac\/api\/v1\/pg\/orders\/check-status$/, checkStatus],
	];
}

/** Each long endpoint has its own failure shape; clients must cope with both. */
function longFailure(route, status, message, rawBody) {
	if (route === 'checkStatus') return { resCode: status, status: 'failure', errMessage: message };
	let receiptId;
	try {
		const parsed = JSON.parse(rawBody);
		if (isObject(parsed) && typeof parsed.receiptId === 'string') receiptId = parsed.receiptId;
	} catch {
		// no receipt to echo
	}
	return { receiptId, status: 'failure', resCode: status, errMessage: message };
}

module.exports = { LONG_PREFIX, longRoutes, longFailure };
