'use strict';

// The workload `npm run bench:profile` profiles: Status → Get by Order ID through n8n's engine at 0 ms latency at
// each concurrency, then the floor (floor-node.js) and the plain signed axios client for comparison, with the sandbox
// in its own process. Writes each phase's start and end (monotonic clock in µs, the clock of the .cpuprofile) and CPU
// time to the file named by the first argument. With --instrument it counts calls instead (bench/lib/instrument.js) and skips the plain client.

const fs = require('node:fs');
const path = require('node:path');

const { floorStatusOfAll } = require('./floor-node');
const { paidOrders, statusOfAll } = require('./node-runs');
const { plainClient } = require('./plain-client');
const { startSandboxProcess } = require('./sandbox-process');

const ITEMS = Number(process.env.PROFILE_N || 2000);
const CONCURRENCY = [1, 10];
const instrumented = process.argv.includes('--instrument');
const [phasesFile] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));

const microseconds = () => Number(process.hrtime.bigint() / 1000n);

async function main() {
	const counting = instrumented ? require('./instrument') : undefined;
	if (counting) {
		const dist = path.join(__dirname, '..', '..', 'dist');
		counting.instrument(require(path.join(dist, 'credentials/PaymentGatewayApi.credentials.js')).PaymentGatewayApi);
	}
	const sandbox = await startSandboxProcess();
	try {
		const { orderIds, nodeHeaders } = await paidOrders(sandbox, ITEMS);
		const runs = [
			...CONCURRENCY.map((concurrency) => ({
				label: `node in n8n's engine, concurrency ${concurrency}`,
				concurrency,
				run: (ids) => statusOfAll(sandbox, ids, concurrency),
			})),
			{
				label: "floor: a minimal node through n8n's HTTP helper, concurrency 1",
				concurrency: 1,
				floor: true,
				run: (ids) => floorStatusOfAll(sandbox, plainClient(sandbox, nodeHeaders).headers, ids, 1),
			},
			...(counting ? [] : [false, true]).map((freshConnection) => ({
				label: `plain signed axios, concurrency 1, ${freshConnection ? 'a new connection per request' : 'keep-alive'}`,
				concurrency: 1,
				plain: true,
				run: (ids) => plainClient(sandbox, nodeHeaders, { freshConnection }).statusOfAll(ids, 1),
			})),
		];
		// Warm-up: compiled code and connection set-up are not what a long run pays per item.
		for (const { run } of runs) await run(orderIds.slice(0, 200));
		await sandbox.takeLog();
		counting?.takeCounts();

		const phases = [];
		for (const { label, concurrency, plain, floor, run } of runs) {
			global.gc?.();
			const cpuBefore = process.cpuUsage();
			const start = microseconds();
			await run(orderIds);
			const end = microseconds();
			const cpu = process.cpuUsage(cpuBefore);
			const log = await sandbox.takeLog();
			if (log.count !== ITEMS || log.byStatus[200] !== ITEMS) throw new Error('the sandbox did not answer every item with 200');
			phases.push({ label, concurrency, plain, floor, items: ITEMS, start, end, cpu, counts: counting?.takeCounts() });
		}
		const decryptUs = counting ? await require('./decrypt-cost').decryptMicroseconds(sandbox.credentials) : undefined;
		fs.writeFileSync(phasesFile, JSON.stringify({ phases, decryptUs }));
	} finally {
		await sandbox.close();
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
