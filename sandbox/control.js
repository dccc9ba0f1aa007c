'use strict';

// The control API under /__sandbox: no authentication, JSON in and out, never
// logged, delayed or faulted. Each endpoint calls the same JS API tests use.

const { HttpError, parseControlJson, readBody, sendHtml, sendJson } = require('./http');
const { presentAmount } = require('./currency');
const { authenticationPage, checkoutPage, resultPage } = require('./pages');

const CONTROL_PREFIX = '/__sandbox';

/** `sandbox` is the object startSandbox resolves to; `state` the sandbox's records. */
function controlRoutes(sandbox, state) {
	function authenticate({ method, params: [paymentId], raw, path }) {
		const payment = state.payments.get(paymentId);
		if (!payment) throw new HttpError(404, 'Payment not found');
		// The auto-submitted form posts only paymentId; the buttons add a result.
		const result = new URLSearchParams(raw).get('result');
		if (method === 'POST' && result) {
			return { html: resultPage(sandbox.completeAuthentication(paymentId, result), payment.redirectionUrl) };
		}
		const order = state.orders.get(payment.orderId);
		const amount = `${presentAmount(payment.amountMinor, order.currency)} ${order.currency}`;
		return { html: authenticationPage(payment, amount, path) };
	}

	/**
	 * The hosted checkout page at `<sandbox>/__sandbox/cpbs/pg`, so that a checkoutUrl built with it as the credential's
	 * Hosted Checkout Page URL opens in a browser: Pay or Decline, then back to the redirectUrl with the paymentId.
	 */
	function hostedCheckout({ method, raw, url }) {
		const link = `${sandbox.url}${url}`;
		if (method === 'POST') return { redirect: sandbox.payCheckout(link, new URLSearchParams(raw).get('result') ?? 'success').redirectTo };
		const query = new URL(link).searchParams;
		const order = state.own(state.orders, query.get('orderId'), query.get('clientId'));
		return { html: checkoutPage(order, order && `${presentAmount(order.amountMinor, order.currency)} ${order.currency}`) };
	}

	return [
		['GET', /^\/cpbs\/pg$/, hostedCheckout],
		['POST', /^\/cpbs\/pg$/, hostedCheckout],
		['POST', /^\/payments\/([^/]+)\/complete$/, ({ params: [id], json }) =>
			sandbox.completeAuthentication(id, json().result)],
		['POST', /^\/checkout\/pay$/, ({ json }) => sandbox.payCheckout(json().checkoutUrl, json().result)],
		['GET', /^\/authenticate\/([^/]+)$/, authenticate],
		['POST', /^\/authenticate\/([^/]+)$/, authenticate],
		['POST', /^\/cards\/([^/]+)\/age$/, ({ params: [id], json }) => sandbox.ageCard(id, json().days)],
		['GET', /^\/requests$/, () => sandbox.requests],
		['DELETE', /^\/requests$/, () => (sandbox.clearLog(), { cleared: true })],
		['POST', /^\/reset$/, () => (sandbox.reset(), { reset: true })],
		['POST', /^\/latency$/, ({ json }) => (sandbox.setLatency(json().ms), { latencyMs: sandbox.latencyMs })],
		['POST', /^\/unknown-paths$/, ({ json }) => sandbox.setUnknownPathMessage(json().message)],
		['GET', /^\/capacity$/, () => sandbox.capacity],
		['POST', /^\/capacity$/, ({ json }) => sandbox.setCapacity(json())],
		['GET', /^\/faults$/, () => ({ faults: sandbox.faults })],
		['POST', /^\/faults$/, ({ json }) => (sandbox.injectFault(json()), { faults: sandbox.faults })],
		['DELETE', /^\/faults$/, () => (sandbox.clearFaults(), { faults: sandbox.faults })],
		['GET', /^\/notifications$/, () => sandbox.notifications],
		['POST', /^\/notifications$/, ({ json }) => sandbox.setNotifications(json())],
		['DELETE', /^\/notifications$/, () => (sandbox.clearNotifications(), { cleared: true })],
		['POST', /^\/notifications\/send$/, ({ json }) => sandbox.sendNotification(json())],
	];
}

function createControlHandler(sandbox, state) {
	const routes = controlRoutes(sandbox, state);
	return async function handleControl(req, res, pathname) {
		const rest = pathname.slice(CONTROL_PREFIX.length);
		const raw = (await readBody(req)).toString('utf8');
		try {
			for (const [method, pattern, handler] of routes) {
				const m = pattern.exec(rest);
				if (!m || method !== req.method) continue;
				const params = m.slice(1).map(decodeURIComponent);
				const json = () => parseControlJson(raw);
				const answer = await handler({ method: req.method, params, raw, path: pathname, url: req.url, json });
				if (answer?.redirect !== undefined) sendHtml(res, 303, '', { Location: answer.redirect });
				else if (answer?.html !== undefined) sendHtml(res, 200, answer.html);
				else sendJson(res, 200, answer);
				return;
			}
			throw new HttpError(404, 'No such control endpoint');
		} catch (err) {
			if (err instanceof HttpError) sendJson(res, err.status, { error: err.message });
			else if (err instanceof TypeError || err instanceof URIError) sendJson(res, 400, { error: err.message });
			else throw err;
		}
	};
}

module.exports = { CONTROL_PREFIX, createControlHandler };
