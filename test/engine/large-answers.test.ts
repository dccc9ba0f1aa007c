/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { fork } from 'node:child_process';
import * as path from 'node:path';

import type { FaultOptions } from '../../sandbox/gateway';
import { READ, WRITE } from '../support/bad-answers';
import { sandboxCredentials, useSandbox, withoutSubject } from '../support/fixtures';

// A gateway's largest answers: many megabytes, a million empty objects, JSON nested a hundred thousand deep, a body
// that never ends. Each must end in a clear error naming the operation and the bound, without filling memory. The node runs in a process of its own
// (test/support/memory-child.js), so that its memory is measured where nothing else runs: in this jest worker the
// sandbox's queued answer, other tests' leftovers and the collector's timing would move the figures.

const MIB = 1024 * 1024;

const sandbox = useSandbox();

interface Measured {
	error?: { message: string; description?: string };
	peakJs: number;
	peakRss: number;
	keptJs: number;
}

/**
 * Runs the node once to warm up, then again measured, both in a child process and both against `fault`: what the
 * error's path loads and compiles once is not counted as kept.
 */
async function measuredInChild(parameters: object, fault: FaultOptions & { match: string }): Promise<Measured> {
	const child = fork(path.join(__dirname, '..', 'support', 'memory-child.js'), [], { execArgv: ['--expose-gc'], stdio: 'inherit' });
	const answer = () =>
		new Promise<Record<string, unknown>>((resolve, reject) => {
			child.once('message', resolve);
			child.once('exit', (code) => reject(new Error(`the measuring process ended (exit ${code}) without an answer`)));
		});
	const options = { credentials: sandboxCredentials(sandbox), parameters };
	try {
		sandbox.injectFault(fault);
		child.send({ warmUp: options });
		await answer();
		sandbox.injectFault(fault);
		child.send({ measure: options });
		return (await answer()) as unknown as Measured;
	} finally {
		child.kill();
	}
}

describe('answers too large or too deep are not read: a clear error, memory bounded', () => {
	const cases: Array<[string, FaultOptions, RegExp]> = [
		['64 MiB of valid JSON, spaces between its tokens', { kind: 'huge', sizeBytes: 64 * MIB, fill: 'spaces' }, /an answer larger than 1 MiB, which was not read \[item 0\]$/],
		// One long text: its bound ends the read long before the size's.
		['64 MiB of valid JSON, one text', { kind: 'huge', sizeBytes: 64 * MIB }, /an answer with a text longer than 64 KiB, which was not read \[item 0\]$/],
		['just under 1 MiB of empty objects', { kind: 'many-values' }, /an answer with more than 2000 values, which was not read \[item 0\]$/],
		['JSON nested 100,000 deep', { kind: 'deep', depth: 100_000 }, /nested deeper than 16 levels, which was not read \[item 0\]$/],
		['JSON nested 400,000 deep (800 kB, under the size limit)', { kind: 'deep', depth: 400_000 }, /nested deeper than 16 levels, which was not read \[item 0\]$/],
		['a body that never ends', { kind: 'endless' }, /an answer with a text longer than 64 KiB, which was not read \[item 0\]$/],
	];
	for (const operation of [READ, WRITE]) {
		it.each(cases)(`${operation.label}: %s`, async (_name, fault, message) => {
			// A time-out far longer than the limits need, so that on a busy machine it is still a limit that ends the read.
			// Max Retries 0: one answer read and measured (by default the read would be asked again).
			const parameters = { ...(await operation.parameters(sandbox)), options: { timeout: 20_000, maxRetries: 0 } };
			const run = await measuredInChild(parameters, { match: operation.match, ...fault });
			// The message says which bound ended the read (size, values, depth, text), not the time-out.
			expect(run.error?.message).toMatch(new RegExp(`^${operation.label}: `));
			expect(withoutSubject(run.error?.message)).toMatch(message);
			expect(run.error?.description).toEqual(expect.any(String));
			// Reading the whole 64 MiB answer would hold at least that much; the node stops at 1 MiB.
			expect(run.peakJs).toBeLessThan(24 * MIB);
			expect(run.peakRss).toBeLessThan(48 * MIB);
			expect(run.keptJs).toBeLessThan(8 * MIB);
			expect(sandbox.requests.filter((request) => request.fault)).toHaveLength(2);
		});
	}
});
