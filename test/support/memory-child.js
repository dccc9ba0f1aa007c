'use strict';

// The Payment Gateway node run through n8n's engine in a process of its own (started with --expose-gc by
// memory.ts), so that the memory measured is the node's alone: a jest worker's heap holds what other tests left
// and what the sandbox queued, and the collector runs when they make it. The parent sends the run's options and
// `measure`; this process runs once unmeasured (code loaded and compiled, the error's path taken), then once measured,
// and answers with the run's error, each output item's error, and its memory: growth at the peak, the heap's peak, and
// what stays after full collections.

require('./load-ts');

// With its extension: PaymentGateway.node.json, the codex, would be found first.
const { PaymentGatewayApi } = require('../../credentials/PaymentGatewayApi.credentials.ts');
const { PaymentGateway } = require('../../nodes/PaymentGateway/PaymentGateway.node.ts');
const { runWorkflow } = require('./engine');

const SAMPLE_EVERY_MS = 2;

const memory = () => {
	const usage = process.memoryUsage();
	return { js: usage.heapUsed + usage.external, rss: usage.rss };
};

// As runNode runs it: at the node's typeVersion unless the options name another.
const run = (options) => runWorkflow({ nodeType: PaymentGateway, credentialType: PaymentGatewayApi, ...options });

/**
 * What stays once everything freeable is freed: collected in rounds, each after the loop has turned, and the least
 * kept. A closed socket's clean-up and V8's concurrent sweeping finish on their own time, later on a busy machine.
 */
async function collected() {
	let least = Infinity;
	for (let round = 0; round < 5; round++) {
		await new Promise((resolve) => setImmediate(resolve));
		global.gc();
		least = Math.min(least, memory().js);
	}
	return least;
}

process.on('message', async ({ warmUp, measure }) => {
	if (warmUp) {
		await run(warmUp);
		process.send({ warmedUp: true });
		return;
	}
	const before = { ...memory(), js: await collected() };
	const peak = { ...before, heapUsed: process.memoryUsage().heapUsed };
	const sampler = setInterval(() => {
		const now = memory();
		peak.js = Math.max(peak.js, now.js);
		peak.rss = Math.max(peak.rss, now.rss);
		peak.heapUsed = Math.max(peak.heapUsed, process.memoryUsage().heapUsed);
	}, SAMPLE_EVERY_MS);
	const result = await run(measure);
	clearInterval(sampler);
	const kept = await collected();
	const { message, description } = result.error ?? {};
	process.send({
		error: result.error && { message, description },
		// Each output item's error, for a run with Continue On Fail: what ended it.
		itemErrors: result.items.map((item) => (typeof item.json.error === 'string' ? item.json.error : null)),
		peakJs: peak.js - before.js,
		peakRss: peak.rss - before.rss,
		keptJs: kept - before.js,
		// The heap in use at its highest, not the growth: what a limit such as --max-old-space-size weighs.
		peakHeapUsed: peak.heapUsed,
	});
	process.disconnect();
});
