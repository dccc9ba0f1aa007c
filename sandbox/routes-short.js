'use strict';

// The short path family, under the Base URL: orders, payments, refunds and
// stored cards. Handlers get the authenticated client and the parsed request
// and return { status, body }, or throw an HttpError.

const { HttpError, bad, escapeHtml, isHttpUrl, nonEmptyString } = require('./http');
const {
	checkAmount,
	checkCvv,
	checkNewCard,
	decryptCardDetails,
	validateOrder,
} = require('./checks');
const { presentAmount } = require('./currency');
const { paymentRecord, publicCard, refundRecord } = require('./records');
const { CARD_LIMIT } = require('./state');

const ORDER_MAGIC = { 401.01: [401, 'Internal server error'] };
const INITIATE_MAGIC = {
	404.01: [404, 'No route found; try another card'],
	404.02: [404, 'No route found; try an alternative payment method'],
	404.03: [404, 'No route found for this merchant; contact support'],
	409.01: [409, 'Sales transactions not allowed for this merchant; contact support'],
	422.01: [422, 'Fraud-rule validation failed'],
	500.01: [500, 'Internal server error'],
};

const ok = (data) => ({ status: 200, body: { resCode: 200, status: 'success', data } });

function checkInitiateBody(body) {
	const { orderId, encryptedCardDetails, paymentMode, skipCVVandOTP, skipCVVOnlyFlag } = body;
	const secureCard = body.secureCard === undefined ? false : body.secureCard;
	if (!nonEmptyString(orderId)) throw bad('orderId is required');
	if (!nonEmptyString(encryptedCardDetails)) throw bad('encryptedCardDetails is required');
	if (body.paymentMethod !== 'card') throw bad('paymentMethod must be "card"');
	if (!nonEmptyString(body.cardHolderName)) throw bad('cardHolderName is required');
	if (!isHttpUrl(body.redirectionUrl)) throw bad('redirectionUrl must be an absolute http(s) URL');
	if (paymentMode !== 'card' && paymentMode !== 'token') {
		throw bad('paymentMode must be "card" or "token"');
	}
	if (typeof secureCard !== 'boolean') throw bad('secureCard must be a boolean');
	if (typeof skipCVVandOTP !== 'boolean') throw bad('skipCVVandOTP must be a boolean');
	if (typeof skipCVVOnlyFlag !== 'boolean') throw bad('skipCVVOnlyFlag must be a boolean');
	if (body.apiType !== 'hosted') throw bad('apiType must be "hosted"');
	if (skipCVVandOTP && skipCVVOnlyFlag) {
		throw bad('skipCVVandOTP and skipCVVOnlyFlag cannot both be true');
	}
	if (secureCard && paymentMode === 'token') {
		throw bad('secureCard can only be used with paymentMode "card"');
	}
	return secureCard;
}

/** The auto-submitting form the customer's browser gets, pointing at the sandbox's authentication page. */
function authenticationForm(sandboxUrl, paymentId) {
	const action = `${sandboxUrl}/__sandbox/authenticate/${encodeURIComponent(paymentId)}`;
	return (
		`<form id="sandbox-auth" method="POST" action="${escapeHtml(action)}">` +
		`<input type="hidden" name="paymentId" value="${escapeHtml(paymentId)}">` +
		'</form><script>document.forms[0].submit()</script>'
	);
}

/** `ctx`: { state, cardEncryptionKey, url } (url read at request time, once listening). */
function shortRoutes(ctx) {
	const { state } = ctx;

	function initiate({ client, body }) {
		const secureCard = checkInitiateBody(body);
		const { paymentMode, skipCVVandOTP, skipCVVOnlyFlag } = body;
		const order = state.own(state.orders, body.orderId, client.clientId);
		if (!order) throw new HttpError(404, 'Order not found');

		const card = decryptCardDetails(body.encryptedCardDetails, ctx.cardEncryptionKey);
		if (!card) throw bad('Invalid encrypted card details');
		let storedCard;
		if (paymentMode === 'card') {
			checkNewCard(card);
		} else {
			if (!nonEmptyString(card.digitalCardId)) throw bad('digitalCardId is required');
			storedCard = state.wallet(client.clientId, order.customerId).get(card.digitalCardId);
			if (!storedCard || storedCard.status !== 'ACTIVE') {
				throw bad('digitalCardId is not an active stored card of this customer');
			}
		}
		checkCvv(card, !skipCVVandOTP && !skipCVVOnlyFlag);

		if (INITIATE_MAGIC[order.amount]) throw new HttpError(...INITIATE_MAGIC[order.amount]);
		state.checkPayable(order);
		if (secureCard) storedCard = state.storeCard(client.clientId, order.customerId, card.cardNumber);
		const payment = state.createPayment(order, {
			paymentMode,
			card: storedCard ?? { cardNumber: card.cardNumber },
			redirectionUrl: body.redirectionUrl,
		});
		// Without authentication there is nothing to wait for; the answer still says
		// pending, as the live gateway does, so callers must check the status.
		if (skipCVVandOTP) state.completePayment(payment, true);

		const data = {
			paymentId: payment.paymentId,
			orderId: order.orderId,
			receiptId: order.receiptId,
			paymentStatus: 'pending',
			amount: presentAmount(order.amountMinor, order.currency),
			currency: order.currency,
			redirectionData: { method: 'POST', formData: authenticationForm(ctx.url, payment.paymentId) },
		};
		if (secureCard) {
			data.securedCardDetails = { customerId: order.customerId, digitalCardId: storedCard.digitalCardId };
		}
		return ok(data);
	}

	const handlers = {
		createOrder({ client, body }) {
			const { amountMinor, customer } = validateOrder(body);
			if (ORDER_MAGIC[body.amount]) throw new HttpError(...ORDER_MAGIC[body.amount]);
			const { amount, currency, receiptId, description } = body;
			const order = state.createOrder(client.clientId, {
				family: 'short',
				amount,
				amountMinor,
				currency,
				receiptId,
				description,
				customer,
			});
			return ok({ orderId: order.orderId, receiptId, amount: presentAmount(amountMinor, currency), currency });
		},

		initiate,

		statusByPayment({ client, params: [paymentId] }) {
			const payment = state.own(state.payments, paymentId, client.clientId);
			if (!payment) throw new HttpError(404, 'Payment not found');
			return ok(paymentRecord(state.orders.get(payment.orderId), payment, client.clientSecret));
		},

		refund({ client, body }) {
			if (!nonEmptyString(body.paymentId)) throw bad('paymentId is required');
			const payment = state.own(state.payments, body.paymentId, client.clientId);
			if (!payment) throw new HttpError(404, 'Payment not found');
			const order = state.orders.get(payment.orderId);
			const amountMinor = checkAmount(body.amount, order.currency);
			return ok(refundRecord(order, state.refund(payment, amountMinor)));
		},

		listCards({ client, params: [customerId] }) {
			if (customerId === 'cus_fail_list') {
				throw new HttpError(500, 'Error while fetching digital cards');
			}
			const cards = state.activeCards(client.clientId, customerId);
			return ok({ digitalCards: cards.map(publicCard), remainingLimit: CARD_LIMIT - cards.length });
		},

		getCard({ client, params: [customerId, digitalCardId] }) {
			if (digitalCardId === 'dc_fail_fetch') {
				throw new HttpError(500, 'Error while fetching digital card');
			}
			const card = state.wallet(client.clientId, customerId).get(digitalCardId);
			if (!card || card.status !== 'ACTIVE') throw new HttpError(404, 'Card not found');
			const remainingLimit = CARD_LIMIT - state.activeCards(client.clientId, customerId).length;
			return ok({ digitalCard: publicCard(card), remainingLimit });
		},

		deleteCard({ client, params: [customerId, digitalCardId] }) {
			if (digitalCardId === 'dc_fail_delete') {
				throw new HttpError(500, 'Error while removing digital card');
			}
			state.deleteCard(client.clientId, customerId, digitalCardId);
			return ok({ customerId, digitalCardId });
		},
	};

	return [
		['POST', /^\/order$/, handlers.createOrder],
		['POST', /^\/transaction\/initiate$/, handlers.initiate],
		['POST', /^\/transaction\/refund$/, handlers.refund],
		['GET', /^\/transaction\/status\/([^/]+)$/, handlers.statusByPayment],
		['GET', /^\/customer\/([^/]+)\/digitalCards$/, handlers.listCards],
		['GET', /^\/customer\/([^/]+)\/digitalCards\/([^/]+)$/, handlers.getCard],
		['DELETE', /^\/customer\/([^/]+)\/digitalCards\/([^/]+)$/, handlers.deleteCard],
	];
}

module.exports = { shortRoutes };
