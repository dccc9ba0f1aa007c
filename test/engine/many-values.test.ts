/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { fork } from 'node:child_process';
import * as path from 'node:path';

import { READ } from '../support/bad-answers';
import { sandboxCredentials, useSandbox } from '../support/fixtures';

// Answers inside the byte bound can still fill memory: just under 1 MiB of `[{},{},…]` is some 350,000 objects,
// about 20 MiB of heap once parsed. A run of 1,000 such reads, 100 at once (the adaptive limit of a read with default
// options), must end with every item refused by the value bound, in a process whose heap is capped at 256 MiB: the
// node refuses each answer from its text before any object is built. The cap is the check, not a figure measured in
// this jest worker, which other workers share the machine with.

const ITEMS = 1000;
const HEAP_MIB = 256;
const MIB = 1024 * 1024;

const sandbox = useSandbox({ reset: false });

interface Measured {
	error?: { message: string };
	itemErrors: Array<string | null>;
	peakHeapUsed: number;
}

it(`${ITEMS} reads of just under 1 MiB of empty objects each end refused, in a heap of ${HEAP_MIB} MiB`, async () => {
	const child = fork(path.join(__dirname, '..', 'support', 'memory-child.js'), [], {
		execArgv: ['--expose-gc', `--max-old-space-size=${HEAP_MIB}`],
		stdio: 'inherit',
	});
	const answer = () =>
		new Promise<Record<string, unknown>>((resolve, reject) => {
			child.once('message', resolve);
			child.once('exit', (code, signal) => reject(new Error(`the measuring process ended (exit ${code}, ${signal}) without an answer`)));
		});
	// Every request of the run, retries included, gets the answer: far more than the run can send.
	sandbox.injectFault({ match: READ.match, kind: 'many-values', count: 1_000_000 });
	const options = (items: number) => ({
		credentials: sandboxCredentials(sandbox),
		parameters: { resource: 'status', operation: 'getByOrderId', orderId: '={{ $json.orderId }}' },
		items: Array.from({ length: items }, (_, index) => ({ orderId: `wb-many-${index}` })),
		continueOnFail: true,
	});
	let run: Measured;
	try {
		child.send({ warmUp: options(1) });
		await answer();
		child.send({ measure: options(ITEMS) });
		run = (await answer()) as unknown as Measured;
	} finally {
		child.kill();
		sandbox.clearFaults();
	}
	const faulted = sandbox.requests.filter((request) => request.fault === 'many-values');
	// A figure to read, not to bound: load and the collector move it.
	process.stdout.write(
		`${ITEMS} reads of ${(MIB - 1).toLocaleString('en')}-byte answers of empty objects: peak heap ${(run.peakHeapUsed / MIB).toFixed(1)} MiB ` +
			`(limit ${HEAP_MIB} MiB); ${faulted.length} answers served, ${faulted.filter((request) => request.answered).length} of them handed whole to the kernel before the node hung up\n`,
	);
	expect(run.error).toBeUndefined();
	expect(run.itemErrors).toHaveLength(ITEMS);
	run.itemErrors.forEach((message, index) =>
		expect(message).toBe(
			`${READ.label}: the gateway sent an answer with more than 2000 values, which was not read (order wb-many-${index}) [item ${index}]`,
		),
	);
}, 300_000);
