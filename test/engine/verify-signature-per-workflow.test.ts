import { settledPayment, useSandbox } from '../support/fixtures';
import type { StaticDataStore } from '../support/webhook';
import { postJson, startVerifyingWorkflow } from '../support/verify-workflow';

// CONTRACT "repeat: true when this workflow already verified this payment in this confirmed status" (and the tool's
// description says the same), attack41. A workflow with two entry points that each verify a record (the redirect
// URL's webhook and a "check my order" webhook, each followed by its own Verify Signature node) remembers per
// workflow: a customer posting their one record to each gets repeat: false once.

const sandbox = useSandbox({ reset: false });

/** One entry point of the workflow: a Webhook and its own Verify Signature node, on the workflow's one store. */
const entry = async (store: StaticDataStore, name: string) => await startVerifyingWorkflow(sandbox, { store, name });

it('one record posted to two Verify Signature nodes of one workflow: the second says repeat: true', async () => {
	const record = await settledPayment(sandbox, 'success');
	const store: StaticDataStore = { staticData: {} };
	const redirect = await entry(store, 'Verify Redirect');
	const check = await entry(store, 'Verify Check');
	try {
		for (const [server, name] of [
			[redirect, 'Verify Redirect'],
			[check, 'Verify Check'],
		] as const) {
			await postJson(server, record);
			await server.idle();
			expect(server.executions[0].outputOf(name)[0]?.json.statusVerified).toBe(true);
		}
		const repeats = [redirect.executions[0].outputOf('Verify Redirect')[0]?.json.repeat, check.executions[0].outputOf('Verify Check')[0]?.json.repeat];
		expect(repeats).toEqual([false, true]);
	} finally {
		await redirect.close();
		await check.close();
	}
});
