'use strict';

// The one process runner of the checks, the one wait-until, and the clean-up that stops every child when a check ends,
// fails or is interrupted. Each child gets its own process group, so that stopping it also stops what it started
// (n8n's task runners). Also the few small helpers every check uses.

const { spawn } = require('node:child_process');
const { once } = require('node:events');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { setTimeout: sleep } = require('node:timers/promises');

const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const tail = (text, lines = 40) => text.trim().split('\n').slice(-lines).join('\n');

/** `fn()`, or `fallback` when it throws. */
const attempt = (fn, fallback) => {
	try {
		return fn();
	} catch {
		return fallback;
	}
};
/** The parsed JSON, or undefined when the text is not JSON. */
const parseJson = (text) => attempt(() => JSON.parse(text));

/** `fn(dir)` with a new folder under the system's temporary one, removed when `fn` has settled. */
async function withTempDir(prefix, fn) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	try {
		return await fn(dir);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

/** Asks `probe` until it gives something truthy and resolves with that; with undefined once `timeoutMs` is over. */
async function waitUntil(probe, { timeoutMs = 30_000, intervalMs = 250 } = {}) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value || Date.now() >= deadline) return value || undefined;
		await sleep(intervalMs);
	}
}

const children = new Set();
const cleanUps = [];

// A group already gone throws.
const signalGroup = (child, signal) => attempt(() => process.kill(-child.pid, signal));

/**
 * Starts a child. Its output goes to `logFile`, to `onLine` line by line, to this terminal (`inherit`), or is kept for
 * `output()`. `stopSignal` is what stop() sends first (SIGKILL follows after the grace time), and with a `name` stop()
 * logs how the child ended; `stopLast` children (databases) are stopped at clean-up after the others. Returns { pid,
 * exited, running(), output(), stop() }; `exited` and stop() resolve with { code, signal, killed }.
 */
function launch(command, args, { cwd, env = process.env, logFile, onLine, inherit, name, log = console.log, stopSignal = 'SIGTERM', stopLast = false, uid, gid } = {}) {
	const out = logFile ? fs.openSync(logFile, 'a') : inherit ? 'inherit' : 'pipe';
	const child = spawn(command, args, { cwd, env, uid, gid, detached: true, stdio: ['ignore', out, out] });
	if (logFile) fs.closeSync(out);
	const kept = { stdout: '', stderr: '' };
	for (const stream of ['stdout', 'stderr']) {
		if (onLine && child[stream]) readline.createInterface({ input: child[stream] }).on('line', onLine);
		else child[stream]?.on('data', (chunk) => (kept[stream] += chunk));
	}
	const exited = new Promise((resolve) => {
		child.on('error', (error) => resolve({ code: null, signal: null, error }));
		child.on('close', (code, signal) => resolve({ code, signal }));
	});
	const entry = { stopLast, stop: (graceMs) => stop(graceMs) };
	children.add(entry);
	let closed = false;
	exited.then(() => {
		closed = true;
		children.delete(entry);
	});
	const running = () => child.exitCode === null && child.signalCode === null && child.pid !== undefined;
	// Started after clean-up began (a signal while a script was still starting things): stopped at once, not left.
	if (cleaning) stop(10_000);
	async function stop(graceMs = 30_000) {
		// Also once it has exited: a process it left in its group may hold its output open, and it never closes.
		if (closed || child.pid === undefined) return exited;
		const since = Date.now();
		signalGroup(child, stopSignal);
		let outcome = await Promise.race([exited, sleep(graceMs)]);
		if (!outcome) {
			signalGroup(child, 'SIGKILL');
			// One holding its output from a group of its own outlives that: not waited for beyond another grace time.
			const ended = await Promise.race([exited, sleep(graceMs)]);
			outcome = { ...(ended ?? { code: child.exitCode, signal: child.signalCode }), killed: true };
		}
		if (name) log(`${name} stopped (${seconds(since)}, ${outcome.killed ? `killed after ${stopSignal} timed out` : (outcome.signal ?? `exit ${outcome.code}`)})`);
		return outcome;
	}
	return { pid: child.pid, exited, running, output: () => kept, stop };
}

/**
 * Runs a command to its end; resolves with { code, signal, stdout, stderr }. One still running after `timeoutMs` is
 * stopped and counts as failed (code 124).
 */
async function run(command, args, { timeoutMs = 0, ...options } = {}) {
	const child = launch(command, args, options);
	const timeout = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined;
	timeout?.addEventListener('abort', () => child.stop(5000));
	const { code, signal, error } = await child.exited;
	const { stdout, stderr } = child.output();
	const note = error ? `\n${error.message}` : timeout?.aborted ? `\n(stopped after ${timeoutMs / 1000} s)` : '';
	return { code: timeout?.aborted ? 124 : (code ?? 128), signal, stdout, stderr: stderr + note };
}

/** `run`, but a non-zero exit throws with the end of the output; logs `what` with the time taken. */
async function mustRun(what, command, args, options = {}) {
	const since = Date.now();
	const result = await run(command, args, options);
	if (result.code !== 0) throw new Error(`${what} failed (exit ${result.code}${result.signal ? `, ${result.signal}` : ''})\n${tail(result.stdout + result.stderr)}`);
	(options.log ?? console.log)(`${what} (${seconds(since)})`);
	return result;
}

/** A port nobody listens on right now; another process may take it first, so callers retry (startOnFreePort). */
async function freePort() {
	const server = net.createServer().unref().listen(0, '127.0.0.1');
	await once(server, 'listening');
	const { port } = server.address();
	await new Promise((resolve) => server.close(resolve));
	return port;
}

/**
 * Starts a service (`start(port)` returns it, from launch) on `port` or a free one, and resolves with { port, service }
 * once `ready(port)`. A port taken meanwhile (the service says so in `consoleFile`) means another try on another port.
 */
async function startOnFreePort(name, { start, ready, consoleFile, port: fixed, timeoutMs = 120_000, log = console.log }) {
	for (let attempt = 1; ; attempt++) {
		const since = Date.now();
		const port = fixed ?? (await freePort());
		const service = await start(port);
		const up = await waitUntil(async () => !service.running() || (await ready(port)), { timeoutMs });
		if (up && service.running()) {
			log(`${name} answers on 127.0.0.1:${port} (${seconds(since)})`);
			return { port, service };
		}
		await service.stop();
		const output = tail(fs.existsSync(consoleFile) ? fs.readFileSync(consoleFile, 'utf8') : '');
		if (attempt < 3 && /EADDRINUSE|in use|could not bind/i.test(output)) continue;
		throw new Error(`${name} did not start (${seconds(since)})\n${output || '(no output)'}`);
	}
}

/** Runs `fn` at clean-up (last registered, first run), after every child is stopped. */
const onCleanUp = (fn) => cleanUps.push(fn);

let cleaning;
/**
 * Stops every child still running (the ones others use last), then runs the clean-ups: a command still running must
 * not see the sandbox go away and report that as its own failure. Safe to call more than once.
 */
function cleanUp() {
	const stopped = new Set();
	const stopAll = (last) =>
		Promise.all(
			[...children]
				.filter((entry) => entry.stopLast === last && !stopped.has(entry))
				.map((entry) => stopped.add(entry) && entry.stop(10_000)),
		);
	cleaning ??= (async () => {
		// Until each was stopped once: a child started while others were stopping is stopped too.
		while ([...children].some((entry) => !stopped.has(entry))) {
			await stopAll(false);
			await stopAll(true);
		}
		for (const fn of cleanUps.reverse()) await Promise.resolve().then(fn).catch(() => {});
	})();
	return cleaning;
}

module.exports = { launch, run, mustRun, waitUntil, startOnFreePort, freePort, onCleanUp, cleanUp, seconds, sleep, tail, attempt, parseJson, withTempDir };

