'use strict';

// `npm run bench`: throughput against concurrency, per-item overhead against a plain signed axios client, memory
// for 1,000 and 10,000 items, and a stored-card clean-up, from one run. The sandbox gateway runs in its own process.
// Prints a table, writes bench/results.json and draws docs/bench.svg. See bench/README.md.
//
// BENCH_N items per run (1000), BENCH_LATENCY_MS sandbox latency for the throughput and clean-up runs (50),
// BENCH_ROUNDS rounds of the overhead comparison (6), BENCH_MEMORY_N item counts of the memory runs (1000,10000).
// BENCH_ONLY=capacity runs only the section "a gateway of unknown capacity" and writes bench/results-capacity.json;
// BENCH_ONLY=trigger only "the trigger under replays", into bench/results-trigger.json; BENCH_ONLY=answers only
// "answer handling", this build beside commit 66efd05's, into bench/results-answers.json; BENCH_ONLY=pace only "the
// gateway's pace learned once" (untuned first and second runs in one process against hand-tuned), into
// bench/results-pace.json.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { throughputSvg } = require('./lib/chart');
const { measureMemory } = require('./lib/memory');
const { floorStatusOfAll } = require('./lib/floor-node');
const { httpRequestStatusOfAll, untunedStatusOfAll } = require('./lib/untuned');
const { unknownCapacity } = require('./lib/capacity');
const { triggerReplays } = require('./lib/trigger-replays');
const { answerHandling } = require('./lib/answers');
const { paceLearnedOnce } = require('./lib/pace-memory');
const { cleanUpCards, paidOrders, statusOfAll, storeCards } = require('./lib/node-runs');
const { plainClient } = require('./lib/plain-client');
const { timed } = require('./lib/pool');
const { printReport } = require('./lib/report');
const { startSandboxProcess } = require('./lib/sandbox-process');

const envNumbers = (name, fallback) => (process.env[name] || fallback).split(',').map(Number);
const [N] = envNumbers('BENCH_N', '1000');
const [LATENCY_MS] = envNumbers('BENCH_LATENCY_MS', '50');
const [ROUNDS] = envNumbers('BENCH_ROUNDS', '6');
const MEMORY_N = envNumbers('BENCH_MEMORY_N', '1000,10000');
const CONCURRENCY = [1, 2, 5, 10, 20, 50];
const OVERHEAD_CONCURRENCY = 1;
const MEMORY_CONCURRENCY = 10;
const MEMORY_GC_EVERY_MS = 250;
const CLEANUP = { customers: 200, cardsEach: 5, concurrency: 10 };
const UNTUNED = { items: 300, latencyMs: 1000 };

const ONLY = process.env.BENCH_ONLY || undefined;
const SECTIONS = ['capacity', 'trigger', 'answers', 'pace'];
if (ONLY !== undefined && !SECTIONS.includes(ONLY)) throw new Error(`BENCH_ONLY must be one of ${SECTIONS.join(', ')}, not "${ONLY}"`);
const CAPACITY_ITEMS = 1000;

const RESULTS_FILE = path.join(__dirname, ONLY ? `results-${ONLY}.json` : 'results.json');
const CHART_FILE = path.join(__dirname, '..', 'docs', 'bench.svg');

const progress = (message) => process.stderr.write(`${message}\n`);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function machine() {
	const cpus = os.cpus();
	return {
		cores: cpus.length,
		cpuModel: cpus[0]?.model.trim(),
		totalMemoryGiB: Number((os.totalmem() / 2 ** 30).toFixed(1)),
		node: process.version,
		platform: `${os.type()} ${os.release()} ${os.arch()}`,
		loadAverageAtStart: os.loadavg().map((load) => Number(load.toFixed(2))),
	};
}

/** Every run must have reached the sandbox once per item, and every answer must have been a success. */
async function expectLog(sandbox, count, what) {
	const log = await sandbox.takeLog();
	if (log.count !== count || log.byStatus[200] !== count) {
		throw new Error(`${what}: the sandbox saw ${log.count} requests (${JSON.stringify(log.byStatus)}), expected ${count} successes`);
	}
	return log;
}

/**
 * Node and plain clients at 0 ms latency, one at a time, in rounds; each round rotates the order of the three so
 * that each runs first, second and last equally often, and the medians of the rounds are compared.
 */
async function overhead(sandbox, variants, orderIds) {
	const perItem = Object.fromEntries(variants.map(({ key }) => [key, []]));
	const cpuPerItem = Object.fromEntries(variants.map(({ key }) => [key, []]));
	for (let round = 0; round < ROUNDS; round++) {
		const order = variants.map((_variant, index) => variants[(index + round) % variants.length]);
		for (const { key, run } of order) {
			// CPU time of this process as well: other work on a shared machine moves it far less than wall time.
			const cpuBefore = process.cpuUsage();
			const { ms } = await timed(() => run(orderIds, OVERHEAD_CONCURRENCY));
			const cpu = process.cpuUsage(cpuBefore);
			await expectLog(sandbox, orderIds.length, key);
			perItem[key].push(ms / orderIds.length);
			cpuPerItem[key].push((cpu.user + cpu.system) / 1000 / orderIds.length);
		}
		progress(`  overhead round ${round + 1}/${ROUNDS} done`);
	}
	const summary = (key) => ({
		medianMsPerItem: median(perItem[key]),
		minMsPerItem: Math.min(...perItem[key]),
		maxMsPerItem: Math.max(...perItem[key]),
		roundsMsPerItem: perItem[key],
		medianCpuMsPerItem: median(cpuPerItem[key]),
	});
	const result = Object.fromEntries(variants.map(({ key }) => [key, summary(key)]));
	const node = result.node.medianMsPerItem;
	return {
		latencyMs: 0,
		items: orderIds.length,
		concurrency: OVERHEAD_CONCURRENCY,
		rounds: ROUNDS,
		method:
			'rounds of node, floor, floor+stream, floor+authenticated, plain keep-alive, plain new-connection; the order rotates each round; medians compared',
		...result,
		ratioNodeToFloor: node / result.floor.medianMsPerItem,
		cpuRatioNodeToFloor: result.node.medianCpuMsPerItem / result.floor.medianCpuMsPerItem,
		ratioNodeToPlain: node / result.plainKeepAlive.medianMsPerItem,
		ratioNodeToPlainNewConnection: node / result.plainNewConnection.medianMsPerItem,
		overheadMsPerItem: node - result.plainKeepAlive.medianMsPerItem,
	};
}

/** Items per second of node, floor and plain client at each concurrency; which runs first rotates per level. */
async function throughput(sandbox, variants, orderIds) {
	const rows = [];
	for (const [level, concurrency] of CONCURRENCY.entries()) {
		const idealItemsPerSecond = concurrency / (LATENCY_MS / 1000);
		const row = { concurrency, idealItemsPerSecond };
		const order = variants.map((_variant, index) => variants[(index + level) % variants.length]);
		for (const { key, run } of order) {
			const { ms } = await timed(() => run(orderIds, concurrency));
			await expectLog(sandbox, orderIds.length, `${key} at concurrency ${concurrency}`);
			const itemsPerSecond = orderIds.length / (ms / 1000);
			row[key] = { ms, itemsPerSecond, fractionOfIdeal: itemsPerSecond / idealItemsPerSecond };
		}
		rows.push(row);
		progress(
			`  concurrency ${concurrency}: node ${row.node.itemsPerSecond.toFixed(1)}/s, floor ${row.floor.itemsPerSecond.toFixed(1)}/s, plain ${row.plain.itemsPerSecond.toFixed(1)}/s`,
		);
	}
	return rows;
}

async function cleanUp(sandbox) {
	const customerIds = await storeCards(sandbox, CLEANUP.customers, CLEANUP.cardsEach);
	const cards = CLEANUP.customers * CLEANUP.cardsEach;
	await sandbox.setLatency(LATENCY_MS);
	const { ms, result } = await timed(() => cleanUpCards(sandbox, customerIds, CLEANUP.concurrency));
	await sandbox.setLatency(0);
	const log = await expectLog(sandbox, CLEANUP.customers + cards, 'clean-up');
	if (result.listed !== cards || result.deleted !== cards || log.byMethod.DELETE !== cards) {
		throw new Error(`clean-up: ${result.listed} cards listed and ${result.deleted} deleted, expected ${cards}`);
	}
	const idealMs = (Math.ceil(CLEANUP.customers / CLEANUP.concurrency) + Math.ceil(cards / CLEANUP.concurrency)) * LATENCY_MS;
	return {
		...CLEANUP,
		latencyMs: LATENCY_MS,
		cards,
		listMs: result.listMs,
		deleteMs: result.deleteMs,
		wallMs: ms,
		itemsPerSecond: (CLEANUP.customers + cards) / (ms / 1000),
		cardsDeletedPerSecond: cards / (ms / 1000),
		idealMs,
	};
}

/**
 * Status reads nobody tuned, at a gateway answering in 1 s: n8n's HTTP Request node with its defaults, and the node
 * with no options. Times and requests in flight as the sandbox saw them.
 */
async function untuned(sandbox, statusHeaders, orderIds) {
	const ids = orderIds.slice(0, UNTUNED.items);
	const runs = [
		{ key: 'httpRequest', ids, run: () => httpRequestStatusOfAll(sandbox, statusHeaders, ids) },
		{ key: 'node', ids, run: () => untunedStatusOfAll(sandbox, ids) },
	];
	await sandbox.setLatency(UNTUNED.latencyMs);
	const result = { latencyMs: UNTUNED.latencyMs };
	for (const { key, ids: items, run } of runs) {
		const { ms } = await timed(run);
		const log = await expectLog(sandbox, items.length, `untuned ${key}`);
		result[key] = {
			items: items.length,
			wallMs: ms,
			sandboxSpanMs: log.spanMs,
			maxInFlight: log.maxInFlight,
			itemsPerSecond: items.length / (log.spanMs / 1000),
		};
		progress(`  untuned ${key}: ${items.length} items in ${(log.spanMs / 1000).toFixed(1)} s, ${log.maxInFlight} in flight`);
	}
	await sandbox.setLatency(0);
	result.httpRequestToNode = result.httpRequest.itemsPerSecond / result.node.itemsPerSecond;
	return result;
}

/**
 * Each size four times, each time in a fresh process: the node left alone (peaks), the node with full collections
 * (live heap), the floor left alone (its peaks, to compare with the node's) and the floor with the answer read as a
 * stream and sent through the credential.
 */
async function memory(sandbox, orderIds, floorHeaders) {
	const runs = [];
	for (const items of MEMORY_N) {
		const ids = orderIds.slice(0, items);
		const run = await measureMemory(sandbox, ids, MEMORY_CONCURRENCY);
		const live = await measureMemory(sandbox, ids, MEMORY_CONCURRENCY, { gcEveryMs: MEMORY_GC_EVERY_MS });
		const floor = await measureMemory(sandbox, ids, MEMORY_CONCURRENCY, { floor: { headers: floorHeaders } });
		// The floor with the stream read and the credential: what any node that bounds its answers pays.
		const floorSteps = await measureMemory(sandbox, ids, MEMORY_CONCURRENCY, { floor: { headers: floorHeaders, step: 'authenticated' } });
		await expectLog(sandbox, 4 * (items + 20), `memory runs of ${items} items`);
		runs.push({
			...run,
			liveHeapPeak: live.peak.heapUsed,
			floor: { peak: floor.peak, maxRss: floor.maxRss, baseline: floor.baseline },
			floorAuthenticated: { peak: floorSteps.peak, maxRss: floorSteps.maxRss, baseline: floorSteps.baseline },
			peakRssNodeToFloor: run.peak.rss / floor.peak.rss,
			peakRssFloorAuthenticatedToFloor: floorSteps.peak.rss / floor.peak.rss,
		});
		progress(`  memory runs of ${items} items done`);
	}
	const [small, large] = [runs[0], runs[runs.length - 1]];
	const extra = large.items - small.items;
	const difference = (pick) => pick(large) - pick(small);
	return {
		concurrency: MEMORY_CONCURRENCY,
		latencyMs: 0,
		liveHeapGcEveryMs: MEMORY_GC_EVERY_MS,
		runs,
		difference: {
			items: extra,
			peakRss: difference((run) => run.peak.rss),
			peakHeapUsed: difference((run) => run.peak.heapUsed),
			liveHeapPeak: difference((run) => run.liveHeapPeak),
			heldAfterRun: difference((run) => run.heldAfterRun),
			liveBytesPerItem: extra > 0 ? difference((run) => run.liveHeapPeak) / extra : undefined,
			heldBytesPerItem: extra > 0 ? difference((run) => run.heldAfterRun) / extra : undefined,
		},
	};
}

async function everySection(sandbox, results) {
	progress(`setting up ${Math.max(N, ...MEMORY_N, 200, CAPACITY_ITEMS)} paid orders ...`);
	const { orderIds: allOrderIds, nodeHeaders } = await paidOrders(sandbox, Math.max(N, ...MEMORY_N, 200, CAPACITY_ITEMS));
	const orderIds = allOrderIds.slice(0, N);
	const plain = plainClient(sandbox, nodeHeaders);
	const plainNewConnection = plainClient(sandbox, nodeHeaders, { freshConnection: true });
	const node = { key: 'node', run: (ids, concurrency) => statusOfAll(sandbox, ids, concurrency) };
	const plainKeepAlive = { key: 'plainKeepAlive', run: (ids, concurrency) => plain.statusOfAll(ids, concurrency) };
	const floor = { key: 'floor', run: (ids, concurrency) => floorStatusOfAll(sandbox, plain.headers, ids, concurrency) };

	// Warm-up, not measured; then a check that the plain client sends what the node sends.
	for (const concurrency of [1, 10]) {
		await node.run(orderIds.slice(0, 200), concurrency);
		await floor.run(orderIds.slice(0, 200), concurrency);
	}
	for (const step of ['stream', 'authenticated']) await floorStatusOfAll(sandbox, plain.headers, orderIds.slice(0, 200), 1, step);
	await plain.statusOfAll(orderIds.slice(0, 200), 10);
	await plainNewConnection.statusOfAll(orderIds.slice(0, 200), 1);
	await sandbox.takeLog();
	await node.run(orderIds.slice(0, 1), 1);
	const nodeRequest = (await sandbox.takeLog()).first.headers;
	await plain.statusByOrderId(orderIds[0]);
	results.settings.sameHeaders = sameHeaders(nodeRequest, (await sandbox.takeLog()).first.headers, 'plain client');
	await floor.run(orderIds.slice(0, 1), 1);
	results.settings.floorSameHeaders = sameHeaders(nodeRequest, (await sandbox.takeLog()).first.headers, 'floor');

	progress(`overhead at 0 ms latency, ${ROUNDS} rounds of ${N} items ...`);
	results.overhead = await overhead(sandbox, [
		node,
		floor,
		...['stream', 'authenticated'].map((step) => ({
			key: `floor+${step}`,
			run: (ids, concurrency) => floorStatusOfAll(sandbox, plain.headers, ids, concurrency, step),
		})),
		plainKeepAlive,
		{ key: 'plainNewConnection', run: (ids, concurrency) => plainNewConnection.statusOfAll(ids, concurrency) },
	], orderIds);

	progress(`throughput at ${LATENCY_MS} ms latency ...`);
	await sandbox.setLatency(LATENCY_MS);
	results.throughput = await throughput(sandbox, [node, floor, { ...plainKeepAlive, key: 'plain' }], orderIds);
	await sandbox.setLatency(0);

	progress('stored-card clean-up ...');
	results.cleanUp = await cleanUp(sandbox);

	progress(`untuned status reads at ${UNTUNED.latencyMs} ms latency ...`);
	results.untuned = await untuned(sandbox, plain.statusHeaders(), orderIds);

	progress('a gateway of unknown capacity ...');
	results.capacity = await unknownCapacity(sandbox, plain.statusHeaders(), allOrderIds.slice(0, CAPACITY_ITEMS), progress);

	progress("the gateway's pace learned once ...");
	results.paceMemory = await paceLearnedOnce(sandbox, allOrderIds.slice(0, CAPACITY_ITEMS), progress);

	progress('the trigger under replays ...');
	results.triggerReplays = await triggerReplays(sandbox, allOrderIds, undefined, progress);

	progress('answer handling, before and after ...');
	results.answers = await answerHandling(sandbox, allOrderIds, progress);

	progress('memory ...');
	results.memory = await memory(sandbox, allOrderIds, plain.headers);
}

/** Only one section: paid orders, then its runs. */
async function oneSection(sandbox, results) {
	if (ONLY === 'trigger') {
		progress('setting up 200 paid orders ...');
		const { orderIds } = await paidOrders(sandbox, 200);
		progress('the trigger under replays ...');
		results.triggerReplays = await triggerReplays(sandbox, orderIds, undefined, progress);
		return;
	}
	if (ONLY === 'answers') {
		progress('setting up 200 paid orders ...');
		const { orderIds } = await paidOrders(sandbox, 200);
		progress('answer handling, before and after ...');
		results.answers = await answerHandling(sandbox, orderIds, progress);
		return;
	}
	progress(`setting up ${CAPACITY_ITEMS} paid orders ...`);
	const { orderIds, nodeHeaders } = await paidOrders(sandbox, CAPACITY_ITEMS);
	if (ONLY === 'pace') {
		progress("the gateway's pace learned once ...");
		results.paceMemory = await paceLearnedOnce(sandbox, orderIds, progress);
		return;
	}
	progress('a gateway of unknown capacity ...');
	results.capacity = await unknownCapacity(sandbox, plainClient(sandbox, nodeHeaders).statusHeaders(), orderIds, progress);
}

async function main() {
	const results = {
		command: ONLY ? `BENCH_ONLY=${ONLY} npm run bench` : 'npm run bench',
		date: new Date().toISOString(),
		machine: machine(),
		settings: { items: N, latencyMs: LATENCY_MS, sandbox: 'its own process (bench/lib/sandbox-child.js), 127.0.0.1' },
	};
	const sandbox = await startSandboxProcess();
	try {
		if (ONLY) await oneSection(sandbox, results);
		else await everySection(sandbox, results);
	} finally {
		await sandbox.close();
	}
	results.machine.loadAverageAtEnd = os.loadavg().map((load) => Number(load.toFixed(2)));

	fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, '\t')}\n`);
	if (!ONLY) fs.writeFileSync(CHART_FILE, await throughputSvg(results));
	printReport(results);
	const written = [RESULTS_FILE, ...(ONLY ? [] : [CHART_FILE])].map((file) => path.relative(process.cwd(), file));
	console.log(`\nwrote ${written.join(' and ')}`);
}

/**
 * The headers the sandbox saw from the node and from the plain client must be the same, names and values, the
 * signature included (same key, same path), apart from `host` and `connection`.
 */
function sameHeaders(fromNode, fromPlain, which) {
	const comparable = (headers) =>
		JSON.stringify(Object.entries(headers).filter(([name]) => !['host', 'connection'].includes(name)).sort());
	if (comparable(fromNode) !== comparable(fromPlain)) {
		throw new Error(`the ${which}'s headers differ from the node's:\n${comparable(fromNode)}\n${comparable(fromPlain)}`);
	}
	return `same headers, names and values (connection apart: the node's helper sends "${fromNode.connection}")`;
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
