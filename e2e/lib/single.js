'use strict';

// Deployment "single": n8n as one process (`n8n start`) on a sqlite database in the user folder.
// Another deployment (queue.js: main, workers and a webhook processor on PostgreSQL and Redis) implements the same
// four members, so the checks need not know which one runs.

const path = require('node:path');

const { startN8nProcess } = require('./n8n-process');
const { paths } = require('./package');
const { run } = require('./processes');

module.exports = {
	name: 'single',

	databaseEnv: () => ({ DB_TYPE: 'sqlite' }),

	/** `n8n start`, serving the editor, REST and production webhooks. */
	async start(n8n) {
		const main = await startN8nProcess(n8n, 'main', ['start'], { name: 'n8n start' });
		return {
			url: main.url,
			/** Production webhook address of a workflow's webhook path. */
			webhookUrl: (webhookPath) => `${main.url}/webhook/${webhookPath}`,
			consoleFile: main.consoleFile,
			pid: main.pid,
			keep: main.keep,
			stop: main.stop,
		};
	},

	/** Every table of the sqlite database, read with node:sqlite: in n8n's Node.js (22.13 and later), not in every one that runs the checks. */
	async readTables(n8n) {
		const database = path.join(n8n.userFolder, '.n8n', 'database.sqlite');
		const result = await run(paths.NODE, ['--no-warnings', path.join(__dirname, 'sqlite-tables.js'), database], {
			timeoutMs: 60_000,
		});
		if (result.code !== 0) throw new Error(`reading ${database} failed (exit ${result.code})\n${result.stderr}`);
		return JSON.parse(result.stdout);
	},
};
