'use strict';

// The three runs of the queue check (e2e/queue.js), each judged from what n8n stored and from the sandbox:
// the reconciliation of many orders in several executions at once, the checkout story, and payment notifications
// through the trigger. Each prints PASS/FAIL lines through the report and which worker ran which execution.

const { sleep } = require('../lib/processes');
const { kindOf, seedPendingPayments } = require('./gateway-data');
const { whereRan } = require('./where-ran');

/** The items a node output in a stored execution's runData (last run, main output 0). */
function itemsOf(runData, node) {
	const runs = runData?.[node];
	if (!runs?.length) throw new Error(`node "${node}" did not run`);
	return runs[runs.length - 1].data?.main?.[0] ?? [];
}

/** Their JSON. */
const out = (runData, node) => itemsOf(runData, node).map((item) => item.json);

function post(url, body) {
	return fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(300_000),
	}).then(async (res) => ({ status: res.status, body: await res.json().catch(() => undefined) }));
}

/** The executions of a workflow finished since `seen` (ids) was taken, once there are `count` of them. */
async function newExecutions(session, workflowId, seen, count, timeoutMs = 120_000) {
	return session.finishedExecutions(workflowId, count, { timeoutMs, seen });
}

const idsOf = async (session, workflowId) => new Set((await session.executions({ workflowId })).map((e) => e.id));

/** Prints which worker ran which execution; checks each ran once on one worker, and on every worker in `mustUse`. */
function checkWhereRan({ report, n8n, workers }, label, executionIds, mustUse = []) {
	const { byWorker, problems } = whereRan(n8n.logDir, executionIds, { workers });
	for (const [role, ids] of Object.entries(byWorker)) {
		console.log(`  ${role} ran ${ids.length}: ${ids.sort((a, b) => a - b).join(', ') || '-'}`);
	}
	report.check(
		problems.length === 0,
		`${label}: each of ${executionIds.length} executions enqueued once and started by one worker (their logs)`,
		problems.slice(0, 5).join('; '),
	);
	for (const role of mustUse) {
		report.check(byWorker[role]?.length > 0, `${label}: ${role} ran some of them`, `${role} ran none`);
	}
	return byWorker;
}

/**
 * The reconciliation: the orders in batches, all posted at once to the webhook processor; each call answers when
 * its execution has finished on a worker. Each order must get its expected status from Check Status, paid orders
 * must reach "Paid" and the others "Flag Order". Resolves with the wall time from the first post to the last answer.
 */
async function reconcile(context, deployed, orders, { label, batches, mustUse }) {
	const { report, session } = context;
	const size = Math.ceil(orders.length / batches);
	const chunks = Array.from({ length: batches }, (_, index) => orders.slice(index * size, (index + 1) * size));
	const seen = await idsOf(session, deployed.id);
	const since = Date.now();
	const answers = await Promise.all(
		chunks.map((chunk) => post(deployed.url, { orders: chunk.map(({ orderId, receiptId }) => ({ orderId, receiptId })) })),
	);
	const wallMs = Date.now() - since;
	console.log(`  ${orders.length} orders in ${batches} executions at once: ${(wallMs / 1000).toFixed(1)} s`);
	report.check(
		answers.every((answer) => answer.status === 200 && Array.isArray(answer.body)),
		`${label}: every call answered 200 with the items of the last node`,
		answers.map((answer) => answer.status).join(' '),
	);

	const executions = await newExecutions(session, deployed.id, seen, batches);
	report.must(executions.length === batches, `${label}: ${batches} executions stored`, `${executions.length} found`);
	report.check(
		executions.every((execution) => execution.status === 'success'),
		`${label}: every execution succeeded`,
		executions.map((execution) => execution.status).join(' '),
	);

	const found = new Map();
	const paid = [];
	const flagged = [];
	for (const { id } of executions) {
		const runData = (await session.execution(id)).data?.resultData?.runData;
		const inputs = out(runData, 'Orders To Check');
		itemsOf(runData, 'Check Status').forEach((item, index) => {
			const { orderId } = inputs[item.pairedItem?.item ?? index];
			found.set(orderId, [...(found.get(orderId) ?? []), kindOf(item.json)]);
		});
		paid.push(...out(runData, 'Paid').map((item) => item.orderId));
		flagged.push(...out(runData, 'Flag Order').filter((item) => item.flagged === true).map((item) => item.orderId));
	}
	const wrong = orders.filter(({ orderId, expected }) => found.get(orderId)?.join() !== expected);
	report.check(
		found.size === orders.length && wrong.length === 0,
		`${label}: ${orders.length} statuses, each order once with its expected status`,
		`${found.size} orders reported; wrong: ${wrong
			.slice(0, 5)
			.map((o) => `${o.orderId} ${found.get(o.orderId) ?? 'missing'} (expected ${o.expected})`)
			.join('; ')}`,
	);
	const sameOrders = (ids, wanted) =>
		ids.length === wanted.length && JSON.stringify([...ids].sort()) === JSON.stringify(wanted.map((o) => o.orderId).sort());
	report.check(
		sameOrders(paid, orders.filter((o) => o.expected === 'success')) &&
			sameOrders(flagged, orders.filter((o) => o.expected !== 'success')),
		`${label}: the paid orders reach "Paid", every other order is flagged once`,
		`${paid.length} paid, ${flagged.length} flagged`,
	);
	checkWhereRan(context, label, executions.map((execution) => execution.id), mustUse);
	return wallMs;
}

/** The checkout story as one webhook-started workflow: order, payment, authentication, status, refund, status. */
async function checkoutStory(context, deployed) {
	const { report, session, sandbox } = context;
	const label = 'checkout story';
	const seen = await idsOf(session, deployed.id);
	sandbox.clearLog();
	const answer = await post(deployed.url, { amount: 49.9, receiptId: 'QUEUE-STORY-1' });
	const [execution] = await newExecutions(session, deployed.id, seen, 1);
	report.must(execution?.status === 'success', `${label}: the execution succeeded`, execution?.status ?? 'none stored');
	const { data } = await session.execution(execution.id);
	const runData = data.resultData.runData;
	const one = (node) => out(runData, node)[0] ?? {};
	const order = one('Create Order');
	const payment = one('Initiate Payment');
	const paid = one('Status After Payment');
	const refund = one('Refund');
	const last = one('Status After Refund');
	report.check(order.receiptId === 'QUEUE-STORY-1' && order.amount === 49.9, `${label}: order created from the request`);
	report.check(payment.orderId === order.orderId && payment.paymentStatus === 'pending', `${label}: payment initiated, pending`);
	report.check(one('Customer Authenticates').status === 'success', `${label}: the customer authenticated in the sandbox`);
	report.check(
		paid.status === 'success' && paid.paymentId === payment.paymentId,
		`${label}: status by order ID says paid`,
		`${paid.status}`,
	);
	report.check(
		refund.paymentId === payment.paymentId && refund.paymentStatus === 'refunded' && refund.amount === 49.9,
		`${label}: the whole amount refunded`,
		`${refund.paymentStatus} ${refund.amount}`,
	);
	report.check(last.paymentStatus === 'refunded', `${label}: status by payment ID says refunded`, last.paymentStatus);
	report.check(answer.status === 200 && answer.body?.paymentId === payment.paymentId, `${label}: the webhook answered with the last status`);
	const calls = sandbox.requests.map((r) => `${r.method} ${r.apiPath.replace(/PAY\w+/, 'PAY…')} ${r.status}`);
	report.check(
		calls.join() ===
			[
				'POST /order 200',
				'POST /transaction/initiate 200',
				'GET /nac/api/v1/pg/orders/check-status 200',
				'POST /transaction/refund 200',
				'GET /transaction/status/PAY… 200',
			].join(),
		`${label}: one gateway request per step, each answered 200`,
		calls.join('; '),
	);
	checkWhereRan(context, label, [execution.id]);
}

/**
 * Payment notifications: `count` pending payments completed in the sandbox (the first `declined` as failures), each
 * notifying the trigger's production URL on the webhook processor. Every authentic notification must start exactly
 * one execution; a forged one none.
 */
async function notifications(context, deployed, { count, declined }) {
	const { report, session, sandbox, workers } = context;
	const label = 'notifications';
	const payments = await seedPendingPayments(sandbox, count);
	const expected = new Map(payments.map(({ paymentId }, index) => [paymentId, index < declined ? 'failure' : 'success']));
	const seen = await idsOf(session, deployed.id);
	sandbox.clearNotifications();
	sandbox.setNotifications({ url: deployed.url });
	const since = Date.now();
	for (const [paymentId, result] of expected) sandbox.completeAuthentication(paymentId, result);

	const deliveries = await sandbox.waitForNotifications(count, 120_000);
	report.check(
		deliveries.length === count && deliveries.every((delivery) => delivery.status === 200),
		`${label}: ${count} notifications delivered to the webhook processor, each answered 200`,
		deliveries.map((delivery) => delivery.status ?? delivery.error).join(' '),
	);
	const executions = await newExecutions(session, deployed.id, seen, count);
	console.log(`  ${count} notifications to ${executions.length} finished executions: ${((Date.now() - since) / 1000).toFixed(1)} s`);
	const forged = await sandbox.sendNotification({ paymentId: payments[0].paymentId, signature: '0'.repeat(64) });
	report.check(forged.status === 401, `${label}: a forged notification is refused with 401`, `answered ${forged.status}`);
	await sleep(3000);
	const settled = await newExecutions(session, deployed.id, seen, count, 0);
	report.check(
		settled.length === count,
		`${label}: ${count} notifications, ${count} executions (none lost, none added later, none for the forged one)`,
		`${settled.length} executions`,
	);
	report.check(
		settled.every((execution) => execution.status === 'success'),
		`${label}: every execution succeeded`,
		settled.map((execution) => execution.status).join(' '),
	);

	const items = [];
	for (const { id } of settled) items.push(...out((await session.execution(id)).data?.resultData?.runData, 'Mark Order'));
	const notified = new Set(items.map((item) => item.paymentId));
	report.check(
		items.length === count && notified.size === count && [...expected.keys()].every((id) => notified.has(id)),
		`${label}: each payment in exactly one execution, one item each`,
		`${items.length} items, ${notified.size} payments`,
	);
	const wrong = items.filter(
		(item) => item.status !== expected.get(item.paymentId) || item.statusVerified !== true || item.orderPaid !== (item.status === 'success'),
	);
	report.check(
		wrong.length === 0,
		`${label}: each item has its payment's status, re-checked with the gateway (${declined} failed, ${count - declined} paid)`,
		wrong.slice(0, 3).map((item) => `${item.paymentId} ${item.status} verified=${item.statusVerified}`).join('; '),
	);
	sandbox.setNotifications({ url: null });
	checkWhereRan(context, label, settled.map((execution) => execution.id), workers);
}

module.exports = { reconcile, checkoutStory, notifications };
