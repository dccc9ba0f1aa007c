'use strict';

// Everything the sandbox remembers: orders, payments, refunds and stored
// cards, per client, and the rules for changing them. Amounts are integers of
// the currency's minor units.

const crypto = require('node:crypto');
const { HttpError, now } = require('./http');

const CARD_LIMIT = 5;
const DECLINED_CARD = '4393570006367857';

// Ids shaped like the live gateway's.
const upperHex = (bytes) => crypto.randomBytes(bytes).toString('hex').toUpperCase();
const newOrderId = () => `wb-${crypto.randomUUID()}`;
const newPaymentId = () => `PAY${upperHex(16)}`;
const newRefundId = () => `RFD${upperHex(16)}`;
const newDigitalCardId = () => `dc_${crypto.randomBytes(8).toString('hex')}`;

function customerIdFor(customer) {
	const seed = `${customer.email.trim().toLowerCase()}|${String(customer.phone).trim()}`;
	return 'cus_' + crypto.createHash('sha256').update(seed).digest('hex').slice(0, 16);
}

function cardNetwork(number) {
	if (number.startsWith('4')) return 'visa';
	if (number.startsWith('5')) return 'mastercard';
	return 'other';
}

const REFUNDABLE = new Set(['success', 'partially_refunded']);

/** `events.paymentCompleted(payment)` and `events.refunded(refund)` are told of every change worth a notification. */
function createState(events) {
	const orders = new Map();
	const payments = new Map();
	const refunds = new Map();
	const wallets = new Map();

	function wallet(clientId, customerId) {
		// Customers are per merchant: one client never sees another's cards.
		const key = `${clientId}\n${customerId}`;
		if (!wallets.has(key)) wallets.set(key, new Map());
		return wallets.get(key);
	}

	function activeCards(clientId, customerId) {
		return [...wallet(clientId, customerId).values()].filter((c) => c.status === 'ACTIVE');
	}

	/** The record of this client, or undefined: another client's ids are as unknown as made-up ones. */
	function own(map, id, clientId) {
		const record = map.get(id);
		return record && record.clientId === clientId ? record : undefined;
	}

	function latestPayment(order) {
		const id = order.paymentIds[order.paymentIds.length - 1];
		return id ? payments.get(id) : undefined;
	}

	function createOrder(clientId, fields) {
		const t = now();
		const order = {
			orderId: newOrderId(),
			clientId,
			customerId: customerIdFor(fields.customer),
			paymentIds: [],
			createdAt: t,
			updatedAt: t,
			...fields,
		};
		orders.set(order.orderId, order);
		return order;
	}

	function storeCard(clientId, customerId, cardNumber) {
		const cards = wallet(clientId, customerId);
		const fingerprint = crypto.createHash('sha256').update(cardNumber).digest('hex');
		const existing = [...cards.values()].find(
			(c) => c.status === 'ACTIVE' && c.fingerprint === fingerprint,
		);
		if (existing) return existing;
		if (activeCards(clientId, customerId).length >= CARD_LIMIT) {
			throw new HttpError(422, 'Tokenization limit reached for this customer');
		}
		const t = now();
		const card = {
			digitalCardId: newDigitalCardId(),
			network: cardNetwork(cardNumber),
			cardType: 'credit',
			status: 'ACTIVE',
			panLastFour: cardNumber.slice(-4),
			createdAt: t,
			updatedAt: t,
			// Internal only, never sent: lets a repeat card reuse its token and keeps the decline.
			fingerprint,
			declined: cardNumber === DECLINED_CARD,
		};
		cards.set(card.digitalCardId, card);
		return card;
	}

	function deleteCard(clientId, customerId, digitalCardId) {
		const cards = wallet(clientId, customerId);
		const card = cards.get(digitalCardId);
		if (!card || card.status !== 'ACTIVE') {
			throw new HttpError(404, 'Card not found or already deleted');
		}
		cards.delete(digitalCardId);
	}

	/** After a failed payment the order may be paid again; otherwise one payment is enough. */
	function checkPayable(order) {
		if (order.paymentIds.some((id) => payments.get(id).status !== 'failure')) {
			throw new HttpError(409, 'Transaction is already in progress');
		}
	}

	/** A new pending payment of the order; `card` is a stored card or { cardNumber }. */
	function createPayment(order, { paymentMode, card, redirectionUrl }) {
		checkPayable(order);
		const t = now();
		const payment = {
			paymentId: newPaymentId(),
			orderId: order.orderId,
			clientId: order.clientId,
			status: 'pending',
			paymentMode,
			amountMinor: order.amountMinor,
			refundedMinor: 0,
			refundIds: [],
			cardNetwork: card.network ?? cardNetwork(card.cardNumber),
			cardType: 'credit',
			declined: card.declined ?? card.cardNumber === DECLINED_CARD,
			redirectionUrl,
			failureReason: null,
			initiatedAt: t,
			completedAt: null,
			updatedAt: t,
		};
		payments.set(payment.paymentId, payment);
		order.paymentIds.push(payment.paymentId);
		order.updatedAt = t;
		return payment;
	}

	/** Ends a pending payment; a declined card fails whatever the authentication said. */
	function completePayment(payment, authenticated) {
		const t = now();
		payment.status = authenticated && !payment.declined ? 'success' : 'failure';
		if (payment.status === 'failure') {
			payment.failureReason = payment.declined ? 'Card declined' : 'Customer authentication failed';
		}
		payment.completedAt = t;
		payment.updatedAt = t;
		events.paymentCompleted(payment);
	}

	function refund(payment, amountMinor) {
		if (!REFUNDABLE.has(payment.status)) {
			throw new HttpError(400, 'Only successful payments can be refunded');
		}
		if (amountMinor > payment.amountMinor - payment.refundedMinor) {
			throw new HttpError(400, 'Refund amount exceeds the refundable amount');
		}
		const t = now();
		payment.refundedMinor += amountMinor;
		payment.status = payment.refundedMinor === payment.amountMinor ? 'refunded' : 'partially_refunded';
		payment.updatedAt = t;
		const record = {
			refundId: newRefundId(),
			paymentId: payment.paymentId,
			orderId: payment.orderId,
			clientId: payment.clientId,
			amountMinor,
			paymentStatus: payment.status,
			initiatedAt: t,
			completedAt: t,
		};
		refunds.set(record.refundId, record);
		payment.refundIds.push(record.refundId);
		events.refunded(record);
		return record;
	}

	function reset() {
		orders.clear();
		payments.clear();
		refunds.clear();
		wallets.clear();
	}

	return {
		orders,
		payments,
		refunds,
		own,
		wallet,
		activeCards,
		latestPayment,
		createOrder,
		storeCard,
		deleteCard,
		checkPayable,
		createPayment,
		completePayment,
		refund,
		reset,
	};
}

module.exports = { createState, CARD_LIMIT, DECLINED_CARD };
