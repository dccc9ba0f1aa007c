'use strict';

// The workflow check: the packed package in a real n8n, against the sandbox gateway. `npm run e2e`.
//
//   node e2e/run.js [name ...]         only the named workflows (file names without .json)
//   E2E_SKIP_INSTALL=1 E2E_SKIP_BUILD=1 node e2e/run.js   reuse the n8n install and dist/
//   E2E_N8N_TIMEOUT_MS=180000          limit for each n8n command
//   E2E_WORKFLOWS_FROM=e2e/saved-0.1/workflows   the same checks on the workflows as 0.1 saved them (npm run e2e:saved)
//
// Installs the tarball into a fresh user folder (.e2e/user-folder), starts the sandbox, imports a credential and the
// workflows of e2e/workflows/, runs each Manual Trigger workflow with `n8n execute` and each Webhook workflow through
// its production URL in a running n8n, and checks the outputs with e2e/check.js. Then searches everything n8n stored
// for secrets and card data (e2e/lib/leaks.js). Prints PASS or FAIL per workflow and for the search; exits non-zero on
// any failure. The user folder and logs stay for inspection.

const fs = require('node:fs');
const path = require('node:path');

const { startSandbox } = require('../sandbox/gateway');
const checks = require('./check');
const { checkRun } = require('./workflow-context');
const { secretsToFind, findLeaks, printLeaks } = require('./lib/leaks');
const { createN8n } = require('./lib/n8n');
const { preparePackage, paths, PACKAGE_NAME } = require('./lib/package');
const { onCleanUp, runCheck, seconds } = require('./lib/processes');
const { RestSession } = require('./lib/rest');

const USER_FOLDER = path.join(paths.ROOT, '.e2e', 'user-folder');
const WORKFLOW_DIR = process.env.E2E_WORKFLOWS_FROM ? path.resolve(paths.ROOT, process.env.E2E_WORKFLOWS_FROM) : path.join(__dirname, 'workflows');
const NODE_TYPE = `${PACKAGE_NAME}.paymentGateway`;
const WEBHOOK_TYPE = 'n8n-nodes-base.webhook';
const CREDENTIAL = { id: 'pgSandboxCred001', name: 'Payment Gateway sandbox', type: 'paymentGatewayApi' };
const SANDBOX_URL_PLACEHOLDER = '__SANDBOX_URL__';

const started = Date.now();
const log = (message) => console.log(`e2e: ${message}`);

/** The workflow files in the order of e2e/check.js (single operations first, then the stories), checked for shape. */
function loadWorkflows(only) {
	const order = Object.keys(checks);
	const names = fs
		.readdirSync(WORKFLOW_DIR)
		.filter((file) => file.endsWith('.json'))
		.map((file) => file.slice(0, -'.json'.length))
		.sort((a, b) => (order.indexOf(a) + 1 || Infinity) - (order.indexOf(b) + 1 || Infinity) || a.localeCompare(b));
	const ids = new Set();
	const workflows = names.map((name) => {
		const file = `${name}.json`;
		const workflow = JSON.parse(fs.readFileSync(path.join(WORKFLOW_DIR, file), 'utf8'));
		if (!/^[A-Za-z0-9]{16}$/.test(workflow.id ?? '')) throw new Error(`${file}: "id" must be 16 letters or digits`);
		if (ids.has(workflow.id)) throw new Error(`${file}: workflow id ${workflow.id} is used twice`);
		ids.add(workflow.id);
		if (!checks[name]) throw new Error(`${file}: no expectations for "${name}" in e2e/check.js`);
		if (!workflow.nodes.some((node) => node.type === NODE_TYPE)) throw new Error(`${file}: no ${NODE_TYPE} node`);
		const webhook = workflow.nodes.find((node) => node.type === WEBHOOK_TYPE);
		if (webhook && !checks[name].webhookBody) throw new Error(`e2e/check.js: "${name}" starts with a webhook: give a webhookBody`);
		return { name, file, workflow, webhookPath: webhook?.parameters.path };
	});
	for (const name of order) {
		if (!names.includes(name)) throw new Error(`e2e/check.js: "${name}" has no workflow file`);
	}
	const unknown = only.filter((name) => !names.includes(name));
	if (unknown.length) throw new Error(`unknown workflow(s): ${unknown.join(', ')}`);
	return only.length ? workflows.filter((w) => only.includes(w.name)) : workflows;
}

/** The workflow as imported: the sandbox's address filled in. */
const withSandboxUrl = (workflow, sandbox) =>
	JSON.parse(JSON.stringify(workflow).split(SANDBOX_URL_PLACEHOLDER).join(sandbox.url));

/** Manual Trigger workflows: `n8n execute --rawOutput`, its output kept in logs/<name>.out. */
async function runByCli(n8n, sandbox, { name, file, workflow }) {
	sandbox.clearLog();
	const since = Date.now();
	const result = await n8n.execute(workflow.id);
	const output = path.join(n8n.logDir, `${name}.out`);
	fs.writeFileSync(output, `${result.stdout}\n--- stderr ---\n${result.stderr}`);
	return checkRun({
		name,
		file,
		workflow,
		expectation: checks[name],
		sandbox,
		took: seconds(since),
		output: path.relative(paths.ROOT, output),
		runData: async () => {
			if (result.code !== 0) {
				const tail = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-25).join('\n');
				throw new Error(`n8n execute exited with ${result.code}${result.signal ? ` (${result.signal})` : ''}\n${tail}`);
			}
			return result.run?.data?.resultData?.runData;
		},
	});
}

/** Webhook workflows: created and activated over REST, called on their production URL, read back from n8n. */
async function runByWebhook(server, session, sandbox, entry, stored) {
	const { name, file, workflow, webhookPath } = entry;
	const created = await session.createWorkflow(withSandboxUrl(workflow, sandbox));
	stored.push({ ...workflow, id: created.id });
	await session.activateWorkflow(created.id);
	const url = server.webhookUrl(webhookPath);
	await session.waitForWebhook(url);
	sandbox.clearLog();
	const since = Date.now();
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(checks[name].webhookBody),
	});
	const response = { status: res.status, body: await res.json().catch(() => undefined) };
	const took = seconds(since);
	return checkRun({
		name,
		file,
		workflow,
		expectation: checks[name],
		sandbox,
		took,
		output: `GET ${server.url}/rest/executions?filter={"workflowId":"${created.id}"}`,
		runData: async (extra) => {
			const [finished] = await session.finishedExecutions(created.id, 1);
			if (!finished) throw new Error(`n8n stored no finished execution (the webhook answered ${response.status})`);
			const execution = await session.execution(finished.id);
			Object.assign(extra, { response, execution });
			return execution.data?.resultData?.runData;
		},
	});
}

async function main() {
	const only = process.argv.slice(2);
	const workflows = loadWorkflows(only);
	log(`workflows of ${path.relative(paths.ROOT, WORKFLOW_DIR)}`);
	await preparePackage(USER_FOLDER, { log });

	// The sandbox gateway runs in this process: the checks read its request log.
	const sandbox = await startSandbox({ port: 0 });
	onCleanUp(() => sandbox.close());
	log(`sandbox gateway on ${sandbox.url}`);

	const n8n = await createN8n({ userFolder: USER_FOLDER, log });
	await n8n.importCredentials([{ ...CREDENTIAL, data: sandbox.credentialData() }]);
	const byCli = workflows.filter((w) => !w.webhookPath);
	const byWebhook = workflows.filter((w) => w.webhookPath);
	// What n8n stores each workflow as (webhook workflows get their id from n8n): for the leak search.
	const stored = byCli.map((w) => w.workflow);
	if (byCli.length) await n8n.importWorkflows(byCli.map((w) => withSandboxUrl(w.workflow, sandbox)));

	const results = [];
	for (const entry of byCli) results.push(await runByCli(n8n, sandbox, entry));
	if (byWebhook.length) {
		const server = await n8n.start();
		const session = new RestSession(server.url);
		await session.setupOwner();
		for (const entry of byWebhook) results.push(await runByWebhook(server, session, sandbox, entry, stored));
		await n8n.stop();
	}

	console.log('\nleaks: secrets and card data in what n8n stored (database, logs, files in .n8n)');
	const since = Date.now();
	const secrets = secretsToFind({
		clients: [sandbox.clients.active, sandbox.clients.inactive],
		cardEncryptionKey: sandbox.cardEncryptionKey,
		workflows: stored,
	});
	const clean = printLeaks(await findLeaks(n8n, { secrets, workflows: stored }));
	console.log(`  ${clean ? 'PASS' : 'FAIL'} leaks: ${secrets.length} secrets searched for (${seconds(since)})`);

	const failed = results.filter((r) => !r.ok);
	console.log(
		`\ne2e: ${results.length - failed.length}/${results.length} workflows passed` +
			`${failed.length ? `; FAILED: ${failed.map((r) => r.name).join(', ')}` : ''}` +
			`; ${clean ? 'no leaks' : 'LEAKS FOUND'} (total ${seconds(started)})`,
	);
	return failed.length === 0 && clean ? 0 : 1;
}

runCheck(main, { onError: (error) => console.error(`\ne2e: ERROR ${error.message} (after ${seconds(started)})`) });
