'use strict';

// What each workflow of e2e/workflows/ must do, one entry per file (by name without .json). run.js runs the workflow
// in a real n8n against the sandbox (a Manual Trigger one with `n8n execute`; a Webhook one published over REST and
// called with the entry's `webhookBody`, its outputs read from the execution n8n stored) and calls `check(t)` with:
//
//   t.out(node, n)    the JSON of every item the node output (last run, main output n, default 0; 1 is the error
//                     output of a node set to "Continue (using error output)")
//   t.one(node)       the single item's JSON (fails unless exactly one)
//   t.requests        the sandbox's log of this workflow's API requests
//   t.signatureFor(orderId, paymentId)  the status signature the gateway computes
//   await t.sandboxCards(customerId)    the customer's active stored cards, asked of the gateway after the run
//   t.response, t.execution             webhook workflows: n8n's answer { status, body }, the stored execution
//
// `expectedFailures` lists the HTTP statuses this workflow may get from the gateway (default none); any other failed
// request fails it. Besides, run.js asserts for every workflow that no node failed and that no node output holds a card number,
// CVV, expiry, the client secret or the card encryption key, and searches everything n8n stored for them.

const assert = require('node:assert/strict');

const { has } = require('./lib/check');
const assertOrderId = (value) => assert.ok(typeof value === 'string' && value.length > 0, `orderId should be a non-empty string: ${value}`);
const calls = (t) => t.requests.map((r) => `${r.method} ${r.apiPath} ${r.status}`);
const body = (request) => JSON.parse(request.body);

/** Each status node's single item: the fields of `expected`, the card network, and the gateway's signature over its ids. */
function assertStatus(t, nodes, expected, cardNetwork) {
	return nodes.map((node) => {
		const status = t.one(node);
		const signature = t.signatureFor(status.orderId, status.paymentId);
		has({ ...status, cardNetwork: status.paymentDetails?.cardNetwork }, { ...expected, cardNetwork, signature }, node);
		return status;
	});
}

module.exports = {
	'order-create': {
		runs: 'Order → Create (short path), with receipt, description and per-item header overrides',
		async check(t) {
			const order = t.one('Create Order');
			assertOrderId(order.orderId);
			assert.deepEqual(order, { amount: 25.5, currency: 'USD', orderId: order.orderId, receiptId: 'INV-E2E-0001' });

			const [request] = t.requests;
			assert.deepEqual(t.requests.map((r) => `${r.method} ${r.apiPath}`), ['POST /order'], 'one request to the gateway');
			// Options acceptLanguage and merchantIp override the headers; a fingerprint is sent without a browser.
			has(request.headers, { 'accept-language': 'de-DE', 'x-merchant-ip': '203.0.113.10' });
			assert.ok(request.headers['x-merchant-browser-fingerprint'], 'a fingerprint is sent without a browser');
			has(body(request), { uiMode: 'checkout', description: 'e2e order', customerFields: { name: 'Ann Order', email: 'ann.order@example.com', phone: '91000001' } });
		},
	},

	'order-create-checkout': {
		runs: 'Order → Create Checkout (long path), redirect type and CURN',
		async check(t) {
			const order = t.one('Create Checkout Order');
			assertOrderId(order.orderId);
			// The long path answers flat, its status included.
			has(order, { amount: 99.99, receiptId: 'CHK-E2E-0001', status: 'success' });
			assert.deepEqual(t.requests.map((r) => `${r.family} ${r.apiPath}`), ['long /nac/api/v1/pg/orders/create-checkout']);
			has(body(t.requests[0]), { redirectType: 'redirect', curn: 'curn-e2e-1', currency: 'EUR' });
		},
	},

	'transaction-initiate': {
		runs: 'Order → Create, Transaction → Initiate with a new card (stored), then with the stored card (token)',
		async check(t) {
			const order = t.one('Create Order');
			const payment = t.one('Initiate Card Payment');
			has(payment, { orderId: order.orderId, paymentStatus: 'pending', amount: 10 });
			assert.match(payment.paymentId, /\S/);
			assert.equal(payment.redirectionData?.method, 'POST');
			assert.ok(payment.redirectionData?.formData, 'redirectionData.formData for the browser');
			const { customerId, digitalCardId } = payment.securedCardDetails ?? {};
			assert.match(customerId ?? '', /\S/, 'the card is stored for a customer');
			const held = (await t.sandboxCards(customerId)).map((card) => card.digitalCardId);
			assert.deepEqual(held, [digitalCardId], 'the gateway holds the stored card under that customer');
			for (const key of ['data', 'resCode', 'status']) assert.ok(!(key in payment), `the output should not carry the envelope key "${key}"`);

			const tokenPayment = t.one('Initiate Stored Card Payment');
			has(tokenPayment, { orderId: t.one('Create Second Order').orderId, paymentStatus: 'pending', securedCardDetails: undefined }, 'a token payment stores no new card');
			assert.notEqual(tokenPayment.paymentId, payment.paymentId);

			const initiations = t.requests.filter((r) => r.apiPath === '/transaction/initiate').map(body);
			assert.equal(initiations.length, 2);
			for (const sent of initiations) {
				assert.match(sent.encryptedCardDetails, /^[0-9a-f]{32}\.[0-9a-f]+$/, 'card details travel encrypted');
				has(sent, { paymentMethod: 'card', apiType: 'hosted' });
			}
			has(initiations[0], { paymentMode: 'card', secureCard: true, skipCVVandOTP: true, skipCVVOnlyFlag: false }, 'card mode, stored, authentication none');
			has(initiations[1], { paymentMode: 'token', secureCard: false, skipCVVandOTP: false, skipCVVOnlyFlag: true }, 'token mode, OTP only');
		},
	},

	status: {
		runs: 'Status → Get by Order ID and Get by Payment ID after a settled payment; Get by Order ID of an unpaid order',
		// The gateway answers check-status of an order nobody has paid with HTTP 400 "Transaction not initiated".
		expectedFailures: [400],
		async check(t) {
			const order = t.one('Create Order');
			const payment = t.one('Initiate Payment');
			// Authentication "none" settles at once.
			const paid = { orderId: order.orderId, paymentId: payment.paymentId, status: 'success', amount: 30 };
			assertStatus(t, ['Status by Order ID', 'Status by Payment ID'], paid, 'mastercard');
			assert.equal(t.one('Status by Payment ID').resCode, undefined, 'short path: no envelope');

			// Whether the node reports it as an error item (Continue On Fail) or as data, the gateway's words reach the user.
			const unpaid = t.one('Status of Unpaid Order');
			assert.match(unpaid.errMessage ?? unpaid.error ?? '', /Transaction not initiated/);
			has(unpaid, { resCode: 400, paymentId: undefined }, 'no payment to report');

			const checkStatus = t.requests.filter((r) => r.apiPath === '/nac/api/v1/pg/orders/check-status');
			assert.equal(checkStatus.length, 2);
			assert.ok(checkStatus.every((r) => r.method === 'GET' && r.path.includes('?orderId=')));
			assert.ok(t.requests.some((r) => r.method === 'GET' && r.apiPath === `/transaction/status/${payment.paymentId}`));
		},
	},

	'digital-cards': {
		runs: 'Digital Card → Get Many, Get (2 items, concurrency 2), Delete, Get Many again (summary when empty)',
		async check(t) {
			const stored = [t.one('Store Mastercard'), t.one('Store Visa')].map((p) => p.securedCardDetails);
			const customerId = stored[0]?.customerId;
			assert.match(customerId ?? '', /\S/);
			assert.ok(stored.every((s) => s?.customerId === customerId), 'both cards stored for the same customer');

			const listed = t.out('List Cards');
			const ids = listed.map((c) => c.digitalCardId);
			assert.deepEqual([...ids].sort(), stored.map((s) => s.digitalCardId).sort(), 'one item per stored card');
			for (const card of listed) has(card, { customerId, remainingLimit: 3, status: 'ACTIVE' });
			assert.deepEqual(listed.map((c) => `${c.network} ${c.panLastFour}`).sort(), ['mastercard 8785', 'visa 1111']);

			const fetched = t.out('Get Card');
			assert.deepEqual(fetched.map((c) => c.digitalCardId), ids, 'one item per input item, paired with its input, in order');
			assert.ok(fetched.every((c) => c.customerId === customerId && c.remainingLimit === 3 && c.panLastFour));

			assert.deepEqual(t.out('Delete Card'), ids.map((digitalCardId) => ({ customerId, digitalCardId, deleted: true })));
			assert.equal(t.requests.filter((r) => r.method === 'DELETE').length, 2);
			assert.deepEqual(t.out('List Cards After Delete'), [{ customerId, remainingLimit: 5, cardCount: 0 }]);
			assert.equal((await t.sandboxCards(customerId)).length, 0, 'the sandbox holds no active card of the customer any more');
		},
	},

	'checkout-story': {
		runs: 'Create order → initiate with 3-D Secure and Secure Card → status pending → customer authenticates (sandbox control API) → status by order and payment ID → list cards → delete card',
		async check(t) {
			const order = t.one('Create Order');
			assert.equal(order.receiptId, 'STORY-0001');
			const payment = t.one('Initiate Payment');
			has(payment, { orderId: order.orderId, paymentStatus: 'pending' });
			const { customerId, digitalCardId } = payment.securedCardDetails ?? {};
			assert.match(customerId ?? '', /\S/, 'the card is stored for a customer');
			has(t.one('Status Before Authentication'), { status: 'pending', paymentId: payment.paymentId }, 'waits for the customer');
			assert.equal(t.one('Customer Authenticates').status, 'success');
			const paid = { status: 'success', orderId: order.orderId, paymentId: payment.paymentId, receiptId: 'STORY-0001' };
			assertStatus(t, ['Status by Order ID', 'Status by Payment ID'], paid, 'visa');
			has(t.one('List Stored Cards'), { digitalCardId, panLastFour: '1111', remainingLimit: 4 });
			assert.deepEqual(t.one('Delete Stored Card'), { customerId, digitalCardId, deleted: true });
			assert.equal((await t.sandboxCards(customerId)).length, 0, 'the card is gone from the gateway');
			const initiation = body(t.requests.find((r) => r.apiPath === '/transaction/initiate'));
			has(initiation, { secureCard: true, skipCVVandOTP: false, skipCVVOnlyFlag: false }, 'Secure Card with CVV and OTP');
		},
	},

	'continue-on-fail': {
		runs: 'Initiate on an order of 422.01 (fraud-rule refusal) and status of an unknown payment with Continue On Fail; get an unknown card with the error output',
		expectedFailures: [422, 404],
		async check(t) {
			t.one('Create Order');
			const failed = t.one('Initiate Payment');
			has(failed, { resCode: 422, paymentId: undefined });
			assert.match(failed.error, /Fraud-rule validation failed/);
			assert.ok(failed.description, 'advice for the user');
			const unknown = t.one('Status of Unknown Payment');
			assert.equal(unknown.resCode, 404);
			assert.match(unknown.error, /Payment not found/);

			assert.deepEqual(t.out('Get Unknown Card', 0), [], 'nothing on the success output');
			const [routed] = t.out('Get Unknown Card', 1);
			assert.match(routed?.error ?? '', /Card not found/, 'the failure goes to the error output');
			assert.match(routed.message ?? '', /^Gateway resCode 404\. /, 'the resCode said in message');
			assert.deepEqual(t.out('Card Not Found'), [routed], 'and on to the node connected there');
			const expected = ['POST /order 200', 'POST /transaction/initiate 422', 'GET /transaction/status/pay_does_not_exist 404', 'GET /customer/cus_nobody/digitalCards/dc_missing 404'];
			assert.deepEqual(calls(t), expected, 'one request each: no automatic retry of the initiation');
		},
	},

	'webhook-declined-card': {
		runs: 'Production webhook of a workflow activated over REST: order from the request body, payment with the declined test card, its status as the answer',
		webhookBody: { amount: 15, receiptId: 'HOOK-E2E-0001' },
		async check(t) {
			const order = t.one('Create Order');
			assertOrderId(order.orderId);
			has(order, { amount: 15, receiptId: 'HOOK-E2E-0001' }, 'the amount and the receipt from the request body');
			const payment = t.one('Initiate Payment');
			assert.equal(payment.orderId, order.orderId);
			// The declined card fails the payment.
			const [status] = assertStatus(t, ['Payment Status'], { paymentId: payment.paymentId, status: 'failure' }, 'visa');
			assert.deepEqual(t.response, { status: 200, body: status }, "the webhook answers with the last node's item");
			has(t.execution, { mode: 'webhook', status: 'success' });
			assert.deepEqual(calls(t), ['POST /order 200', 'POST /transaction/initiate 200', `GET /transaction/status/${payment.paymentId} 200`]);
		},
	},
};
