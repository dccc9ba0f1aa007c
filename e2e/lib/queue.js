'use strict';

// Deployment "queue": n8n's queue mode on one machine. Redis (the job queue) and PostgreSQL (the database every process
// shares), Debian's packages, started at the first n8n command on free ports with throw-away data; then `n8n start`
// (main: editor and REST, production webhooks off), two `n8n worker --concurrency=1` and one `n8n webhook` (the
// webhook processor, which serves production webhooks and enqueues their executions). Redis and PostgreSQL are
// stopped after the n8n processes, at the latest at clean-up. Both are spoken to with the clients of n8n's install.
//
// PostgreSQL refuses to run as root: as root it runs as the `postgres` account the Debian package creates. Its
// children leave the process group, so it is stopped with SIGINT (fast shutdown) to the postmaster itself.

const { execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { aptInstall } = require('./apt');
const { requireFromN8n } = require('./package');
const { launch, mustRun, onCleanUp, startOnFreePort } = require('./processes');

const WORKERS = ['worker-1', 'worker-2'];
const WORKER_CONCURRENCY = 1;
const DATABASE = 'n8n';
const DB_USER = 'n8n';

/** The newest PostgreSQL server of Debian's layout (/usr/lib/postgresql/<major>/bin). */
function postgresBinDir() {
	const root = '/usr/lib/postgresql';
	const majors = fs.existsSync(root) ? fs.readdirSync(root).filter((name) => /^\d+$/.test(name)) : [];
	return majors
		.sort((a, b) => b - a)
		.map((major) => path.join(root, major, 'bin'))
		.find((bin) => fs.existsSync(path.join(bin, 'postgres')));
}

const onPath = (command) => process.env.PATH.split(path.delimiter).some((dir) => fs.existsSync(path.join(dir, command)));
const version = (command) => execFileSync(command, ['--version'], { encoding: 'utf8' }).trim();

/** The account PostgreSQL runs as: `postgres` when we are root, ourselves otherwise. */
function postgresAccount() {
	if (process.getuid() !== 0) return {};
	try {
		const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
		return { uid: id('-u'), gid: id('-g') };
	} catch {
		throw new Error('PostgreSQL refuses to run as root and there is no "postgres" account to run it as');
	}
}

function redisAnswers(port) {
	const Redis = requireFromN8n('ioredis');
	const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 }).on('error', () => {});
	return client.connect().then(() => client.ping()).then((answer) => answer === 'PONG', () => false).finally(() => client.disconnect());
}

async function pgClient(connection, database = DATABASE) {
	const { Client } = requireFromN8n('pg');
	const client = new Client({ ...connection, database, connectionTimeoutMillis: 2000 });
	await client.connect();
	return client;
}

/**
 * A database `command` with `argsOf(port)` on a free port, stopped after the n8n processes, its console in
 * <logDir>/<file>.out; resolves once `ready(port)`, with { port, stop() }.
 */
async function startService(name, file, command, argsOf, { logDir, log, ready, ...options }) {
	const consoleFile = path.join(logDir, `${file}.out`);
	const start = (port) => launch(command, argsOf(port), { logFile: consoleFile, name, log, stopLast: true, ...options });
	const { port, service } = await startOnFreePort(name, { start, ready, consoleFile, timeoutMs: 60_000, log });
	return { port, stop: service.stop };
}

async function startRedis(workDir, logDir, log) {
	const dir = path.join(workDir, 'redis');
	fs.mkdirSync(dir);
	const argsOf = (port) => ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
	return { host: '127.0.0.1', ...(await startService('redis-server', 'redis', 'redis-server', argsOf, { cwd: dir, logDir, log, ready: redisAnswers })) };
}

async function startPostgres(workDir, logDir, pgBin, log) {
	const account = postgresAccount();
	const dir = path.join(workDir, 'postgres');
	const dataDir = path.join(dir, 'data');
	fs.mkdirSync(dir, { mode: 0o700 });
	const password = crypto.randomBytes(12).toString('hex');
	const passwordFile = path.join(dir, 'password');
	fs.writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
	if (account.uid !== undefined) for (const file of [dir, passwordFile]) fs.chownSync(file, account.uid, account.gid);
	const initdb = ['-D', dataDir, '-U', DB_USER, `--pwfile=${passwordFile}`, '--auth=scram-sha-256', '-E', 'UTF8', '--no-locale', '--no-instructions'];
	await mustRun('initdb of a throw-away PostgreSQL cluster', path.join(pgBin, 'initdb'), initdb, { cwd: dir, ...account, log });
	fs.rmSync(passwordFile);

	const connection = { host: '127.0.0.1', user: DB_USER, password };
	const argsOf = (port) => ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${dir}`];
	const ready = (port) => pgClient({ ...connection, port }, 'postgres').then((client) => client.end().then(() => true), () => false);
	const { port, stop } = await startService('postgres', 'postgres', path.join(pgBin, 'postgres'), argsOf, { cwd: dir, logDir, log, ready, stopSignal: 'SIGINT', ...account });
	connection.port = port;
	const admin = await pgClient(connection, 'postgres');
	await admin.query(`CREATE DATABASE ${DATABASE}`).finally(() => admin.end());
	return { ...connection, database: DATABASE, client: () => pgClient(connection), stop };
}

/** Redis and PostgreSQL of one n8n: { redis, postgres: { ..., client() }, versions, stop() }, its data removed at clean-up. */
async function startServices(n8n) {
	if (!onPath('redis-server') || !postgresBinDir()) await aptInstall('Redis and PostgreSQL', ['redis-server', 'postgresql'], { log: n8n.log });
	const pgBin = postgresBinDir();
	if (!pgBin || !onPath('redis-server')) throw new Error('redis-server or PostgreSQL is still missing after apt-get install');
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-e2e-queue-'));
	fs.chmodSync(workDir, 0o755);
	onCleanUp(() => fs.rmSync(workDir, { recursive: true, force: true }));
	const [redis, postgres] = await Promise.all([startRedis(workDir, n8n.logDir, n8n.log), startPostgres(workDir, n8n.logDir, pgBin, n8n.log)]);
	const versions = { redis: version('redis-server'), postgres: version(path.join(pgBin, 'postgres')) };
	return { redis, postgres, versions, stop: () => Promise.all([redis.stop(), postgres.stop()]) };
}

const services = new WeakMap();
/** Redis and PostgreSQL of this n8n, started at the first call. */
const servicesOf = (n8n) => services.get(n8n) ?? services.set(n8n, startServices(n8n)).get(n8n);

/** A worker serves /healthz only when asked to, and on main's port unless given another. */
const startWorker = (n8n, role) =>
	n8n.process(role, ['worker', `--concurrency=${WORKER_CONCURRENCY}`], {
		name: `n8n worker (${role})`,
		healthPort: 'QUEUE_HEALTH_CHECK_PORT',
		env: { QUEUE_HEALTH_CHECK_ACTIVE: 'true', N8N_WORKER_SERVER_ADDRESS: '127.0.0.1' },
	});

module.exports = {
	WORKERS,
	WORKER_CONCURRENCY,
	services: servicesOf,

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

	/**
	 * Main first (it may migrate the database), then the workers and the webhook processor together. `url` is main's,
	 * `webhookUrl(path)` the webhook processor's; also stopWorker(role).
	 */
	async start(n8n) {
		const main = await n8n.process('main', ['start'], { name: 'n8n start (main)', env: { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' } });
		const [webhook, ...workers] = await Promise.all([
			n8n.process('webhook', ['webhook'], { name: 'n8n webhook' }),
			...WORKERS.map((role) => startWorker(n8n, role)),
		]);
		const running = new Set([webhook, ...workers, main]);
		return {
			url: main.url,
			webhookUrl: (webhookPath) => `${webhook.url}/webhook/${webhookPath}`,
			consoleFile: main.consoleFile,
			pid: main.pid,
			async stopWorker(role) {
				const worker = [...running].find((member) => member.role === role);
				running.delete(worker);
				return worker?.stop();
			},
			stop: () => Promise.all([...running].map(async (member) => ({ role: member.role, ...(await member.stop()) }))).finally(() => running.clear()),
		};
	},

	/** Every table of n8n's schema in PostgreSQL (no primary key: the row's ctid), read with pg. */
	async readTables(n8n) {
		const client = await (await servicesOf(n8n)).postgres.client();
		try {
			const { rows: names } = await client.query("SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename");
			const { rows: keys } = await client.query(
				`SELECT k.table_name, k.column_name FROM information_schema.table_constraints c JOIN information_schema.key_column_usage k
				 USING (constraint_schema, constraint_name) WHERE c.constraint_type = 'PRIMARY KEY' AND c.table_schema = current_schema() ORDER BY k.ordinal_position`,
			);
			const tables = [];
			for (const { name } of names) {
				const primaryKey = keys.filter((key) => key.table_name === name).map((key) => key.column_name);
				const { rows } = await client.query(`SELECT ${primaryKey.length ? '' : 'ctid::text AS ctid, '}* FROM "${name.replaceAll('"', '""')}"`);
				for (const row of rows) {
					for (const [column, value] of Object.entries(row)) if (Buffer.isBuffer(value)) row[column] = value.toString('latin1');
				}
				tables.push({ table: name, primaryKey: primaryKey.length ? primaryKey : ['ctid'], rows });
			}
			return tables;
		} finally {
			await client.end();
		}
	},
};
