'use strict';

// Child processes of the checks: commands that run to their end, services that run until stopped, and the clean-up
// that stops all of them when a check ends, fails or is interrupted (Ctrl-C, SIGTERM).
//
// Every child gets its own process group, so that stopping it also stops what it started (n8n's task runners).

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');

const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const running = new Set();
const cleanUps = [];

/** Signals a child's whole process group; a group that is already gone is fine. */
function signalGroup(child, signal) {
	try {
		process.kill(-child.pid, signal);
	} catch {
		// already exited
	}
}

/**
 * `stopSignal` (SIGTERM unless the child asked for another), then SIGKILL after `graceMs`; resolves with how the child
 * ended, `killed` when it took SIGKILL.
 */
async function stopChild({ child, exited, stopSignal = 'SIGTERM' }, graceMs) {
	if (child.exitCode !== null || child.signalCode !== null) return exited;
	signalGroup(child, stopSignal);
	const outcome = await Promise.race([exited, sleep(graceMs).then(() => 'timeout')]);
	if (outcome !== 'timeout') return outcome;
	signalGroup(child, 'SIGKILL');
	return { ...(await exited), killed: true };
}

/** `stopSignal`: how the child wants to be stopped; `stopLast`: a service the other children use (a database). */
function track(child, { stopSignal, stopLast = false } = {}) {
	const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
	const entry = { child, exited, stopSignal, stopLast };
	running.add(entry);
	exited.then(() => running.delete(entry));
	return entry;
}

/**
 * Runs a command to its end; resolves with { code, signal, stdout, stderr }. A command still running after
 * `timeoutMs` is stopped and counts as failed (code 124). `inherit` streams its output instead of keeping it.
 */
function run(command, args, { cwd, env = process.env, inherit = false, timeoutMs = 0, uid, gid } = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, {
			cwd,
			env,
			uid,
			gid,
			detached: true,
			stdio: inherit ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
		});
		child.on('error', reject);
		const entry = track(child);
		const { exited } = entry;
		let stdout = '';
		let stderr = '';
		child.stdout?.on('data', (chunk) => (stdout += chunk));
		child.stderr?.on('data', (chunk) => (stderr += chunk));
		let timedOut = false;
		const timer =
			timeoutMs > 0 &&
			setTimeout(() => {
				timedOut = true;
				stopChild(entry, 5000);
			}, timeoutMs);
		exited.then(({ code, signal }) => {
			clearTimeout(timer);
			if (timedOut) stderr += `\n(stopped after ${timeoutMs / 1000} s)`;
			resolve({ code: timedOut ? 124 : (code ?? 128), signal, stdout, stderr });
		});
	});
}

/** `run`, but a non-zero exit throws with the end of the output; logs `what` with the time taken. */
async function mustRun(what, command, args, options = {}) {
	const since = Date.now();
	const result = await run(command, args, options);
	if (result.code !== 0) {
		const output = `${result.stdout}${result.stderr}`.trim().split('\n').slice(-40).join('\n');
		throw new Error(`${what} failed (exit ${result.code}${result.signal ? `, ${result.signal}` : ''})\n${output}`);
	}
	(options.log ?? console.log)(`${what} (${seconds(since)})`);
	return result;
}

/**
 * Starts a long-running process writing stdout and stderr into `logFile`. `stopSignal` (default SIGTERM) is what
 * stop() and the clean-up send first; `stopLast` services (databases) are stopped at clean-up after the others;
 * `uid`/`gid` run it as another user.
 * Returns { pid, running(), exited, stop(graceMs), keep() }; stop() resolves with { code, signal, killed }.
 */
function startService(command, args, { cwd, env, logFile, stopSignal, stopLast, uid, gid }) {
	const out = fs.openSync(logFile, 'a');
	const child = spawn(command, args, { cwd, env, uid, gid, detached: true, stdio: ['ignore', out, out] });
	fs.closeSync(out);
	const entry = track(child, { stopSignal, stopLast });
	const { exited } = entry;
	return {
		pid: child.pid,
		running: () => child.exitCode === null && child.signalCode === null,
		exited,
		stop: (graceMs = 30_000) => stopChild(entry, graceMs),
		/** Leaves it running after this process ends (clean-up no longer stops it). */
		keep() {
			for (const entry of running) if (entry.child === child) running.delete(entry);
			child.unref();
		},
	};
}

/** A port nobody listens on right now (others may take it before us: callers retry on EADDRINUSE). */
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

/** Registers `fn` to run at clean-up (last registered, first run), e.g. closing a browser or the sandbox. */
function onCleanUp(fn) {
	cleanUps.push(fn);
}

let cleaning;
/**
 * Stops every child still running (the services others use last), then runs the clean-ups (children first: a command
 * still running must not see the sandbox go away and report that as its own failure). Safe to call more than once.
 */
function cleanUp() {
	cleaning ??= (async () => {
		const stopAll = (last) =>
			Promise.all([...running].filter((entry) => entry.stopLast === last).map((entry) => stopChild(entry, 10_000)));
		await stopAll(false);
		await stopAll(true);
		for (const fn of cleanUps.reverse()) await Promise.resolve().then(fn).catch(() => {});
	})();
	return cleaning;
}

let interrupted = false;
/** Whether the check was interrupted (SIGINT/SIGTERM): what fails afterwards is what the interruption stopped. */
const wasInterrupted = () => interrupted;

/**
 * Runs a check's main function: clean-up on success, on failure and on SIGINT/SIGTERM, then exits with the code
 * main resolved to (1 when it threw, 130 when interrupted).
 */
function runCheck(main, { onError = (error) => console.error(error?.stack ?? error) } = {}) {
	for (const signal of ['SIGINT', 'SIGTERM']) {
		process.on(signal, async () => {
			if (interrupted) return;
			interrupted = true;
			console.log(`FAIL interrupted by ${signal}: stopping everything started`);
			await cleanUp();
			process.exit(130);
		});
	}
	Promise.resolve()
		.then(main)
		.then(
			(code) => code,
			(error) => {
				// Once interrupted, what fails is what the interruption stopped.
				if (!interrupted) onError(error);
				return 1;
			},
		)
		.then(async (code) => {
			await cleanUp();
			if (!interrupted) process.exit(code ?? 0);
		});
}

module.exports = { run, mustRun, startService, freePort, onCleanUp, cleanUp, runCheck, wasInterrupted, seconds, sleep };
