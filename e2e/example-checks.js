'use strict';

// What each example workflow of examples/ must do in a real n8n against the sandbox, judged by its outcome: the HTTP
// answer a customer gets, what the gateway holds afterwards, which branch an item took. Called by e2e/examples.js in
// this order (later checks use what earlier ones created) with a context `t`:
//
//   t.report                      PASS/FAIL lines (lib/report.js)
//   t.sandbox, t.n8n, t.session   the sandbox, n8n (lib/n8n.js), a REST session while n8n runs
//   t.examples                    { <name>: workflow } as in examples/
//   t.urls                        production URLs of the activated examples, by name
//   t.orders                      filled in here: the orders and payments made, by role
//   t.requestCards                filled in here: card data sent in requests (for the leak search)

const { customerIdFor } = require('../sandbox/state');
const { withCodeList, withSetField } = require('./lib/examples');
const { gatewayRequest, storedCards } = require('./lib/gateway');
const { nodeItems, post } = require('./lib/rest');

/** The credential's Hosted Checkout Page URL in this check: any address will do, nobody opens it. */
const CHECKOUT_PAGE = 'https://pay.example.com/cpbs/pg';
const RETURN_URL = 'https://shop.example.com/payment/done';
const CUSTOMER = { name: 'Cara Card', email: 'cara.card@example.com', phone: '91000201' };
const CHECK_STATUS = '/nac/api/v1/pg/orders/check-status';

/**
 * The card payments, by the role each plays later (notifications, reconciliation, clean-up). Valid numbers other
 * than the sandbox's documented test cards, and CVVs and expiries no example mentions, so that the leak search
 * cannot mistake the examples' own text for them.
 */
const PAYMENTS = {
	paid: { amount: '25.50', receiptId: 'EX-CARD-0001', cardNumber: '4242424242424242', cardExpMonth: '08', cardExpYear: '30', cardCVV: '321', saveCard: 'on' },
	failed: { amount: '30.00', receiptId: 'EX-CARD-0002', cardNumber: '5555555555554444', cardExpMonth: '11', cardExpYear: '29', cardCVV: '654', saveCard: 'on' },
	pending: { amount: '12.00', receiptId: 'EX-CARD-0003', cardNumber: '4000056655665556', cardExpMonth: '10', cardExpYear: '31', cardCVV: '987' },
	refunded: { amount: '10.00', receiptId: 'EX-CARD-0004', cardNumber: '4012888888881881', cardExpMonth: '09', cardExpYear: '32', cardCVV: '468' },
};
// Passes every format check but the check digit: the node refuses it before anything is sent.
const REFUSED = { amount: '5.00', receiptId: 'EX-CARD-0005', cardNumber: '4242424242424241', cardExpMonth: '07', cardExpYear: '30', cardCVV: '135' };

/** A browser's form post, as a shop's page sends it. */
const postForm = (url, fields) =>
	post(url, new URLSearchParams(fields).toString(), { contentType: 'application/x-www-form-urlencoded' });

const requestsTo = (sandbox, apiPath, since = 0) => sandbox.requests.slice(since).filter((r) => r.apiPath === apiPath);

async function checkout(t) {
	const { check, must } = t.report;
	console.log('\ncheckout.json: a checkout form posted to the production webhook');
	const res = await postForm(t.urls.checkout, {
		amount: '49.90',
		currency: 'USD',
		receiptId: 'EX-CHK-0001',
		name: 'Chet Checkout',
		email: 'chet.checkout@example.com',
		phone: '91000202',
	});
	must(res.status === 303 && res.headers.get('location'), 'checkout: the customer gets 303 See Other with a Location', `HTTP ${res.status} ${res.text.slice(0, 200)}`);
	const location = new URL(res.headers.get('location'));
	const query = location.searchParams;
	check(`${location.origin}${location.pathname}` === CHECKOUT_PAGE, 'checkout: Location is the hosted checkout page', location.href);
	check(query.get('actionType') === 'checkout', 'checkout: actionType=checkout', query.get('actionType'));
	check(query.get('clientId') === t.sandbox.clients.active.clientId, 'checkout: clientId is the credential\'s', query.get('clientId'));
	check(query.get('redirectUrl') === RETURN_URL, 'checkout: redirectUrl is the shop\'s return page', query.get('redirectUrl'));

	const orderId = query.get('orderId');
	const [execution] = await t.session.settledExecutions(t.examples.checkout.id, 1);
	const [created] = nodeItems(await t.session.runData(execution.id), 'Create Checkout');
	check(
		created?.orderId === orderId && created.receiptId === 'EX-CHK-0001' && created.amount === 49.9,
		'checkout: orderId is the order Create Checkout made (receipt EX-CHK-0001, 49.9)',
		JSON.stringify(created),
	);
	const [request] = requestsTo(t.sandbox, '/nac/api/v1/pg/orders/create-checkout');
	const sent = JSON.parse(request?.body ?? '{}');
	check(
		sent.redirectType === 'redirect' && sent.currency === 'USD' && sent.customerFields?.email === 'chet.checkout@example.com',
		'checkout: the form\'s fields reached the gateway',
		request?.body,
	);
	const status = await gatewayRequest(t.sandbox, 'GET', CHECK_STATUS, { family: 'long', query: `?orderId=${encodeURIComponent(orderId)}` });
	check(status.status === 400 && status.body.errMessage === 'Transaction not initiated', 'checkout: the gateway holds that order, not paid yet', JSON.stringify(status));
	t.orders.unpaid = { orderId, receiptId: 'EX-CHK-0001' };
}

async function payByCard(t, label, fields) {
	const given = `in the request of ${label} to card-payment.json`;
	const { cardNumber, cardCVV, cardExpMonth, cardExpYear } = fields;
	t.requestCards.push({ given, cardNumber, cardCVV, cardExpMonth, cardExpYear });
	return postForm(t.urls['card-payment'], { currency: 'USD', ...CUSTOMER, cardHolderName: CUSTOMER.name, ...fields });
}

async function cardPayment(t) {
	const { check, must } = t.report;
	console.log('\ncard-payment.json: payment forms with card data posted to the production webhook');
	for (const [role, fields] of Object.entries(PAYMENTS)) {
		const label = `${fields.receiptId} (${role})`;
		const since = t.sandbox.requests.length;
		const res = await payByCard(t, label, fields);
		const paymentId = /name="paymentId" value="(PAY[0-9A-F]{32})"/.exec(res.text)?.[1];
		must(
			res.status === 200 && /^text\/html/.test(res.headers.get('content-type') ?? '') && Boolean(paymentId),
			`card payment ${label}: 200 text/html with the gateway's form for a payment`,
			`HTTP ${res.status} ${res.headers.get('content-type')} ${res.text.slice(0, 200)}`,
		);
		check(
			res.text.includes(`${t.sandbox.url}/__sandbox/authenticate/${paymentId}`) && res.text.includes('document.forms[0].submit()'),
			`card payment ${label}: the form submits itself to the card authentication`,
		);
		const record = await gatewayRequest(t.sandbox, 'GET', `/transaction/status/${paymentId}`);
		check(
			record.status === 200 && record.body.data.paymentStatus === 'pending' && record.body.data.amount === Number(fields.amount),
			`card payment ${label}: the gateway holds the payment, pending, ${Number(fields.amount)} USD`,
			JSON.stringify(record.body),
		);
		const [initiation] = requestsTo(t.sandbox, '/transaction/initiate', since);
		const sent = JSON.parse(initiation?.body ?? '{}');
		check(
			sent.secureCard === (fields.saveCard === 'on') && /^[0-9a-f]{32}\.[0-9a-f]+$/.test(sent.encryptedCardDetails ?? '') && !initiation.body.includes(fields.cardNumber),
			`card payment ${label}: card sent encrypted only, Secure Card ${fields.saveCard === 'on' ? 'on' : 'off'}`,
		);
		t.orders[role] = { orderId: record.body.data.orderId, paymentId, receiptId: fields.receiptId };
	}

	const since = t.sandbox.requests.length;
	const refused = await payByCard(t, `${REFUSED.receiptId} (invalid card)`, REFUSED);
	check(
		refused.status === 422 && /could not be started/.test(refused.text) && /check digit/.test(refused.text) && !refused.text.includes(REFUSED.cardNumber),
		'card payment with an invalid card number: 422 error page naming the problem, not the card',
		`HTTP ${refused.status} ${refused.text.slice(0, 200)}`,
	);
	check(requestsTo(t.sandbox, '/transaction/initiate', since).length === 0, 'invalid card: nothing sent to /transaction/initiate');

	const stored = await t.session.settledExecutions(t.examples['card-payment'].id, 0);
	check(stored.length === 0, 'card-payment.json: n8n kept no execution (the workflow saves none)', `${stored.length} stored`);
}

/** Completes a payment in the sandbox; resolves with the notification's delivery. */
async function complete(t, payment, result) {
	const before = t.sandbox.notifications.length;
	t.sandbox.completeAuthentication(payment.paymentId, result);
	return (await t.sandbox.waitForNotifications(before + 1, 15_000))[before];
}

async function notifications(t) {
	const { check, must } = t.report;
	console.log('\nnotifications.json: the sandbox notifies the trigger\'s production URL');
	const id = t.examples.notifications.id;
	const outcome = async (label, delivery, count) => {
		check(delivery.status === 200, `${label}: the trigger answers the gateway 200`, `${delivery.status} ${delivery.error ?? ''}`);
		const executions = await t.session.settledExecutions(id, count);
		must(executions.length === count, `${label}: one execution`, `${executions.length} executions, ${count} expected`);
		const runData = await t.session.runData(executions[0].id);
		return { paid: nodeItems(runData, 'Mark Order Paid'), followUp: nodeItems(runData, 'Follow Up') };
	};

	t.sandbox.setNotifications({ url: t.urls.notifications, format: 'flat', pad: false });
	const { paid, failed, refunded } = t.orders;
	const success = await outcome('completed payment (flat)', await complete(t, paid, 'success'), 1);
	check(
		success.paid.length === 1 && success.paid[0].orderId === paid.orderId && success.paid[0].orderStatus === 'paid' && success.followUp.length === 0,
		'completed payment: succeeded branch, order marked paid',
		JSON.stringify(success),
	);

	t.sandbox.setNotifications({ format: 'wrapped' });
	const failure = await outcome('failed payment (wrapped)', await complete(t, failed, 'failure'), 2);
	check(
		failure.followUp.length === 1 &&
			failure.followUp[0].orderId === failed.orderId &&
			failure.followUp[0].reason === 'Customer authentication failed' &&
			failure.paid.length === 0,
		'failed payment: failed branch, order marked for follow-up with the reason',
		JSON.stringify(failure),
	);

	await outcome('completed payment (wrapped)', await complete(t, refunded, 'success'), 3);
	const before = t.sandbox.notifications.length;
	const refund = await gatewayRequest(t.sandbox, 'POST', '/transaction/refund', { body: { paymentId: refunded.paymentId, amount: 10 } });
	must(refund.status === 200, 'refund of a paid order (gateway API)', JSON.stringify(refund.body));
	const [delivery] = (await t.sandbox.waitForNotifications(before + 1, 15_000)).slice(before);
	check(delivery.status === 200, 'refund notification: the trigger answers the gateway 200', `${delivery.status}`);
	const executions = await t.session.settledExecutions(id, 3, { quietMs: 2000 });
	check(executions.length === 3, 'refund notification: no execution (Outcomes: Succeeded and Failed)', `${executions.length} executions`);
}

async function executeExample(t, workflow, label) {
	await t.n8n.importWorkflows([workflow]);
	const result = await t.n8n.execute(workflow.id);
	const runData = result.run?.data?.resultData?.runData;
	const tail = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-15).join('\n');
	t.report.must(result.code === 0 && Boolean(runData), `${label}: n8n execute ran it (exit ${result.code})`, tail);
	return runData;
}

async function reconciliation(t) {
	const { check } = t.report;
	console.log('\nreconciliation.json: the orders made above, and one the gateway does not know, fed through "Orders To Check"');
	const unknown = { orderId: 'wb-00000000-0000-4000-8000-00000000dead', receiptId: 'EX-UNKNOWN' };
	const { paid, failed, unpaid, pending, refunded } = t.orders;
	const orders = [paid, failed, unpaid, pending, refunded, unknown].map(({ orderId, receiptId }) => ({ orderId, receiptId }));
	const since = t.sandbox.requests.length;
	const workflow = withCodeList(t.examples.reconciliation, 'Orders To Check', 'orders', orders);
	const runData = await executeExample(t, workflow, 'reconciliation');

	check(nodeItems(runData, 'Check Status').length === orders.length, `reconciliation: one status per order (${orders.length})`);
	check(requestsTo(t.sandbox, CHECK_STATUS, since).length === orders.length, 'reconciliation: one check-status request per order');
	const paidIds = nodeItems(runData, 'Paid').map((item) => item.orderId);
	check(JSON.stringify(paidIds) === JSON.stringify([paid.orderId]), 'reconciliation: only the paid order passes', JSON.stringify(paidIds));
	const flagged = nodeItems(runData, 'Flag Order');
	const expected = [
		[failed, 'failure', 'payment failure'],
		[unpaid, 'failure', 'Transaction not initiated'],
		[pending, 'pending', 'payment pending'],
		[refunded, 'refunded', 'payment refunded'],
		[unknown, 'unknown', 'Order not found'],
	].map(([order, status, reason]) => ({ orderId: order.orderId, receiptId: order.receiptId, status, reason, flagged: true }));
	check(
		JSON.stringify(flagged) === JSON.stringify(expected),
		'reconciliation: failed, unpaid, pending, refunded and unknown orders flagged with their reasons',
		JSON.stringify(flagged),
	);
}

async function cardCleanup(t) {
	const { check, must } = t.report;
	console.log('\ncard-cleanup.json: the customer of the card payments, one of the two stored cards aged 200 days');
	const customerId = customerIdFor(CUSTOMER);
	const cards = await storedCards(t.sandbox, customerId);
	must(cards.length === 2, 'card clean-up: the customer has two stored cards (Secure Card payments above)', `${cards.length}`);
	const old = cards.find((card) => card.panLastFour === PAYMENTS.paid.cardNumber.slice(-4));
	const recent = cards.find((card) => card !== old);
	t.sandbox.ageCard(old.digitalCardId, 200);

	const dryRun = withCodeList(t.examples['card-cleanup'], 'Customers', 'customers', [{ customerId }]);
	let since = t.sandbox.requests.length;
	let runData = await executeExample(t, dryRun, 'card clean-up, dry run');
	const listed = nodeItems(runData, 'Would Delete');
	check(
		listed.length === 1 && listed[0].digitalCardId === old.digitalCardId && listed[0].customerId === customerId && listed[0].action === 'would delete (dry run)',
		'dry run: outputs exactly the old card as what it would delete',
		JSON.stringify(listed),
	);
	check(!runData['Delete Card'], 'dry run: Delete Card does not run');
	check(t.sandbox.requests.slice(since).every((r) => r.method !== 'DELETE'), 'dry run: no DELETE sent to the gateway');
	check((await storedCards(t.sandbox, customerId)).length === 2, 'dry run: the gateway still holds both cards');

	since = t.sandbox.requests.length;
	runData = await executeExample(t, withSetField(dryRun, 'Settings', 'dryRun', false), 'card clean-up, dryRun false');
	check(
		JSON.stringify(nodeItems(runData, 'Delete Card')) === JSON.stringify([{ customerId, digitalCardId: old.digitalCardId, deleted: true }]),
		'real run: Delete Card deletes exactly the old card',
		JSON.stringify(nodeItems(runData, 'Delete Card')),
	);
	check(!runData['Would Delete'], 'real run: nothing goes to Would Delete');
	const deletes = t.sandbox.requests.slice(since).filter((r) => r.method === 'DELETE');
	check(deletes.length === 1 && deletes[0].apiPath.endsWith(`/${old.digitalCardId}`), 'real run: one DELETE, of the old card');
	const left = (await storedCards(t.sandbox, customerId)).map((card) => card.digitalCardId);
	check(JSON.stringify(left) === JSON.stringify([recent.digitalCardId]), 'real run: the gateway keeps only the recent card', JSON.stringify(left));
}

module.exports = { CHECKOUT_PAGE, checkout, cardPayment, notifications, reconciliation, cardCleanup };
