'use strict';

// "A gateway of unknown capacity": status reads against a sandbox that serves so many requests at once and answers
// 429 with Retry-After beyond, by runners nobody tuned (the node with no options, n8n's HTTP Request node's defaults),
// by the node at Concurrency 50 (where the option starts when added) and by one tuned by hand (Concurrency = the
// capacity). Every run has On Error set to Continue, so that failed items are counted instead of stopping the run.
// Counts and times as the sandbox saw them.

const { forgetPaces, runNode } = require('./node-runs');
const { httpRequestRun } = require('./untuned');
const { timed } = require('./pool');

const LATENCY_MS = 200;
const RETRY_AFTER_S = 1;
/** The gateways: serving 10 and 100 at once at 200 ms an answer, and one without a limit at 1 s an answer. */
const GATEWAYS = [
	{ key: 'serves10', serves: 10, items: 300, latencyMs: LATENCY_MS },
	{ key: 'serves100', serves: 100, items: 1000, latencyMs: LATENCY_MS },
	{ key: 'noLimit', serves: null, items: 300, latencyMs: 1000 },
];

/** Items that came out as error items, and a check that the others are each order's status, in input order. */
function failedItems(who, items, orderIds) {
	if (items.length !== orderIds.length) throw new Error(`${who} gave ${items.length} items for ${orderIds.length} orders`);
	let failed = 0;
	items.forEach((item, index) => {
		if (item.json.error !== undefined) failed++;
		else if (item.json.orderId !== orderIds[index]) throw new Error(`${who} did not keep the orders' order`);
	});
	return failed;
}

async function nodeRun(sandbox, orderIds, options) {
	const items = await runNode(
		sandbox,
		{ resource: 'status', operation: 'getByOrderId', orderId: '={{ $json.orderId }}', options },
		orderIds.map((orderId) => ({ orderId })),
		{ continueOnFail: true },
	);
	return failedItems('the node', items, orderIds);
}

async function httpRequestFailures(sandbox, headers, orderIds) {
	return failedItems('the HTTP Request node', await httpRequestRun(sandbox, headers, orderIds, { continueOnFail: true }), orderIds);
}

/** The runners compared at one gateway; hand-tuned only where there is a capacity to tune to. */
function runners(gateway, sandbox, statusHeaders) {
	const list = [
		// Each untuned run as the first in its process: what this section compares is finding the pace (see pace-memory.js).
		{
			key: 'untuned',
			label: 'the node, no options (adaptive)',
			run: (ids) => {
				forgetPaces();
				return nodeRun(sandbox, ids, {});
			},
		},
		{ key: 'fixed50', label: 'the node, Concurrency 50', run: (ids) => nodeRun(sandbox, ids, { concurrency: 50 }) },
		{ key: 'httpRequest', label: "n8n's HTTP Request node, its defaults", run: (ids) => httpRequestFailures(sandbox, statusHeaders, ids) },
	];
	if (gateway.serves !== null) {
		list.unshift({
			key: 'handTuned',
			label: `the node, Concurrency ${gateway.serves} (hand-tuned)`,
			run: (ids) => nodeRun(sandbox, ids, { concurrency: gateway.serves }),
		});
	}
	return list;
}

/** One run at the current gateway, as the sandbox saw it. */
async function measured(sandbox, run, ids) {
	const { ms, result: itemsFailed } = await timed(() => run(ids));
	const log = await sandbox.takeLog();
	const throttled = log.byStatus[429] ?? 0;
	return { wallMs: ms, sandboxSpanMs: log.spanMs, itemsFailed, requests: log.count, throttled, maxInFlight: log.maxInFlight };
}

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Times are the runs' mean; failures, throttling and requests in flight the worst of them. */
function summary(label, rounds) {
	const worst = rounds.reduce((a, b) => (b.throttled / b.requests > a.throttled / a.requests ? b : a));
	return {
		label,
		rounds,
		wallMs: mean(rounds.map((round) => round.wallMs)),
		sandboxSpanMs: mean(rounds.map((round) => round.sandboxSpanMs)),
		itemsFailed: Math.max(...rounds.map((round) => round.itemsFailed)),
		requests: worst.requests,
		throttled: worst.throttled,
		throttledShare: worst.throttled / worst.requests,
		maxInFlight: Math.max(...rounds.map((round) => round.maxInFlight)),
	};
}

/**
 * Every gateway and runner; `progress` reports each run as it ends. The two runners each gateway compares (untuned
 * against hand-tuned, or against Concurrency 50 without a limit) run twice, in the order A B B A, so that a load
 * on the machine that rises or falls during the section weighs on both alike.
 */
async function unknownCapacity(sandbox, statusHeaders, orderIds, progress) {
	const result = { retryAfterSeconds: RETRY_AFTER_S, gateways: [] };
	for (const gateway of GATEWAYS) {
		const ids = orderIds.slice(0, gateway.items);
		await sandbox.setCapacity(gateway.serves === null ? null : { serves: gateway.serves, retryAfter: RETRY_AFTER_S });
		await sandbox.setLatency(gateway.latencyMs);
		await sandbox.takeLog();
		const list = runners(gateway, sandbox, statusHeaders);
		const byKey = Object.fromEntries(list.map((runner) => [runner.key, runner]));
		const [first, second] = gateway.serves === null ? ['untuned', 'fixed50'] : ['handTuned', 'untuned'];
		const order = [first, second, second, first, ...list.map(({ key }) => key).filter((key) => key !== first && key !== second)];
		const rounds = {};
		for (const key of order) {
			const round = await measured(sandbox, byKey[key].run, ids);
			(rounds[key] ??= []).push(round);
			progress(
				`  ${gateway.key} ${key}: ${(round.sandboxSpanMs / 1000).toFixed(2)} s, ${round.itemsFailed} of ${ids.length} failed,` +
					` ${round.throttled} of ${round.requests} requests throttled, at most ${round.maxInFlight} in flight`,
			);
		}
		const row = { ...gateway, runs: Object.fromEntries(list.map(({ key, label }) => [key, summary(label, rounds[key])])) };
		const { untuned, handTuned, fixed50 } = row.runs;
		row.untunedToHandTuned = handTuned ? untuned.sandboxSpanMs / handTuned.sandboxSpanMs : undefined;
		row.untunedToFixed50 = untuned.sandboxSpanMs / fixed50.sandboxSpanMs;
		result.gateways.push(row);
	}
	await sandbox.setCapacity(null);
	await sandbox.setLatency(0);
	return result;
}

function printUnknownCapacity(capacity) {
	if (!capacity) return;
	console.log(
		`\nA gateway of unknown capacity: status reads; it serves so many at once and answers 429 (Retry-After ${capacity.retryAfterSeconds} s) beyond.` +
			' On Error: Continue in every run; times and requests in flight as the sandbox saw them; the two runners compared' +
			' at each gateway ran twice (A B B A): their mean time, the worst of their other figures',
	);
	for (const gateway of capacity.gateways) {
		const serves = gateway.serves === null ? 'no limit' : `serves ${gateway.serves} at once`;
		console.log(`  ${serves}, ${gateway.latencyMs} ms an answer, ${gateway.items} items:`);
		for (const run of Object.values(gateway.runs)) {
			const each = run.rounds.length > 1 ? ` (${run.rounds.map((round) => (round.sandboxSpanMs / 1000).toFixed(2)).join(' and ')})` : '';
			console.log(
				`    ${run.label.padEnd(52)} ${(run.sandboxSpanMs / 1000).toFixed(2).padStart(6)} s${each.padEnd(16)}  ${String(run.itemsFailed).padStart(4)} failed` +
					`  ${(100 * run.throttledShare).toFixed(1).padStart(5)} % of ${String(run.requests).padStart(5)} requests throttled` +
					`  at most ${run.maxInFlight} in flight`,
			);
		}
		if (gateway.untunedToHandTuned !== undefined) console.log(`    untuned / hand-tuned time: ${gateway.untunedToHandTuned.toFixed(2)}x`);
		console.log(`    untuned / Concurrency 50 time: ${gateway.untunedToFixed50.toFixed(2)}x`);
	}
}

module.exports = { unknownCapacity, printUnknownCapacity };
