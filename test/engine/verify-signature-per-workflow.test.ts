import { PaymentGatewayApi } from '../../credentials/PaymentGatewayApi.credentials';
import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import type { Sandbox } from '../support/fixtures';
import { sandboxCredentials, settledPayment, startSandbox } from '../support/fixtures';
import { PlainWebhook } from '../support/plain-webhook';
import type { StaticDataStore, WebhookServer } from '../support/webhook';
import { startWebhookServer } from '../support/webhook';

// CONTRACT "repeat: true when this workflow already verified this payment in this confirmed status" (and the tool's
// description says the same), attack41. A workflow with two entry points that each verify a record (the redirect
// URL's webhook and a "check my order" webhook, each followed by its own Verify Signature node) remembers per
// workflow: a customer posting their one record to each gets repeat: false once.

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox();
});
afterAll(async () => await sandbox.close());

/** One entry point of the workflow: a Webhook and its own Verify Signature node, on the workflow's one store. */
async function entry(store: StaticDataStore, name: string): Promise<WebhookServer> {
	return await startWebhookServer({
		nodeType: PlainWebhook,
		credentialType: PaymentGatewayApi,
		credentials: sandboxCredentials(sandbox),
		store,
		then: [
			{
				nodeType: PaymentGateway,
				name,
				parameters: {
					resource: 'status',
					operation: 'verifySignature',
					orderId: '={{ $json.body.orderId }}',
					paymentId: '={{ $json.body.paymentId }}',
					signature: '={{ $json.body.signature }}',
				},
			},
		],
	});
}

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
			const response = await fetch(server.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(record) });
			await response.text();
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
