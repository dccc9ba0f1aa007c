'use strict';

// The dev-loop check, `npm run e2e:dev`: `npm run dev` as a newcomer uses it, from this clone. It waits for the ready
// banner, executes a workflow that calls the sandbox the way the editor's "Execute workflow" does, changes a node
// source file, waits until n8n has reloaded it and executes again (the change must show), puts the file back, and
// stops everything with Ctrl+C (SIGINT to the command's process group, as a terminal sends it): no process it started
// may be left, nor a port they listened on. Then once more, warm: a source file that throws when n8n loads it makes
// n8n's hot reload fail, and npm run dev must stop by itself, with n8n's log line, leaving nothing behind either.
// Then as a script or a process manager stops it: SIGTERM to the command's own PID (npm's, not its group) once it is
// ready, and SIGINT to that PID while it is still starting (n8n not up yet); each time nothing may be left either.
// Source files are put back whatever happens, also on Ctrl+C of this check.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { story } = require('./lib/check');
const { paths, PACKAGE_NAME } = require('./lib/package');
const { isListening, listeningPorts, processesWithEnv, processTree, stillRunning } = require('./lib/process-tree');
const { freePort, launch, onCleanUp, seconds, sleep, waitUntil } = require('./lib/processes');
const { nodeItems, OWNER, RestSession } = require('./lib/rest');

// A cold `npm run dev` installs n8n first (several minutes on 2 cores); tsc's incremental compile and n8n's reload
// take seconds, and a busy machine gets generous room.
const READY_TIMEOUT_MS = 20 * 60_000;
const RELOAD_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 90_000;
const EDITED_FILE = path.join(paths.ROOT, 'nodes', 'PaymentGateway', 'PaymentGateway.node.ts');
const BROKEN_FILE = path.join(paths.ROOT, 'nodes', 'PaymentGateway', 'actions', 'router.ts');
const NODE_TYPE = `${PACKAGE_NAME}.paymentGateway`;
const TOKEN = Date.now().toString(36);
const DISPLAY_NAME = `Payment Gateway (edited ${TOKEN})`;

const wait = (probe, timeoutMs) => waitUntil(probe, { timeoutMs, intervalMs: 500 });
const exitedWithin = (child, ms) => Promise.race([child.exited, sleep(ms)]);
const s = {};
const { step, check, log } = story('dev check');

const sandboxRequests = async () => (await fetch(`${s.urls.sandbox}/__sandbox/requests`)).json();

/**
 * One execution as the editor's "Execute workflow" sends it: it must succeed, create an order at the sandbox and read
 * its status. Resolves with the order's item.
 */
async function executeAsEditor() {
	const before = (await sandboxRequests()).length;
	const since = Date.now();
	const started = await s.session.call('POST', `/rest/workflows/${s.workflowId}/run`, { triggerToStartFrom: { name: 'Manual Trigger' } });
	const executionId = started.body?.data?.executionId;
	assert.ok(executionId, `HTTP ${started.status}: ${started.text.slice(0, 300)}`);
	const execution = await wait(async () => {
		const stored = await s.session.execution(executionId).catch(() => undefined);
		return stored?.stoppedAt && stored;
	}, 120_000);
	assert.ok(execution, `execution ${executionId} did not finish`);
	log(`execution: ${seconds(since)}`);
	const { runData = {}, error } = execution.data?.resultData ?? {};
	assert.equal(execution.status, 'success', error?.message);
	const [order] = nodeItems(runData, 'Create order');
	const [status] = nodeItems(runData, 'Order status');
	assert.ok(typeof order?.orderId === 'string' && status?.orderId === order.orderId, `an order created and its status read: ${JSON.stringify(status ?? order ?? {}).slice(0, 200)}`);
	const sent = (await sandboxRequests()).slice(before).map((request) => `${request.method} ${request.apiPath}`);
	assert.ok(sent.includes('POST /order') && sent.includes('GET /nac/api/v1/pg/orders/check-status'), `the sandbox received: ${sent.join(', ')}`);
	return order;
}

/** The display name n8n serves for the node now (the editor reads /types/nodes.json). */
const servedDisplayName = async () => (await s.session.call('GET', '/types/nodes.json')).body?.find?.((type) => type.name === NODE_TYPE)?.displayName;

/** A source file changed for a while; put back at clean-up too. */
function sourceEdit(file) {
	const original = fs.readFileSync(file, 'utf8');
	const intact = () => fs.readFileSync(file, 'utf8') === original;
	const restore = () => intact() || fs.writeFileSync(file, original);
	onCleanUp(restore);
	return { original, change: (text) => fs.writeFileSync(file, text), restore, intact };
}

/** `npm run dev`, its output kept and shown indented. */
function launchDev() {
	const lines = [];
	const dev = launch('npm', ['run', 'dev'], { cwd: paths.ROOT, env: s.env, stopSignal: 'SIGINT', onLine: (line) => lines.push(line) && console.log(`  | ${line}`) });
	return { dev, lines };
}

/** `npm run dev`; resolves once its banner is out, with what it started. */
async function startDev(label) {
	const since = Date.now();
	const { dev, lines } = launchDev();
	await wait(() => !dev.running() || lines.some((line) => / ready in /.test(line)), READY_TIMEOUT_MS);
	assert.ok(dev.running() && lines.some((line) => / ready in /.test(line)), `npm run dev prints its ready banner (${dev.running() ? 'no banner' : 'it exited'})`);
	log(`${label}: ready after ${seconds(since)}`);
	const address = (name) => lines.map((line) => new RegExp(`^\\s+${name}\\s+(http://\\S+)`).exec(line)?.[1]).find(Boolean);
	const urls = { editor: address('editor'), sandbox: address('sandbox') };
	assert.ok(urls.editor && urls.sandbox, `the banner gives the editor and sandbox addresses: ${urls.editor}, ${urls.sandbox}`);
	// What npm run dev started and listens on, taken while it runs: once a parent is gone its children can't be told.
	const started = processTree(dev.pid);
	const ports = [...new Set([...listeningPorts(started), Number(new URL(urls.editor).port), Number(new URL(urls.sandbox).port)])];
	log(`${label}: ${started.length} processes, listening on ${ports.join(', ')}`);
	return { dev, lines, urls, started, ports };
}

/**
 * Once npm run dev has ended: none of the processes it started still runs, none of their ports is open, and no
 * process carries this check's user folder in its environment (one started after the processes were taken, too).
 */
async function assertNothingLeft({ started, ports }) {
	const listed = (processes) => processes.map((entry) => `${entry.pid} ${entry.command.slice(0, 120)}`);
	const withUserFolder = () => processesWithEnv('DEV_USER_FOLDER', s.env.DEV_USER_FOLDER);
	await wait(() => stillRunning(started).length === 0 && withUserFolder().length === 0, 10_000);
	assert.deepEqual(listed(stillRunning(started)), [], `processes left of the ${started.length} it started`);
	assert.deepEqual(listed(withUserFolder()), [], 'processes left with DEV_USER_FOLDER of this check');
	assert.deepEqual(ports.filter(isListening), [], `ports left open of ${ports.join(', ')}`);
}

/** A signal to npm's own PID only, as `kill <pid>` from a script or a process manager sends it; it must end by itself. */
async function signalOwnPid(dev, lines, signal) {
	process.kill(dev.pid, signal);
	const outcome = await exitedWithin(dev, STOP_TIMEOUT_MS);
	assert.ok(outcome, `npm run dev stopped within ${STOP_TIMEOUT_MS / 1000} s of ${signal} to its PID`);
	// dev.js stops everything and exits 0; npm then exits 0 as well.
	assert.equal(outcome.code, 0, `code ${outcome.code}, signal ${outcome.signal}`);
	assert.ok(lines.some((line) => line.includes('dev: stopping tsc, gulp, n8n and the sandbox')), 'it says that it stops everything');
}

step('npm run dev prints its ready banner: the editor and sandbox addresses and the login', async () => {
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-e2e-dev-'));
	onCleanUp(() => fs.rmSync(userFolder, { recursive: true, force: true }));
	s.env = { ...process.env, DEV_USER_FOLDER: userFolder, DEV_N8N_PORT: String(await freePort()), DEV_SANDBOX_PORT: String(await freePort()) };
	log(`npm run dev, user folder ${userFolder}`);
	s.first = await startDev('first start');
	s.urls = s.first.urls;
	assert.ok(s.first.lines.some((line) => line.includes(`login ${OWNER.email} / ${OWNER.password}`)), 'the banner gives the login');
});

step('a workflow executed as the editor does creates an order at the sandbox and reads its status', async () => {
	s.session = new RestSession(s.urls.editor);
	await s.session.login();
	// Manual Trigger → Order → Create → Status → Get by Order ID, with the credential `npm run dev` stores.
	s.workflowId = (await s.session.createWorkflow({ ...require('./dev/order-and-status.json'), name: `Dev check ${Date.now()}` })).id;
	await executeAsEditor();
});

step('PaymentGateway.node.ts changed: n8n serves the new display name, and the next run outputs what the changed code adds', async () => {
	s.node = sourceEdit(EDITED_FILE);
	const anchors = [
		["displayName: 'Payment Gateway',", `displayName: '${DISPLAY_NAME}',`],
		['return await router.call(this);', `const output = await router.call(this);\n\t\tfor (const item of output[0]) item.json.devReloadCheck = '${TOKEN}';\n\t\treturn output;`],
	];
	let source = s.node.original;
	for (const [anchor, replacement] of anchors) {
		// A missing anchor means this check must follow the source.
		if (!source.includes(anchor)) throw new Error(`${path.relative(paths.ROOT, EDITED_FILE)} no longer has "${anchor}": update e2e/dev.js`);
		source = source.replace(anchor, replacement);
	}
	s.node.change(source);
	const since = Date.now();
	assert.ok(await wait(async () => (await servedDisplayName()) === DISPLAY_NAME, RELOAD_TIMEOUT_MS), `n8n serves "${await servedDisplayName()}"`);
	log(`edit → n8n serves the new description: ${seconds(since)}`);
	assert.equal((await executeAsEditor()).devReloadCheck, TOKEN);
});

step('the file put back: the original display name and output again, and no hot-reload failure reported', async () => {
	s.node.restore();
	assert.ok(await wait(async () => (await servedDisplayName()) === 'Payment Gateway', RELOAD_TIMEOUT_MS), 'the original display name');
	assert.equal((await executeAsEditor()).devReloadCheck, undefined);
	assert.ok(!s.first.lines.some((line) => /hot reload failed/i.test(line)));
});

step('Ctrl+C stops npm run dev without an error, saying that it stops everything', async () => {
	process.kill(-s.first.dev.pid, 'SIGINT');
	const outcome = await exitedWithin(s.first.dev, STOP_TIMEOUT_MS);
	assert.ok(outcome, `stopped within ${STOP_TIMEOUT_MS / 1000} s`);
	// npm ends itself with the signal it was sent, as a shell expects of Ctrl+C; dev.js has stopped its children by then.
	assert.ok(outcome.code === 0 || outcome.code === 130 || outcome.signal === 'SIGINT', `code ${outcome.code}, signal ${outcome.signal}`);
	assert.ok(s.first.lines.some((line) => line.includes('dev: stopping tsc, gulp, n8n and the sandbox')));
});

check('after Ctrl+C no process it started is left, no port open, and the edited source file is as it was', async () => {
	await assertNothingLeft(s.first);
	assert.ok(s.node.intact());
});

step("a second start; a source file that throws when loaded fails n8n's hot reload, which stops npm run dev with an error", async () => {
	s.second = await startDev('second start');
	s.router = sourceEdit(BROKEN_FILE);
	const breaker = `reload breaker ${TOKEN}`;
	s.router.change(`${s.router.original}\nthrow new Error('${breaker}');\n`);
	log(`made ${path.relative(paths.ROOT, BROKEN_FILE)} throw when it is loaded`);
	const ended = await exitedWithin(s.second.dev, RELOAD_TIMEOUT_MS);
	s.router.restore();
	assert.ok(ended, 'a failed hot reload stops npm run dev by itself');
	assert.ok(ended.code !== 0 && ended.code !== null, `exits with an error code: code ${ended.code}, signal ${ended.signal}`);
	assert.ok(s.second.lines.some((line) => /hot reload failed/i.test(line) && line.includes(breaker)), "it says that n8n's hot reload failed, with n8n's message");
	assert.ok(s.second.lines.some((line) => line.includes("n8n's log line: {")), "it prints n8n's log line");
});

check('after the failed reload no process is left, no port open, and the broken source file is as it was', async () => {
	await assertNothingLeft(s.second);
	assert.ok(s.router.intact());
});

step("SIGTERM to npm run dev's own PID once it is ready (as a process manager stops it) stops it without an error", async () => {
	s.third = await startDev('third start');
	await signalOwnPid(s.third.dev, s.third.lines, 'SIGTERM');
});

check('after SIGTERM to its PID no process it started is left, and no port open', async () => {
	await assertNothingLeft(s.third);
});

step("SIGINT to npm run dev's own PID while it is still starting (the sandbox up, n8n not yet) stops it without an error", async () => {
	const { dev, lines } = launchDev();
	const starting = () => lines.some((line) => line.startsWith('dev: sandbox gateway on'));
	await wait(() => !dev.running() || starting(), READY_TIMEOUT_MS);
	assert.ok(dev.running() && starting(), 'npm run dev says that the sandbox is up');
	// Taken at the signal; n8n and its import command, started after it or not at all, are found by their environment.
	const started = processTree(dev.pid);
	// The ports npm run dev was told to use: it takes them when they are free, as they are here.
	s.fourth = { started, ports: [...new Set([...listeningPorts(started), Number(s.env.DEV_N8N_PORT), Number(s.env.DEV_SANDBOX_PORT)])] };
	log(`fourth start: SIGINT with ${started.length} processes running, listening on ${s.fourth.ports.join(', ')}`);
	await signalOwnPid(dev, lines, 'SIGINT');
	assert.ok(!lines.some((line) => / ready in /.test(line)), 'it did not go on to its ready banner');
});

check('after SIGINT to its PID while starting no process is left, and neither the n8n nor the sandbox port open', async () => {
	await assertNothingLeft(s.fourth);
});
