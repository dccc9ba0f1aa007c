import * as v8 from 'node:v8';
import * as vm from 'node:vm';

import type { FaultOptions } from '../../sandbox/gateway';
import { ENDLESS_MS, READ, TIMEOUT, WRITE } from '../support/bad-answers';
import type { Sandbox } from '../support/fixtures';
import { runNode, startSandbox } from '../support/fixtures';
import { until } from '../support/until';

// A gateway's largest answers: many megabytes, JSON nested a hundred thousand deep, a body that never ends. Each
// must end in a clear error naming the operation, without filling memory. In a file of their own: the forced
// collections here stop every timer of the process for a moment, which would shorten the time-outs that tests
// running alongside see at the sandbox, and their requests would fill the heap measured here.

v8.setFlagsFromString('--expose_gc');
const gc = vm.runInNewContext('gc') as () => void;

const MIB = 1024 * 1024;

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox();
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.reset());

/** Memory the process holds: JavaScript heap plus buffers outside it, and the resident set. */
const memory = () => {
	const usage = process.memoryUsage();
	return { js: usage.heapUsed + usage.external, rss: usage.rss };
};

/** Runs `work`, sampling memory every few milliseconds: growth at the peak, what stays after collection, time taken. */
async function measured<T>(work: () => Promise<T>) {
	gc();
	const before = memory();
	const peak = { ...before };
	const sampler = setInterval(() => {
		const now = memory();
		peak.js = Math.max(peak.js, now.js);
		peak.rss = Math.max(peak.rss, now.rss);
	}, 2);
	const started = performance.now();
	try {
		const result = await work();
		const ms = performance.now() - started;
		// The sandbox answers from this process: until it has seen the connection end, what it still queued to send
		// is held here, and a busy machine lets it pile up (20 MiB seen). Measured once the sandbox let go.
		await until(() => sandbox.requests.every((request) => request.closedAtMs !== null), 'the sandbox to see the connection end');
		gc();
		const after = memory();
		return { result, ms, peakJs: peak.js - before.js, peakRss: peak.rss - before.rss, keptJs: after.js - before.js };
	} finally {
		clearInterval(sampler);
	}
}

describe('answers too large or too deep are not read: a clear error, memory bounded', () => {
	const cases: Array<[string, FaultOptions, RegExp]> = [
		['64 MiB of valid JSON', { kind: 'huge', sizeBytes: 64 * MIB }, /an answer larger than 1 MiB, which was not read$/],
		['JSON nested 100,000 deep', { kind: 'deep', depth: 100_000 }, /nested deeper than 64 levels, which was not read$/],
		['JSON nested 400,000 deep (800 kB, under the size limit)', { kind: 'deep', depth: 400_000 }, /nested deeper than 64 levels, which was not read$/],
		['a body that never ends', { kind: 'endless' }, /an answer larger than 1 MiB, which was not read$/],
	];
	for (const operation of [READ, WRITE]) {
		it.each(cases)(`${operation.label}: %s`, async (_name, fault, message) => {
			const parameters = { ...(await operation.parameters(sandbox)), options: { timeout: TIMEOUT } };
			sandbox.injectFault({ match: operation.match, ...fault });
			const run = await measured(() => runNode(sandbox, parameters));
			expect(run.result.error?.message).toMatch(new RegExp(`^${operation.label}: `));
			expect(run.result.error?.message).toMatch(message);
			expect(run.result.error?.description).toEqual(expect.any(String));
			// The message says which limit ended the read; this only shows that nothing dragged on.
			expect(run.ms).toBeLessThan(ENDLESS_MS);
			// Reading the whole 64 MiB answer would hold at least that much; the node stops at 1 MiB.
			expect(run.peakJs).toBeLessThan(24 * MIB);
			expect(run.peakRss).toBeLessThan(48 * MIB);
			expect(run.keptJs).toBeLessThan(8 * MIB);
			expect(sandbox.requests.filter((request) => request.fault)).toHaveLength(1);
		});
	}
});
