'use strict';

// The trigger check: the Payment Gateway Trigger in a real n8n, on the production webhook of a workflow activated
// over REST, receiving the sandbox gateway's notifications. `npm run e2e:trigger`.
//
// Installs the packed package into a fresh user folder (.e2e/trigger/user), starts the sandbox and `n8n start`,
// creates and activates the workflows of e2e/trigger/ (the trigger followed by a Set node, and two helpers that pay
// and refund through the Payment Gateway node), points the sandbox's notifications at the trigger's production URL,
// then checks what each kind of notification does. Prints PASS/FAIL lines, then the leak search over what n8n stored.
//
// Environment: E2E_SKIP_INSTALL=1 and E2E_SKIP_BUILD=1 as for npm run e2e.

const fs = require('node:fs');
const path = require('node:path');

const { startSandbox } = require('../sandbox/gateway');
const { secretsToFind, findLeaks, printLeaks } = require('./lib/leaks');
const { createN8n } = require('./lib/n8n');
const { paths, preparePackage } = require('./lib/package');
const { onCleanUp, runCheck } = require('./lib/processes');
const { createReport, StepFailed } = require('./lib/report');
const { nodeItems, post, RestSession, webhookPathOf } = require('./lib/rest');

const USER_FOLDER = path.join(paths.ROOT, '.e2e', 'trigger', 'user');
const WORKFLOW_DIR = path.join(__dirname, 'trigger');
const CREDENTIAL = { id: 'pgSandboxCred001', name: 'Payment Gateway sandbox', type: 'paymentGatewayApi' };
const TRIGGER = 'Payment Gateway Trigger';
const AFTER_TRIGGER = 'Received';

const report = createReport();
const { check, must } = report;
const log = (message) => console.log(`trigger: ${message}`);

const load = (name) => JSON.parse(fs.readFileSync(path.join(WORKFLOW_DIR, `${name}.json`), 'utf8'));

/** Creates and activates a workflow over REST; resolves once its production webhook is live, with { id, url }. */
async function deploy(server, session, workflow, stored) {
	const created = await session.createWorkflow(workflow);
	stored.push({ ...workflow, id: created.id });
	await session.activateWorkflow(created.id);
	const url = server.webhookUrl(webhookPathOf(workflow));
	await session.waitForWebhook(url);
	return { id: created.id, url };
}

/**
 * The checks of one notification that must start exactly one more execution: what the sandbox heard back, the
 * execution count, and the emitted item (returned; also passed through the Set node).
 */
async function expectOneExecution(t, label, delivery) {
	check(delivery?.status === 200, `${label}: the trigger answers the gateway 200`, `sandbox log: ${delivery?.status} ${delivery?.error ?? ''}`);
	t.expected += 1;
	const executions = await t.session.settledExecutions(t.trigger.id, t.expected);
	must(executions.length === t.expected, `${label}: exactly one execution more (${t.expected} in all)`, `${executions.length} executions`);
	const runData = await t.session.runData(executions[0].id);
	const emitted = nodeItems(runData, TRIGGER);
	must(emitted.length === 1, `${label}: the trigger emits one item`, `${emitted.length} items`);
	const [after] = nodeItems(runData, AFTER_TRIGGER);
	check(after?.orderId === emitted[0].orderId && Boolean(after?.receivedAt), `${label}: the item reaches the next node`);
	check(executions[0].status === 'success' && executions[0].mode === 'webhook', `${label}: the execution succeeded (mode webhook)`, `${executions[0].status}, ${executions[0].mode}`);
	return emitted[0];
}

/** Notifications that must start nothing: the count stays where it was. */
async function expectNoExecution(t, label) {
	const executions = await t.session.settledExecutions(t.trigger.id, t.expected, { quietMs: 2000 });
	check(executions.length === t.expected, `${label}: no execution started`, `${executions.length} executions, ${t.expected} expected`);
}

/** What a verified item holds: the gateway's status, the notification's claim beside it, the right ids. */
function checkVerified(label, item, { orderId, paymentId, status }) {
	check(item.orderId === orderId, `${label}: orderId is the order's`, `${item.orderId}`);
	check(item.paymentId === paymentId, `${label}: paymentId is the payment's`, `${item.paymentId}`);
	check(item.statusVerified === true, `${label}: statusVerified true (status re-checked with the gateway)`, `${item.statusVerified}`);
	check(item.status === status, `${label}: status "${status}"`, `"${item.status}"`);
	check(item.notifiedStatus === status && item.statusMismatch === false, `${label}: the notification's claim agrees`, `notifiedStatus "${item.notifiedStatus}", statusMismatch ${item.statusMismatch}`);
}

/** A pending card payment made through n8n (the helper workflow), completed by the customer in the sandbox. */
async function payAndComplete(t, { amount, receiptId, result }) {
	const paid = await post(t.pay.url, { amount, receiptId });
	must(paid.status === 200 && paid.json?.paymentStatus === 'pending', `${receiptId}: a card payment of ${amount} USD through n8n, pending`, `HTTP ${paid.status} ${paid.text.slice(0, 200)}`);
	const before = t.sandbox.notifications.length;
	t.sandbox.completeAuthentication(paid.json.paymentId, result);
	const [delivery] = (await t.sandbox.waitForNotifications(before + 1, 15_000)).slice(before);
	return { ...paid.json, delivery };
}

async function refund(t, paymentId, amount) {
	const before = t.sandbox.notifications.length;
	const refunded = await post(t.refund.url, { paymentId, amount });
	must(refunded.status === 200 && Boolean(refunded.json?.refundId), `refund of ${amount} USD through n8n (Transaction → Refund)`, `HTTP ${refunded.status} ${refunded.text.slice(0, 200)}`);
	const [delivery] = (await t.sandbox.waitForNotifications(before + 1, 15_000)).slice(before);
	return { ...refunded.json, delivery };
}

async function checkNotifications(t) {
	console.log('\nflat notifications');
	t.sandbox.setNotifications({ url: t.trigger.url, format: 'flat', pad: false });
	const paid = await payAndComplete(t, { amount: 25.5, receiptId: 'TRG-0001', result: 'success' });
	const item = await expectOneExecution(t, 'completed payment', paid.delivery);
	checkVerified('completed payment', item, { orderId: paid.orderId, paymentId: paid.paymentId, status: 'success' });
	const recheck = t.sandbox.requests.filter((r) => r.apiPath === '/nac/api/v1/pg/orders/check-status' && r.path.includes(encodeURIComponent(paid.orderId)));
	check(recheck.length === 1 && recheck[0].status === 200, 'completed payment: the trigger asked check-status of the order once', `${recheck.length} requests`);

	const forged = await t.sandbox.sendNotification({ paymentId: paid.paymentId, signature: 'f'.repeat(64) });
	const forgedLog = t.sandbox.notifications[t.sandbox.notifications.length - 1];
	check(forged.status === 401 && forgedLog.status === 401, 'forged signature (sandbox notifications/send): 401 in the sandbox log', `answered ${forged.status}, logged ${forgedLog.status}`);
	await expectNoExecution(t, 'forged signature');
	const unsigned = JSON.parse(forged.body);
	delete unsigned.signature;
	const missing = await post(t.trigger.url, unsigned);
	check(missing.status === 401, 'notification without a signature: 401', `HTTP ${missing.status}`);

	for (const [label, body] of [
		['a body without orderId and paymentId', { status: 'success', amount: 25.5, signature: 'f'.repeat(64) }],
		['a wrapped body without ids', { eventType: 'TRANSACTION_COMPLETED', data: { status: 'success' } }],
		['a JSON array', '[]'],
	]) {
		const res = await post(t.trigger.url, body);
		check(res.status === 400, `${label}: 400`, `HTTP ${res.status} ${res.text.slice(0, 120)}`);
	}
	await expectNoExecution(t, 'bodies without ids');

	const partial = await refund(t, paid.paymentId, 5.5);
	const partialItem = await expectOneExecution(t, 'partial refund (flat)', partial.delivery);
	check(partialItem.refundId === partial.refundId, 'partial refund (flat): refundId is the refund\'s', `${partialItem.refundId}`);
	checkVerified('partial refund (flat)', partialItem, { orderId: paid.orderId, paymentId: paid.paymentId, status: 'partially_refunded' });

	console.log('\nwrapped notifications, values padded with spaces');
	t.sandbox.setNotifications({ format: 'wrapped', pad: true });
	const failed = await payAndComplete(t, { amount: 12, receiptId: 'TRG-0002', result: 'failure' });
	const failedItem = await expectOneExecution(t, 'failed payment (wrapped)', failed.delivery);
	checkVerified('failed payment (wrapped)', failedItem, { orderId: failed.orderId, paymentId: failed.paymentId, status: 'failure' });
	check(failedItem.eventType === 'TRANSACTION_FAILED', 'failed payment (wrapped): eventType kept, trimmed', `"${failedItem.eventType}"`);
	check(failedItem.failureReason === 'Customer authentication failed', 'failed payment (wrapped): the flat item holds data\'s fields', `"${failedItem.failureReason}"`);

	const rest = await refund(t, paid.paymentId, 20);
	const refundedItem = await expectOneExecution(t, 'full refund (wrapped)', rest.delivery);
	checkVerified('full refund (wrapped)', refundedItem, { orderId: paid.orderId, paymentId: paid.paymentId, status: 'refunded' });
	check(refundedItem.eventType === 'REFUND_SUCCESS' && refundedItem.refundId === rest.refundId, 'full refund (wrapped): eventType REFUND_SUCCESS, refundId', `${refundedItem.eventType}, ${refundedItem.refundId}`);

	const forgedWrapped = await t.sandbox.sendNotification({ paymentId: failed.paymentId, signature: 'a'.repeat(64) });
	check(forgedWrapped.status === 401, 'forged signature (wrapped): 401', `answered ${forgedWrapped.status}`);
	await expectNoExecution(t, 'forged wrapped notification');
}

async function main() {
	let n8n;
	let sandbox;
	const stored = [];
	try {
		await preparePackage(USER_FOLDER, { log });
		sandbox = await startSandbox({ port: 0 });
		onCleanUp(() => sandbox.close());
		log(`sandbox gateway on ${sandbox.url}`);

		n8n = await createN8n({ userFolder: USER_FOLDER, log });
		await n8n.importCredentials([{ ...CREDENTIAL, data: sandbox.credentialData() }]);
		const server = await n8n.start();
		const session = new RestSession(server.url);
		await session.setupOwner();
		const t = { sandbox, session, expected: 0 };
		t.trigger = await deploy(server, session, load('notifications'), stored);
		t.pay = await deploy(server, session, load('pay'), stored);
		t.refund = await deploy(server, session, load('refund'), stored);
		report.pass(`workflows created and activated over REST; the trigger's production URL answers ${t.trigger.url}`);

		await checkNotifications(t);
		check(sandbox.notifications.every((entry) => entry.error === null), 'every notification reached n8n');
	} catch (error) {
		if (!(error instanceof StepFailed)) report.fail(`unexpected error: ${error?.stack ?? error}`);
	}

	if (n8n?.server) {
		await n8n.stop();
		console.log('\nleaks: secrets and card data in what n8n stored (database, logs, files in .n8n)');
		const secrets = secretsToFind({
			clients: [sandbox.clients.active, sandbox.clients.inactive],
			cardEncryptionKey: sandbox.cardEncryptionKey,
			workflows: stored,
		});
		check(printLeaks(await findLeaks(n8n, { secrets, workflows: stored })), `leaks: ${secrets.length} secrets searched for`);
	}
	return report.summary('trigger e2e');
}

runCheck(main);
