'use strict';

// The table `npm run bench` prints, from the results it writes to bench/results.json.

const { printAnswerHandling } = require('./answers');
const { printUnknownCapacity } = require('./capacity');
const { printPaceLearnedOnce } = require('./pace-memory');

const ms = (value, digits = 2) => value.toFixed(digits);
const percent = (fraction) => `${(100 * fraction).toFixed(0)} %`;
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const pad = (text, width) => String(text).padStart(width);

function printMachine({ machine, settings }) {
	console.log(`Machine: ${machine.cores} cores (${machine.cpuModel}), ${machine.totalMemoryGiB} GiB, Node ${machine.node}, ${machine.platform}`);
	console.log(`Load average at start ${machine.loadAverageAtStart.join(' ')}, at end ${machine.loadAverageAtEnd.join(' ')}`);
	console.log(`Sandbox gateway: ${settings.sandbox}.${settings.sameHeaders ? ` Plain client check: ${settings.sameHeaders}.` : ''}`);
}

function printOverhead(overhead) {
	console.log(
		`\nPer-item time at 0 ms latency, concurrency ${overhead.concurrency}, ${overhead.items} items, ${overhead.rounds} rounds` +
			` (order rotated each round); median [min-max] ms per item`,
	);
	const row = (label, { medianMsPerItem, minMsPerItem, maxMsPerItem }) =>
		console.log(`  ${label.padEnd(52)} ${ms(medianMsPerItem, 3)} [${ms(minMsPerItem, 3)}-${ms(maxMsPerItem, 3)}]`);
	row("node in n8n's engine", overhead.node);
	if (overhead.floor) row("floor: a minimal node through n8n's HTTP helper", overhead.floor);
	if (overhead['floor+stream']) row('  + answer read as a stream, as the node does', overhead['floor+stream']);
	if (overhead['floor+authenticated']) row('  + sent through the credential, which signs', overhead['floor+authenticated']);
	row('plain signed axios, keep-alive', overhead.plainKeepAlive);
	row('plain signed axios, a new connection per request', overhead.plainNewConnection);
	if (overhead['floor+authenticated']) {
		const cpu = (key) => overhead[key].medianCpuMsPerItem;
		const share = (from, to) => `${((100 * (cpu(to) - cpu(from))) / cpu('floor')).toFixed(0)} %`;
		console.log(
			`  CPU above the floor: stream ${share('floor', 'floor+stream')}, credential ${share('floor+stream', 'floor+authenticated')},` +
				` the node's own ${share('floor+authenticated', 'node')} (of the floor's CPU time)`,
		);
	}
	if (overhead.floor) {
		console.log(
			`  node / floor ${overhead.ratioNodeToFloor.toFixed(2)}x wall time, ${overhead.cpuRatioNodeToFloor.toFixed(2)}x CPU time` +
				` (${ms(overhead.node.medianCpuMsPerItem, 3)} against ${ms(overhead.floor.medianCpuMsPerItem, 3)} ms of CPU per item)`,
		);
	}
	console.log(
		`  overhead ratio node / plain ${overhead.ratioNodeToPlain.toFixed(2)}x` +
			` (node / plain with new connections ${overhead.ratioNodeToPlainNewConnection.toFixed(2)}x);` +
			` the node adds ${ms(overhead.overheadMsPerItem, 3)} ms per item`,
	);
}

function printThroughput(rows, { latencyMs, items }) {
	console.log(`\nThroughput at ${latencyMs} ms latency, ${items} items per run (ideal = concurrency / latency)`);
	console.log('  concurrency   ideal/s    node/s  of ideal   floor/s  of ideal   plain/s  of ideal  floor/node  node/plain');
	for (const row of rows) {
		const floor = row.floor ?? { itemsPerSecond: NaN, fractionOfIdeal: NaN };
		console.log(
			`  ${pad(row.concurrency, 11)} ${pad(row.idealItemsPerSecond.toFixed(0), 9)} ${pad(row.node.itemsPerSecond.toFixed(1), 9)}` +
				` ${pad(percent(row.node.fractionOfIdeal), 9)} ${pad(floor.itemsPerSecond.toFixed(1), 9)} ${pad(percent(floor.fractionOfIdeal), 9)}` +
				` ${pad(row.plain.itemsPerSecond.toFixed(1), 9)}` +
				` ${pad(percent(row.plain.fractionOfIdeal), 9)} ${pad((floor.itemsPerSecond / row.node.itemsPerSecond).toFixed(2), 11)}` +
				` ${pad((row.node.itemsPerSecond / row.plain.itemsPerSecond).toFixed(2), 11)}`,
		);
	}
	const [first] = rows;
	const speedUps = rows.slice(1).map((row) => `${row.concurrency}: ${(row.node.itemsPerSecond / first.node.itemsPerSecond).toFixed(1)}x`);
	console.log(`  node speed-up over concurrency ${first.concurrency}: ${speedUps.join(', ')}`);
}

function printCleanUp(cleanUp) {
	console.log(
		`\nStored-card clean-up through the engine: ${cleanUp.customers} customers x ${cleanUp.cardsEach} cards,` +
			` concurrency ${cleanUp.concurrency}, ${cleanUp.latencyMs} ms latency`,
	);
	console.log(`  Get Many (${cleanUp.customers} items) ${ms(cleanUp.listMs, 0)} ms, Delete (${cleanUp.cards} items) ${ms(cleanUp.deleteMs, 0)} ms`);
	console.log(
		`  wall ${ms(cleanUp.wallMs / 1000)} s (ideal ${ms(cleanUp.idealMs / 1000)} s): ${cleanUp.itemsPerSecond.toFixed(1)} items/s,` +
			` ${cleanUp.cardsDeletedPerSecond.toFixed(1)} cards deleted/s`,
	);
}

function printUntuned(untuned) {
	if (!untuned) return;
	console.log(`\nUntuned status reads at ${untuned.latencyMs} ms latency (as the sandbox saw them)`);
	const row = (label, run) =>
		console.log(
			`  ${label.padEnd(54)} ${pad(run.items, 4)} items ${pad(ms(run.sandboxSpanMs / 1000, 1), 6)} s` +
				` ${pad(run.itemsPerSecond.toFixed(1), 7)} items/s, at most ${run.maxInFlight} in flight`,
		);
	row("n8n's HTTP Request node, its defaults", untuned.httpRequest);
	row('the node, no options (adaptive)', untuned.node);
	console.log(`  HTTP Request / node: ${untuned.httpRequestToNode.toFixed(1)}x the items per second`);
}

function printMemory(memory) {
	console.log(`\nMemory: Status → Get by Order ID at concurrency ${memory.concurrency}, 0 ms latency, each size in its own process`);
	console.log('     items  baseline RSS  peak RSS  max RSS (kernel)  baseline heap  peak heap  live heap peak  held after run');
	for (const run of memory.runs) {
		if (run.floor) {
			console.log(
				`  ${pad(run.items, 8)} floor: peak RSS ${mib(run.floor.peak.rss)}, max RSS ${mib(run.floor.maxRss)};` +
					` node / floor peak RSS ${run.peakRssNodeToFloor.toFixed(2)}x`,
			);
		}
		if (run.floorAuthenticated) {
			console.log(
				`  ${pad(run.items, 8)} floor + stream + credential: peak RSS ${mib(run.floorAuthenticated.peak.rss)};` +
					` / floor ${run.peakRssFloorAuthenticatedToFloor.toFixed(2)}x`,
			);
		}
		console.log(
			`  ${pad(run.items, 8)} ${pad(mib(run.baseline.rss), 13)} ${pad(mib(run.peak.rss), 9)} ${pad(mib(run.maxRss), 17)}` +
				` ${pad(mib(run.baseline.heapUsed), 14)} ${pad(mib(run.peak.heapUsed), 10)} ${pad(mib(run.liveHeapPeak), 15)}` +
				` ${pad(mib(run.heldAfterRun), 15)}`,
		);
	}
	const { difference } = memory;
	if (difference.items > 0) {
		console.log(
			`  difference for ${difference.items} more items: peak RSS ${mib(difference.peakRss)}, peak heap ${mib(difference.peakHeapUsed)},` +
				` live heap peak ${mib(difference.liveHeapPeak)} (${difference.liveBytesPerItem.toFixed(0)} bytes per item),` +
				` held after the run ${mib(difference.heldAfterRun)} (${difference.heldBytesPerItem.toFixed(0)} bytes per item)`,
		);
	}
	console.log(`  live heap peak: a separate run of the same size with a full collection every ${memory.liveHeapGcEveryMs} ms before each sample`);
}

function printTriggerReplays(replays) {
	if (!replays) return;
	const { settings } = replays;
	console.log(
		`\nThe trigger under replays (${settings.atOnce} deliveries in flight): ${settings.distinct} notifications of distinct paid payments, each again` +
			` (${settings.repeats} repeats), then ${settings.replays} replays of one payment with a made-up refundId each`,
	);
	console.log(`  ${''.padEnd(44)} ${'a second'.padStart(9)} ${'answered'.padStart(9)} ${'all done'.padStart(9)} ${'started'.padStart(8)} ${'reads'.padStart(6)} ${'a delivery'.padStart(10)}`);
	for (const [key, label] of [['trigger', 'Payment Gateway Trigger'], ['floor', 'floor: re-reads and starts every delivery']]) {
		for (const [what, name] of [['distinct', 'distinct'], ['repeats', 'repeats'], ['madeUpClaims', 'made-up claims']]) {
			const phase = replays[key][what];
			console.log(
				`  ${`${label}, ${name}`.padEnd(44)} ${pad(phase.perSecond, 9)} ${pad(`${phase.answeredMs} ms`, 9)} ${pad(`${phase.ms} ms`, 9)} ${pad(phase.executions, 8)} ${pad(phase.gatewayReads, 6)} ${pad(phase.readsPerDelivery, 10)}`,
			);
		}
	}
	const { ratios } = replays;
	console.log(
		`  trigger/floor: distinct a second ${ratios.distinctPerSecond}, repeats a second ${ratios.repeatsPerSecond}, made-up claims a second ${ratios.madeUpClaimsPerSecond};` +
			` reads a repeat ${ratios.readsPerRepeat}, reads a made-up claim ${ratios.readsPerMadeUpClaim}`,
	);
	const verify = replays.verifySignature;
	if (verify) {
		console.log(
			`  Verify Signature, one record posted ${verify.deliveries} times (Webhook → Verify Signature): ${verify.perSecond} a second, ${verify.gatewayReads} reads` +
				` (${verify.readsPerDelivery} a delivery; before: 1), ${verify.confirmed} confirmed, ${verify.repeats} say repeat`,
		);
	}
	const genuine = replays.genuineAmidReplays;
	if (genuine) {
		console.log(
			`  a genuine refund notification of a handled payment amid replays of ${genuine.replayedPayments} others at ${genuine.latencyMs} ms a read:` +
				` started ${genuine.genuineDelayMs} ms after it was posted (${genuine.genuineStatus}; before: 13.6 s), ${genuine.gatewayReads} reads in all`,
		);
	}
}

function printReport(results) {
	printMachine(results);
	if (results.overhead) printOverhead(results.overhead);
	if (results.throughput) printThroughput(results.throughput, results.settings);
	if (results.cleanUp) printCleanUp(results.cleanUp);
	printUntuned(results.untuned);
	printUnknownCapacity(results.capacity);
	printPaceLearnedOnce(results.paceMemory);
	printTriggerReplays(results.triggerReplays);
	printAnswerHandling(results.answers);
	if (results.memory) printMemory(results.memory);
}

module.exports = { printReport };
