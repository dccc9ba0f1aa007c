'use strict';

// `npm run dev`: one command for changing the node, stopped with Ctrl+C, or SIGINT or SIGTERM to its own PID.
//
// - builds the package into a copy that n8n loads as a community package, outside the repository, and rebuilds it on
//   every change: `tsc --watch`, and `gulp watch` for icons and codex files;
// - starts the sandbox gateway on 127.0.0.1:8787 (DEV_SANDBOX_PORT; a free port when that one is taken);
// - starts the real n8n that e2e/ installs (~/.cache/n8n-nodes-payment-gateway/<clone>-<hash>/n8n) on 127.0.0.1:5678
//   (DEV_N8N_PORT; a free port when taken), with its own user folder (~/.n8n-nodes-payment-gateway-dev/<clone>-<hash>,
//   or DEV_USER_FOLDER) and N8N_DEV_RELOAD=true;
// - sets up the owner account, stores the credential "Payment Gateway account" for the sandbox, imports the example
//   workflows that are not there yet, and points the sandbox's notifications at the production URL of the first
//   active workflow with a Payment Gateway Trigger;
// - prints the editor's address and the login once n8n's hot reload sees changes, and stops everything, loudly, when
//   n8n reports that a hot reload failed (n8n cannot run workflows after that).
//
// What n8n loads is <user folder>/.n8n/nodes/node_modules/n8n-nodes-payment-gateway: package.json and the dist/ that
// the watchers write, the files the package ships. n8n's hot reload drops every cached module under the package's
// folder; linking the repository there made it drop n8n's own modules too (n8n was installed inside the repository
// then), and every execution failed after the first reload. It also resolves n8n-workflow as an installed package
// does, from n8n.
//
// The user folder stays between runs (workflows, executions, the owner); DEV_RESET=1 starts from an empty one.
//
// The npm script is `exec node scripts/dev.js`: npm runs a script through `sh -c` and passes SIGINT and SIGTERM on
// to that shell only, which dies of SIGTERM without passing it on (dash does not replace itself with its last
// command) and left this script and everything it started running. With exec, npm's child is this script.

const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const { startSandbox } = require('../sandbox/gateway');
const { EXAMPLE_CREDENTIAL_NAME, loadExamples } = require('../e2e/lib/examples');
const { createN8n } = require('../e2e/lib/n8n');
const { ensureN8n, paths, PACKAGE_NAME } = require('../e2e/lib/package');
const { cleanUp, freePort, launch, mustRun, onCleanUp, seconds, waitUntil } = require('../e2e/lib/processes');
const { OWNER, RestSession, webhookPathOf } = require('../e2e/lib/rest');

const started = Date.now();
// Outside the repository, one per clone, so that two clones do not share a database.
const USER_FOLDER = process.env.DEV_USER_FOLDER || path.join(os.homedir(), '.n8n-nodes-payment-gateway-dev', paths.CLONE_KEY);
const CREDENTIAL = { id: 'pgDevSandboxCred', name: EXAMPLE_CREDENTIAL_NAME, type: 'paymentGatewayApi' };
const TRIGGER_TYPE = `${PACKAGE_NAME}.paymentGatewayTrigger`;
const NOTIFICATION_POLL_MS = 3000;
const N8N_SETTINGS = {
	N8N_DEV_RELOAD: 'true',
	// card-payment.json asks for it (examples/README.md): executions that save nothing are deleted at once.
	EXECUTIONS_DATA_PRUNE: 'false',
};

const PACKAGE_COPY = path.join(USER_FOLDER, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
const PACKAGE_COPY_DIST = path.join(PACKAGE_COPY, 'dist');

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
function watchWith(name, command, args, ready, env = process.env) {
	return new Promise((resolve) => {
		const onLine = (line) => {
			if (!line.trim()) return;
			console.log(`[${name}] ${line}`);
			if (ready?.test(line)) resolve();
		};
		launch(command, args, { cwd: paths.ROOT, env, onLine });
	});
}

/**
 * The folder n8n loads the package from: package.json and index.js copied, dist/ written by the watchers. A link or an
 * installed package left there by an earlier run or by hand is replaced.
 */
function preparePackageCopy() {
	const nodesDir = path.join(USER_FOLDER, '.n8n', 'nodes');
	fs.mkdirSync(nodesDir, { recursive: true });
	if (!fs.existsSync(path.join(nodesDir, 'package.json'))) {
		fs.writeFileSync(path.join(nodesDir, 'package.json'), `${JSON.stringify({ name: 'installed-nodes', private: true }, null, 2)}\n`);
	}
	fs.rmSync(PACKAGE_COPY, { recursive: true, force: true });
	fs.mkdirSync(PACKAGE_COPY_DIST, { recursive: true });
	for (const file of ['package.json', 'index.js']) fs.copyFileSync(path.join(paths.ROOT, file), path.join(PACKAGE_COPY, file));
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
 * Resolves once n8n's hot reload sees changes: it subscribes to the package's folder only after it serves, and an edit
 * made before then would go unnoticed. A file written into the package's folder until n8n logs a reload tells when;
 * false after `timeoutMs`.
 */
async function hotReloadLive(n8nLog, timeoutMs = 60_000) {
	const probe = path.join(PACKAGE_COPY, '.dev-reload-probe');
	const before = n8nLog.reloads;
	try {
		const reloaded = () => {
			if (n8nLog.reloads > before) return true;
			// Touched again on every poll: a change n8n's watcher missed is not waited for in vain.
			fs.writeFileSync(probe, `${Date.now()}\n`);
			return false;
		};
		return Boolean(await waitUntil(reloaded, { timeoutMs, intervalMs: 500 }));
	} finally {
		fs.rmSync(probe, { force: true });
	}
}

/**
 * Follows n8n's console output (one JSON entry per line): counts hot reloads, says when one starts once `announce` is
 * set, and hands a failed one to `onFailure` with its line. n8n goes on serving after a failed reload, but every
 * execution then fails.
 */
function followN8nLog(consoleFile, onFailure) {
	const state = { reloads: 0, announce: false };
	let offset = 0;
	let rest = '';
	const read = () => {
		let chunk;
		try {
			const fd = fs.openSync(consoleFile, 'r');
			try {
				const size = fs.fstatSync(fd).size;
				if (size <= offset) return;
				chunk = Buffer.alloc(size - offset);
				fs.readSync(fd, chunk, 0, chunk.length, offset);
				offset = size;
			} finally {
				fs.closeSync(fd);
			}
		} catch {
			return;
		}
		const lines = (rest + chunk.toString('utf8')).split('\n');
		rest = lines.pop();
		for (const line of lines) {
			if (line.includes('Hot reload triggered')) {
				state.reloads++;
				if (state.announce) log('n8n is reloading the package (reload the editor page to see new descriptions)');
			}
			if (line.includes('Hot reload failed')) onFailure(line);
		}
	};
	const timer = setInterval(read, 250);
	onCleanUp(() => clearInterval(timer));
	return state;
}

/** What a failed reload's log line says, in one line: n8n's message and the error it carries. */
function reloadFailure(line) {
	try {
		const entry = JSON.parse(line);
		const error = entry.metadata?.error?.message;
		return error ? `${entry.message}: ${error}` : entry.message;
	} catch {
		return line;
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
	preparePackageCopy();
	const toCopy = { ...process.env, PACKAGE_OUT_DIR: PACKAGE_COPY_DIST };
	await mustRun('copied icons and codex files (gulp build)', bin('gulp'), ['build'], { cwd: paths.ROOT, env: toCopy, log });
	const compiled = watchWith(
		'tsc',
		bin('tsc'),
		['-p', 'tsconfig.json', '--watch', '--preserveWatchOutput', '--outDir', PACKAGE_COPY_DIST],
		/Watching for file changes/,
	);
	watchWith('gulp', bin('gulp'), ['watch'], undefined, toCopy);
	log(`n8n loads the package from ${PACKAGE_COPY}`);

	const sandbox = await startSandbox({ port: await portOr(Number(process.env.DEV_SANDBOX_PORT || 8787)) });
	onCleanUp(() => sandbox.close());
	log(`sandbox gateway on ${sandbox.url}`);

	const port = await portOr(Number(process.env.DEV_N8N_PORT || 5678));
	const n8n = await createN8n({ userFolder: USER_FOLDER, log, env: { ...N8N_SETTINGS, N8N_PORT: String(port) } });
	// The sandbox's own hosted checkout page: a checkoutUrl made in this n8n opens in a browser, with Pay and Decline.
	await n8n.importCredentials([{ ...CREDENTIAL, data: sandbox.credentialData({ checkoutPageUrl: `${sandbox.url}/__sandbox/cpbs/pg` }) }]);
	// tsc's first compile writes dist/: done before n8n loads the package, so that it is not a reload.
	await compiled;
	const server = await n8n.start();
	const n8nLog = followN8nLog(server.consoleFile, (line) => {
		console.error(
			`\ndev: n8n's hot reload failed, so npm run dev stops (n8n cannot be trusted to run workflows after it). Fix what n8n says and run npm run dev again.\n  ${reloadFailure(line)}\n  n8n's log line: ${line.slice(0, 2000)}\n`,
		);
		stop(1);
	});
	const session = new RestSession(server.url);
	await signIn(session);
	const imported = await importMissingExamples(session);
	await followTrigger(session, server, sandbox);
	if (!(await hotReloadLive(n8nLog))) log('n8n did not reload on a change within 60 s: changes may need a restart');
	n8nLog.announce = true;

	console.log(`
n8n-nodes-payment-gateway, ready in ${seconds(started)}
  editor        ${server.url}   login ${OWNER.email} / ${OWNER.password}
  sandbox       ${sandbox.url}   (credential "${CREDENTIAL.name}"; control API ${sandbox.url}/__sandbox/...;
                its orders live in memory: after a restart, unpin and create new ones)
  examples      ${imported.length ? `imported ${imported.join('; ')}` : 'already there'}
  n8n's output  ${server.consoleFile}
Edit nodes/ or credentials/: tsc and gulp rebuild the package n8n loads, n8n reloads it. Ctrl+C stops everything.
`);
}

let stopping = false;
/** Stops tsc, gulp, n8n and the sandbox, then exits with `code`. */
async function stop(code) {
	if (stopping) return;
	stopping = true;
	log('stopping tsc, gulp, n8n and the sandbox');
	await cleanUp();
	process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(0));

main().catch((error) => {
	// Once stopping, what main() was waiting for is being taken away: that is not an error to show.
	if (!stopping) console.error(`dev: ${error?.stack ?? error}`);
	stop(1);
});
