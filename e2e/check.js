'use strict';

// Expectations for the workflows in e2e/workflows/, one entry per file (by name
// without .json). e2e/run.js runs each workflow in a real n8n against the
// sandbox gateway and calls `check(t)` with:
//
// A workflow that starts with a Manual Trigger runs with `n8n execute`. One
// that starts with a Webhook node is created and activated over REST in a
// running n8n and runs when run.js POSTs the entry's `webhookBody` to its
// production URL; its node outputs come from the execution n8n stored.
//
//   t.out(node, n)    the JSON of every item the node output (last run, main output n, default 0;
//                     1 is the error output of a node set to "Continue (using error output)")
//   t.one(node)       the single item's JSON (fails unless exactly one)
//   t.ran(node)       whether the node ran at all
//   t.requests        the sandbox's log of this workflow's API requests
//   t.sandbox         the running sandbox (its defaults and state)
//   t.signatureFor(orderId, paymentId)  the status signature the gateway computes
//   await t.sandboxCards(customerId)  the customer's active stored cards, asked of the
//                     gateway directly after the run
//   t.response        webhook workflows: n8n's answer to the POST, { status, body }
//   t.execution       webhook workflows: the stored execution ({ mode, status, ... })
//
// `expectedFailures` lists the HTTP statuses this workflow may get from the
// gateway; any other failed API request fails the workflow. Beyond the checks
// below, run.js asserts for every workflow that no node failed and that no node
// output holds a card number, CVV, expiry, the client secret or the card
// encryption key, and searches everything n8n stored for them (lib/leaks.js).

const assert = require('node:assert/strict');

const ORDER_KEYS = ['orderId', 'receiptId', 'amount', 'currency'];

function assertNoEnvelope(json, node) {
	for (const key of ['data', 'resCode', 'status']) {
		assert.ok(!(key in json), `${node}: output should not carry the envelope key "${key}"`);
	}
}

function assertOrderId(value, node) {
	assert.equal(typeof value, 'string', `${node}: orderId should be a string`);
	assert.ok(value.length > 0, `${node}: orderId should not be empty`);
}

module.exports = {
	'order-create': {
		runs: 'Order → Create (short path), with receipt, description and per-item header overrides',
		expectedFailures: [],
		async check(t) {
			const order = t.one('Create Order');
			assertOrderId(order.orderId, 'Create Order');
			assert.deepEqual(Object.keys(order).sort(), [...ORDER_KEYS].sort());
			assert.equal(order.amount, 25.5);
			assert.equal(order.currency, 'USD');
			assert.equal(order.receiptId, 'INV-E2E-0001');

			assert.equal(t.requests.length, 1, 'one request to the gateway');
			const [request] = t.requests;
			assert.equal(request.method, 'POST');
			assert.equal(request.apiPath, '/order');
			assert.equal(request.headers['accept-language'], 'de-DE', 'option acceptLanguage overrides the header');
			assert.equal(request.headers['x-merchant-ip'], '203.0.113.10', 'option merchantIp overrides the header');
			assert.ok(request.headers['x-merchant-browser-fingerprint'], 'a fingerprint is sent without a browser');
			const body = JSON.parse(request.body);
			assert.equal(body.uiMode, 'checkout');
			assert.equal(body.description, 'e2e order');
			assert.deepEqual(body.customerFields, { name: 'Ann Order', email: 'ann.order@example.com', phone: '91000001' });
		},
	},

	'order-create-checkout': {
		runs: 'Order → Create Checkout (long path), redirect type and CURN',
		expectedFailures: [],
		async check(t) {
			const order = t.one('Create Checkout Order');
			assertOrderId(order.orderId, 'Create Checkout Order');
			assert.equal(order.amount, 99.99);
			assert.equal(order.receiptId, 'CHK-E2E-0001');
			assert.equal(order.status, 'success', 'the long path answers flat, status included');

			assert.equal(t.requests.length, 1);
			const [request] = t.requests;
			assert.equal(request.family, 'long');
			assert.equal(request.apiPath, '/nac/api/v1/pg/orders/create-checkout');
			const body = JSON.parse(request.body);
			assert.equal(body.redirectType, 'redirect');
			assert.equal(body.curn, 'curn-e2e-1');
			assert.equal(body.currency, 'EUR');
		},
	},

	'transaction-initiate': {
		runs: 'Order → Create, Transaction → Initiate with a new card (stored), then with the stored card (token)',
		expectedFailures: [],
		async check(t) {
			const order = t.one('Create Order');
			const payment = t.one('Initiate Card Payment');
			assert.equal(payment.orderId, order.orderId);
			assert.match(payment.paymentId, /\S/);
			assert.equal(payment.paymentStatus, 'pending');
			assert.equal(payment.amount, 10);
			assert.equal(payment.redirectionData?.method, 'POST');
			assert.ok(payment.redirectionData?.formData, 'redirectionData.formData for the browser');
			const { customerId, digitalCardId } = payment.securedCardDetails ?? {};
			assert.match(customerId ?? '', /\S/, 'the card is stored for a customer');
			assert.deepEqual(
				(await t.sandboxCards(customerId)).map((card) => card.digitalCardId),
				[digitalCardId],
				'the gateway holds the stored card under that customer',
			);
			assertNoEnvelope(payment, 'Initiate Card Payment');

			const second = t.one('Create Second Order');
			const tokenPayment = t.one('Initiate Stored Card Payment');
			assert.equal(tokenPayment.orderId, second.orderId);
			assert.notEqual(tokenPayment.paymentId, payment.paymentId);
			assert.equal(tokenPayment.paymentStatus, 'pending');
			assert.equal(tokenPayment.securedCardDetails, undefined, 'a token payment stores no new card');

			const initiations = t.requests.filter((r) => r.apiPath === '/transaction/initiate');
			assert.equal(initiations.length, 2);
			for (const request of initiations) {
				const body = JSON.parse(request.body);
				assert.match(body.encryptedCardDetails, /^[0-9a-f]{32}\.[0-9a-f]+$/, 'card details travel encrypted');
				assert.equal(body.paymentMethod, 'card');
				assert.equal(body.apiType, 'hosted');
			}
			const [cardBody, tokenBody] = initiations.map((r) => JSON.parse(r.body));
			assert.deepEqual(
				[cardBody.paymentMode, cardBody.secureCard, cardBody.skipCVVandOTP, cardBody.skipCVVOnlyFlag],
				['card', true, true, false],
				'card mode, stored, authentication none',
			);
			assert.deepEqual(
				[tokenBody.paymentMode, tokenBody.secureCard, tokenBody.skipCVVandOTP, tokenBody.skipCVVOnlyFlag],
				['token', false, false, true],
				'token mode, OTP only',
			);
		},
	},

	status: {
		runs: 'Status → Get by Order ID and Get by Payment ID after a settled payment; Get by Order ID of an unpaid order',
		// The gateway answers check-status of an order nobody has paid with HTTP 400 "Transaction not initiated".
		expectedFailures: [400],
		async check(t) {
			const order = t.one('Create Order');
			const payment = t.one('Initiate Payment');
			for (const node of ['Status by Order ID', 'Status by Payment ID']) {
				const status = t.one(node);
				assert.equal(status.orderId, order.orderId, `${node}: orderId`);
				assert.equal(status.paymentId, payment.paymentId, `${node}: paymentId`);
				assert.equal(status.status, 'success', `${node}: authentication "none" settles at once`);
				assert.equal(status.amount, 30, `${node}: amount`);
				assert.equal(status.paymentDetails?.cardNetwork, 'mastercard', `${node}: card network`);
				assert.equal(status.signature, t.signatureFor(status.orderId, status.paymentId), `${node}: signature`);
			}
			assert.equal(t.one('Status by Payment ID').resCode, undefined, 'short path: no envelope');

			// Whether the node reports it as an error item (Continue On Fail) or as data, the gateway's words reach the user.
			const unpaid = t.one('Status of Unpaid Order');
			assert.match(unpaid.errMessage ?? unpaid.error ?? '', /Transaction not initiated/);
			assert.equal(unpaid.resCode, 400);
			assert.equal(unpaid.paymentId, undefined, 'no payment to report');

			const checkStatus = t.requests.filter((r) => r.apiPath === '/nac/api/v1/pg/orders/check-status');
			assert.equal(checkStatus.length, 2);
			assert.ok(checkStatus.every((r) => r.method === 'GET' && r.path.includes('?orderId=')));
			assert.ok(t.requests.some((r) => r.method === 'GET' && r.apiPath === `/transaction/status/${payment.paymentId}`));
		},
	},

	'digital-cards': {
		runs: 'Digital Card → Get Many, Get (2 items, concurrency 2), Delete, Get Many again (summary when empty)',
		expectedFailures: [],
		async check(t) {
			const stored = [t.one('Store Mastercard'), t.one('Store Visa')].map((p) => p.securedCardDetails);
			const customerId = stored[0]?.customerId;
			assert.match(customerId ?? '', /\S/);
			assert.ok(stored.every((s) => s?.customerId === customerId), 'both cards stored for the same customer');

			const listed = t.out('List Cards');
			assert.equal(listed.length, 2, 'one item per stored card');
			assert.deepEqual(
				listed.map((c) => c.digitalCardId).sort(),
				stored.map((s) => s.digitalCardId).sort(),
			);
			for (const card of listed) {
				assert.equal(card.customerId, customerId);
				assert.equal(card.remainingLimit, 3);
				assert.equal(card.status, 'ACTIVE');
			}
			assert.deepEqual(listed.map((c) => `${c.network} ${c.panLastFour}`).sort(), ['mastercard 8785', 'visa 1111']);

			const fetched = t.out('Get Card');
			assert.equal(fetched.length, 2, 'one item per input item');
			assert.deepEqual(
				fetched.map((c) => c.digitalCardId),
				listed.map((c) => c.digitalCardId),
				'outputs paired with their inputs, in order',
			);
			assert.ok(fetched.every((c) => c.customerId === customerId && c.remainingLimit === 3 && c.panLastFour));

			const deleted = t.out('Delete Card');
			assert.deepEqual(
				deleted,
				listed.map((c) => ({ customerId, digitalCardId: c.digitalCardId, deleted: true })),
			);
			assert.equal(t.requests.filter((r) => r.method === 'DELETE').length, 2);

			assert.deepEqual(t.out('List Cards After Delete'), [{ customerId, remainingLimit: 5, cardCount: 0 }]);
			const cards = await t.sandboxCards(customerId);
			assert.equal(cards.length, 0, 'the sandbox holds no active card of the customer any more');
		},
	},

	'checkout-story': {
		runs:
			'Create order → initiate with 3-D Secure and Secure Card → status pending → customer authenticates (sandbox control API) → status by order and payment ID → list cards → delete card',
		expectedFailures: [],
		async check(t) {
			const order = t.one('Create Order');
			assert.equal(order.receiptId, 'STORY-0001');
			const payment = t.one('Initiate Payment');
			assert.equal(payment.orderId, order.orderId);
			assert.equal(payment.paymentStatus, 'pending');
			const customerId = payment.securedCardDetails?.customerId;
			assert.match(customerId ?? '', /\S/, 'the card is stored for a customer');

			const before = t.one('Status Before Authentication');
			assert.equal(before.status, 'pending', 'waits for the customer');
			assert.equal(before.paymentId, payment.paymentId);

			const completed = t.one('Customer Authenticates');
			assert.equal(completed.status, 'success');

			const byOrder = t.one('Status by Order ID');
			const byPayment = t.one('Status by Payment ID');
			for (const [node, status] of [
				['Status by Order ID', byOrder],
				['Status by Payment ID', byPayment],
			]) {
				assert.equal(status.status, 'success', `${node}: paid`);
				assert.equal(status.orderId, order.orderId, `${node}: orderId`);
				assert.equal(status.paymentId, payment.paymentId, `${node}: paymentId`);
				assert.equal(status.receiptId, 'STORY-0001', `${node}: receiptId`);
				assert.equal(status.paymentDetails?.cardNetwork, 'visa', `${node}: network`);
				assert.equal(status.signature, t.signatureFor(order.orderId, payment.paymentId), `${node}: signature`);
			}

			const cards = t.out('List Stored Cards');
			assert.equal(cards.length, 1);
			assert.equal(cards[0].digitalCardId, payment.securedCardDetails.digitalCardId);
			assert.equal(cards[0].panLastFour, '1111');
			assert.equal(cards[0].remainingLimit, 4);

			assert.deepEqual(t.one('Delete Stored Card'), {
				customerId,
				digitalCardId: payment.securedCardDetails.digitalCardId,
				deleted: true,
			});
			assert.equal((await t.sandboxCards(customerId)).length, 0, 'the card is gone from the gateway');

			const initiation = JSON.parse(t.requests.find((r) => r.apiPath === '/transaction/initiate').body);
			assert.deepEqual(
				[initiation.secureCard, initiation.skipCVVandOTP, initiation.skipCVVOnlyFlag],
				[true, false, false],
				'Secure Card with CVV and OTP',
			);
		},
	},

	'continue-on-fail': {
		runs:
			'Initiate on an order of 422.01 (fraud-rule refusal) and status of an unknown payment with Continue On Fail; get an unknown card with the error output',
		expectedFailures: [422, 404],
		async check(t) {
			t.one('Create Order');
			const failed = t.one('Initiate Payment');
			assert.equal(failed.resCode, 422);
			assert.match(failed.error, /Fraud-rule validation failed/);
			assert.ok(failed.description, 'advice for the user');
			assert.equal(failed.paymentId, undefined);

			const unknown = t.one('Status of Unknown Payment');
			assert.equal(unknown.resCode, 404);
			assert.match(unknown.error, /Payment not found/);

			assert.deepEqual(t.out('Get Unknown Card', 0), [], 'nothing on the success output');
			const [routed] = t.out('Get Unknown Card', 1);
			assert.match(routed?.error ?? '', /Card not found/, 'the failure goes to the error output');
			assert.match(routed.message ?? '', /^Gateway resCode 404\. /, 'the resCode said in message');
			assert.deepEqual(t.out('Card Not Found'), [routed], 'and on to the node connected there');

			assert.deepEqual(
				t.requests.map((r) => `${r.method} ${r.apiPath} ${r.status}`),
				[
					'POST /order 200',
					'POST /transaction/initiate 422',
					'GET /transaction/status/pay_does_not_exist 404',
					'GET /customer/cus_nobody/digitalCards/dc_missing 404',
				],
				'one request each: no automatic retry of the initiation',
			);
		},
	},

	'webhook-declined-card': {
		runs:
			'Production webhook of a workflow activated over REST: order from the request body, payment with the declined test card, its status as the answer',
		webhookBody: { amount: 15, receiptId: 'HOOK-E2E-0001' },
		expectedFailures: [],
		async check(t) {
			const order = t.one('Create Order');
			assertOrderId(order.orderId, 'Create Order');
			assert.equal(order.amount, 15, 'the amount from the request body');
			assert.equal(order.receiptId, 'HOOK-E2E-0001', 'the receipt from the request body');
			const payment = t.one('Initiate Payment');
			assert.equal(payment.orderId, order.orderId);

			const status = t.one('Payment Status');
			assert.equal(status.paymentId, payment.paymentId);
			assert.equal(status.status, 'failure', 'the declined card fails the payment');
			assert.equal(status.paymentDetails?.cardNetwork, 'visa');
			assert.equal(status.signature, t.signatureFor(status.orderId, status.paymentId));
			assert.deepEqual(t.response, { status: 200, body: status }, 'the webhook answers with the last node\'s item');
			assert.deepEqual([t.execution.mode, t.execution.status], ['webhook', 'success']);

			assert.deepEqual(
				t.requests.map((r) => `${r.method} ${r.apiPath} ${r.status}`),
				['POST /order 200', 'POST /transaction/initiate 200', `GET /transaction/status/${payment.paymentId} 200`],
			);
		},
	},
};
