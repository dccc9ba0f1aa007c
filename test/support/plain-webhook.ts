/* eslint-disable @n8n/community-nodes/webhook-lifecycle-complete -- test code, not shipped: a stand-in for n8n's own Webhook node, which registers nothing with a third party (CONTRIBUTING.md, n8n Cloud) */
import type { IDataObject, INodeType, INodeTypeDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/**
 * n8n's Webhook node as far as a workflow that verifies a posted record needs it (n8n-nodes-base is not installed
 * here): a POST answered at once, one item as n8n's Webhook node outputs it, `{ headers, params, query, body }`.
 */
export class PlainWebhook implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Webhook',
		name: 'webhook',
		group: ['trigger'],
		version: 1,
		description: "Stands in for n8n's Webhook node in the webhook harness",
		defaults: { name: 'Webhook' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'record' }],
		properties: [],
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const item = { headers: this.getHeaderData(), params: this.getParamsData(), query: this.getQueryData(), body: this.getBodyData() };
		return { workflowData: [[{ json: item as IDataObject }]] };
	}
}
