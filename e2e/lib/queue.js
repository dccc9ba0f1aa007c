'use strict';

// Deployment "queue": n8n's queue mode on one machine. PostgreSQL and Redis (queue-services.js, started at the first
// n8n command), then `n8n start` (main: editor and REST, production webhooks off), two `n8n worker --concurrency=1`
// and one `n8n webhook` (the webhook processor, which serves production webhooks and enqueues their executions).
// `url` is main, `webhookUrl(path)` points at the webhook processor.

const { startN8nProcess } = require('./n8n-process');
const { freePort } = require('./processes');
const { startQueueServices } = require('./queue-services');

const WORKERS = ['worker-1', 'worker-2'];
const WORKER_CONCURRENCY = 1;

const services = new WeakMap();

/** Redis and PostgreSQL of this n8n, started once, at the first call. */
function servicesOf(n8n) {
	if (!services.has(n8n)) services.set(n8n, startQueueServices(n8n.logDir, { log: n8n.log }));
	return services.get(n8n);
}

/**
 * `n8n worker`: its own task-runner broker port (n8n.env), and its health server on another free port (a worker
 * serves /healthz only when asked to; the default port would be main's).
 */
function startWorker(n8n, role) {
	return startN8nProcess(n8n, role, ['worker', `--concurrency=${WORKER_CONCURRENCY}`], {
		name: `n8n worker (${role})`,
		healthPortVar: 'QUEUE_HEALTH_CHECK_PORT',
		extraEnv: async () => ({
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(await freePort()),
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		}),
	});
}

/** Rows as the leak search reads them: binary columns as text, so that a secret in one is found too. */
function plainRow(row) {
	for (const [column, value] of Object.entries(row)) if (Buffer.isBuffer(value)) row[column] = value.toString('latin1');
	return row;
}

module.exports = {
	name: 'queue',
	WORKERS,
	WORKER_CONCURRENCY,

	/** The database and the queue, the same for every process and CLI command. */
	async databaseEnv(n8n) {
		const { postgres, redis } = await servicesOf(n8n);
		return {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: postgres.host,
			DB_POSTGRESDB_PORT: String(postgres.port),
			DB_POSTGRESDB_DATABASE: postgres.database,
			DB_POSTGRESDB_USER: postgres.user,
			DB_POSTGRESDB_PASSWORD: postgres.password,
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: redis.host,
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			// Executions started in the editor run on the workers too (and main does not warn that they would not).
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		};
	},

	/** Versions of Redis and PostgreSQL, and a way to stop them (clean-up does it otherwise). */
	services: servicesOf,

	/**
	 * Main first (it may migrate the database), then the workers and the webhook processor together. Resolves with
	 * the usual { url, webhookUrl, consoleFile, pid, stop(), keep() } and { main, webhook, workers: Map(role →
	 * process), startWorker(role), stopWorker(role) } (processes from n8n-process.js: env, url, logFile, stop()).
	 */
	async start(n8n) {
		const main = await startN8nProcess(n8n, 'main', ['start'], {
			name: 'n8n start (main)',
			extraEnv: () => ({ N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' }),
		});
		const [webhook, ...workers] = await Promise.all([
			startN8nProcess(n8n, 'webhook', ['webhook'], { name: 'n8n webhook' }),
			...WORKERS.map((role) => startWorker(n8n, role)),
		]);
		const running = new Map(workers.map((worker) => [worker.role, worker]));
		const all = () => [webhook, ...running.values(), main];
		return {
			url: main.url,
			webhookUrl: (webhookPath) => `${webhook.url}/webhook/${webhookPath}`,
			consoleFile: main.consoleFile,
			pid: main.pid,
			main,
			webhook,
			workers: running,
			async startWorker(role) {
				if (running.has(role)) throw new Error(`${role} is running already`);
				running.set(role, await startWorker(n8n, role));
			},
			async stopWorker(role) {
				const worker = running.get(role);
				running.delete(role);
				return worker?.stop();
			},
			keep: () => all().forEach((member) => member.keep()),
			async stop() {
				const outcomes = await Promise.all(all().map((member) => member.stop()));
				running.clear();
				return outcomes;
			},
		};
	},

	/** Every table of n8n's schema in PostgreSQL: [{ table, primaryKey, rows }] (no primary key: the row's ctid). */
	async readTables(n8n) {
		const client = await (await servicesOf(n8n)).postgres.client();
		try {
			const { rows: names } = await client.query(
				`SELECT c.oid, c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
				 WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
			);
			const tables = [];
			for (const { oid, name } of names) {
				const { rows: keys } = await client.query(
					`SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
					 WHERE i.indrelid = $1 AND i.indisprimary ORDER BY array_position(i.indkey::int2[], a.attnum)`,
					[oid],
				);
				const primaryKey = keys.length ? keys.map((key) => key.attname) : ['ctid'];
				const quoted = `"${name.replaceAll('"', '""')}"`;
				const { rows } = await client.query(`SELECT ${keys.length ? '' : 'ctid::text AS ctid, '}* FROM ${quoted}`);
				tables.push({ table: name, primaryKey, rows: rows.map(plainRow) });
			}
			return tables;
		} finally {
			await client.end();
		}
	},
};
