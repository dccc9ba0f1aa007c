'use strict';

// The trigger check, `npm run e2e:trigger`: the Payment Gateway Trigger in a real n8n, on the production webhook of a
// workflow activated over REST (the trigger, then a Set node), fed by the sandbox's notifications of payments and
// refunds made through two helper workflows (e2e/trigger/). Then the leak search over what n8n stored.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');

const { has, searchLeaks, setUp, startN8n, story } = require('./lib/check');
const { notified } = require('./lib/gateway');
const { paths } = require('./lib/package');
const { nodeItems, post } = require('./lib/rest');

const USER_FOLDER = path.join(paths.ROOT, '.e2e', 'trigger', 'user');
const load = (name) => JSON.parse(fs.readFileSync(path.join(__dirname, 'trigger', `${name}.json`), 'utf8'));

const s = { stored: [], expected: 0 };
const { step, check, log } = story('trigger');

/** A notification that must start exactly one more execution; resolves with the trigger's item. */
async function oneExecution(delivery) {
	assert.equal(delivery?.status, 200, `the trigger answers the gateway 200 (${delivery?.error ?? ''})`);
	s.expected += 1;
	const executions = await s.session.settledExecutions(s.trigger.id, s.expected);
	assert.equal(executions.length, s.expected, 'exactly one execution more');
	const runData = await s.session.runData(executions[0].id);
	const emitted = nodeItems(runData, 'Payment Gateway Trigger');
	assert.equal(emitted.length, 1, 'the trigger emits one item');
	const [after] = nodeItems(runData, 'Received');
	assert.ok(after?.orderId === emitted[0].orderId && after.receivedAt, 'the item reaches the next node');
	has(executions[0], { status: 'success', mode: 'webhook' });
	return emitted[0];
}

async function noExecution() {
	const executions = await s.session.settledExecutions(s.trigger.id, s.expected, { quietMs: 2000 });
	assert.equal(executions.length, s.expected, 'no execution started');
}

/** A verified item: the gateway's status, the notification's claim agreeing beside it, the right ids. */
function assertVerified(item, { orderId, paymentId, status }) {
	has(item, { orderId, paymentId, statusVerified: true, status, notifiedStatus: status, statusMismatch: false });
}

/** A card payment made through n8n (the helper workflow), pending, then completed by the customer in the sandbox. */
async function payAndComplete(amount, receiptId, result) {
	const paid = await post(s.pay.url, { amount, receiptId });
	assert.ok(paid.status === 200 && paid.json?.paymentStatus === 'pending', `a pending card payment through n8n: HTTP ${paid.status} ${paid.text.slice(0, 200)}`);
	return notified(s.sandbox, () => (s.sandbox.completeAuthentication(paid.json.paymentId, result), paid.json));
}

/** Transaction → Refund through n8n (the other helper workflow). */
const refund = (paymentId, amount) =>
	notified(s.sandbox, async () => {
		const refunded = await post(s.refund.url, { paymentId, amount });
		assert.ok(refunded.status === 200 && refunded.json?.refundId, `refund through n8n: HTTP ${refunded.status} ${refunded.text.slice(0, 200)}`);
		return refunded.json;
	});

step("the packed package in n8n, the trigger and two helper workflows published over REST, the trigger's URL live", async () => {
	await setUp(s, USER_FOLDER, { log });
	await startN8n(s);
	for (const name of ['notifications', 'pay', 'refund']) {
		const deployed = await s.session.deploy(load(name), s.server);
		s.stored.push(deployed.stored);
		s[name === 'notifications' ? 'trigger' : name] = deployed;
	}
	log(`the trigger's production URL: ${s.trigger.url}`);
});

step('flat: a completed payment starts one execution, its status verified with one check-status of the order', async () => {
	s.sandbox.setNotifications({ url: s.trigger.url, format: 'flat', pad: false });
	s.paid = await payAndComplete(25.5, 'TRG-0001', 'success');
	assertVerified(await oneExecution(s.paid.delivery), { orderId: s.paid.orderId, paymentId: s.paid.paymentId, status: 'success' });
	const rechecks = s.sandbox.requests.filter((r) => r.apiPath === '/nac/api/v1/pg/orders/check-status' && r.path.includes(encodeURIComponent(s.paid.orderId)));
	assert.deepEqual(rechecks.map((r) => r.status), [200]);
});

step('a forged signature (sandbox notifications/send) and a notification without one: 401, no execution', async () => {
	const forged = await s.sandbox.sendNotification({ paymentId: s.paid.paymentId, signature: 'f'.repeat(64) });
	assert.deepEqual([forged.status, s.sandbox.notifications.at(-1).status], [401, 401], 'answered and logged');
	await noExecution();
	const unsigned = JSON.parse(forged.body);
	delete unsigned.signature;
	assert.equal((await post(s.trigger.url, unsigned)).status, 401);
});

step('a body without orderId and paymentId, a wrapped one without ids, a JSON array: 400, no execution', async () => {
	for (const body of [{ status: 'success', amount: 25.5, signature: 'f'.repeat(64) }, { eventType: 'TRANSACTION_COMPLETED', data: { status: 'success' } }, '[]']) {
		const res = await post(s.trigger.url, body);
		assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text.slice(0, 120)}`);
	}
	await noExecution();
});

step('flat: a partial refund starts one execution, with its refundId and status partially_refunded', async () => {
	const partial = await refund(s.paid.paymentId, 5.5);
	const item = await oneExecution(partial.delivery);
	assert.equal(item.refundId, partial.refundId);
	assertVerified(item, { orderId: s.paid.orderId, paymentId: s.paid.paymentId, status: 'partially_refunded' });
});

step("wrapped, values padded with spaces: a failed payment's item holds data's fields, its eventType trimmed", async () => {
	s.sandbox.setNotifications({ format: 'wrapped', pad: true });
	s.failed = await payAndComplete(12, 'TRG-0002', 'failure');
	const item = await oneExecution(s.failed.delivery);
	assertVerified(item, { orderId: s.failed.orderId, paymentId: s.failed.paymentId, status: 'failure' });
	has(item, { eventType: 'TRANSACTION_FAILED', failureReason: 'Customer authentication failed' });
});

step('wrapped: the full refund starts one execution (REFUND_SUCCESS, its refundId); a forged one: 401, no execution', async () => {
	const rest = await refund(s.paid.paymentId, 20);
	const item = await oneExecution(rest.delivery);
	assertVerified(item, { orderId: s.paid.orderId, paymentId: s.paid.paymentId, status: 'refunded' });
	has(item, { eventType: 'REFUND_SUCCESS', refundId: rest.refundId });
	const forged = await s.sandbox.sendNotification({ paymentId: s.failed.paymentId, signature: 'a'.repeat(64) });
	assert.equal(forged.status, 401);
	await noExecution();
});

check('every notification reached n8n', () => {
	assert.deepEqual(s.sandbox.notifications.filter((entry) => entry.error !== null), []);
});

test('leaks: secrets and card data in what n8n stored (database, logs, files in .n8n)', async (t) => {
	if (!s.n8n) return t.skip('n8n did not run');
	await searchLeaks(s.n8n, s.sandbox, { workflows: s.stored });
});
