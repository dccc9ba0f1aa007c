'use strict';

// The services n8n's queue mode needs: Redis (the job queue) and PostgreSQL (the database every process shares).
// Debian's packages, installed when missing; each started on 127.0.0.1 on a free port with a throw-away data
// directory, and stopped after the n8n processes (at the latest at clean-up, also on failure and Ctrl-C). Both are
// spoken to with the clients of n8n's install (ioredis, pg), not raw sockets.
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
const { freePort, mustRun, onCleanUp, seconds, sleep, startService } = require('./processes');

const READY_TIMEOUT_MS = 60_000;
const DATABASE = 'n8n';
const DB_USER = 'n8n';

/** The newest PostgreSQL server of Debian's layout (/usr/lib/postgresql/<major>/bin), or undefined. */
function postgresBinDir() {
	const root = '/usr/lib/postgresql';
	const majors = fs.existsSync(root) ? fs.readdirSync(root).filter((name) => /^\d+$/.test(name)) : [];
	const dir = majors
		.sort((a, b) => Number(b) - Number(a))
		.map((major) => path.join(root, major, 'bin'))
		.find((bin) => fs.existsSync(path.join(bin, 'postgres')));
	return dir;
}

function onPath(command) {
	return process.env.PATH.split(path.delimiter).some((dir) => fs.existsSync(path.join(dir, command)));
}

/** redis-server and PostgreSQL's binaries, installed from Debian's packages when either is missing. */
async function ensureServiceBinaries({ log }) {
	if (!onPath('redis-server') || !postgresBinDir()) {
		await aptInstall('Redis and PostgreSQL', ['redis-server', 'postgresql'], { log });
	}
	const pgBin = postgresBinDir();
	if (!pgBin || !onPath('redis-server')) throw new Error('redis-server or PostgreSQL is still missing after apt-get install');
	const version = (command) => execFileSync(command, ['--version'], { encoding: 'utf8' }).trim();
	return {
		pgBin,
		versions: { redis: version('redis-server'), postgres: version(path.join(pgBin, 'postgres')) },
	};
}

/** The account PostgreSQL runs as: `postgres` when we are root, ourselves otherwise. */
function postgresAccount() {
	if (process.getuid() !== 0) return {};
	const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
	try {
		return { uid: id('-u'), gid: id('-g') };
	} catch {
		throw new Error('PostgreSQL refuses to run as root and there is no "postgres" account to run it as');
	}
}

/** Redis answers PING, asked with the ioredis client of the n8n install (what n8n's queue itself uses). */
async function redisAnswers(port) {
	const Redis = requireFromN8n('ioredis');
	const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
	client.on('error', () => {});
	try {
		await client.connect();
		return (await client.ping()) === 'PONG';
	} catch {
		return false;
	} finally {
		client.disconnect();
	}
}

/** Polls `ready()` until it is true; false when the service ended first or the time ran out. */
async function waitUntil(ready, service, timeoutMs = READY_TIMEOUT_MS) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline && service.running()) {
		if (await ready()) return true;
		await sleep(250);
	}
	return false;
}

/**
 * Starts a service on a free port (a new one if another process took it meanwhile) and waits until `ready(port)`.
 * `start(port)` returns the service (from startService).
 */
async function startOnFreePort(name, consoleFile, start, ready, log) {
	for (let attempt = 1; ; attempt++) {
		const since = Date.now();
		const port = await freePort();
		const service = start(port);
		if (await waitUntil(() => ready(port), service)) {
			log(`${name} answers on 127.0.0.1:${port} (${seconds(since)})`);
			return { port, service };
		}
		await service.stop();
		const output = fs.readFileSync(consoleFile, 'utf8');
		if (attempt < 3 && /in use|could not bind|EADDRINUSE/i.test(output)) continue;
		throw new Error(`${name} did not start (${seconds(since)})\n${output.trim().split('\n').slice(-20).join('\n')}`);
	}
}

/** How a service stopped, for the log. */
async function stopped(name, service, log) {
	const since = Date.now();
	const outcome = await service.stop();
	log(`${name} stopped (${seconds(since)}, ${outcome.killed ? 'killed' : (outcome.signal ?? `exit ${outcome.code}`)})`);
	return outcome;
}

async function startRedis(workDir, logDir, log) {
	const dir = path.join(workDir, 'redis');
	fs.mkdirSync(dir);
	const consoleFile = path.join(logDir, 'redis.out');
	const { port, service } = await startOnFreePort(
		'redis-server',
		consoleFile,
		(candidate) =>
			startService(
				'redis-server',
				['--port', String(candidate), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
				{ cwd: dir, env: process.env, logFile: consoleFile, stopLast: true },
			),
		redisAnswers,
		log,
	);
	return { host: '127.0.0.1', port, stop: () => stopped('redis-server', service, log) };
}

/** A pg client of the n8n install (pure JavaScript); the caller ends it. */
async function pgClient({ port, password }, database) {
	const { Client } = requireFromN8n('pg');
	const client = new Client({ host: '127.0.0.1', port, user: DB_USER, password, database, connectionTimeoutMillis: 2000 });
	await client.connect();
	return client;
}

async function pgAnswers(connection) {
	try {
		const client = await pgClient(connection, 'postgres');
		await client.end();
		return true;
	} catch {
		return false;
	}
}

async function startPostgres(workDir, logDir, pgBin, log) {
	const account = postgresAccount();
	const dir = path.join(workDir, 'postgres');
	const dataDir = path.join(dir, 'data');
	fs.mkdirSync(dir, { mode: 0o700 });
	const password = crypto.randomBytes(12).toString('hex');
	const passwordFile = path.join(dir, 'password');
	fs.writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
	if (account.uid !== undefined) {
		fs.chownSync(dir, account.uid, account.gid);
		fs.chownSync(passwordFile, account.uid, account.gid);
	}
	await mustRun(
		'initdb of a throw-away PostgreSQL cluster',
		path.join(pgBin, 'initdb'),
		['-D', dataDir, '-U', DB_USER, `--pwfile=${passwordFile}`, '--auth=scram-sha-256', '-E', 'UTF8', '--no-locale', '--no-instructions'],
		{ cwd: dir, ...account, log },
	);
	fs.rmSync(passwordFile);

	const consoleFile = path.join(logDir, 'postgres.out');
	const { port, service } = await startOnFreePort(
		'postgres',
		consoleFile,
		(candidate) =>
			startService(
				path.join(pgBin, 'postgres'),
				['-D', dataDir, '-p', String(candidate), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${dir}`],
				{ cwd: dir, env: process.env, logFile: consoleFile, stopSignal: 'SIGINT', stopLast: true, ...account },
			),
		(candidate) => pgAnswers({ port: candidate, password }),
		log,
	);
	const connection = { host: '127.0.0.1', port, user: DB_USER, password, database: DATABASE };
	const admin = await pgClient(connection, 'postgres');
	try {
		await admin.query(`CREATE DATABASE ${DATABASE}`);
	} finally {
		await admin.end();
	}
	return { ...connection, client: () => pgClient(connection, DATABASE), stop: () => stopped('postgres', service, log) };
}

/**
 * Redis and PostgreSQL for one n8n (its log directory receives redis.out and postgres.out). Resolves with
 * { redis: { host, port, stop() }, postgres: { host, port, user, password, database, client(), stop() },
 * versions: { redis, postgres }, stop() }. The data directories are removed at clean-up.
 */
async function startQueueServices(logDir, { log = console.log } = {}) {
	const { pgBin, versions } = await ensureServiceBinaries({ log });
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-e2e-queue-'));
	fs.chmodSync(workDir, 0o755);
	onCleanUp(() => fs.rmSync(workDir, { recursive: true, force: true }));
	const [redis, postgres] = await Promise.all([startRedis(workDir, logDir, log), startPostgres(workDir, logDir, pgBin, log)]);
	return {
		redis,
		postgres,
		versions,
		stop: () => Promise.all([redis.stop(), postgres.stop()]),
	};
}

module.exports = { startQueueServices };
