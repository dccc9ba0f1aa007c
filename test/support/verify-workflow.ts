import { PaymentGatewayApi } from '../../credentials/PaymentGatewayApi.credentials';
import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import type { Sandbox } from './fixtures';
import { sandboxCredentials } from './fixtures';
import { PlainWebhook } from './plain-webhook';
import type { FollowingNode, StaticDataStore, WebhookServer } from './webhook';
import { startWebhookServer } from './webhook';

// A production workflow that verifies the status records posted to it, as the engine tests of Status → Verify
// Signature run it: a Webhook, then Verify Signature on the record in the request's body, as n8n runs them.

export interface VerifyingWorkflow {
	/** The Verify Signature node's name; default "Verify Signature". */
	name?: string;
	/** The node type, e.g. the node as a restarted n8n loads it; default the package's. */
	nodeType?: typeof PaymentGateway;
	/** The workflow's static data as n8n's database keeps it; default a store of its own. */
	store?: StaticDataStore;
	/** Nodes after Verify Signature. */
	after?: FollowingNode[];
}

export async function startVerifyingWorkflow(sandbox: Sandbox, { name = 'Verify Signature', nodeType = PaymentGateway, store, after = [] }: VerifyingWorkflow = {}): Promise<WebhookServer> {
	return await startWebhookServer({
		nodeType: PlainWebhook,
		credentialType: PaymentGatewayApi,
		credentials: sandboxCredentials(sandbox),
		...(store ? { store } : {}),
		then: [
			{
				nodeType,
				name,
				parameters: {
					resource: 'status',
					operation: 'verifySignature',
					orderId: '={{ $json.body.orderId }}',
					paymentId: '={{ $json.body.paymentId }}',
					signature: '={{ $json.body.signature }}',
				},
			},
			...after,
		],
	});
}

/** Posts a JSON body to the workflow's webhook and reads the answer whole; its status. */
export async function postJson(server: WebhookServer, body: object): Promise<number> {
	const response = await fetch(server.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
	await response.text();
	return response.status;
}

/** Makes `count` deliveries, `atOnce` in flight at a time, as a flood would; every answer must be 200. */
export async function deliverAll(count: number, atOnce: number, deliver: (index: number) => Promise<number>): Promise<void> {
	let next = 0;
	const statuses: number[] = [];
	await Promise.all(
		Array.from({ length: atOnce }, async () => {
			while (next < count) statuses.push(await deliver(next++));
		}),
	);
	expect(statuses.filter((status) => status !== 200)).toEqual([]);
}
