/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { PaymentGatewayApi } from '../../credentials/PaymentGatewayApi.credentials';
import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import type { Sandbox } from '../support/fixtures';
import { sandboxCredentials, settledPayment, startSandbox } from '../support/fixtures';
import { PlainWebhook } from '../support/plain-webhook';
import { startWebhookServer } from '../support/webhook';

// ATTACK (issue 41 review, attack41): CONTRACT "50 deliveries of one record: at most 5 reads" for Verify Signature.
// A customer replaying their record once a second (not all at once) gets a read sent each time the spacing allows it
// (1 s, 2 s, 4 s, 8 s, 16 s, 32 s...), and a delivery waits up to 10 s for the next: 50 deliveries over 50 s cost 6
// (measured), 100 s cost 7, an hour about 15: the spacing bounds reads by log(time), not by a number of deliveries.

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox();
});
afterAll(async () => await sandbox.close());

it('ATTACK (failing): 50 deliveries of one record, one a second: at most 5 gateway reads', async () => {
	const record = await settledPayment(sandbox, 'success');
	sandbox.clearLog();
	const server = await startWebhookServer({
		nodeType: PlainWebhook,
		credentialType: PaymentGatewayApi,
		credentials: sandboxCredentials(sandbox),
		then: [
			{
				nodeType: PaymentGateway,
				name: 'Verify Signature',
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
	try {
		const posts: Array<Promise<unknown>> = [];
		for (let delivery = 0; delivery < 50; delivery++) {
			posts.push(fetch(server.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(record) }).then(async (response) => await response.text()));
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
		await Promise.all(posts);
		await server.idle();
		const reads = sandbox.requests.filter((request) => request.path.endsWith(`/transaction/status/${record.paymentId}`)).length;
		const unconfirmed = server.executions.filter((execution) => execution.outputOf('Verify Signature')[0]?.json.statusVerified !== true).length;
		expect({ reads: reads <= 5 ? 'at most 5' : reads, unconfirmed }).toEqual({ reads: 'at most 5', unconfirmed: 0 });
	} finally {
		await server.close();
	}
}, 120_000);
