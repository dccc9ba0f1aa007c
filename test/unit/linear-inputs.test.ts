/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { fork } from 'node:child_process';
import * as path from 'node:path';

// Every text that reaches the node is bounded before a pattern reads it, and every pattern is linear: 1 MiB of the
// texts that make patterns backtrack costs each check and the redaction funnel less than 100 ms of CPU. Measured in a
// process of its own (test/support/cpu-child.js), so that nothing else running in this worker counts; CPU time, not
// wall time, so that other processes on the machine do not either. The pattern Amount used before took 13-16 s on a
// fifth of this.

interface Measured {
	attempt: string;
	text: string;
	ms: number;
}

let measured: Measured[];
beforeAll(async () => {
	const child = fork(path.join(__dirname, '..', 'support', 'cpu-child.js'), [], { stdio: 'inherit' });
	measured = await new Promise<Measured[]>((resolve, reject) => {
		child.once('message', (message) => resolve(message as Measured[]));
		child.once('exit', (code) => reject(new Error(`the measuring process ended (exit ${code}) without an answer`)));
	});
	child.kill();
}, 120_000);

it('measured every check on every text', () => {
	expect(measured.length).toBeGreaterThanOrEqual(100);
});

it('no check or redaction takes 100 ms of CPU on 1 MiB of adversarial text', () => {
	const slow = measured.filter((entry) => entry.ms >= 100).map((entry) => `${entry.attempt} on ${entry.text}: ${entry.ms.toFixed(1)} ms`);
	expect(slow).toEqual([]);
});
