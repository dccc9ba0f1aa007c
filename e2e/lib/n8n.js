'use strict';

// One real n8n bound to one user folder: its environment, its CLI commands, how it starts and stops, and what it
// stores. How n8n is deployed (its database, which processes `start` runs) is a separate module, so that a check
// written against this interface runs unchanged on another deployment:
//
//   const n8n = await createN8n({ userFolder });          // deployment 'single' (sqlite, one `n8n start`)
//   await n8n.importCredentials([...]); await n8n.importWorkflows([...]);
//   const { run } = await n8n.execute(workflowId);         // `n8n execute --id --rawOutput`, parsed
//   const server = await n8n.start();                      // { url, webhookUrl(path), stop(), keep() }
//   const tables = await n8n.readTables();                 // for the leak search
//   await n8n.stop();
//
// A deployment module exports { name, databaseEnv(n8n), start(n8n), readTables(n8n) }; see single.js and queue.js.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { paths } = require('./package');
const { run, freePort, onCleanUp, seconds } = require('./processes');

const DEPLOYMENTS = { single: () => require('./single'), queue: () => require('./queue') };

// An n8n command takes 3-9 s here; one that hangs must not hang the check.
const COMMAND_TIMEOUT_MS = Number(process.env.E2E_N8N_TIMEOUT_MS || 180_000);
const ENCRYPTION_KEY = 'e2e-only-encryption-key-7d0c2f5b9a';

/**
 * `execute --rawOutput` logs the run as one info message holding pretty JSON. With N8N_LOG_FORMAT=json every console
 * line is a JSON log entry: the run is the last message that parses to an object with `data.resultData`.
 */
function parseRawOutput(stdout) {
	let run;
	for (const line of stdout.split('\n')) {
		const message = parseJson(line)?.message;
		const parsed = typeof message === 'string' && message.startsWith('{') ? parseJson(message) : undefined;
		if (parsed?.data?.resultData) run = parsed;
	}
	if (!run) throw new Error('no JSON run data in the output');
	return run;
}

function parseJson(text) {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** The environment every n8n process gets; nothing of an outer n8n setup leaks in. */
function baseEnv(userFolder) {
	const env = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (!/^(N8N_|DB_|QUEUE_|EXECUTIONS_|OFFLOAD_)/.test(key)) env[key] = value;
	}
	return {
		...env,
		PATH: `${paths.NODE_BIN_DIR}${path.delimiter}${process.env.PATH}`,
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		// The default engine crashed at shutdown (exit 139) in about 1 run in 10-20.
		N8N_EXPRESSION_ENGINE: 'legacy',
		N8N_HOST: '127.0.0.1',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_SECURE_COOKIE: 'false',
		// Everything n8n logs, also into files (N8N_LOG_FILE_LOCATION, one per process) that the leak search reads.
		// JSON lines, also on the console: at level debug the text format wraps every message (the run printed by
		// `execute --rawOutput` too) in times and colours.
		N8N_LOG_LEVEL: 'debug',
		N8N_LOG_OUTPUT: 'console,file',
		N8N_LOG_FORMAT: 'json',
	};
}

/**
 * @param {object} options
 * @param {string} options.userFolder  N8N_USER_FOLDER (the package is installed in its .n8n/nodes beforehand)
 * @param {string} [options.deployment]  'single' (default; E2E_N8N_DEPLOYMENT overrides) or 'queue'
 * @param {Record<string, string>} [options.env]  n8n settings every process and command gets (e.g. EXECUTIONS_DATA_PRUNE;
 *   N8N_PORT fixes the port of every process, which suits only a deployment of one process)
 * @param {(message: string) => void} [options.log]
 */
async function createN8n({ userFolder, deployment = process.env.E2E_N8N_DEPLOYMENT || 'single', log = console.log, env: settings = {} }) {
	if (!DEPLOYMENTS[deployment]) throw new Error(`unknown n8n deployment "${deployment}"`);
	const kind = DEPLOYMENTS[deployment]();
	const logDir = path.join(userFolder, 'logs');
	fs.mkdirSync(logDir, { recursive: true });

	const n8n = {
		deployment: kind.name,
		userFolder,
		logDir,
		log,
		server: undefined,

		/** The environment of one n8n process (`role` names its log file); fresh free ports for each. */
		async env(role, extra = {}) {
			return {
				...baseEnv(userFolder),
				...settings,
				...(await kind.databaseEnv(n8n)),
				N8N_PORT: settings.N8N_PORT ?? String(await freePort()),
				N8N_RUNNERS_BROKER_PORT: String(await freePort()),
				N8N_LOG_FILE_LOCATION: path.join(logDir, `n8n-${role}.log`),
				...extra,
			};
		},

		/** Runs `n8n <args>`; resolves with { code, signal, stdout, stderr } whatever the exit code. */
		async cli(args, { timeoutMs = COMMAND_TIMEOUT_MS } = {}) {
			return run(paths.NODE, [paths.N8N_BIN, ...args], { cwd: userFolder, env: await n8n.env('cli'), timeoutMs });
		},

		/** `cli`, but throws on a non-zero exit; logs `what` with the time taken. */
		async mustCli(what, args) {
			const since = Date.now();
			const result = await n8n.cli(args);
			if (result.code !== 0) {
				const tail = `${result.stdout}${result.stderr}`.trim().split('\n').slice(-40).join('\n');
				throw new Error(`${what} failed (exit ${result.code}${result.signal ? `, ${result.signal}` : ''})\n${tail}`);
			}
			log(`${what} (${seconds(since)})`);
			return result;
		},

		/** `import:credentials` of [{ id, name, type, data }] with plain data (n8n encrypts it on import). */
		async importCredentials(credentials) {
			await withScratchFile('credentials.json', JSON.stringify(credentials), (file) =>
				n8n.mustCli(`imported ${credentials.length} credential(s) (n8n import:credentials)`, [
					'import:credentials',
					`--input=${file}`,
				]),
			);
		},

		/** `import:workflow --separate` of workflow objects (each with its 16-character `id`). */
		async importWorkflows(workflows) {
			await withScratchDir(async (dir) => {
				workflows.forEach((workflow, index) =>
					fs.writeFileSync(path.join(dir, `${index}.json`), JSON.stringify(workflow)),
				);
				await n8n.mustCli(`imported ${workflows.length} workflow(s) (n8n import:workflow --separate)`, [
					'import:workflow',
					'--separate',
					`--input=${dir}`,
				]);
			});
		},

		/**
		 * `execute --id=<id> --rawOutput`: resolves with { code, signal, stdout, stderr, run } where `run` is the parsed
		 * run (`run.data.resultData.runData`), or undefined when n8n printed none.
		 */
		async execute(workflowId) {
			const result = await n8n.cli(['execute', `--id=${workflowId}`, '--rawOutput']);
			let run;
			try {
				run = parseRawOutput(result.stdout);
			} catch {
				run = undefined;
			}
			return { ...result, run };
		},

		/**
		 * Starts n8n as the deployment runs it; resolves once it serves. Returns { url (main: REST and editor),
		 * webhookUrl(path) (where production webhooks are served), consoleFile, pid, stop(), keep() }.
		 */
		async start() {
			if (n8n.server) throw new Error('n8n is already started');
			n8n.server = await kind.start(n8n);
			return n8n.server;
		},

		/** Stops what start() started (also done at clean-up); resolves with how it ended ({ code, signal, killed }). */
		async stop() {
			const server = n8n.server;
			n8n.server = undefined;
			return server?.stop();
		},

		/** Leaves what start() started running after the check ends (for a look at it by hand). */
		keep() {
			n8n.server?.keep();
			n8n.server = undefined;
		},

		/** What n8n stored: [{ table, primaryKey: [column], rows: [{ column: value }] }]. */
		readTables: () => kind.readTables(n8n),

		/** The log files n8n wrote (every process, every command). */
		logFiles() {
			return fs
				.readdirSync(logDir)
				.filter((file) => file.endsWith('.log'))
				.map((file) => path.join(logDir, file));
		},
	};
	onCleanUp(() => n8n.stop());
	return n8n;
}

/** Files handed to n8n's import commands hold plain secrets: they live outside the user folder, briefly. */
async function withScratchDir(fn) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-e2e-import-'));
	try {
		return await fn(dir);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

function withScratchFile(name, content, fn) {
	return withScratchDir((dir) => {
		const file = path.join(dir, name);
		fs.writeFileSync(file, content, { mode: 0o600 });
		return fn(file);
	});
}

module.exports = { createN8n, parseRawOutput, ENCRYPTION_KEY };
