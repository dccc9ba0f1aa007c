'use strict';

// A stateful stand-in for the payment gateway's merchant API, for tests and
// demos without a provider account. It is deliberately strict: a request the
// real gateway might let through by luck should fail here, loudly.
//
// This file puts the parts together and is the module's public face; see
// sandbox/README.md for what each part does.

const http = require('node:http');
const { HttpError, bad, failureEnvelope, isHttpUrl, sendJson } = require('./http');
const { createState, CARD_LIMIT } = require('./state');
const { publicCard, statusRecord } = require('./records');
const { shortRoutes } = require('./routes-short');
const { longRoutes } = require('./routes-long');
const { createCapacity, createFaultTable } = require('./faults');
const { createNotifier } = require('./notifications');
const { createApiHandler } = require('./api');
const { CONTROL_PREFIX, createControlHandler } = require('./control');

// Fixed defaults keep demos and saved workflows reproducible between runs.
const DEFAULT_SHORT_PREFIX = '/nac/api/v1/merchant-host';
const DEFAULT_CLIENTS = {
	active: { clientId: 'sandbox-client', clientSecret: 'sandbox-secret-f4910caa8879a0d4' },
	inactive: { clientId: 'inactive-client', clientSecret: 'inactive-secret-437760f5026c619e' },
};
const DEFAULT_CARD_ENCRYPTION_KEY =
	'ae0a48d044fd61f653b82fe9234b6837db4d627b2568d014494eb048ccf595eb';
// The card a customer types on the hosted checkout page; an approved test card.
const HOSTED_PAGE_CARD = '4111111111111111';

function checkResult(result) {
	if (result !== 'success' && result !== 'failure') {
		throw new HttpError(400, 'result must be "success" or "failure"');
	}
}

/** What the hosted checkout page reads from the link the merchant built: `?actionType=checkout&orderId&redirectUrl&clientId`. */
function checkoutLink(checkoutUrl) {
	let query;
	try {
		query = new URL(checkoutUrl).searchParams;
	} catch {
		throw bad('checkoutUrl must be an absolute URL');
	}
	if (query.get('actionType') !== 'checkout') throw bad('checkoutUrl must carry actionType=checkout');
	const redirectUrl = query.get('redirectUrl');
	if (!isHttpUrl(redirectUrl)) throw bad('checkoutUrl must carry an absolute http(s) redirectUrl');
	return { orderId: query.get('orderId'), clientId: query.get('clientId'), redirectUrl };
}

/** setTimeout whose timers close() can release all at once. */
function timerSet() {
	const timers = new Set();
	return {
		schedule(fn, ms) {
			const timer = setTimeout(() => {
				timers.delete(timer);
				fn();
			}, ms);
			timers.add(timer);
			return timer;
		},
		cancel(timer) {
			clearTimeout(timer);
			timers.delete(timer);
		},
		clear() {
			for (const timer of timers) clearTimeout(timer);
			timers.clear();
		},
	};
}

function startSandbox(options = {}) {
	const shortPrefix = (options.shortPrefix ?? DEFAULT_SHORT_PREFIX).replace(/\/+$/, '');
	const cardEncryptionKey = options.cardEncryptionKey ?? DEFAULT_CARD_ENCRYPTION_KEY;
	if (!/^[0-9a-fA-F]{64}$/.test(cardEncryptionKey)) {
		return Promise.reject(new Error('cardEncryptionKey must be 64 hex characters'));
	}
	const clients = {
		active: { ...DEFAULT_CLIENTS.active, ...options.clients?.active },
		inactive: { ...DEFAULT_CLIENTS.inactive, ...options.clients?.inactive },
	};
	const clientById = new Map([
		[clients.inactive.clientId, { ...clients.inactive, active: false }],
		[clients.active.clientId, { ...clients.active, active: true }],
	]);

	let latencyMs = Number(options.latencyMs) || 0;
	// What a path the gateway does not serve answers, in its envelope: its own words, or a framework's that wraps
	// every error so (e.g. "Not found").
	let unknownPathMessage = 'No route found';
	const requests = [];
	const timers = timerSet();
	const delay = (ms) => (ms > 0 ? new Promise((resolve) => timers.schedule(resolve, ms)) : Promise.resolve());
	const faults = createFaultTable();
	const capacity = createCapacity();
	try {
		capacity.set(options.capacity ?? null);
	} catch (err) {
		return Promise.reject(err);
	}
	// The notifier is told of every completed payment and refund by the state.
	let notifier;
	const state = createState({
		paymentCompleted: (payment) => notifier.paymentCompleted(payment),
		refunded: (refund) => notifier.refunded(refund),
	});
	notifier = createNotifier({
		state,
		secretOf: (clientId) => clientById.get(clientId).clientSecret,
		schedule: timers.schedule,
		cancel: timers.cancel,
	});
	try {
		notifier.configure({
			url: options.notificationUrl,
			format: options.notificationFormat,
			pad: options.notificationPadding,
		});
	} catch (err) {
		return Promise.reject(err);
	}

	const routeContext = { state, cardEncryptionKey, url: '' };
	const handleApi = createApiHandler({
		shortPrefix,
		shortTable: shortRoutes(routeContext),
		longTable: longRoutes(routeContext),
		clientById,
		faults,
		capacity,
		requests,
		latency: () => latencyMs,
		unknownPathMessage: () => unknownPathMessage,
		cardEncryptionKey,
		delay,
		schedule: timers.schedule,
	});

	const sandbox = {
		url: '',
		baseUrl: '',
		checkoutBaseUrl: '',
		clients: { active: { ...clients.active }, inactive: { ...clients.inactive } },
		cardEncryptionKey,
		requests,
		notifications: notifier.log,
		get latencyMs() {
			return latencyMs;
		},
		get faults() {
			return faults.list();
		},
		get capacity() {
			return capacity.settings;
		},
		/** API requests holding a place under the capacity now (counted with or without a limit). */
		get serving() {
			return capacity.serving;
		},
		get notificationSettings() {
			return { ...notifier.settings };
		},
		/** The fields of the n8n credential "Payment Gateway API" that reach this sandbox as the active client. */
		credentialData(overrides = {}) {
			return {
				baseUrl: sandbox.baseUrl,
				checkoutBaseUrl: sandbox.checkoutBaseUrl,
				clientId: sandbox.clients.active.clientId,
				clientSecret: sandbox.clients.active.clientSecret,
				cardEncryptionKey: sandbox.cardEncryptionKey,
				merchantDomain: 'https://shop.example.com',
				...overrides,
			};
		},
		clearLog() {
			requests.length = 0;
		},
		reset() {
			state.reset();
			faults.clear();
			unknownPathMessage = 'No route found';
			requests.length = 0;
			notifier.reset();
		},
		/** The message unknown paths answer with (HTTP 404, the gateway's envelope); '' or null puts back the default. */
		setUnknownPathMessage(message) {
			if (message !== null && message !== undefined && typeof message !== 'string') throw new TypeError('message must be a string');
			unknownPathMessage = message || 'No route found';
			return { message: unknownPathMessage };
		},
		get unknownPathMessage() {
			return unknownPathMessage;
		},
		setLatency(ms) {
			const n = Number(ms);
			if (!Number.isFinite(n) || n < 0) throw new TypeError('latency must be a number >= 0');
			latencyMs = n;
		},
		completeAuthentication(paymentId, result) {
			checkResult(result);
			const payment = state.payments.get(paymentId);
			if (!payment) throw new HttpError(404, 'Payment not found');
			if (payment.status !== 'pending') {
				throw new HttpError(409, `Payment is not pending (status: ${payment.status})`);
			}
			state.completePayment(payment, result === 'success');
			const order = state.orders.get(payment.orderId);
			return statusRecord(order, payment, clientById.get(payment.clientId).clientSecret);
		},
		payCheckout(checkoutUrl, result = 'success') {
			checkResult(result);
			const { orderId, clientId, redirectUrl } = checkoutLink(checkoutUrl);
			const order = state.own(state.orders, orderId, clientId);
			if (!order) throw new HttpError(404, 'Order not found');
			const payment = state.createPayment(order, {
				paymentMode: 'card',
				card: { cardNumber: HOSTED_PAGE_CARD },
				redirectionUrl: redirectUrl,
			});
			const record = sandbox.completeAuthentication(payment.paymentId, result);
			const redirectTo = new URL(redirectUrl);
			redirectTo.searchParams.set('paymentId', payment.paymentId);
			return { ...record, redirectTo: redirectTo.href };
		},
		ageCard(digitalCardId, days) {
			return publicCard(state.ageCard(digitalCardId, days));
		},
		setCapacity(settings) {
			capacity.set(settings);
			return capacity.settings;
		},
		injectFault(fault) {
			faults.add(fault);
		},
		clearFaults() {
			faults.clear();
		},
		setNotifications(settings) {
			return notifier.configure(settings);
		},
		clearNotifications() {
			notifier.clear();
		},
		sendNotification(request) {
			return notifier.resend(request);
		},
		waitForNotifications(count, timeoutMs) {
			return notifier.waitFor(count, timeoutMs);
		},
		close() {
			timers.clear();
			notifier.close();
			return new Promise((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			});
		},
	};

	const handleControl = createControlHandler(sandbox, state);
	const server = http.createServer((req, res) => {
		const [pathname, ...query] = req.url.split('?');
		const search = query.length ? '?' + query.join('?') : '';
		const handler =
			pathname === CONTROL_PREFIX || pathname.startsWith(CONTROL_PREFIX + '/')
				? handleControl(req, res, pathname)
				: handleApi(req, res, pathname, search);
		handler.catch((err) => {
			// Whatever went wrong, answer and keep serving.
			const status = err instanceof HttpError ? err.status : 500;
			const message = err instanceof HttpError ? err.message : 'Internal server error';
			if (!res.headersSent && !res.destroyed) {
				sendJson(res, status, failureEnvelope(status, message));
			}
		});
	});
	// Idle connections kept a minute, as web fronts commonly do. Node's 5 s default closed a kept connection just as a
	// busy client sent its next request on it, which the client saw as a reset instead of the fault or answer asked for.
	server.keepAliveTimeout = 60_000;

	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, '127.0.0.1', () => {
			server.off('error', reject);
			const url = `http://127.0.0.1:${server.address().port}`;
			routeContext.url = url;
			sandbox.url = url;
			sandbox.baseUrl = url + shortPrefix;
			sandbox.checkoutBaseUrl = url;
			resolve(sandbox);
		});
	});
}

module.exports = {
	startSandbox,
	DEFAULT_SHORT_PREFIX,
	DEFAULT_CLIENTS,
	DEFAULT_CARD_ENCRYPTION_KEY,
	CARD_LIMIT,
};
