'use strict';

// The queue-mode check, `npm run e2e:queue`: the packed package in n8n's queue mode (lib/queue.js: PostgreSQL, Redis,
// main, two workers at concurrency 1, a webhook processor), against the sandbox. Three workflows are published over
// REST on main and started through the webhook processor, which enqueues their executions for the workers:
//   1. a reconciliation of 300 orders in every state, 6 executions of 50 at once at 50 ms gateway latency, Status →
//      Get by Order ID at Concurrency 10: once to warm up, 3 times timed, and at the end 3 times on one worker;
//   2. the checkout story: order, payment, authentication in the sandbox, status, refund, status;
//   3. the Payment Gateway Trigger receiving 50 notifications of payments completed in the sandbox, then repeats of
//      them through the webhook processor: the 50 again, 10 new ones at once then again, and identical ones at once;
//   4. the MCP Server Trigger on the webhook processor: a refund tool's Maximum Total per Day across both workers.
// Which worker ran which execution is read from their logs (queue/where-ran.js). Then the leak search over PostgreSQL,
// the logs and the files. The sandbox's orders and payments are made beforehand with signed requests straight to it,
// so that n8n's executions are all that is timed.

const { execFileSync } = require('node:child_process');
const assert = require('node:assert/strict');
const path = require('node:path');
const { test } = require('node:test');

const { SANDBOX_CREDENTIAL, searchLeaks, setUp, startN8n, story } = require('./lib/check');
const { nodeOf } = require('./lib/examples');
const { call, cardPayment, DECLINED_CARD, inPool, notificationOf, postAtOnce, settledPayment, unpaidOrder } = require('./lib/gateway');
const { paths, requireFromN8n } = require('./lib/package');
const queue = require('./lib/queue');
const { seconds, sleep } = require('./lib/processes');
const { nodeItems, post } = require('./lib/rest');
const { refundsIn } = require('./lib/tools');
const { heldAtStop, whereRan } = require('./queue/where-ran');
const { closeClient, connectClient, PATH: MCP_PATH, resultText, TRIGGER: MCP_TRIGGER, toolName, workflow: mcpWorkflow } = require('./mcp/workflow');

const USER_FOLDER = path.join(paths.WORK, 'queue', 'user');
const ORDERS = 300;
const EXECUTIONS = 6;
const LATENCY_MS = 50;
const NOTIFICATIONS = 50;
const DECLINED = 10;
// Timed reconciliations per number of workers: the machine is shared, so their median is reported.
const ROUNDS = 3;
const [FIRST, ...OTHERS] = queue.WORKERS;
/**
 * What a reconciliation must report for each order, in turn: its payment's status; `unpaid` for an order without a
 * payment (the gateway's "Transaction not initiated", as data); `error 404` for one the gateway does not know (an
 * error item, with Continue On Fail).
 */
const KINDS = ['success', 'success', 'success', 'success', 'failure', 'pending', 'unpaid', 'refunded', 'partially_refunded', 'error 404'];
const CUSTOMER = { name: 'Rae Queue', email: 'rae.queue@example.com', phone: '91000043' };

const load = (name) => require(`./queue/${name}.json`);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const s = { times: { two: [], one: [] } };
const { step, check, log } = story('queue');

/** What one output item of Status → Get by Order ID reports, in the terms of KINDS. */
function kindOf(item) {
	if (item.error !== undefined) return `error ${item.resCode}`;
	return /not initiated/i.test(item.errMessage ?? '') ? 'unpaid' : item.status;
}

/** `count` orders in the states of KINDS, in turn: [{ orderId, receiptId, expected }]. */
const seedOrders = (sandbox, count) =>
	inPool([...Array(count).keys()], 10, async (index) => {
		const expected = KINDS[index % KINDS.length];
		const receiptId = `RECON-${index}`;
		if (expected === 'error 404') return { orderId: `wb-00000000-0000-4000-8000-${String(index).padStart(12, '0')}`, receiptId, expected };
		const orderId = await unpaidOrder(sandbox, { amount: 20, receiptId, customer: CUSTOMER });
		if (expected !== 'unpaid') {
			const card = expected === 'failure' ? DECLINED_CARD : undefined;
			const { paymentId } = await cardPayment(sandbox, orderId, { card, settle: expected !== 'pending', holder: CUSTOMER.name });
			if (expected === 'refunded' || expected === 'partially_refunded') {
				await call(sandbox, '/transaction/refund', { paymentId, amount: expected === 'refunded' ? 20 : 5 });
			}
		}
		return { orderId, receiptId, expected };
	});

/**
 * The reconciliation: examples/reconciliation.json, its Schedule and Manual Triggers giving way to the Webhook of
 * queue/reconciliation.json (a schedule cannot start six runs at once), its order list to the code reading the
 * request's `orders`.
 */
function reconciliationWorkflow() {
	const own = load('reconciliation');
	const example = structuredClone(require(path.join(paths.ROOT, 'examples', 'reconciliation.json')));
	const triggers = new Set(example.nodes.filter((node) => /trigger$/i.test(node.type)).map((node) => node.name));
	const webhook = own.nodes.find((node) => node.type === 'n8n-nodes-base.webhook');
	nodeOf(example, 'Orders To Check').parameters = nodeOf(own, 'Orders To Check').parameters;
	const nodes = [webhook, ...example.nodes.filter((node) => !triggers.has(node.name))];
	const connections = Object.fromEntries(Object.entries(example.connections).filter(([from]) => !triggers.has(from)));
	return { ...example, id: own.id, nodes, connections: { ...connections, [webhook.name]: own.connections[webhook.name] } };
}

/** A workflow as published: the sandbox's address filled in, every Payment Gateway credential the check's. */
function prepared(workflow) {
	const filled = JSON.parse(JSON.stringify(workflow).split('__SANDBOX_URL__').join(s.sandbox.url));
	for (const node of filled.nodes) {
		if (node.credentials?.paymentGatewayApi) node.credentials.paymentGatewayApi = { id: SANDBOX_CREDENTIAL.id, name: SANDBOX_CREDENTIAL.name };
	}
	return filled;
}

const idsOf = async (workflowId) => new Set((await s.session.executions({ workflowId })).map((e) => e.id));

/** Prints which worker ran which execution; each must have run once on one worker, and every worker in `mustUse` some. */
function assertWhereRan(executionIds, mustUse = []) {
	const { byWorker, problems } = whereRan(s.n8n.logDir, executionIds, { workers: queue.WORKERS });
	for (const [role, ids] of Object.entries(byWorker)) log(`${role} ran ${ids.length}: ${ids.sort((a, b) => a - b).join(', ') || '-'}`);
	assert.deepEqual(problems.slice(0, 5), [], `each of ${executionIds.length} executions enqueued once and started by one worker (their logs)`);
	for (const role of mustUse) assert.ok(byWorker[role]?.length > 0, `${role} ran none of them`);
}

/**
 * The orders in batches, all posted at once to the webhook processor; each call answers when its execution finished
 * on a worker. Each order must get its expected status, the paid ones reach "Paid", the others "Flag Order".
 */
async function reconcile(times, mustUse) {
	const { session, reconciliation, orders } = s;
	const size = Math.ceil(orders.length / EXECUTIONS);
	const chunks = Array.from({ length: EXECUTIONS }, (_, index) => orders.slice(index * size, (index + 1) * size));
	const seen = await idsOf(reconciliation.id);
	s.sandbox.setLatency(LATENCY_MS);
	const since = Date.now();
	const answers = await Promise.all(chunks.map((chunk) => post(reconciliation.url, { orders: chunk.map(({ orderId, receiptId }) => ({ orderId, receiptId })) })))
		.finally(() => s.sandbox.setLatency(0));
	times?.push(Date.now() - since);
	log(`${orders.length} orders in ${EXECUTIONS} executions at once: ${seconds(since)}`);
	assert.ok(answers.every((answer) => answer.status === 200 && Array.isArray(answer.json)), `every call answered 200 with the last node's items: ${answers.map((a) => a.status)}`);

	const executions = await session.finishedExecutions(reconciliation.id, EXECUTIONS, { timeoutMs: 120_000, seen });
	assert.equal(executions.length, EXECUTIONS, 'executions stored');
	assert.deepEqual(executions.map((execution) => execution.status), Array(EXECUTIONS).fill('success'));
	const found = new Map();
	const paid = [];
	const flagged = [];
	for (const { id } of executions) {
		const runData = await session.runData(id);
		const inputs = nodeItems(runData, 'Orders To Check');
		for (const [index, item] of (runData['Check Status']?.at(-1)?.data?.main?.[0] ?? []).entries()) {
			const { orderId } = inputs[item.pairedItem?.item ?? index];
			found.set(orderId, [...(found.get(orderId) ?? []), kindOf(item.json)]);
		}
		paid.push(...nodeItems(runData, 'Paid').map((item) => item.orderId));
		flagged.push(...nodeItems(runData, 'Flag Order').filter((item) => item.flagged === true).map((item) => item.orderId));
	}
	const wrong = orders.filter(({ orderId, expected }) => found.get(orderId)?.join() !== expected);
	assert.equal(found.size, orders.length, 'orders reported');
	assert.deepEqual(wrong.slice(0, 5).map((o) => `${o.orderId} ${found.get(o.orderId)} (expected ${o.expected})`), [], 'each order once with its expected status');
	const ids = (list) => list.map((order) => order.orderId).sort();
	assert.deepEqual([...paid].sort(), ids(orders.filter((o) => o.expected === 'success')), 'the paid orders reach "Paid"');
	assert.deepEqual([...flagged].sort(), ids(orders.filter((o) => o.expected !== 'success')), 'every other order is flagged once');
	assertWhereRan(executions.map((execution) => execution.id), mustUse);
}

step(`the packed package in queue mode: main, ${queue.WORKERS.length} workers and the webhook processor healthy, three workflows published`, async () => {
	// The first command (the credential's import) starts PostgreSQL and Redis and migrates the new database.
	await setUp(s, USER_FOLDER, { log, deployment: 'queue' });
	const { versions } = await queue.services(s.n8n);
	const node = execFileSync(paths.NODE, ['-v'], { encoding: 'utf8' }).trim();
	log(`n8n ${requireFromN8n('n8n/package.json').version} on Node ${node}; ${versions.postgres}; ${versions.redis}`);
	const since = Date.now();
	await startN8n(s);
	log(`main, workers and webhook processor healthy, the owner set up, in ${seconds(since)}`);
	const workflows = { reconciliation: reconciliationWorkflow(), 'checkout-refund': load('checkout-refund'), notifications: load('notifications') };
	for (const [name, workflow] of Object.entries(workflows)) {
		s[name] = await s.session.deploy(prepared(workflow), s.server);
		log(`"${workflow.name}" active (id ${s[name].id}), served at ${s[name].url}`);
	}
});

step(`1. ${ORDERS} orders in every state made in the sandbox`, async () => {
	const since = Date.now();
	s.orders = await seedOrders(s.sandbox, ORDERS);
	log(`${ORDERS} orders made in ${seconds(since)}`);
});

// The first run also starts each worker's task runner (for the Code node): it is checked, not timed.
check(`1. reconciliation on ${queue.WORKERS.length} workers: ${ORDERS} statuses, paid orders to Paid, the rest flagged; both workers ran some`, () =>
	reconcile(undefined, queue.WORKERS),
);
for (let round = 1; round <= ROUNDS; round++) {
	check(`1. reconciliation on ${queue.WORKERS.length} workers, timed (${round}/${ROUNDS})`, () => reconcile(s.times.two, queue.WORKERS));
}

check('2. checkout story through the webhook processor: order → initiate → customer authenticates → status → refund → status', async () => {
	const seen = await idsOf(s['checkout-refund'].id);
	s.sandbox.clearLog();
	const answer = await post(s['checkout-refund'].url, { amount: 49.9, receiptId: 'QUEUE-STORY-1' });
	const [execution] = await s.session.finishedExecutions(s['checkout-refund'].id, 1, { timeoutMs: 120_000, seen });
	assert.equal(execution?.status, 'success', 'the execution succeeded');
	const runData = await s.session.runData(execution.id);
	const one = (node) => nodeItems(runData, node)[0] ?? {};
	const [order, payment, paid, refund, last] = ['Create Order', 'Initiate Payment', 'Status After Payment', 'Refund', 'Status After Refund'].map(one);
	assert.deepEqual([order.receiptId, order.amount], ['QUEUE-STORY-1', 49.9], 'the order from the request');
	assert.deepEqual([payment.orderId, payment.paymentStatus], [order.orderId, 'pending'], 'payment initiated, pending');
	assert.equal(one('Customer Authenticates').status, 'success', 'the customer authenticated in the sandbox');
	assert.deepEqual([paid.status, paid.paymentId], ['success', payment.paymentId], 'status by order ID says paid');
	assert.deepEqual([refund.paymentId, refund.paymentStatus, refund.amount], [payment.paymentId, 'refunded', 49.9], 'the whole amount refunded');
	assert.equal(last.paymentStatus, 'refunded', 'status by payment ID says refunded');
	assert.deepEqual([answer.status, answer.json?.paymentId], [200, payment.paymentId], 'the webhook answered with the last status');
	const expected = ['POST /order 200', 'POST /transaction/initiate 200', 'GET /nac/api/v1/pg/orders/check-status 200', 'POST /transaction/refund 200', 'GET /transaction/status/PAY… 200'];
	assert.deepEqual(s.sandbox.requests.map((r) => `${r.method} ${r.apiPath.replace(/PAY\w+/, 'PAY…')} ${r.status}`), expected, 'one gateway request per step');
	assertWhereRan([execution.id]);
});

check(`3. ${NOTIFICATIONS} notifications to the trigger on the webhook processor: one verified execution each, a forged one refused`, async () => {
	const { sandbox, session, notifications: deployed } = s;
	const payments = await inPool([...Array(NOTIFICATIONS).keys()], 10, async (index) =>
		cardPayment(sandbox, await unpaidOrder(sandbox, { amount: 12.5, receiptId: `NOTIFY-${index}`, customer: CUSTOMER }), { settle: false, holder: CUSTOMER.name }),
	);
	const expected = new Map(payments.map(({ paymentId }, index) => [paymentId, index < DECLINED ? 'failure' : 'success']));
	const seen = await idsOf(deployed.id);
	sandbox.clearNotifications();
	sandbox.setNotifications({ url: deployed.url });
	const since = Date.now();
	for (const [paymentId, result] of expected) sandbox.completeAuthentication(paymentId, result);
	const deliveries = await sandbox.waitForNotifications(NOTIFICATIONS, 120_000);
	assert.deepEqual(deliveries.map((delivery) => delivery.status ?? delivery.error), Array(NOTIFICATIONS).fill(200), 'delivered, each answered 200');
	const executions = await session.finishedExecutions(deployed.id, NOTIFICATIONS, { timeoutMs: 120_000, seen });
	log(`${NOTIFICATIONS} notifications to ${executions.length} finished executions: ${seconds(since)}`);
	const forged = await sandbox.sendNotification({ paymentId: payments[0].paymentId, signature: '0'.repeat(64) });
	assert.equal(forged.status, 401, 'a forged notification is refused');
	const settled = await session.settledExecutions(deployed.id, NOTIFICATIONS, { quietMs: 3000, timeoutMs: 0, seen });
	assert.equal(settled.length, NOTIFICATIONS, 'none lost, none added later, none for the forged one');
	s.notified = [...expected.keys()];
	assert.deepEqual(settled.map((execution) => execution.status), Array(NOTIFICATIONS).fill('success'));
	const items = [];
	for (const { id } of settled) items.push(...nodeItems(await session.runData(id), 'Mark Order'));
	assert.deepEqual(items.map((item) => item.paymentId).sort(), [...expected.keys()].sort(), 'each payment in exactly one execution, one item each');
	const wrong = items.filter((item) => item.status !== expected.get(item.paymentId) || item.statusVerified !== true || item.orderPaid !== (item.status === 'success'));
	assert.deepEqual(wrong.slice(0, 3), [], `each item has its payment's status, re-checked with the gateway (${DECLINED} failed, the rest paid)`);
	sandbox.setNotifications({ url: null });
	assertWhereRan(settled.map((execution) => execution.id), queue.WORKERS);
});

check('3. repeats through the webhook processor: the 50 again and 10 new ones again start nothing; identical ones at once measured', async () => {
	const { sandbox, session, notifications: deployed } = s;
	const countNow = async () => (await idsOf(deployed.id)).size;
	const before = await countNow();
	const quiet = async (expected, what) => {
		await sleep(3000);
		assert.equal(await countNow(), expected, what);
	};
	const again = await inPool(s.notified, 10, (paymentId) => notificationOf(sandbox, paymentId));
	await postAtOnce([deployed.url], again);
	await quiet(before, `the ${again.length} notifications again, all at once: no execution`);

	const fresh = await inPool([...Array(10).keys()], 10, (index) => settledPayment(sandbox, { amount: 12.5, receiptId: `REPEAT-${index}` }));
	await postAtOnce([deployed.url], fresh);
	const ten = await session.finishedExecutions(deployed.id, before + 10, { timeoutMs: 120_000 });
	assert.equal(ten.length, before + 10, 'ten different at once: ten executions');
	await postAtOnce([deployed.url], fresh);
	await quiet(before + 10, 'their ten repeats at once: no execution');

	const same = await inPool([...Array(5).keys()], 5, (index) => settledPayment(sandbox, { amount: 12.5, receiptId: `SAME-${index}` }));
	await postAtOnce([deployed.url], same.flatMap((body) => [body, body, body]));
	await sleep(5000);
	const started = (await countNow()) - before - 10;
	log(`5 payments, each notified 3 times at the same moment through the webhook processor: ${started} executions`);
	assert.equal(started, 5, 'identical deliveries at the same moment: one execution per payment');
});

/** The MCP check's workflow with its daily-budget refund tool only, on this check's credential. */
function mcpDayWorkflow() {
	const whole = mcpWorkflow();
	const nodes = whole.nodes.filter((node) => node.name === MCP_TRIGGER || node.name === 'Refund With Day 30');
	return prepared({ ...whole, name: 'Queue check: MCP refunds with a daily budget', nodes, connections: { 'Refund With Day 30': whole.connections['Refund With Day 30'] } });
}

check('4. the MCP Server Trigger through the webhook processor, a refund tool with Maximum Total per Day 30 (10 a call): 12 calls, 4 at a time, on two workers', async () => {
	const { id } = await s.session.createWorkflow(mcpDayWorkflow());
	await s.session.activateWorkflow(id);
	const client = await connectClient(new URL(`/mcp/${MCP_PATH}`, s.server.webhookUrl('x')), 'payment-gateway-queue-check');
	try {
		const { paymentId } = await settledPayment(s.sandbox, { amount: 500, receiptId: 'QUEUE-DAY-1' });
		const seen = await idsOf(id);
		const texts = [];
		for (let round = 0; round < 3; round++) {
			const results = await Promise.all(Array.from({ length: 4 }, () => client.callTool({ name: toolName('Refund With Day 30'), arguments: { paymentId, amount: 10 } })));
			texts.push(...results.map(resultText));
		}
		const refunds = refundsIn(s.sandbox.requests).filter((refund) => refund.paymentId === paymentId);
		const executions = await s.session.finishedExecutions(id, 12, { timeoutMs: 120_000, seen });
		const { byWorker } = whereRan(s.n8n.logDir, executions.map((execution) => execution.id), { workers: queue.WORKERS });
		const moved = refunds.length * 10;
		const perWorker = Object.fromEntries(Object.entries(byWorker).map(([role, ids]) => [role, ids.length]));
		log(`Maximum Total per Day 30 on ${queue.WORKERS.length} workers: 12 calls of 10 (3 rounds of 4 at once) moved ${moved} (${refunds.length} refunds), executions per worker ${JSON.stringify(perWorker)}; refused: ${texts.filter((text) => /Maximum Total per Day/.test(text)).length}`);
		assert.ok(moved >= 30, 'the budget is reached');
		assert.ok(moved <= 30 * queue.WORKERS.length, `at most the budget once per worker: ${moved}`);
	} finally {
		await closeClient(client);
	}
});

step(`5. ${OTHERS.join(', ')} stopped`, async () => {
	for (const role of OTHERS) await s.server.stopWorker(role);
});
for (let round = 1; round <= ROUNDS; round++) {
	check(`5. reconciliation on ${FIRST} alone, timed (${round}/${ROUNDS})`, () => reconcile(s.times.one, [FIRST]));
}

test('every n8n process stops on SIGTERM; no leaks in PostgreSQL, logs and files; PostgreSQL (SIGINT) and Redis stop', async (t) => {
	const { two, one } = s.times;
	if (two.length && one.length) {
		const times = (all) => `${all.map((ms) => (ms / 1000).toFixed(1)).join(', ')} s (median ${(median(all) / 1000).toFixed(1)} s)`;
		console.log(`wall time of ${ORDERS} orders in ${EXECUTIONS} executions at once, worker concurrency ${queue.WORKER_CONCURRENCY}:`);
		console.log(`  ${queue.WORKERS.length} workers: ${times(two)}\n  1 worker:  ${times(one)}\n  1 worker / ${queue.WORKERS.length} workers: ${(median(one) / median(two)).toFixed(2)}`);
	}
	if (!s.n8n?.server) return t.skip('n8n did not run');
	const outcomes = await s.n8n.stop();
	// A process held only by executions that n8n lost (queue/where-ran.js) was not held by the package.
	const held = outcomes.filter((outcome) => outcome.killed).map(({ role }) => ({ role, ...heldAtStop(s.n8n.logDir, role) }));
	for (const { role, lostByN8n } of held) if (lostByN8n.length) log(`n8n ${role} waited until killed for execution(s) ${lostByN8n} that n8n lost: the job finished before it waited for it`);
	assert.deepEqual(held.filter(({ lostByN8n, others }) => !lostByN8n.length || others.length), [], 'every n8n process stopped on SIGTERM');
	await searchLeaks(s.n8n, s.sandbox, { workflows: ['reconciliation', 'checkout-refund', 'notifications'].map((name) => s[name]?.stored).filter(Boolean) });
	const stopped = await (await queue.services(s.n8n)).stop();
	assert.ok(stopped.every((outcome) => !outcome.killed), 'PostgreSQL (SIGINT) and Redis (SIGTERM) stopped');
});
