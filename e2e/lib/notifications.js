'use strict';

// Notifications as an attacker or a repeating gateway sends them: made from the gateway's own signed record of a
// payment (status by payment id), then changed or sent again, straight to a trigger's production URL.

const { cardPayment, DECLINED_CARD, gatewayRequest, unpaidOrder } = require('./gateway');
const { post } = require('./rest');

/** The flat notification the gateway would send for a payment, signed: from its status record. */
async function notificationOf(sandbox, paymentId) {
	const { status, body } = await gatewayRequest(sandbox, 'GET', `/transaction/status/${paymentId}`);
	if (status !== 200) throw new Error(`reading payment ${paymentId} directly answered ${status}`);
	const { orderId, paymentStatus, receiptId, amount, signature, completedAt, paymentDetails } = body.data;
	return { orderId, paymentId, status: paymentStatus, receiptId, amount, signature, timestamp: completedAt, paymentDetails };
}

/** A settled card payment of a new order (approved, or declined with `declined`); its notification. */
async function settledPayment(sandbox, { amount = 25.5, receiptId, declined = false, orderId } = {}) {
	const order = orderId ?? (await unpaidOrder(sandbox, { amount, receiptId }));
	const { paymentId } = await cardPayment(sandbox, order, declined ? { card: DECLINED_CARD } : {});
	return notificationOf(sandbox, paymentId);
}

/** Every body posted at the same moment to every URL; resolves with the HTTP statuses, in order. */
async function postAtOnce(urls, bodies) {
	const answers = await Promise.all(urls.flatMap((url) => bodies.map((body) => post(url, body))));
	return answers.map((answer) => answer.status);
}

module.exports = { notificationOf, settledPayment, postAtOnce };
