'use strict';

// The dev-loop check: `npm run dev` as a newcomer uses it, from this clone. `npm run e2e:dev`.
//
// Starts `npm run dev` (its own user folder, free ports), waits for its ready banner, logs in and executes a workflow
// that calls the sandbox the way the editor's "Execute workflow" does (POST /rest/workflows/<id>/run), changes a node
// source file, waits until n8n has reloaded it and executes again (the change must show in the output), puts the file
// back, and stops everything with Ctrl+C (SIGINT to the command's process group, as a terminal sends it). Then no
// process it started may be left, and no port they listened on may still be open. Then once more, warm: a source file
// that throws when n8n loads it makes n8n's hot reload fail, and npm run dev must stop by itself, saying so with n8n's
// log line, and leave nothing behind either. Prints a PASS/FAIL line per step.
//
// Source files are put back at the end whatever happens (also on Ctrl+C of this check).

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { paths, PACKAGE_NAME } = require('./lib/package');
const { isListening, listeningPorts, processTree, stillRunning } = require('./lib/process-tree');
const { freePort, launch, onCleanUp, runCheck, seconds, sleep, waitUntil } = require('./lib/processes');
const { createReport, StepFailed } = require('./lib/report');
const { nodeItems, OWNER, RestSession } = require('./lib/rest');

// A cold `npm run dev` installs n8n first (several minutes on 2 cores); a warm one is ready in well under a minute.
const READY_TIMEOUT_MS = 20 * 60_000;
// tsc's incremental compile and n8n's reload take seconds; a busy machine gets generous room.
const RELOAD_TIMEOUT_MS = 120_000;
const EXECUTION_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 90_000;

const EDITED_FILE = path.join(paths.ROOT, 'nodes', 'PaymentGateway', 'PaymentGateway.node.ts');
const BROKEN_FILE = path.join(paths.ROOT, 'nodes', 'PaymentGateway', 'actions', 'router.ts');
const NODE_TYPE = `${PACKAGE_NAME}.paymentGateway`;
const CREDENTIAL = { id: 'pgDevSandboxCred', name: 'Payment Gateway account' };

const report = createReport();
const { check, must } = report;
const log = (message) => console.log(`dev check: ${message}`);

/** `waitUntil` at this check's pace. */
const waitFor = (probe, timeoutMs) => waitUntil(probe, { timeoutMs, intervalMs: 500 });

/** Manual Trigger → Order → Create → Status → Get by Order ID, with the credential `npm run dev` stores. */
function orderAndStatusWorkflow() {
	const node = (name, x, parameters) => ({
		id: `dev-check-${x}`,
		name,
		type: NODE_TYPE,
		typeVersion: 1,
		position: [x, 0],
		parameters,
		credentials: { paymentGatewayApi: CREDENTIAL },
	});
	return {
		name: `Dev check ${Date.now()}`,
		nodes: [
			{ id: 'dev-check-0', name: 'Manual Trigger', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			node('Create order', 250, {
				resource: 'order',
				operation: 'create',
				amount: 12.5,
				currency: 'OMR',
				customerName: 'Jane Doe',
				customerEmail: 'jane@example.com',
				customerPhone: '91234567',
			}),
			node('Order status', 500, { resource: 'status', operation: 'getByOrderId', orderId: '={{ $json.orderId }}' }),
		],
		connections: {
			'Manual Trigger': { main: [[{ node: 'Create order', type: 'main', index: 0 }]] },
			'Create order': { main: [[{ node: 'Order status', type: 'main', index: 0 }]] },
		},
	};
}

/** What the editor's "Execute workflow" sends; resolves with the finished execution's status and run data. */
async function executeAsEditor(session, workflowId) {
	const started = await session.call('POST', `/rest/workflows/${workflowId}/run`, { triggerToStartFrom: { name: 'Manual Trigger' } });
	const executionId = started.body?.data?.executionId;
	if (!executionId) return { error: `HTTP ${started.status}: ${started.text.slice(0, 300)}` };
	const execution = await waitFor(async () => {
		const stored = await session.execution(executionId).catch(() => undefined);
		return stored?.stoppedAt ? stored : undefined;
	}, EXECUTION_TIMEOUT_MS);
	if (!execution) return { error: `execution ${executionId} did not finish within ${EXECUTION_TIMEOUT_MS / 1000} s` };
	const resultData = execution.data?.resultData ?? {};
	return { status: execution.status, runData: resultData.runData ?? {}, error: resultData.error?.message };
}

/** The sandbox's request log: every API request it received. */
async function sandboxRequests(sandboxUrl) {
	return await (await fetch(`${sandboxUrl}/__sandbox/requests`)).json();
}

/** One execution through the editor's route: it succeeds, creates an order at the sandbox and reads its status. */
async function checkExecution(label, { session, workflowId, sandboxUrl }) {
	const before = (await sandboxRequests(sandboxUrl)).length;
	const run = await report.timed(`${label}: execution`, () => executeAsEditor(session, workflowId));
	must(run.status === 'success', `${label}: the execution succeeded`, `${run.status ?? 'no execution'}: ${run.error ?? ''}`);
	const [order] = nodeItems(run.runData, 'Create order');
	const [status] = nodeItems(run.runData, 'Order status');
	check(typeof order?.orderId === 'string' && status?.orderId === order.orderId, `${label}: an order was created and its status read`, JSON.stringify(status ?? order ?? {}).slice(0, 200));
	const sent = (await sandboxRequests(sandboxUrl)).slice(before).map((request) => `${request.method} ${request.apiPath}`);
	check(
		sent.includes('POST /order') && sent.includes('GET /nac/api/v1/pg/orders/check-status'),
		`${label}: the sandbox received the order and the status request`,
		sent.join(', '),
	);
	return order ?? {};
}

/** The display name n8n serves for the node now (the editor reads /types/nodes.json). */
async function servedDisplayName(session) {
	const types = await session.call('GET', '/types/nodes.json');
	return types.body?.find?.((type) => type.name === NODE_TYPE)?.displayName;
}

/** Replaces one anchor of the source text; a missing anchor means this check must follow the source. */
function edited(source, anchor, replacement) {
	if (!source.includes(anchor)) throw new Error(`${path.relative(paths.ROOT, EDITED_FILE)} no longer has "${anchor}": update e2e/dev.js`);
	return source.replace(anchor, replacement);
}

/** A source file changed for a while: `change(text)` gives the new text; `restore()` also runs at clean-up. */
function sourceEdit(file) {
	const original = fs.readFileSync(file, 'utf8');
	const restore = () => {
		if (fs.readFileSync(file, 'utf8') !== original) fs.writeFileSync(file, original);
	};
	onCleanUp(restore);
	return {
		original,
		change: (text) => fs.writeFileSync(file, text),
		restore,
		intact: () => fs.readFileSync(file, 'utf8') === original,
	};
}

/** `npm run dev` with `env`, its output kept in `lines` and shown indented; resolves once its banner is out. */
async function startDev(env, label) {
	const lines = [];
	const since = Date.now();
	const dev = launch('npm', ['run', 'dev'], {
		cwd: paths.ROOT,
		env,
		stopSignal: 'SIGINT',
		onLine: (line) => {
			lines.push(line);
			console.log(`  | ${line}`);
		},
	});
	const banner = await waitFor(() => !dev.running() || lines.some((line) => / ready in /.test(line)), READY_TIMEOUT_MS);
	must(banner && dev.running(), `${label}: npm run dev prints its ready banner`, dev.running() ? 'no banner' : 'it exited');
	log(`${label}: ready after ${seconds(since)}`);
	const address = (name) => lines.map((line) => new RegExp(`^\\s+${name}\\s+(http://\\S+)`).exec(line)?.[1]).find(Boolean);
	const urls = { editor: address('editor'), sandbox: address('sandbox') };
	must(Boolean(urls.editor && urls.sandbox), `${label}: the banner gives the editor and sandbox addresses`, `${urls.editor}, ${urls.sandbox}`);
	// What npm run dev started, and what it listens on, taken while it runs.
	const started = processTree(dev.pid);
	const ports = [...new Set([...listeningPorts(started), Number(new URL(urls.editor).port), Number(new URL(urls.sandbox).port)])];
	log(`${label}: ${started.length} processes, listening on ${ports.join(', ')}`);
	return { dev, lines, urls, started, ports };
}

/** Once npm run dev has ended: none of the processes it started still runs, none of their ports is open. */
async function nothingLeft(label, { started, ports }) {
	const left = (await waitFor(() => stillRunning(started).length === 0, 10_000)) ? [] : stillRunning(started);
	check(left.length === 0, `${label}: no process left of the ${started.length} it started`, left.map((entry) => `${entry.pid} ${entry.command.slice(0, 120)}`).join('; '));
	const open = ports.filter(isListening);
	check(open.length === 0, `${label}: no port left open (${ports.join(', ')})`, `still listening: ${open.join(', ')}`);
}

async function main() {
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-e2e-dev-'));
	onCleanUp(() => fs.rmSync(userFolder, { recursive: true, force: true }));
	const env = {
		...process.env,
		DEV_USER_FOLDER: userFolder,
		DEV_N8N_PORT: String(await freePort()),
		DEV_SANDBOX_PORT: String(await freePort()),
	};
	log(`npm run dev, user folder ${userFolder}`);
	const first = await startDev(env, 'first start');
	const { dev, lines, urls } = first;
	check(lines.some((line) => line.includes(`login ${OWNER.email} / ${OWNER.password}`)), 'the banner gives the login');

	const session = new RestSession(urls.editor);
	await session.login();
	const workflow = await session.createWorkflow(orderAndStatusWorkflow());
	const context = { session, workflowId: workflow.id, sandboxUrl: urls.sandbox };
	await checkExecution('first run', context);

	const node = sourceEdit(EDITED_FILE);
	const token = Date.now().toString(36);
	const displayName = `Payment Gateway (edited ${token})`;
	let source = edited(node.original, "displayName: 'Payment Gateway',", `displayName: '${displayName}',`);
	source = edited(
		source,
		'return await router.call(this);',
		`const output = await router.call(this);\n\t\tfor (const item of output[0]) item.json.devReloadCheck = '${token}';\n\t\treturn output;`,
	);
	node.change(source);
	log(`changed ${path.relative(paths.ROOT, EDITED_FILE)}: display name and output`);
	const reloaded = await report.timed('edit → n8n serves the new description', () =>
		waitFor(async () => (await servedDisplayName(session)) === displayName, RELOAD_TIMEOUT_MS),
	);
	must(Boolean(reloaded), 'after the edit, n8n serves the node with the new display name', `"${await servedDisplayName(session)}"`);
	const order = await checkExecution('run after the edit', context);
	check(order.devReloadCheck === token, 'run after the edit: the output comes from the changed code', `devReloadCheck ${order.devReloadCheck}`);

	node.restore();
	log(`put ${path.relative(paths.ROOT, EDITED_FILE)} back`);
	const back = await waitFor(async () => (await servedDisplayName(session)) === 'Payment Gateway', RELOAD_TIMEOUT_MS);
	must(Boolean(back), 'after putting the file back, n8n serves the original display name');
	const again = await checkExecution('run after putting it back', context);
	check(again.devReloadCheck === undefined, 'run after putting it back: the output is the original one');
	check(!lines.some((line) => /hot reload failed/i.test(line)), 'npm run dev reported no hot-reload failure');

	process.kill(-dev.pid, 'SIGINT');
	const outcome = await Promise.race([dev.exited, sleep(STOP_TIMEOUT_MS).then(() => undefined)]);
	must(outcome !== undefined, `Ctrl+C stops npm run dev within ${STOP_TIMEOUT_MS / 1000} s`);
	// npm ends itself with the signal it was sent, as a shell expects of Ctrl+C; dev.js has stopped its children by then.
	check(
		outcome.code === 0 || outcome.code === 130 || outcome.signal === 'SIGINT',
		'npm run dev ends as Ctrl+C ends it (no error)',
		`code ${outcome.code}, signal ${outcome.signal}`,
	);
	check(lines.some((line) => line.includes('dev: stopping tsc, gulp, n8n and the sandbox')), 'npm run dev says that it stops everything');
	await nothingLeft('after Ctrl+C', first);
	check(node.intact(), 'the edited source file is as it was');

	// A failed hot reload: n8n logs it and goes on serving, but cannot be trusted to run workflows any more.
	const second = await startDev(env, 'second start');
	const router = sourceEdit(BROKEN_FILE);
	const breaker = `reload breaker ${token}`;
	router.change(`${router.original}\nthrow new Error('${breaker}');\n`);
	log(`made ${path.relative(paths.ROOT, BROKEN_FILE)} throw when it is loaded`);
	const ended = await Promise.race([second.dev.exited, sleep(RELOAD_TIMEOUT_MS).then(() => undefined)]);
	router.restore();
	must(ended !== undefined, 'a failed hot reload stops npm run dev by itself');
	check(ended.code !== 0 && ended.code !== null, 'npm run dev exits with an error code', `code ${ended.code}, signal ${ended.signal}`);
	check(second.lines.some((line) => /hot reload failed/i.test(line) && line.includes(breaker)), "it says that n8n's hot reload failed, with n8n's message");
	check(second.lines.some((line) => line.includes("n8n's log line: {")), "it prints n8n's log line");
	await nothingLeft('after the failed reload', second);
	check(router.intact(), 'the broken source file is as it was');
	return report.summary('dev loop');
}

runCheck(main, {
	onError: (error) => {
		if (!(error instanceof StepFailed)) report.fail(error?.stack ?? String(error));
		report.summary('dev loop');
	},
});
