'use strict';

// The workflow check, `npm run e2e`: the packed package in a real n8n against the sandbox gateway. Each workflow of
// e2e/workflows/ is a test: one starting with a Manual Trigger runs with `n8n execute`, one starting with a Webhook is
// created and activated over REST in a running n8n and called on its production URL. Each is judged by what every
// workflow must do (below) and by its entry in check.js; then the leak search over what n8n stored. The user folder
// (<work>/user-folder, e2e/README) stays for inspection.
//
//   node e2e/run.js [name ...]                   only these workflows (and `retry`: the retry checks)
//   E2E_SKIP_INSTALL=1 E2E_SKIP_BUILD=1          reuse the n8n install and dist/
//   E2E_WORKFLOWS_FROM=e2e/saved-0.1/workflows   the workflows as 0.1 saved them (npm run e2e:saved)
//
// It also retries a failed refund execution the way the editor's "Retry" does (e2e/retry/), when run in full or
// with `retry` among the names.

const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const checks = require('./check');
const { leakTest, setUp, startN8n, story } = require('./lib/check');
const { paidPayment, storedCards } = require('./lib/gateway');
const { TEST_CARD_NUMBERS } = require('./lib/leaks');
const { paths, PACKAGE_NAME } = require('./lib/package');
const { seconds, tail } = require('./lib/processes');
const { nodeItems, post } = require('./lib/rest');

const USER_FOLDER = path.join(paths.WORK, 'user-folder');
const WORKFLOW_DIR = path.resolve(paths.ROOT, process.env.E2E_WORKFLOWS_FROM || 'e2e/workflows');
const NODE_TYPE = `${PACKAGE_NAME}.paymentGateway`;

/** The workflow files in the order of check.js (single operations first, then the stories), checked for shape. */
function loadWorkflows(only) {
	const names = Object.keys(checks);
	const files = fs.readdirSync(WORKFLOW_DIR).filter((file) => file.endsWith('.json'));
	const extra = files.find((file) => !names.includes(file.slice(0, -5)));
	if (extra) throw new Error(`${extra}: no expectations for "${extra.slice(0, -5)}" in e2e/check.js`);
	const missing = names.filter((name) => !files.includes(`${name}.json`));
	if (missing.length) throw new Error(`e2e/check.js: "${missing.join('", "')}" has no workflow file`);
	const unknown = only.filter((name) => !names.includes(name));
	if (unknown.length) throw new Error(`unknown workflow(s): ${unknown.join(', ')}`);
	const ids = new Set();
	const workflows = names.map((name) => {
		const file = `${name}.json`;
		const workflow = JSON.parse(fs.readFileSync(path.join(WORKFLOW_DIR, file), 'utf8'));
		if (!/^[A-Za-z0-9]{16}$/.test(workflow.id ?? '')) throw new Error(`${file}: "id" must be 16 letters or digits`);
		if (ids.has(workflow.id)) throw new Error(`${file}: workflow id ${workflow.id} is used twice`);
		ids.add(workflow.id);
		if (!workflow.nodes.some((node) => node.type === NODE_TYPE)) throw new Error(`${file}: no ${NODE_TYPE} node`);
		const webhook = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.webhook');
		if (webhook && !checks[name].webhookBody) throw new Error(`e2e/check.js: "${name}" starts with a webhook: give a webhookBody`);
		return { name, file, workflow, webhookPath: webhook?.parameters.path };
	});
	return only.length ? workflows.filter((w) => only.includes(w.name)) : workflows;
}

/** The workflow as imported: the sandbox's address filled in. */
const withSandboxUrl = (workflow, sandbox) => JSON.parse(JSON.stringify(workflow).split('__SANDBOX_URL__').join(sandbox.url));

/** No node output may hold card data or secrets, whatever the operation. */
function assertNothingSensitive(runData, workflow, sandbox) {
	const values = [sandbox.clients.active.clientSecret, sandbox.cardEncryptionKey, ...TEST_CARD_NUMBERS];
	for (const node of workflow.nodes) if (typeof node.parameters?.cardNumber === 'string') values.push(node.parameters.cardNumber);
	for (const [node, runs] of Object.entries(runData)) {
		const text = JSON.stringify(runs.map((task) => task.data ?? null));
		assert.ok(!values.some((value) => text.includes(value)), `output of "${node}" contains a card number or secret`);
		const keys = ['cardNumber', 'cardCVV', 'cardExpMonth', 'cardExpYear', 'clientSecret', 'cardEncryptionKey'].filter((key) => text.includes(`"${key}"`));
		assert.deepEqual(keys, [], `output of "${node}" contains these keys`);
	}
}

/**
 * What every workflow must do (no node failed, no gateway error but the `expectedFailures` of its entry, nothing
 * sensitive in an output), then its entry's own check, called with the context described in check.js.
 */
async function judge({ name, workflow }, runData, requests, sandbox, extra = {}) {
	assert.ok(runData, 'the run holds no resultData.runData');
	const expectation = checks[name];
	const failed = Object.entries(runData).flatMap(([node, runs]) => runs.filter((task) => task.error).map((task) => `${node}: ${task.error.message}`));
	assert.deepEqual(failed, [], 'nodes failed');
	const unexpected = requests.filter((r) => (r.status ?? 0) >= 400 && !(expectation.expectedFailures ?? []).includes(r.status));
	assert.deepEqual(unexpected.map((r) => `${r.method} ${r.path} → ${r.status}`), [], 'unexpected gateway failures');
	assertNothingSensitive(runData, workflow, sandbox);
	const out = (node, output = 0) => {
		assert.ok(runData[node]?.length, `node "${node}" did not run`);
		return nodeItems(runData, node, output);
	};
	await expectation.check({
		...extra,
		out,
		one(node) {
			const items = out(node);
			assert.equal(items.length, 1, `node "${node}" output ${items.length} items, expected 1`);
			return items[0];
		},
		requests,
		signatureFor: (orderId, paymentId) => crypto.createHmac('sha256', sandbox.clients.active.clientSecret).update(`${orderId}|${paymentId}`).digest('hex'),
		sandboxCards: (customerId) => storedCards(sandbox, customerId),
	});
	log(`${name}: ${Object.keys(runData).length} nodes ran, ${requests.length} gateway requests`);
}

// `retry` names the retry checks below; alone, it runs only them.
const names = process.argv.slice(2);
const retryChecks = !names.length || names.includes('retry');
const only = names.filter((name) => name !== 'retry');
const workflows = names.length && !only.length ? [] : loadWorkflows(only);
const byCli = workflows.filter((w) => !w.webhookPath);
const byWebhook = workflows.filter((w) => w.webhookPath);
const state = { stored: byCli.map((w) => w.workflow) };
const { step, check, log } = story('e2e');

step(`the packed package installed into a real n8n, with the sandbox's credential and the workflows of ${path.relative(paths.ROOT, WORKFLOW_DIR)}`, async () => {
	// The sandbox runs in this process: the checks read its request log.
	await setUp(state, USER_FOLDER, { log });
	if (byCli.length) await state.n8n.importWorkflows(byCli.map((w) => withSandboxUrl(w.workflow, state.sandbox)));
});

for (const entry of byCli) {
	check(`${entry.name} (${entry.file}, n8n execute): ${checks[entry.name].runs}`, async () => {
		const { n8n, sandbox } = state;
		sandbox.clearLog();
		const since = Date.now();
		const result = await n8n.execute(entry.workflow.id);
		const output = path.join(n8n.logDir, `${entry.name}.out`);
		fs.writeFileSync(output, `${result.stdout}\n--- stderr ---\n${result.stderr}`);
		log(`${entry.name}: n8n execute took ${seconds(since)}; its output is in ${output}`);
		assert.equal(result.code, 0, `n8n execute exited with ${result.code} ${result.signal ?? ''}\n${tail(result.stdout + result.stderr, 25)}`);
		await judge(entry, result.run?.data?.resultData?.runData, [...sandbox.requests], sandbox);
	});
}

if (byWebhook.length || retryChecks) step('n8n start, the owner set up over REST', () => startN8n(state));

/**
 * `workflow` created and activated over REST and its production webhook called with `body`: n8n's answer, the
 * sandbox's log of the requests it made, and the execution n8n stored.
 */
async function callWebhook(workflow, body) {
	const { sandbox, session, server } = state;
	const { id, url } = await session.deploy(workflow, server);
	state.stored.push({ ...workflow, id });
	sandbox.clearLog();
	const res = await post(url, body);
	const [finished] = await session.finishedExecutions(id, 1);
	assert.ok(finished, `n8n stored no finished execution (the webhook answered ${res.status})`);
	return { res, requests: [...sandbox.requests], execution: await session.execution(finished.id) };
}

for (const entry of byWebhook) {
	check(`${entry.name} (${entry.file}, production webhook): ${checks[entry.name].runs}`, async () => {
		const { res, requests, execution } = await callWebhook(withSandboxUrl(entry.workflow, state.sandbox), checks[entry.name].webhookBody);
		await judge(entry, execution.data?.resultData?.runData, requests, state.sandbox, { response: { status: res.status, body: res.json }, execution });
	});
}

// n8n's "Retry" of a failed execution runs the failed node again with all its input items, those already sent
// included. The editor sends POST /rest/executions/<id>/retry with `loadWorkflow` false ("with the original
// workflow") or true ("with the currently saved workflow"); n8n answers once the retry has ended.
if (retryChecks) {
	const RETRY_WORKFLOW = JSON.parse(fs.readFileSync(path.join(paths.ROOT, 'e2e', 'retry', 'refund-batch.json'), 'utf8'));
	const refundsOf = (requests) => requests.filter((r) => r.path.endsWith('/transaction/refund')).map((r) => r.status);
	const refundError = (execution) => execution.data?.resultData?.runData?.Refund?.at(-1)?.error;
	const retry = {};

	check('a refund batch (5, 500, 5) from a production webhook, stopped by the refused 500: the error names the refund sent', async () => {
		const payments = [];
		for (const n of [1, 2, 3]) payments.push(await paidPayment(state.sandbox, { amount: 20, receiptId: `e2e-retry-${n}` }));
		const refunds = payments.map(({ paymentId }, index) => ({ paymentId, amount: index === 1 ? 500 : 5 }));
		const { res, requests, execution } = await callWebhook(RETRY_WORKFLOW, { refunds });
		assert.equal(res.status, 200, `the webhook answered ${res.status}`);
		assert.equal(execution.status, 'error');
		assert.deepEqual(refundsOf(requests), [200, 400], 'the first refund sent, the second refused, the third not sent');
		const error = refundError(execution);
		assert.deepEqual(error?.context?.sentItems, [{ item: 0, refundId: error?.context?.sentItems?.[0]?.refundId }]);
		assert.match(error.context.sentItems[0].refundId, /^RFD[0-9A-F]{32}$/);
		assert.match(error.description, /Sent before this failure: item 0 \(refundId RFD[0-9A-F]{32}\)\. Not sent: item 2\./);
		retry.failedId = execution.id;
		log(`refund batch: execution ${execution.id} failed at item 1 after refund ${error.context.sentItems[0].refundId}`);
	});

	for (const [label, loadWorkflow] of [['with the original workflow', false], ['with the currently saved workflow', true]]) {
		check(`its Retry ${label} (POST /rest/executions/<id>/retry, loadWorkflow ${loadWorkflow}): 0 refunds sent, the refusal says why`, async () => {
			const { sandbox, session } = state;
			assert.ok(retry.failedId, 'no failed execution to retry');
			sandbox.clearLog();
			const retried = await session.data('POST', `/rest/executions/${retry.failedId}/retry`, { loadWorkflow });
			assert.deepEqual(sandbox.requests.map((r) => `${r.method} ${r.path}`), [], 'requests sent by the retry');
			const execution = await session.execution(retried.id);
			assert.equal(execution.mode, 'retry');
			assert.equal(execution.status, 'error');
			assert.match(refundError(execution)?.message ?? '', /in a retry of a failed execution: .* Nothing was sent\. \[item 0\]$/);
			log(`retry ${label}: execution ${retried.id} (mode ${execution.mode}), 0 gateway requests`);
		});
	}
}

leakTest(state, () => ({ workflows: state.stored }));
