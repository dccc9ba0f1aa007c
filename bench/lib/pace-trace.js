'use strict';

// Where an untuned run's time goes at a gateway it never has to be throttled by: `node bench/lib/pace-trace.js`
// (after `npm run build`) runs 1,000 status reads at a sandbox serving 100 at once at 200 ms (TRACE_N, TRACE_SERVES),
// hand-tuned and untuned in the order TRACE_ORDER, and prints for each run its time, this process's CPU time and,
// per 200 ms of the run (not with TRACE_QUIET): the adaptive limit, requests sent, answered and in flight, and the
// latency cuts. The rule is watched from outside (its prototype wrapped), so the node runs unchanged.

const path = require('node:path');

const { runNode, paidOrders } = require('./node-runs');
const { startSandboxProcess } = require('./sandbox-process');
const { timed } = require('./pool');

const dist = path.join(__dirname, '..', '..', 'dist', 'nodes/PaymentGateway/transport');
const { AdaptiveLimit } = require(path.join(dist, 'adaptiveLimit.js'));
const { paceMemory } = require(path.join(dist, 'paceMemory.js'));

const ITEMS = Number(process.env.TRACE_N || 1000);
const SERVES = Number(process.env.TRACE_SERVES || 100);
const BUCKET_MS = 200;

let events = [];
const original = { start: AdaptiveLimit.prototype.start, finish: AdaptiveLimit.prototype.finish };
AdaptiveLimit.prototype.start = function start(...args) {
	const ticket = original.start.apply(this, args);
	events.push({ at: performance.now(), kind: 'start', limit: this.limit, inFlight: this.inFlight });
	return ticket;
};
AdaptiveLimit.prototype.finish = function finish(ticket, outcome) {
	const before = this.limit;
	original.finish.call(this, ticket, outcome);
	events.push({ at: performance.now(), kind: outcome.kind, limit: this.limit, cut: this.limit < before, rtt: performance.now() - ticket.sentAt });
};

function report(label, ms, list) {
	const t0 = list[0].at;
	const cuts = list.filter((event) => event.cut).length;
	const lowest = Math.min(...list.filter((event) => event.limit !== undefined).map((event) => event.limit));
	console.log(`\n${label}: ${(ms / 1000).toFixed(2)} s wall; limit at least ${lowest}, ${cuts} cut(s)`);
	if (process.env.TRACE_QUIET) return;
	const buckets = new Map();
	for (const event of list) {
		const key = Math.floor((event.at - t0) / BUCKET_MS);
		const bucket = buckets.get(key) ?? { starts: 0, answers: 0, cuts: 0, limit: 0, maxInFlight: 0, rtts: [] };
		if (event.kind === 'start') {
			bucket.starts++;
			bucket.maxInFlight = Math.max(bucket.maxInFlight, event.inFlight);
		} else {
			bucket.answers++;
			bucket.rtts.push(event.rtt);
		}
		if (event.cut) bucket.cuts++;
		bucket.limit = event.limit;
		buckets.set(key, bucket);
	}
	for (const [key, bucket] of [...buckets].sort((a, b) => a[0] - b[0])) {
		const rtt = bucket.rtts.length ? (bucket.rtts.reduce((a, b) => a + b, 0) / bucket.rtts.length).toFixed(0) : '-';
		console.log(
			`  ${String(key * BUCKET_MS).padStart(5)} ms: limit ${String(bucket.limit).padStart(3)}, sent ${String(bucket.starts).padStart(3)}, ` +
				`answered ${String(bucket.answers).padStart(3)}, most in flight ${String(bucket.maxInFlight).padStart(3)}, mean round trip ${rtt} ms` +
				(bucket.cuts ? `, ${bucket.cuts} cut(s)` : ''),
		);
	}
	const firstStart = list.find((event) => event.kind === 'start').at;
	const last = list[list.length - 1].at;
	console.log(`  first request to last answer: ${((last - firstStart) / 1000).toFixed(2)} s; node's time before the first request: ${(firstStart - t0).toFixed(0)} ms`);
}

async function main() {
	const sandbox = await startSandboxProcess();
	try {
		const { orderIds } = await paidOrders(sandbox, ITEMS);
		await sandbox.setCapacity({ serves: SERVES, retryAfter: 1 });
		await sandbox.setLatency(200);
		const parameters = (options) => ({ resource: 'status', operation: 'getByOrderId', orderId: '={{ $json.orderId }}', options });
		const items = orderIds.map((orderId) => ({ orderId }));
		// TRACE_ORDER: H hand-tuned (Concurrency = the capacity), F untuned as a first run (memory of paces emptied),
		// S untuned starting from what the runs before learned.
		const kinds = {
			H: [`Concurrency ${SERVES}`, { concurrency: SERVES }],
			F: ['untuned, first run', {}],
			S: ['untuned, from the memory', {}],
		};
		for (const kind of (process.env.TRACE_ORDER || 'H,F,S,H').split(',')) {
			const [label, options] = kinds[kind];
			if (kind === 'F') paceMemory.forget();
			events = [{ at: performance.now(), kind: 'run' }];
			const cpu = process.cpuUsage();
			const { ms } = await timed(() => runNode(sandbox, parameters(options), items, { continueOnFail: true }));
			const used = process.cpuUsage(cpu);
			const log = await sandbox.takeLog();
			const cpuMs = (used.user + used.system) / 1000;
			report(`${label} (sandbox: ${(log.spanMs / 1000).toFixed(2)} s, ${log.byStatus[429] ?? 0} throttled; CPU of this process ${(cpuMs / 1000).toFixed(2)} s, ${((1000 * cpuMs) / ITEMS).toFixed(0)} µs an item)`, ms, events);
		}
	} finally {
		await sandbox.close();
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
