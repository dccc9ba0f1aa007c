/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { fork } from 'node:child_process';
import * as path from 'node:path';

import { sandboxCredentials, useSandbox } from '../support/fixtures';

// Status → Verify Signature reads its incoming item whole: the record a customer's browser brought back, which n8n
// accepts up to 16 MiB. It is bounded as a notification is (64 KiB) before anything is done with it: an unsigned 8 MiB
// record fails its item naming the size, sends nothing, and costs the node less than 100 ms of CPU. The node's CPU is
// measured in a process of its own (test/support/node-cpu-child.js), around its execute() alone.

const MIB = 1024 * 1024;

const sandbox = useSandbox();

interface Measured {
	cpuMs: number;
	error?: { message: string };
}

async function measuredInChild(items: object[], extra: object = {}): Promise<Measured> {
	const child = fork(path.join(__dirname, '..', 'support', 'node-cpu-child.js'), [], { stdio: 'inherit' });
	try {
		const answer = new Promise<Measured>((resolve, reject) => {
			child.once('message', (message) => resolve(message as Measured));
			child.once('exit', (code) => reject(new Error(`the measuring process ended (exit ${code}) without an answer`)));
		});
		child.send({ options: { credentials: sandboxCredentials(sandbox), parameters: { resource: 'status', operation: 'verifySignature' }, ...extra }, items });
		return await answer;
	} finally {
		child.kill();
	}
}

const signed = { orderId: 'wb-3f2c9a1e-7d4b-4c1a-9e0f-2b6d8a5c3e71', paymentId: 'PAY0123456789ABCDEF0123456789ABCDEF', signature: 'f'.repeat(64) };

it.each([
	['one text of 8 MiB', { fields: signed, text: { name: 'note', bytes: 8 * MIB } }, 'it is larger than 64 KiB'],
	['8 MiB in 4,096 fields of 2 KiB', { fields: signed, many: 4096, size: 2048 }, 'it is larger than 64 KiB'],
	['4,096 fields of 4 B (16 KiB, more values than any notification)', { fields: signed, many: 4096, size: 4 }, 'it has more than 2000 values'],
])('an unsigned record of %s: refused naming its size, nothing sent, under 100 ms of the node’s CPU', async (_label, item, why) => {
	const measured = await measuredInChild([item]);
	expect(measured.error?.message).toBe(`The incoming item is not read: ${why}, and a notification or status record is far smaller [item 0]`);
	process.stdout.write(`Verify Signature on ${_label}: ${measured.cpuMs.toFixed(1)} ms of the node's CPU\n`);
	expect(measured.cpuMs).toBeLessThan(100);
	expect(sandbox.requests).toEqual([]);
}, 120_000);

it('a record at the bound is read, its signature checked: a wrong one is data, nothing sent', async () => {
	const measured = await measuredInChild([{ fields: signed, text: { name: 'note', bytes: 60 * 1024 } }]);
	expect(measured.error).toBeUndefined();
	expect(sandbox.requests).toEqual([]);
}, 120_000);
