'use strict';

// One real n8n bound to one user folder: its environment, CLI commands, processes and what it stored. How it is
// deployed (its database, which processes `start` runs) is a module of three members { databaseEnv(n8n), start(n8n),
// readTables(n8n) }: `single` below, `queue` in queue.js, so that a check runs unchanged on either.

const fs = require('node:fs');
const path = require('node:path');

const { paths } = require('./package');
const { freePort, launch, mustRun, onCleanUp, parseJson, run, startOnFreePort, withTempDir } = require('./processes');

// An n8n command takes 3-9 s here; one that hangs must not hang the check.
const COMMAND_TIMEOUT_MS = 180_000;
const ENCRYPTION_KEY = 'e2e-only-encryption-key-7d0c2f5b9a';

/** Deployment "single": one `n8n start` on a sqlite database in the user folder. */
const single = {
	databaseEnv: () => ({ DB_TYPE: 'sqlite' }),
	async start(n8n) {
		const main = await n8n.process('main', ['start'], { name: 'n8n start', port: n8n.settings.N8N_PORT });
		return { ...main, webhookUrl: (webhookPath) => `${main.url}/webhook/${webhookPath}` };
	},
	// node:sqlite is in the Node.js n8n runs on (22.13 and later), not necessarily in the one running the checks.
	async readTables(n8n) {
		const database = path.join(n8n.userFolder, '.n8n', 'database.sqlite');
		const script = path.join(__dirname, 'sqlite-tables.js');
		const { stdout } = await mustRun(`read ${database}`, paths.NODE, ['--no-warnings', script, database], { timeoutMs: 60_000, log: n8n.log });
		return JSON.parse(stdout);
	},
};
const DEPLOYMENTS = { single: () => single, queue: () => require('./queue') };

/** The environment of every n8n process: nothing of an outer n8n setup leaks in. */
function baseEnv(userFolder) {
	const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(N8N_|DB_|QUEUE_|EXECUTIONS_|OFFLOAD_)/.test(key)));
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
		// Everything, also into a file per process for the leak search; JSON on the console too, because at level debug
		// the text format wraps every message (the run `execute --rawOutput` prints too) in times and colours.
		N8N_LOG_LEVEL: 'debug',
		N8N_LOG_OUTPUT: 'console,file',
		N8N_LOG_FORMAT: 'json',
	};
}

/** `execute --rawOutput` logs the run as one message holding JSON: the last one with `data.resultData`. */
const parseRawOutput = (stdout) =>
	stdout
		.split('\n')
		.map((line) => parseJson(line)?.message)
		.map((message) => (typeof message === 'string' && message.startsWith('{') ? parseJson(message) : undefined))
		.findLast((parsed) => parsed?.data?.resultData);

// Files for n8n's import commands hold plain secrets: they live outside the user folder, briefly.
const withScratchDir = (fn) => withTempDir('pg-e2e-import-', fn);

const healthy = async (url) => (await Promise.all(['/healthz', '/healthz/readiness'].map((route) => fetch(url + route).catch(() => undefined)))).every((res) => res?.ok);

/**
 * One n8n on `userFolder` (the package installed in its .n8n/nodes beforehand), deployed as `deployment` ('single' or
 * 'queue'), with the settings `env` in every process and command (N8N_PORT fixes main's port).
 */
async function createN8n({ userFolder, deployment = 'single', log = console.log, env: settings = {} }) {
	if (!DEPLOYMENTS[deployment]) throw new Error(`unknown n8n deployment "${deployment}"`);
	const kind = DEPLOYMENTS[deployment]();
	const logDir = path.join(userFolder, 'logs');
	fs.mkdirSync(logDir, { recursive: true });

	const n8n = {
		userFolder,
		logDir,
		log,
		settings,

		/** The environment of one process or command (`role` names its log file), with fresh free ports. */
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

		/** `n8n <args>`: { code, signal, stdout, stderr } whatever the exit code. */
		cli: async (args) => run(paths.NODE, [paths.N8N_BIN, ...args], { cwd: userFolder, env: await n8n.env('cli'), timeoutMs: COMMAND_TIMEOUT_MS }),
		/** `cli`, but a non-zero exit throws; logs `what` with the time taken. */
		mustCli: async (what, args) => mustRun(what, paths.NODE, [paths.N8N_BIN, ...args], { cwd: userFolder, env: await n8n.env('cli'), timeoutMs: COMMAND_TIMEOUT_MS, log }),

		/** `import:credentials` of [{ id, name, type, data }], the data plain: n8n encrypts it. */
		importCredentials: (credentials) =>
			withScratchDir((dir) => {
				const file = path.join(dir, 'credentials.json');
				fs.writeFileSync(file, JSON.stringify(credentials), { mode: 0o600 });
				return n8n.mustCli(`imported ${credentials.length} credential(s) (n8n import:credentials)`, ['import:credentials', `--input=${file}`]);
			}),

		/** `import:workflow --separate` of workflows, each with its 16-character `id`. */
		importWorkflows: (workflows) =>
			withScratchDir((dir) => {
				workflows.forEach((workflow, index) => fs.writeFileSync(path.join(dir, `${index}.json`), JSON.stringify(workflow)));
				return n8n.mustCli(`imported ${workflows.length} workflow(s) (n8n import:workflow --separate)`, ['import:workflow', '--separate', `--input=${dir}`]);
			}),

		/** `execute --id --rawOutput`: { code, signal, stdout, stderr, run } with the parsed run, when n8n printed one. */
		async execute(workflowId) {
			const result = await n8n.cli(['execute', `--id=${workflowId}`, '--rawOutput']);
			return { ...result, run: parseRawOutput(result.stdout) };
		},

		/**
		 * One long-running process (`start`, `worker`, `webhook`) as `role`: its log is logs/n8n-<role>.log, its console
		 * logs/<role>.out. Resolves once /healthz and /healthz/readiness answer on `healthPort` (an env variable).
		 */
		async process(role, args, { name = `n8n ${role}`, env: extra = {}, healthPort = 'N8N_PORT', port: fixed } = {}) {
			const consoleFile = path.join(logDir, `${role}.out`);
			const { port, service } = await startOnFreePort(name, {
				consoleFile,
				port: fixed && Number(fixed),
				log,
				start: async (free) => {
					const env = await n8n.env(role, { ...extra, [healthPort]: String(free) });
					fs.writeFileSync(consoleFile, '');
					return launch(paths.NODE, [paths.N8N_BIN, ...args], { cwd: userFolder, env, logFile: consoleFile, name, log });
				},
				ready: (free) => healthy(`http://127.0.0.1:${free}`),
			});
			return { role, url: `http://127.0.0.1:${port}`, consoleFile, pid: service.pid, stop: () => service.stop() };
		},

		/** Starts n8n as the deployment runs it: { url (REST, editor), webhookUrl(path), consoleFile, pid, stop() }. */
		async start() {
			if (n8n.server) throw new Error('n8n is already started');
			n8n.server = await kind.start(n8n);
			return n8n.server;
		},

		/** Stops what start() started (clean-up does too); resolves with how it ended. */
		async stop() {
			const server = n8n.server;
			n8n.server = undefined;
			return server?.stop();
		},

		/** Every table: [{ table, primaryKey: [column], rows }], blobs as text so that a secret in one is found too. */
		readTables: () => kind.readTables(n8n),

		logFiles: () => fs.readdirSync(logDir).filter((file) => file.endsWith('.log')).map((file) => path.join(logDir, file)),
	};
	onCleanUp(() => n8n.stop());
	return n8n;
}

module.exports = { createN8n };
