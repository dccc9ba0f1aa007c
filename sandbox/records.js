'use strict';

// How orders, payments, refunds and cards look in answers. A field left
// undefined (a receiptId never sent) drops out of the JSON.

const { hmacHex } = require('./checks');
const { presentAmount } = require('./currency');

/** Lowercase hex HMAC-SHA256(client secret, orderId|paymentId), as in status records and notifications. */
const signatureFor = (secret, orderId, paymentId) => hmacHex(secret, `${orderId}|${paymentId}`);

const paymentDetails = (payment) => ({
	paymentMethod: 'card',
	cardNetwork: payment.cardNetwork,
	cardType: payment.cardType,
});

/** The flat record of check-status (and of completeAuthentication). */
function statusRecord(order, payment, secret) {
	return {
		orderId: order.orderId,
		status: payment.status,
		paymentId: payment.paymentId,
		receiptId: order.receiptId,
		amount: presentAmount(order.amountMinor, order.currency),
		signature: signatureFor(secret, order.orderId, payment.paymentId),
		timestamp: payment.updatedAt,
		paymentDetails: paymentDetails(payment),
	};
}

/** `data` of status by payment id. */
function paymentRecord(order, payment, secret) {
	return {
		paymentId: payment.paymentId,
		orderId: order.orderId,
		receiptId: order.receiptId,
		paymentStatus: payment.status,
		status: payment.status, // read by older clients
		paymentMethod: 'card',
		transactionType: 'sales',
		amount: presentAmount(payment.amountMinor, order.currency),
		currency: order.currency,
		initiatedAt: payment.initiatedAt,
		completedAt: payment.completedAt,
		signature: signatureFor(secret, order.orderId, payment.paymentId),
		description: order.description,
		paymentDetails: { ...paymentDetails(payment), cardUsageType: 'domestic' },
	};
}

/** `data` of a refund answer. */
function refundRecord(order, refund) {
	return {
		refundId: refund.refundId,
		paymentId: refund.paymentId,
		orderId: order.orderId,
		receiptId: order.receiptId,
		paymentStatus: refund.paymentStatus,
		paymentMethod: 'card',
		amount: presentAmount(refund.amountMinor, order.currency),
		currency: order.currency,
		initiatedAt: refund.initiatedAt,
		completedAt: refund.completedAt,
	};
}

function publicCard(card) {
	const { digitalCardId, network, cardType, status, panLastFour, createdAt, updatedAt } = card;
	return { digitalCardId, network, cardType, status, panLastFour, createdAt, updatedAt };
}

module.exports = { signatureFor, paymentDetails, statusRecord, paymentRecord, refundRecord, publicCard };
