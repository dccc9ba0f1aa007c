'use strict';

// The trigger check, `npm run e2e:trigger`: the Payment Gateway Trigger in a real n8n, on the production webhook of a
// workflow activated over REST (the trigger, then a Set node), fed by the sandbox's notifications of payments and
// refunds made through two helper workflows (e2e/trigger/). Then an attacker's notifications (a signature proves two
// ids, nothing else) and a gateway's repeats, also to two more triggers that start only on Succeeded or Refunded.
// Then the leak search over what n8n stored.

const assert = require('node:assert/strict');
const path = require('node:path');

const { has, leakTest, setUp, startN8n, story } = require('./lib/check');
const { DECLINED_CARD, cardPayment, inPool, notificationOf, notified, postAtOnce, settledPayment, statusPath, unpaidOrder } = require('./lib/gateway');
const { paths } = require('./lib/package');
const { nodeItems, post } = require('./lib/rest');

const USER_FOLDER = path.join(paths.WORK, 'trigger', 'user');
const load = (name) => structuredClone(require(`./trigger/${name}.json`));

const s = { stored: [], counts: {} };
const { step, check, log } = story('trigger');

/** The trigger workflow again, under its own URL (n8n gives it its own id), starting only on these outcomes. */
function filtered(webhookId, outcomes) {
	const workflow = load('notifications');
	workflow.name = `${workflow.name} (${outcomes.join(', ')} only)`;
	Object.assign(workflow.nodes[0], { webhookId, parameters: { ...workflow.nodes[0].parameters, outcomes } });
	return workflow;
}

/**
 * Waits until the workflow has exactly `added` executions more (none other coming within 2 s); the trigger's item of
 * each new one, newest first.
 */
async function started(workflow, added) {
	s.counts[workflow.id] = (s.counts[workflow.id] ?? 0) + added;
	const executions = await s.session.settledExecutions(workflow.id, s.counts[workflow.id], { quietMs: 2000 });
	assert.equal(executions.length, s.counts[workflow.id], `${workflow.name}: ${added} execution(s) more`);
	return Promise.all(
		executions.slice(0, added).map(async (execution) => {
			has(execution, { status: 'success', mode: 'webhook' });
			const runData = await s.session.runData(execution.id);
			const emitted = nodeItems(runData, 'Payment Gateway Trigger');
			assert.equal(emitted.length, 1, 'the trigger emits one item');
			const [after] = nodeItems(runData, 'Received');
			assert.ok(after?.orderId === emitted[0].orderId && after.receivedAt, 'the item reaches the next node');
			return emitted[0];
		}),
	);
}

/** A notification that must start exactly one more execution; resolves with the trigger's item. */
async function oneExecution(delivery) {
	assert.equal(delivery?.status, 200, `the trigger answers the gateway 200 (${delivery?.error ?? ''})`);
	return (await started(s.trigger, 1))[0];
}

const noExecution = (workflow = s.trigger) => started(workflow, 0);

/** Posts the body to the three triggers; each must answer 200. */
const toEveryTrigger = (body) => postAtOnce([s.trigger.url, s.ship.url, s.refunds.url], [body]);

/** What the gateway confirms of a payment: a notification's claims never take these names. */
const CONFIRMED = ['status', 'amount', 'currency', 'receiptId'];

/** A verified item: the gateway's status, the notification's claim agreeing beside it, the right ids. */
function assertVerified(item, { orderId, paymentId, status }) {
	has(item, { orderId, paymentId, statusVerified: true, status, notifiedStatus: status, statusMismatch: false });
}

/** The trigger's re-checks of one payment the sandbox has logged. */
const readsOf = (paymentId) => s.sandbox.requests.filter((r) => r.apiPath === statusPath(paymentId));

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
	const ship = filtered('2b4c6f0e-51d8-4e0a-9a5b-7f3c1d2e8a90', ['succeeded']);
	const refunds = filtered('6d1e9b27-3c4a-4f5e-8b70-a2c9e4d1f366', ['refunded']);
	for (const [name, workflow] of Object.entries({ trigger: load('notifications'), pay: load('pay'), refund: load('refund'), verify: load('verify'), ship, refunds })) {
		s[name] = await s.session.deploy(workflow, s.server);
		s.stored.push(s[name].stored);
	}
	log(`the trigger's production URL: ${s.trigger.url}`);
});

step('flat: a completed payment starts one execution, confirmed by one read of that payment by its id', async () => {
	s.sandbox.setNotifications({ url: s.trigger.url, format: 'flat', pad: false });
	s.paid = await payAndComplete(25.5, 'TRG-0001', 'success');
	const item = await oneExecution(s.paid.delivery);
	assertVerified(item, { orderId: s.paid.orderId, paymentId: s.paid.paymentId, status: 'success' });
	has(item, { amount: 25.5, currency: 'USD', receiptId: 'TRG-0001', notifiedAmount: 25.5 });
	assert.deepEqual(readsOf(s.paid.paymentId).map((r) => r.status), [200]);
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

step('a replayed signature with a forged amount and receipt: the gateway’s amount and receipt, the forgery only as claims', async () => {
	s.sandbox.setNotifications({ url: null });
	const genuine = await settledPayment(s.sandbox, { amount: 25.5, receiptId: 'TRG-0101' });
	const forged = { ...genuine, amount: 9999.99, receiptId: 'INV-VICTIM-9999' };
	await toEveryTrigger(forged);
	const [item] = await started(s.trigger, 1);
	has(item, { status: 'success', amount: 25.5, currency: 'USD', receiptId: 'TRG-0101', statusVerified: true });
	has(item, { notifiedAmount: 9999.99, notifiedReceiptId: 'INV-VICTIM-9999' });
	for (const name of CONFIRMED) {
		for (const forged of [9999.99, 'INV-VICTIM-9999']) assert.notEqual(item[name], forged, `${name} is not the forged ${forged}`);
	}
	has((await started(s.ship, 1))[0], { amount: 25.5, receiptId: 'TRG-0101' });
	await noExecution(s.refunds);
});

step('a fake refund (a paid payment re-sent as REFUND_SUCCESS): not Refunded; the success it is', async () => {
	const genuine = await settledPayment(s.sandbox, { amount: 30, receiptId: 'TRG-0102' });
	await toEveryTrigger({ eventType: 'REFUND_SUCCESS', data: { ...genuine, refundId: 'RFD-FAKE', status: 'refunded' } });
	has((await started(s.trigger, 1))[0], { status: 'success', notifiedStatus: 'refunded', statusVerified: true });
	await started(s.ship, 1);
	await noExecution(s.refunds);
});

step('an unconfirmed claim (the re-check answered 503): neither Succeeded nor Refunded; emitted unconfirmed', async () => {
	const declined = await settledPayment(s.sandbox, { amount: 12, receiptId: 'TRG-0103', declined: true });
	// Three triggers, each re-checking once and retrying three times (Max Retries' default).
	s.sandbox.injectFault({ match: statusPath(declined.paymentId), status: 503, retryAfter: 0, count: 12 });
	await toEveryTrigger({ ...declined, status: 'success', refundId: 'RFD-1' });
	const [item] = await started(s.trigger, 1);
	has(item, { statusVerified: false, notifiedStatus: 'success' });
	assert.equal(item.recheckError?.resCode, 503);
	s.unconfirmed = 1; // not remembered as handled
	for (const name of CONFIRMED) assert.equal(item[name], undefined, `no ${name}`);
	await noExecution(s.ship);
	await noExecution(s.refunds);
});

step('a second payment of the same order: the declined first one claimed as paid is its own failure', async () => {
	const orderId = await unpaidOrder(s.sandbox, { amount: 40, receiptId: 'TRG-0104' });
	const first = await notificationOf(s.sandbox, (await cardPayment(s.sandbox, orderId, { card: DECLINED_CARD })).paymentId);
	const second = await notificationOf(s.sandbox, (await cardPayment(s.sandbox, orderId)).paymentId);
	assert.deepEqual([first.status, second.status], ['failure', 'success']);
	await toEveryTrigger({ ...first, status: 'success' });
	has((await started(s.trigger, 1))[0], { paymentId: first.paymentId, status: 'failure', statusVerified: true });
	await noExecution(s.ship);
	await noExecution(s.refunds);
});

step('three repeats in a row: one execution, every one answered 200', async () => {
	const genuine = await settledPayment(s.sandbox, { receiptId: 'TRG-0201' });
	for (let delivery = 0; delivery < 3; delivery++) {
		assert.equal((await post(s.trigger.url, genuine)).status, 200);
		if (delivery === 0) await started(s.trigger, 1);
	}
	await noExecution();
});

step('three identical at the very same moment: one execution', async () => {
	const genuine = await settledPayment(s.sandbox, { receiptId: 'TRG-0202' });
	await postAtOnce([s.trigger.url], [genuine, genuine, genuine]);
	const items = await started(s.trigger, 1);
	log(`three identical notifications at the same moment started ${items.length} execution`);
});

step('ten different at once, then each again at once: ten executions, then none', async () => {
	const payments = await Promise.all(Array.from({ length: 10 }, (_, index) => settledPayment(s.sandbox, { receiptId: `TRG-03${index}` })));
	await postAtOnce([s.trigger.url], payments);
	const items = await started(s.trigger, 10);
	assert.deepEqual(items.map((item) => item.paymentId).sort(), payments.map((payment) => payment.paymentId).sort());
	await postAtOnce([s.trigger.url], payments);
	await noExecution();
	log('ten different notifications at once: 10 executions; their ten repeats at once: 0');
});

/** The trigger's static data as n8n saved it. */
const savedStore = async () => (await s.session.data('GET', `/rest/workflows/${s.trigger.id}`)).staticData?.['node:Payment Gateway Trigger'] ?? {};

step('a customer replaying a partial refund’s signature with 50 made-up refundIds: no execution, the store unchanged', async () => {
	s.sandbox.setNotifications({ url: s.trigger.url, format: 'flat', pad: false });
	s.replayed = await payAndComplete(25.5, 'TRG-0401', 'success');
	await oneExecution(s.replayed.delivery);
	const partial = await refund(s.replayed.paymentId, 1);
	has(await oneExecution(partial.delivery), { status: 'partially_refunded', statusVerified: true });
	s.sandbox.setNotifications({ url: null });
	const genuine = { ...(await notificationOf(s.sandbox, s.replayed.paymentId)), eventType: 'REFUND_SUCCESS', status: 'partially_refunded' };
	const before = { store: JSON.stringify(await savedStore()), reads: readsOf(s.replayed.paymentId).length };
	const statuses = await inPool(Array.from({ length: 50 }, (_, index) => index), 10, async (index) => (await post(s.trigger.url, { ...genuine, refundId: `RFD-MADE-UP-${index}`, amount: 0.01 })).status);
	assert.deepEqual([...new Set(statuses)], [200]);
	await noExecution();
	const reads = readsOf(s.replayed.paymentId).length - before.reads;
	assert.ok(reads <= 10, `${reads} reads for 50 replays`);
	assert.equal(JSON.stringify(await savedStore()), before.store, 'the replays left the store as it was');
	log(`50 replays with made-up refundIds: 0 executions, ${reads} gateway reads, the store unchanged`);
});

step('1,000 replays with made-up claims, 50 at a time, against a gateway serving 2 at once: a genuine notification of another payment is confirmed', async () => {
	const paymentId = s.replayed.paymentId;
	const genuine = await settledPayment(s.sandbox, { amount: 19.5, receiptId: 'TRG-0402' });
	const replay = { ...(await notificationOf(s.sandbox, paymentId)), eventType: 'REFUND_SUCCESS', status: 'partially_refunded' };
	const before = readsOf(paymentId).length;
	const genuineBefore = readsOf(genuine.paymentId).length;
	s.sandbox.setCapacity({ serves: 2, beyond: 'refuse', retryAfter: 1 });
	const startedAt = Date.now();
	const statuses = await inPool(Array.from({ length: 1000 }, (_, index) => index), 50, async (index) => {
		if (index === 500) assert.equal((await post(s.trigger.url, genuine)).status, 200);
		return (await post(s.trigger.url, { ...replay, refundId: `RFD-FLOOD-${index}`, timestamp: `made-up-${index}` })).status;
	}).finally(() => s.sandbox.setCapacity(null));
	const seconds = (Date.now() - startedAt) / 1000;
	assert.deepEqual([...new Set(statuses)], [200]);
	const [item] = await started(s.trigger, 1);
	has(item, { paymentId: genuine.paymentId, status: 'success', statusVerified: true });
	const reads = readsOf(paymentId).length - before;
	const refused = s.sandbox.requests.filter((r) => r.fault === 'capacity').length;
	assert.ok(reads <= 10, `${reads} reads for 1,000 replays`);
	const genuineReads = readsOf(genuine.paymentId).length - genuineBefore;
	log(`1,000 replays (50 at a time) in ${seconds.toFixed(1)} s (${Math.round(1000 / seconds)} a second): 1 execution (the genuine notification of another payment, confirmed), ${reads} reads of the replayed payment (${(reads / 1000).toFixed(3)} a delivery), ${genuineReads} of the genuine one, ${refused} refused by the gateway's capacity`);
});

step('one signed record posted 50 times, 10 at a time, to a Webhook → Verify Signature workflow against a gateway serving 2 at once: few reads, repeat from the 2nd; a genuine notification meanwhile is confirmed', async () => {
	s.sandbox.setNotifications({ url: null });
	const record = await settledPayment(s.sandbox, { amount: 31.5, receiptId: 'TRG-0403' });
	const genuine = await settledPayment(s.sandbox, { amount: 12.5, receiptId: 'TRG-0404' });
	const before = readsOf(record.paymentId).length;
	const genuineBefore = readsOf(genuine.paymentId).length;
	s.sandbox.setCapacity({ serves: 2, beyond: 'refuse', retryAfter: 1 });
	let postedAt;
	const statuses = await inPool(Array.from({ length: 50 }, (_, index) => index), 10, async (index) => {
		if (index === 25) {
			postedAt = performance.now();
			assert.equal((await post(s.trigger.url, genuine)).status, 200);
		}
		return (await post(s.verify.url, record)).status;
	}).finally(() => s.sandbox.setCapacity(null));
	assert.deepEqual([...new Set(statuses)], [200]);
	const [item] = await started(s.trigger, 1);
	has(item, { paymentId: genuine.paymentId, status: 'success', statusVerified: true });
	const executions = await s.session.settledExecutions(s.verify.id, 50, { quietMs: 2000 });
	assert.equal(executions.length, 50, '50 executions of the verifying workflow');
	const outputs = await Promise.all(executions.map(async (execution) => nodeItems(await s.session.runData(execution.id), 'Verify Signature')[0]));
	for (const output of outputs) has(output, { paymentId: record.paymentId, signatureValid: true, statusVerified: true, status: 'success' });
	const repeats = outputs.filter((output) => output.repeat === true).length;
	assert.equal(repeats, 49, 'every record after the first is a repeat');
	const reads = readsOf(record.paymentId).length - before;
	assert.ok(reads <= 5, `${reads} reads for 50 records`);
	const [genuineRead] = readsOf(genuine.paymentId).slice(genuineBefore).filter((request) => request.status === 200);
	const delay = (genuineRead.closedAtMs - postedAt) / 1000;
	const refused = s.sandbox.requests.filter((request) => request.fault === 'capacity').length;
	log(`50 posts of one signed record (10 at a time) to Verify Signature: ${reads} gateway reads (${(reads / 50).toFixed(2)} a record), repeat true on ${repeats} of 50 (false on the first); the genuine notification posted meanwhile confirmed ${delay.toFixed(2)} s after it was posted (its read answered), ${refused} requests refused by the gateway's capacity`);
});

check("what n8n keeps for repeats: the trigger's static data, 17 characters per handled notification", async () => {
	// Payments that moved money and the rest are kept apart, one string each.
	const store = await savedStore();
	const kept = (store.handledNotifications ?? '') + (store.handledUnpaidNotifications ?? '');
	assert.equal(typeof store.handledNotifications, 'string', `the store: ${JSON.stringify(store).slice(0, 200)}`);
	assert.equal(kept.length % 17, 0);
	// One entry per confirmed state of a payment, so per confirmed execution; none lost to concurrent saves.
	const entries = s.counts[s.trigger.id] - (s.unconfirmed ?? 0);
	assert.equal(kept.length / 17, entries, 'one entry per confirmed execution, none lost to concurrent saves');
	log(`the workflow's static data holds ${kept.length / 17} handled notifications in ${kept.length} characters`);
});

check('every notification reached n8n', () => {
	assert.deepEqual(s.sandbox.notifications.filter((entry) => entry.error !== null), []);
});

leakTest(s, () => ({ workflows: s.stored }));
