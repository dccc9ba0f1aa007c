'use strict';

// Server-to-server notifications: after a payment completes or a refund is
// made, the live gateway POSTs JSON to the one URL the merchant registered.
// One attempt, 10 s time-out, never in the way of the API answer.

const http = require('node:http');
const https = require('node:https');
const { HttpError, isHttpUrl, isObject, now } = require('./http');
const { presentAmount } = require('./currency');
const { paymentDetails, signatureFor } = require('./records');

const TIMEOUT_MS = 10_000;
const FORMATS = ['flat', 'wrapped'];

const EVENT_OF_STATUS = {
	success: 'TRANSACTION_COMPLETED',
	failure: 'TRANSACTION_FAILED',
	refunded: 'REFUND_SUCCESS',
	partially_refunded: 'REFUND_SUCCESS',
};

/** The provider's document shows values with stray spaces; receivers must trim. */
function padStrings(value) {
	if (typeof value === 'string') return ` ${value} `;
	if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, padStrings(v)]));
	return value;
}

function checkSettings({ url, format, pad }) {
	if (url !== undefined && url !== null && url !== '' && !isHttpUrl(url)) {
		throw new TypeError('url must be an absolute http(s) URL, or null or "" to turn notifications off');
	}
	if (format !== undefined && !FORMATS.includes(format)) throw new TypeError('format must be "flat" or "wrapped"');
	if (pad !== undefined && typeof pad !== 'boolean') throw new TypeError('pad must be a boolean');
}

/** `state` to look payments up, `secretOf(clientId)` to sign, `schedule(fn, ms)` for timers released on close. */
function createNotifier({ state, secretOf, schedule, cancel }) {
	const settings = { url: null, format: 'flat', pad: false };
	const log = [];
	const inFlight = new Set();
	const waiters = new Set();
	// A reset forgets deliveries still in flight: their outcome must not land in the next test's log.
	let generation = 0;

	function configure(changes = {}) {
		checkSettings(changes);
		if (changes.url !== undefined) settings.url = changes.url || null;
		if (changes.format !== undefined) settings.format = changes.format;
		if (changes.pad !== undefined) settings.pad = changes.pad;
		return { ...settings };
	}

	/** The notification of a completed payment, or of `refund` when given, as an object. */
	function notification(payment, refund, { format = settings.format, signature, pad = settings.pad } = {}) {
		const order = state.orders.get(payment.orderId);
		const status = refund ? refund.paymentStatus : payment.status;
		const flat = {
			orderId: order.orderId,
			paymentId: payment.paymentId,
			...(refund ? { refundId: refund.refundId } : {}),
			status,
			receiptId: order.receiptId,
			amount: presentAmount(refund ? refund.amountMinor : payment.amountMinor, order.currency),
			signature: signature ?? signatureFor(secretOf(payment.clientId), order.orderId, payment.paymentId),
			timestamp: refund ? refund.completedAt : payment.completedAt,
			paymentDetails: paymentDetails(payment),
		};
		const event = EVENT_OF_STATUS[status];
		const body =
			format === 'wrapped'
				? {
						eventType: event,
						data: {
							...flat,
							failureReason: payment.status === 'failure' ? payment.failureReason : null,
							redirectType: order.redirectType ?? null,
							redirectUrl: payment.redirectionUrl,
						},
					}
				: flat;
		return { event, body: pad ? padStrings(body) : body };
	}

	function settle(entry, sentIn) {
		if (sentIn !== generation) return entry;
		log.push(entry);
		for (const waiter of waiters) waiter.check();
		return entry;
	}

	/** POSTs once; resolves with the log entry, whatever happened. */
	function deliver(event, url, body) {
		const text = JSON.stringify(body);
		const started = Date.now();
		const sentIn = generation;
		const entry = { time: now(), event, url, body: text, status: null, error: null, durationMs: null };
		const finish = (status, error) => {
			entry.status = status;
			entry.error = error;
			entry.durationMs = Date.now() - started;
			return settle(entry, sentIn);
		};
		return new Promise((resolve) => {
			const client = url.startsWith('https:') ? https : http;
			const req = client.request(url, {
				method: 'POST',
				agent: false,
				headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) },
			});
			inFlight.add(req);
			const timer = schedule(() => {
				req.destroy(Object.assign(new Error('Notification timed out'), { code: 'ETIMEDOUT' }));
			}, TIMEOUT_MS);
			const done = (status, error) => {
				if (!inFlight.delete(req)) return;
				cancel(timer);
				resolve(finish(status, error));
			};
			req.on('response', (res) => {
				res.resume(); // the answer's body means nothing to the gateway
				res.on('end', () => done(res.statusCode, null));
				res.on('error', (err) => done(res.statusCode, err.code ?? 'ERROR'));
			});
			req.on('error', (err) => done(null, err.code ?? 'ERROR'));
			req.end(text);
		});
	}

	function notify(payment, refund) {
		if (!settings.url) return;
		const { event, body } = notification(payment, refund);
		deliver(event, settings.url, body);
	}

	/** Sends the payment's latest notification again now, `signature` replacing the real one. */
	async function resend({ paymentId, signature, format } = {}) {
		checkSettings({ format });
		if (signature !== undefined && typeof signature !== 'string') throw new TypeError('signature must be a string');
		const payment = state.payments.get(paymentId);
		if (!payment) throw new HttpError(404, 'Payment not found');
		if (payment.status === 'pending') throw new HttpError(409, 'Payment is still pending: nothing to notify');
		if (!settings.url) throw new HttpError(409, 'No notification URL is set');
		const refund = state.refunds.get(payment.refundIds[payment.refundIds.length - 1]);
		const { event, body } = notification(payment, refund, { format, signature });
		const entry = await deliver(event, settings.url, body);
		return { status: entry.status, error: entry.error, body: entry.body };
	}

	function waitFor(count, timeoutMs = 5000) {
		return new Promise((resolve, reject) => {
			const waiter = {
				check() {
					if (log.length < count) return;
					waiters.delete(waiter);
					cancel(waiter.timer);
					resolve(log);
				},
				fail(message) {
					waiters.delete(waiter);
					cancel(waiter.timer);
					reject(new Error(message));
				},
			};
			waiters.add(waiter);
			waiter.timer = schedule(
				() => waiter.fail(`${log.length} of ${count} notifications settled within ${timeoutMs} ms`),
				timeoutMs,
			);
			waiter.check();
		});
	}

	function abandon() {
		generation += 1;
		for (const req of inFlight) req.destroy();
	}

	/** Forgets the log and the deliveries in flight; the settings stay. */
	function reset() {
		abandon();
		log.length = 0;
	}

	function close() {
		abandon();
		for (const waiter of waiters) waiter.fail('The sandbox was closed');
	}

	return {
		settings,
		log,
		configure,
		paymentCompleted: (payment) => notify(payment),
		refunded: (refund) => notify(state.payments.get(refund.paymentId), refund),
		resend,
		waitFor,
		clear: () => {
			log.length = 0;
		},
		reset,
		close,
	};
}

module.exports = { createNotifier };
