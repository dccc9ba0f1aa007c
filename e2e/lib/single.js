'use strict';

// Deployment "single": n8n as one process (`n8n start`) on a sqlite database in the user folder.
// Another deployment (queue mode: main, workers and a webhook processor on PostgreSQL and Redis) implements the same
// four members, so the checks need not know which one runs.

const fs = require('node:fs');
const path = require('node:path');

const { paths } = require('./package');
const { run, startService, seconds, sleep } = require('./processes');

const START_TIMEOUT_MS = 120_000;

/** Polls /healthz and /healthz/readiness (database migrated, server up); false when the process ended first. */
async function waitForHealth(url, service, timeoutMs = START_TIMEOUT_MS) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline && service.running()) {
		try {
			const [live, ready] = await Promise.all([fetch(`${url}/healthz`), fetch(`${url}/healthz/readiness`)]);
			if (live.ok && ready.ok) return true;
		} catch {
			// not listening yet
		}
		await sleep(500);
	}
	return false;
}

function tail(file, lines = 40) {
	try {
		return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
	} catch {
		return '(no output)';
	}
}

module.exports = {
	name: 'single',

	databaseEnv: () => ({ DB_TYPE: 'sqlite' }),

	/** `n8n start`; ports are picked free at start, and picked again if another process took one meanwhile. */
	async start(n8n) {
		const consoleFile = path.join(n8n.logDir, 'main.out');
		for (let attempt = 1; ; attempt++) {
			const since = Date.now();
			const env = await n8n.env('main');
			const url = `http://127.0.0.1:${env.N8N_PORT}`;
			fs.writeFileSync(consoleFile, '');
			const service = startService(paths.NODE24, [paths.N8N_BIN, 'start'], {
				cwd: n8n.userFolder,
				env,
				logFile: consoleFile,
			});
			if (await waitForHealth(url, service)) {
				n8n.log(`n8n start answers on ${url} (${seconds(since)})`);
				return {
					url,
					/** Production webhook address of a workflow's webhook path. */
					webhookUrl: (webhookPath) => `${url}/webhook/${webhookPath}`,
					consoleFile,
					pid: service.pid,
					keep: () => service.keep(),
					async stop() {
						const from = Date.now();
						const outcome = await service.stop();
						n8n.log(
							`n8n stopped (${seconds(from)}, ${outcome.killed ? 'killed after SIGTERM timed out' : (outcome.signal ?? `exit ${outcome.code}`)})`,
						);
						return outcome;
					},
				};
			}
			await service.stop();
			const output = tail(consoleFile);
			if (attempt < 3 && /EADDRINUSE/.test(output)) continue;
			throw new Error(`n8n start did not become healthy on ${url} (${seconds(since)})\n${output}`);
		}
	},

	/** Every table of the sqlite database, read with n8n's own sqlite3 module under Node 24. */
	async readTables(n8n) {
		const database = path.join(n8n.userFolder, '.n8n', 'database.sqlite');
		const result = await run(paths.NODE24, [path.join(__dirname, 'sqlite-tables.js'), paths.N8N_DIR, database], {
			timeoutMs: 60_000,
		});
		if (result.code !== 0) throw new Error(`reading ${database} failed (exit ${result.code})\n${result.stderr}`);
		return JSON.parse(result.stdout);
	},
};
