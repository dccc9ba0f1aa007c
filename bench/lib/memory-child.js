'use strict';

// One memory measurement in a process of its own, so that peaks of different sizes are comparable: the parent sends
// the credential, the order ids and the concurrency; this process runs Status → Get by Order ID (or, for `floor`,
// the floor's same read, with `floor.step` one of its steps in floor-node.js) over all of them once and answers with
// its baseline, its peaks during the run and the heap still held by the output afterwards.
// With `gcEveryMs` it forces a full collection before each sample instead: the peak is then what is really alive
// during the run, not garbage V8 has not collected yet (and the RSS peak means little).

const { floorStatusOfAll } = require('./floor-node');
const { statusOfAll } = require('./node-runs');

const SAMPLE_EVERY_MS = 2;

process.once('message', async ({ credentials, checkoutBaseUrl, orderIds, concurrency, gcEveryMs, floor }) => {
	const sandbox = { credentials, checkoutBaseUrl };
	const run = (ids) =>
		floor ? floorStatusOfAll(sandbox, floor.headers, ids, concurrency, floor.step) : statusOfAll(sandbox, ids, concurrency);
	// Warm-up: modules loaded and code compiled before the baseline.
	await run(orderIds.slice(0, 20));
	global.gc();
	const baseline = process.memoryUsage();
	const peak = { rss: baseline.rss, heapUsed: baseline.heapUsed, heapTotal: baseline.heapTotal };
	const sample = () => {
		if (gcEveryMs) global.gc();
		const now = process.memoryUsage();
		for (const key of Object.keys(peak)) peak[key] = Math.max(peak[key], now[key]);
	};
	const timer = setInterval(sample, gcEveryMs ?? SAMPLE_EVERY_MS);
	const items = await run(orderIds);
	clearInterval(timer);
	sample();
	global.gc();
	const after = process.memoryUsage();
	process.send({
		items: items.length,
		concurrency,
		gcEveryMs,
		baseline: { rss: baseline.rss, heapUsed: baseline.heapUsed },
		peak,
		// The kernel's peak resident set of the whole process life, start-up included.
		maxRss: process.resourceUsage().maxRSS * 1024,
		// Heap still in use after the run with the output items held, as n8n holds them until the next node ran.
		heldAfterRun: after.heapUsed - baseline.heapUsed,
	});
	process.disconnect();
});
