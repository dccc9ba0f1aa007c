'use strict';

// Runs the sandbox gateway in a child process: at high concurrency an in-process sandbox would compete with the
// node for the same event loop and CPU profile, and its request log would count in the measured heap.

const { fork } = require('node:child_process');
const path = require('node:path');

async function startSandboxProcess() {
	// No execArgv: a profiled or instrumented parent must not pass --cpu-prof and the like on to the sandbox.
	const child = fork(path.join(__dirname, 'sandbox-child.js'), [], {
		execArgv: [],
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	const pending = new Map();
	let nextId = 0;
	const info = await new Promise((resolve, reject) => {
		child.once('error', reject);
		child.once('exit', (code) => reject(new Error(`the sandbox process exited with ${code}`)));
		child.on('message', (message) => {
			if (message.ready) return resolve(message.ready);
			const waiting = pending.get(message.id);
			pending.delete(message.id);
			if (message.error) waiting.reject(new Error(message.error));
			else waiting.resolve(message.result);
		});
	});
	child.removeAllListeners('exit');

	const call = (operation, argument) =>
		new Promise((resolve, reject) => {
			const id = nextId++;
			pending.set(id, { resolve, reject });
			child.send({ id, operation, argument });
		});

	return {
		...info,
		pid: child.pid,
		setLatency: (ms) => call('setLatency', ms),
		/** `{ serves, retryAfter }`, or null for no limit (sandbox/README.md, Capacity). */
		setCapacity: (settings) => call('setCapacity', settings),
		/** A fault for the next matching requests (sandbox/README.md, Faults); clearFaults drops those left. */
		injectFault: (fault) => call('injectFault', fault),
		clearFaults: () => call('clearFaults'),
		/** `{ count, byStatus, byMethod, first, maxInFlight, spanMs }` of the requests since the last call; empties the log. */
		takeLog: () => call('takeLog'),
		close: () =>
			new Promise((resolve) => {
				child.once('exit', resolve);
				child.disconnect();
			}),
	};
}

module.exports = { startSandboxProcess };
