'use strict';

// One long-running n8n process (`n8n start`, `n8n worker`, `n8n webhook`), started as a service on free ports and
// waited for until its health endpoints answer. The deployments (single.js, queue.js) are made of these.

const fs = require('node:fs');
const path = require('node:path');

const { paths } = require('./package');
const { startService, seconds, sleep } = require('./processes');

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

/**
 * Starts `n8n <args>` as `role` (its log is logs/n8n-<role>.log, its console output logs/<role>.out) and resolves
 * once it is healthy. Ports are picked free at start, and picked again if another process took one meanwhile.
 *
 * @param {object} n8n  from createN8n
 * @param {string} role  e.g. 'main', 'worker-1', 'webhook'
 * @param {string[]} args  e.g. ['start'], ['worker', '--concurrency=1']
 * @param {object} [options]
 * @param {() => Promise<object>|object} [options.extraEnv]  more environment, asked again on every attempt (ports)
 * @param {string} [options.healthPortVar]  the variable holding the port that serves /healthz (N8N_PORT)
 * @param {string} [options.name]  how the log lines name it
 * @returns {Promise<{ role, name, env, url, consoleFile, logFile, pid, running(), stop(), keep() }>}
 */
async function startN8nProcess(n8n, role, args, { extraEnv = () => ({}), healthPortVar = 'N8N_PORT', name = `n8n ${role}` } = {}) {
	const consoleFile = path.join(n8n.logDir, `${role}.out`);
	for (let attempt = 1; ; attempt++) {
		const since = Date.now();
		const env = await n8n.env(role, await extraEnv());
		const url = `http://127.0.0.1:${env[healthPortVar]}`;
		fs.writeFileSync(consoleFile, '');
		const service = startService(paths.NODE, [paths.N8N_BIN, ...args], { cwd: n8n.userFolder, env, logFile: consoleFile });
		if (await waitForHealth(url, service)) {
			n8n.log(`${name} answers on ${url} (${seconds(since)})`);
			return {
				role,
				name,
				env,
				url,
				consoleFile,
				logFile: env.N8N_LOG_FILE_LOCATION,
				pid: service.pid,
				running: service.running,
				keep: () => service.keep(),
				async stop() {
					const from = Date.now();
					const outcome = await service.stop();
					n8n.log(
						`${name} stopped (${seconds(from)}, ${outcome.killed ? 'killed after SIGTERM timed out' : (outcome.signal ?? `exit ${outcome.code}`)})`,
					);
					return outcome;
				},
			};
		}
		await service.stop();
		const output = tail(consoleFile);
		if (attempt < 3 && /EADDRINUSE/.test(output)) continue;
		throw new Error(`${name} did not become healthy on ${url} (${seconds(since)})\n${output}`);
	}
}

module.exports = { startN8nProcess, waitForHealth, tail };
