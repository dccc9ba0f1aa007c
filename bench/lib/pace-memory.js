'use strict';

// "The gateway's pace learned once": status reads nobody tuned (the node with no options) against one tuned by hand
// (Concurrency = the capacity), at a sandbox serving 10, then 100, at once at 200 ms an answer and answering 429 with
// Retry-After 1 s beyond; the untuned node as the first run in an n8n process (the memory of paces emptied before it),
// as the second (starting from what the first learned) and as a day later (from what the second learned, its wait
// before the refused level passed). On Error: Continue; counts and times as the sandbox saw them.

const path = require('node:path');

const { forgetPaces, runNode } = require('./node-runs');
const { timed } = require('./pool');

const { paceMemory } = require(path.join(__dirname, '..', '..', 'dist', 'nodes/PaymentGateway/transport/paceMemory.js'));

const LATENCY_MS = 200;
const RETRY_AFTER_S = 1;
const GATEWAYS = [
	{ key: 'serves10', serves: 10, items: 300 },
	{ key: 'serves100', serves: 100, items: 1000 },
];
/**
 * The runs of each round: hand-tuned around the untuned ones, so that a load on the machine that rises or falls during a
 * round weighs on both sides; every other round puts the untuned runs first, so that neither kind always follows the
 * same one (a run's garbage is collected during the next). A second run always follows its first at once, as a run
 * that starts within the refused level's wait (20 times the Retry-After) does; a next day's run follows it, from what
 * it learned but with that wait passed, as a daily schedule's run finds the memory.
 */
const ORDERS = [
	['handTuned', 'first', 'second', 'nextDay', 'handTuned'],
	['first', 'second', 'nextDay', 'handTuned', 'handTuned'],
];
// Four rounds: single runs of one kind moved by up to a tenth on a shared machine.
const ROUNDS = Number(process.env.BENCH_PACE_ROUNDS || 2 * ORDERS.length);

async function statusReads(sandbox, orderIds, options) {
	const items = await runNode(
		sandbox,
		{ resource: 'status', operation: 'getByOrderId', orderId: '={{ $json.orderId }}', options },
		orderIds.map((orderId) => ({ orderId })),
		{ continueOnFail: true },
	);
	if (items.length !== orderIds.length) throw new Error(`the node gave ${items.length} items for ${orderIds.length} orders`);
	return items.filter((item) => item.json.error !== undefined).length;
}

/** The limit the memory holds for the sandbox's credential now (one gateway, one credential: one entry). */
function rememberedLimit() {
	const entries = paceMemory.contents();
	return entries.length === 1 ? Math.floor(entries[0][1].limit) : undefined;
}

async function measured(sandbox, orderIds, options) {
	const startLimit = rememberedLimit();
	const { ms, result: itemsFailed } = await timed(() => statusReads(sandbox, orderIds, options));
	const log = await sandbox.takeLog();
	return {
		wallMs: ms,
		sandboxSpanMs: log.spanMs,
		itemsFailed,
		requests: log.count,
		throttled: log.byStatus[429] ?? 0,
		maxInFlight: log.maxInFlight,
		startLimit,
		endLimit: rememberedLimit(),
	};
}

/** As a day later: the one entry's wait before its refused level has passed (the memory counts it as a time of day). */
function waitPassed() {
	const [[key, learned]] = paceMemory.contents();
	paceMemory.keep(key, { ...learned, probeInMs: 0 });
}

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

async function paceLearnedOnce(sandbox, orderIds, progress) {
	const result = { latencyMs: LATENCY_MS, retryAfterSeconds: RETRY_AFTER_S, rounds: ROUNDS, orders: ORDERS, gateways: [] };
	for (const gateway of GATEWAYS) {
		const ids = orderIds.slice(0, gateway.items);
		await sandbox.setCapacity({ serves: gateway.serves, retryAfter: RETRY_AFTER_S });
		await sandbox.setLatency(LATENCY_MS);
		await sandbox.takeLog();
		const runs = { handTuned: [], first: [], second: [], nextDay: [] };
		for (let round = 0; round < ROUNDS; round++) {
			for (const key of ORDERS[round % ORDERS.length]) {
				const options = key === 'handTuned' ? { concurrency: gateway.serves } : {};
				// A first run is the first in its process: nothing learned yet (what a fresh n8n process starts with).
				if (key === 'first') forgetPaces();
				if (key === 'nextDay') waitPassed();
				const run = await measured(sandbox, ids, options);
				runs[key].push(run);
				progress(
					`  ${gateway.key} round ${round + 1} ${key}: ${(run.sandboxSpanMs / 1000).toFixed(2)} s, ${run.itemsFailed} failed,` +
						` ${run.throttled} of ${run.requests} throttled, at most ${run.maxInFlight} in flight` +
						(key === 'handTuned' ? '' : `, limit ${run.startLimit ?? 'none kept'} at the start, ${run.endLimit} kept`),
				);
			}
		}
		const span = (key) => mean(runs[key].map((run) => run.sandboxSpanMs));
		result.gateways.push({
			...gateway,
			latencyMs: LATENCY_MS,
			runs,
			meanSandboxSpanMs: { handTuned: span('handTuned'), first: span('first'), second: span('second'), nextDay: span('nextDay') },
			firstToHandTuned: span('first') / span('handTuned'),
			secondToHandTuned: span('second') / span('handTuned'),
			nextDayToHandTuned: span('nextDay') / span('handTuned'),
		});
	}
	await sandbox.setCapacity(null);
	await sandbox.setLatency(0);
	forgetPaces();
	return result;
}

function printPaceLearnedOnce(pace) {
	if (!pace) return;
	console.log(
		`\nThe gateway's pace learned once: status reads, untuned (no options) as the first run in a process and as the second,` +
			` against Concurrency = the capacity; 429 with Retry-After ${pace.retryAfterSeconds} s beyond it; ${pace.rounds} rounds` +
			` (${pace.orders.map((order) => order.join(' ')).join('; ')}, in turn); times as the sandbox saw them,` +
			' means of the runs (each run in brackets)',
	);
	for (const gateway of pace.gateways) {
		console.log(`  serves ${gateway.serves} at once, ${gateway.latencyMs} ms an answer, ${gateway.items} items:`);
		for (const [key, label] of [
			['handTuned', `Concurrency ${gateway.serves} (hand-tuned)`],
			['first', 'no options, first run'],
			['second', 'no options, second run'],
			['nextDay', 'no options, a day later'],
		]) {
			const runs = gateway.runs[key];
			const each = runs.map((run) => (run.sandboxSpanMs / 1000).toFixed(2)).join(', ');
			const throttled = runs.map((run) => run.throttled).join(', ');
			const starts = key === 'handTuned' ? '' : `  limit at the start ${runs.map((run) => run.startLimit ?? 'none kept').join(', ')}`;
			console.log(
				`    ${label.padEnd(34)} ${(gateway.meanSandboxSpanMs[key] / 1000).toFixed(2).padStart(6)} s (${each})  throttled ${throttled}` +
					`  failed ${runs.map((run) => run.itemsFailed).join(', ')}${starts}`,
			);
		}
		console.log(
			`    first / hand-tuned: ${gateway.firstToHandTuned.toFixed(2)}x; second / hand-tuned: ${gateway.secondToHandTuned.toFixed(2)}x;` +
				` a day later / hand-tuned: ${gateway.nextDayToHandTuned.toFixed(2)}x`,
		);
	}
}

module.exports = { paceLearnedOnce, printPaceLearnedOnce };
