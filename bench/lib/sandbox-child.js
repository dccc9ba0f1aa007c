'use strict';

// The sandbox gateway as a child process of a benchmark: it answers the parent over IPC with its addresses and the
// credential values, and obeys a few control messages. Exits when the parent goes away.

const { startSandbox } = require('../../sandbox/gateway');

/**
 * The most requests this server had open at once, and the time from the first request's arrival to the last answer's
 * end: both as the server saw them, so that load on the client's side cannot move them.
 */
function inFlight(requests) {
	const events = requests.flatMap(({ receivedAtMs, closedAtMs }) => [
		[receivedAtMs, 1],
		[closedAtMs ?? Infinity, -1],
	]);
	events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
	let open = 0;
	let maxInFlight = 0;
	for (const [, change] of events) maxInFlight = Math.max(maxInFlight, (open += change));
	const spanMs = requests.length ? events[events.length - 1][0] - events[0][0] : 0;
	return { maxInFlight, spanMs };
}

async function main() {
	const sandbox = await startSandbox({ port: 0 });
	const operations = {
		setLatency: (ms) => sandbox.setLatency(ms),
		setCapacity: (settings) => sandbox.setCapacity(settings),
		injectFault: (fault) => sandbox.injectFault(fault),
		clearFaults: () => sandbox.clearFaults(),
		// The log keeps every request with its headers: read a summary and drop it between runs.
		takeLog: () => {
			const summary = {
				count: sandbox.requests.length,
				byStatus: {},
				byMethod: {},
				first: sandbox.requests[0],
				...inFlight(sandbox.requests),
			};
			for (const { status, method } of sandbox.requests) {
				summary.byStatus[status] = (summary.byStatus[status] ?? 0) + 1;
				summary.byMethod[method] = (summary.byMethod[method] ?? 0) + 1;
			}
			sandbox.clearLog();
			return summary;
		},
	};
	process.on('message', ({ id, operation, argument }) => {
		try {
			process.send({ id, result: operations[operation](argument) });
		} catch (error) {
			process.send({ id, error: String(error && error.message) });
		}
	});
	process.on('disconnect', () => sandbox.close().then(() => process.exit(0)));
	process.send({
		ready: {
			url: sandbox.url,
			baseUrl: sandbox.baseUrl,
			checkoutBaseUrl: sandbox.checkoutBaseUrl,
			credentials: sandbox.credentialData(),
		},
	});
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
