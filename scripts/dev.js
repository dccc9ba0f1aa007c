'use strict';

// `npm run dev`: one command for changing the node, stopped with Ctrl+C.
//
// - builds the package, then rebuilds on every change: `tsc --watch`, and `gulp watch` for icons and codex files;
// - starts the sandbox gateway on 127.0.0.1:8787 (DEV_SANDBOX_PORT; a free port when that one is taken);
// - starts the real n8n that e2e/ installs (.e2e/n8n) on 127.0.0.1:5678 (DEV_N8N_PORT; a free port when taken), with
//   its own user folder (~/.n8n-nodes-payment-gateway-dev/<clone>-<hash>, or DEV_USER_FOLDER) whose
//   .n8n/nodes/node_modules/n8n-nodes-payment-gateway is a symlink to this repository, so that the node types are
//   n8n-nodes-payment-gateway.* as users get them, and N8N_DEV_RELOAD=true: n8n reloads the node when dist/ changes
//   (reload the editor page to see a new description);
// - sets up the owner account, stores the credential "Payment Gateway account" for the sandbox, imports the example
//   workflows that are not there yet, and points the sandbox's notifications at the production URL of the first
//   active workflow with a Payment Gateway Trigger;
// - prints the editor's address and the login once n8n's hot reload sees changes.
//
// The user folder stays between runs (workflows, executions, the owner); DEV_RESET=1 starts from an empty one.

const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const { startSandbox } = require('../sandbox/gateway');
const { webhookPathOf } = require('../e2e/lib/calls');
const { EXAMPLE_CREDENTIAL_NAME, loadExamples } = require('../e2e/lib/examples');
const { createN8n } = require('../e2e/lib/n8n');
const { ensureN8n, paths, PACKAGE_NAME } = require('../e2e/lib/package');
const { cleanUp, freePort, mustRun, onCleanUp, seconds, sleep, startService } = require('../e2e/lib/processes');
const { OWNER, RestSession } = require('../e2e/lib/rest');

const started = Date.now();
// Outside the repository: n8n watches the whole linked package (it cannot lazy-load ours) and would reload the node
// on each line it logs into a user folder inside it. One per clone, so that two clones do not share a database.
const USER_FOLDER =
	process.env.DEV_USER_FOLDER ||
	path.join(
		os.homedir(),
		'.n8n-nodes-payment-gateway-dev',
		`${path.basename(paths.ROOT)}-${crypto.createHash('sha256').update(paths.ROOT).digest('hex').slice(0, 8)}`,
	);
const CREDENTIAL = { id: 'pgDevSandboxCred', name: EXAMPLE_CREDENTIAL_NAME, type: 'paymentGatewayApi' };
const TRIGGER_TYPE = `${PACKAGE_NAME}.paymentGatewayTrigger`;
const NOTIFICATION_POLL_MS = 3000;
const N8N_SETTINGS = {
	N8N_DEV_RELOAD: 'true',
	// card-payment.json asks for it (examples/README.md): executions that save nothing are deleted at once.
	EXECUTIONS_DATA_PRUNE: 'false',
};

const log = (message) => console.log(`dev: ${message}`);
const bin = (name) => path.join(paths.ROOT, 'node_modules', '.bin', name);

/** `preferred` when nobody listens there, otherwise a free port. */
function portOr(preferred) {
	return new Promise((resolve) => {
		const probe = net.createServer();
		probe.once('error', () => resolve(freePort()));
		probe.listen(preferred, '127.0.0.1', () => probe.close(() => resolve(preferred)));
	});
}

/**
 * A long-running tool whose output lines are shown with its name in front; resolves at its first line matching
 * `ready` (never, without one).
 */
function watchWith(name, command, args, ready) {
	return new Promise((resolve) => {
		const onLine = (line) => {
			if (!line.trim()) return;
			console.log(`[${name}] ${line}`);
			if (ready?.test(line)) resolve();
		};
		startService(command, args, { cwd: paths.ROOT, env: process.env, onLine });
	});
}

/** The repository itself, linked where n8n loads community packages from (replacing an install left there). */
function linkPackage() {
	const nodesDir = path.join(USER_FOLDER, '.n8n', 'nodes');
	const link = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	fs.mkdirSync(path.dirname(link), { recursive: true });
	if (!fs.existsSync(path.join(nodesDir, 'package.json'))) {
		fs.writeFileSync(path.join(nodesDir, 'package.json'), `${JSON.stringify({ name: 'installed-nodes', private: true }, null, 2)}\n`);
	}
	fs.rmSync(link, { recursive: true, force: true });
	fs.symlinkSync(paths.ROOT, link, 'dir');
	return link;
}

/** The owner account on a new user folder; the same login afterwards. */
async function signIn(session) {
	const setup = await session.call('POST', '/rest/owner/setup', OWNER);
	if (setup.status !== 200) await session.login();
}

/** The examples not in n8n yet (by name), created over REST with the dev credential. */
async function importMissingExamples(session) {
	const present = new Set((await session.data('GET', '/rest/workflows')).map((workflow) => workflow.name));
	const missing = Object.values(loadExamples()).filter((workflow) => !present.has(workflow.name));
	for (const workflow of missing) {
		for (const node of workflow.nodes) {
			if (node.credentials?.paymentGatewayApi) node.credentials.paymentGatewayApi = { id: CREDENTIAL.id, name: CREDENTIAL.name };
		}
		await session.createWorkflow(workflow);
	}
	return missing.map((workflow) => workflow.name);
}

/**
 * Resolves once n8n's hot reload sees changes: it subscribes to the package's files only after it serves, crawling
 * the whole repository, and an edit made before then would go unnoticed. A file written into .e2e/ (ignored by git,
 * inside the watched tree) until n8n logs a reload tells when; false after `timeoutMs`.
 */
async function hotReloadLive(consoleFile, timeoutMs = 60_000) {
	const probe = path.join(paths.ROOT, '.e2e', 'dev-reload-probe');
	const reloads = () => fs.readFileSync(consoleFile, 'utf8').split('Hot reload triggered').length - 1;
	const before = reloads();
	const deadline = Date.now() + timeoutMs;
	try {
		while (Date.now() < deadline) {
			fs.writeFileSync(probe, `${Date.now()}\n`);
			await sleep(500);
			if (reloads() > before) return true;
		}
		return false;
	} finally {
		fs.rmSync(probe, { force: true });
	}
}

/** Keeps the sandbox's notifications pointed at the first active workflow with a Payment Gateway Trigger. */
function followTrigger(session, server, sandbox) {
	const find = async () => {
		for (const { id, active } of await session.data('GET', '/rest/workflows')) {
			if (!active) continue;
			const workflow = await session.data('GET', `/rest/workflows/${id}`);
			if (workflow.nodes.some((node) => node.type === TRIGGER_TYPE)) return server.webhookUrl(webhookPathOf(workflow));
		}
		return null;
	};
	const poll = async () => {
		const url = await find().catch(() => sandbox.notificationSettings.url);
		if (url !== sandbox.notificationSettings.url) {
			sandbox.setNotifications({ url });
			log(url ? `sandbox notifications now go to ${url}` : 'no active trigger workflow: sandbox notifications off');
		}
	};
	const timer = setInterval(poll, NOTIFICATION_POLL_MS);
	onCleanUp(() => clearInterval(timer));
	return poll();
}

async function main() {
	if (process.env.DEV_RESET === '1') fs.rmSync(USER_FOLDER, { recursive: true, force: true });
	await ensureN8n({ log });
	await mustRun('built the package (npm run build)', 'npm', ['run', 'build'], { cwd: paths.ROOT, log });
	const compiled = watchWith('tsc', bin('tsc'), ['-p', 'tsconfig.json', '--watch', '--preserveWatchOutput'], /Watching for file changes/);
	watchWith('gulp', bin('gulp'), ['watch']);
	log(`linked the repository as ${linkPackage()}`);

	const sandbox = await startSandbox({ port: await portOr(Number(process.env.DEV_SANDBOX_PORT || 8787)) });
	onCleanUp(() => sandbox.close());
	log(`sandbox gateway on ${sandbox.url}`);

	const port = await portOr(Number(process.env.DEV_N8N_PORT || 5678));
	const n8n = await createN8n({ userFolder: USER_FOLDER, log, env: { ...N8N_SETTINGS, N8N_PORT: String(port) } });
	await n8n.importCredentials([{ ...CREDENTIAL, data: sandbox.credentialData({ checkoutPageUrl: 'https://pay.example.com/cpbs/pg' }) }]);
	// tsc's first compile rewrites dist/: done before n8n loads the package, so that it is not a reload.
	await compiled;
	const server = await n8n.start();
	const session = new RestSession(server.url);
	await signIn(session);
	const imported = await importMissingExamples(session);
	await followTrigger(session, server, sandbox);
	if (!(await hotReloadLive(server.consoleFile))) log('n8n did not reload on a change within 60 s: changes may need a restart');

	console.log(`
n8n-nodes-payment-gateway, ready in ${seconds(started)}
  editor        ${server.url}   login ${OWNER.email} / ${OWNER.password}
  sandbox       ${sandbox.url}   (credential "${CREDENTIAL.name}"; control API ${sandbox.url}/__sandbox/...)
  examples      ${imported.length ? `imported ${imported.join('; ')}` : 'already there'}
  n8n's output  ${server.consoleFile}
Edit nodes/ or credentials/: tsc and gulp rebuild dist/, n8n reloads the node. Ctrl+C stops everything.
`);
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, async () => {
		if (stopping) return;
		stopping = true;
		log('stopping tsc, gulp, n8n and the sandbox');
		await cleanUp();
		process.exit(0);
	});
}

main().catch(async (error) => {
	console.error(`dev: ${error?.stack ?? error}`);
	await cleanUp();
	process.exit(1);
});
