'use strict';

// The queue-mode check: the packed package in n8n's queue mode, against the sandbox gateway. `npm run e2e:queue`.
//
// Installs Redis and PostgreSQL (Debian) when missing and starts them on free ports with throw-away data; installs
// the package into a fresh user folder (.e2e/queue/user) as users do; starts n8n's main process, two workers
// (`--concurrency=1`) and a webhook processor (lib/queue.js). Three workflows (e2e/queue/*.json) are created and
// activated over REST on main and started through the webhook processor, which enqueues their executions for the
// workers:
//   1. a reconciliation of 300 orders in every state, 6 executions of 50 at once, at 50 ms gateway latency, with
//      Status → Get by Order ID at Concurrency 10: once to warm up, 3 times timed; at the end 3 times more with one
//      worker stopped, to compare the wall times;
//   2. the checkout story: order, payment, authentication in the sandbox, status, refund, status;
//   3. the Payment Gateway Trigger receiving 50 notifications of payments completed in the sandbox.
// Then the leak search over what n8n stored (PostgreSQL, logs, files). Prints PASS/FAIL lines and which worker ran
// which execution; exits non-zero on any failure. Everything started is stopped in every case (also on Ctrl-C).
//
// Environment: E2E_SKIP_INSTALL=1 and E2E_SKIP_BUILD=1 as for npm run e2e.

const { execFileSync } = require('node:child_process');
const path = require('node:path');

const { startSandbox } = require('../sandbox/gateway');
const { secretsToFind, findLeaks, printLeaks } = require('./lib/leaks');
const { createN8n } = require('./lib/n8n');
const { preparePackage, paths, requireFromN8n } = require('./lib/package');
const { onCleanUp, runCheck, seconds, wasInterrupted } = require('./lib/processes');
const queue = require('./lib/queue');
const { createReport, StepFailed } = require('./lib/report');
const { RestSession } = require('./lib/rest');
const { checkoutStory, notifications, reconcile } = require('./queue/checks');
const { seedOrders } = require('./queue/gateway-data');
const { queueWorkflow, reconciliationWorkflow, WEBHOOK_TYPE } = require('./queue/workflows');

const USER_FOLDER = path.join(paths.ROOT, '.e2e', 'queue', 'user');
const CREDENTIAL = { id: 'pgSandboxCred001', name: 'Payment Gateway sandbox', type: 'paymentGatewayApi' };

const ORDERS = 300;
const EXECUTIONS = 6;
const LATENCY_MS = 50;
const NOTIFICATIONS = 50;
const DECLINED = 10;
// Timed reconciliations per number of workers (the machine is shared: the median is reported).
const ROUNDS = 3;

const report = createReport();
const log = (message) => console.log(`queue: ${message}`);
const heading = (text) => console.log(`\n${text}`);

/** Created and activated over REST on main; resolves once the webhook processor serves its production URL. */
async function deploy(session, server, workflow) {
	const created = await session.createWorkflow(workflow);
	await session.activateWorkflow(created.id);
	const hook = workflow.nodes.find((node) => node.webhookId);
	// A Webhook node's path is the whole path; a trigger's webhook sits under its webhookId.
	const url = server.webhookUrl(hook.type === WEBHOOK_TYPE ? hook.parameters.path : `${hook.webhookId}/webhook`);
	await session.waitForWebhook(url);
	log(`"${workflow.name}" active (id ${created.id}), served at ${url}`);
	return { id: created.id, url, stored: { ...workflow, id: created.id } };
}

async function run(state) {
	await preparePackage(USER_FOLDER, { log });
	const sandbox = await startSandbox({ port: 0 });
	onCleanUp(() => sandbox.close());
	state.sandbox = sandbox;
	log(`sandbox gateway on ${sandbox.url}`);

	const n8n = await createN8n({ userFolder: USER_FOLDER, deployment: 'queue', log });
	state.n8n = n8n;
	// The first command starts PostgreSQL and Redis and migrates the new database.
	await n8n.importCredentials([{ ...CREDENTIAL, data: sandbox.credentialData() }]);
	const { versions } = await queue.services(n8n);
	const nodeVersion = execFileSync(paths.NODE, ['-v'], { encoding: 'utf8' }).trim();
	log(`n8n ${requireFromN8n('n8n/package.json').version} on Node ${nodeVersion}; ${versions.postgres}; ${versions.redis}`);

	const since = Date.now();
	const server = await n8n.start();
	report.pass(`main, ${queue.WORKERS.length} workers and the webhook processor serve their health endpoints (${seconds(since)})`);
	const session = new RestSession(server.url);
	await session.setupOwner();
	const reconciliation = reconciliationWorkflow(sandbox, CREDENTIAL);
	log(`the reconciliation workflow comes from ${reconciliation.source}`);
	const deployed = {
		reconciliation: await deploy(session, server, reconciliation.workflow),
		'checkout-refund': await deploy(session, server, queueWorkflow('checkout-refund', sandbox, CREDENTIAL)),
		notifications: await deploy(session, server, queueWorkflow('notifications', sandbox, CREDENTIAL)),
	};
	state.stored = Object.values(deployed).map((workflow) => workflow.stored);
	const context = { report, session, sandbox, n8n, workers: queue.WORKERS };

	heading(`1. reconciliation: ${ORDERS} orders, ${EXECUTIONS} executions at once, ${LATENCY_MS} ms gateway latency, Concurrency 10`);
	const orders = await report.timed(`${ORDERS} orders made in the sandbox`, () => seedOrders(sandbox, ORDERS));
	// The first run also starts each worker's task runner (for the Code node): it is checked, not timed.
	const reconciliations = (label, mustUse, rounds) =>
		reconcileRounds(context, deployed.reconciliation, orders, { label, mustUse, rounds });
	await reconciliations(`reconciliation on ${queue.WORKERS.length} workers`, queue.WORKERS, 1);
	const twoWorkers = await reconciliations(`reconciliation on ${queue.WORKERS.length} workers, timed`, queue.WORKERS, ROUNDS);

	heading('2. checkout story: order → initiate → customer authenticates → status → refund → status');
	await checkoutStory(context, deployed['checkout-refund']);

	heading(`3. notifications: ${NOTIFICATIONS} payments completed, the trigger on the webhook processor`);
	await notifications(context, deployed.notifications, { count: NOTIFICATIONS, declined: DECLINED });

	const [first, ...others] = queue.WORKERS;
	heading(`4. the reconciliation again on ${first} alone (${others.join(', ')} stopped), timed`);
	for (const role of others) await server.stopWorker(role);
	const oneWorker = await reconciliations(`reconciliation on ${first} alone, timed`, [first], ROUNDS);

	const time = (ms) => `${(ms / 1000).toFixed(1)} s`;
	const times = (all) => `${all.map(time).join(', ')} (median ${time(median(all))})`;
	console.log(
		`\nwall time of ${ORDERS} orders in ${EXECUTIONS} executions at once, worker concurrency ${queue.WORKER_CONCURRENCY}:\n` +
			`  ${queue.WORKERS.length} workers: ${times(twoWorkers)}\n  1 worker:  ${times(oneWorker)}\n` +
			`  1 worker / ${queue.WORKERS.length} workers: ${(median(oneWorker) / median(twoWorkers)).toFixed(2)}`,
	);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** `rounds` reconciliations of all orders one after the other, at the sandbox latency; resolves with their times. */
async function reconcileRounds(context, deployed, orders, { label, mustUse, rounds }) {
	context.sandbox.setLatency(LATENCY_MS);
	try {
		const times = [];
		for (let round = 1; round <= rounds; round++) {
			const name = rounds > 1 ? `${label} (${round}/${rounds})` : label;
			times.push(await reconcile(context, deployed, orders, { label: name, batches: EXECUTIONS, mustUse }));
		}
		return times;
	} finally {
		context.sandbox.setLatency(0);
	}
}

/** Stops n8n, searches what it stored, then stops PostgreSQL and Redis. */
async function finish({ n8n, sandbox, stored = [] }) {
	if (!n8n?.server) return;
	const outcomes = await n8n.stop();
	report.check(outcomes.every((outcome) => !outcome.killed), 'every n8n process stopped on SIGTERM');

	heading('leaks: secrets and card data in what n8n stored (PostgreSQL, logs, files in .n8n)');
	const since = Date.now();
	const secrets = secretsToFind({
		clients: [sandbox.clients.active, sandbox.clients.inactive],
		cardEncryptionKey: sandbox.cardEncryptionKey,
		workflows: stored,
	});
	const clean = printLeaks(await findLeaks(n8n, { secrets, workflows: stored }));
	report.check(clean, `leaks: ${secrets.length} secrets searched for (${seconds(since)})`);
	const stopped = await (await queue.services(n8n)).stop();
	report.check(stopped.every((outcome) => !outcome.killed), 'PostgreSQL (SIGINT) and Redis (SIGTERM) stopped');
}

async function main() {
	const state = {};
	try {
		await run(state);
	} catch (error) {
		// Interrupted: the clean-up stops everything and exits; what failed here is what it stopped.
		if (wasInterrupted()) return 130;
		if (!(error instanceof StepFailed)) report.fail(`unexpected error: ${error?.stack ?? error}`);
		if (state.n8n) console.log(`  n8n's logs: ${path.relative(paths.ROOT, state.n8n.logDir)}`);
	}
	await finish(state).catch((error) => report.fail(`stopping n8n and the leak search: ${error?.stack ?? error}`));
	return report.summary('queue e2e');
}

runCheck(main);
