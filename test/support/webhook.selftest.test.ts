/* eslint-disable @n8n/community-nodes/node-connection-type-literal -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import type { WebhookServer } from './webhook';
import { startWebhookServer } from './webhook';
import { standInDescription } from './stand-in';

// Checks of the webhook harness itself, with a small trigger whose parameter says what its webhook() does:
// what n8n does around it (body parsing, 422, 404, answers when the node gives none, the failed-webhook
// execution, activation) must hold before the trigger's own tests can mean anything.

const lifecycle: string[] = [];

class FakeTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Fake Trigger',
		name: 'fakeTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Does what its behaviour parameter says',
		defaults: { name: 'Fake Trigger' },
		inputs: [],
		outputs: ['main'],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'hook' }],
		properties: [{ displayName: 'Behaviour', name: 'behaviour', type: 'string', default: 'emit' }],
	};

	webhookMethods = {
		default: {
			async checkExists(this: unknown): Promise<boolean> {
				lifecycle.push('checkExists');
				return false;
			},
			async create(): Promise<boolean> {
				lifecycle.push('create');
				return true;
			},
			async delete(): Promise<boolean> {
				lifecycle.push('delete');
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject() as unknown as { rawBody: Buffer; contentType?: string };
		const seen: IDataObject = {
			body: this.getBodyData() as unknown as IDataObject,
			raw: request.rawBody.toString('utf8'),
			contentType: request.contentType ?? null,
			query: this.getQueryData() as IDataObject,
			webhookName: this.getWebhookName(),
		};
		switch (this.getNodeParameter('behaviour') as string) {
			case 'answer': {
				const response = this.getResponseObject();
				response.statusCode = 202;
				response.end('answered by the node');
				return { noWebhookResponse: true, workflowData: [[{ json: seen }]] };
			}
			case 'nothing':
				return {};
			case 'webhookResponse':
				return { webhookResponse: { ok: true } };
			case 'throw':
				throw new Error('the webhook broke');
			default:
				return { workflowData: [[{ json: seen }]] };
		}
	}
}

class FakeFollower implements INodeType {
	description: INodeTypeDescription = standInDescription('Fake Follower', 'Marks the items it gets');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData().map((item) => ({ json: { ...item.json, followed: true } }))];
	}
}

async function withFake(behaviour: string, body: (server: WebhookServer) => Promise<void>) {
	const server = await startWebhookServer({
		nodeType: FakeTrigger,
		parameters: { behaviour },
		then: [{ nodeType: FakeFollower }],
	});
	try {
		await body(server);
	} finally {
		await server.close();
	}
}

async function send(url: string, body: string, contentType?: string, method = 'POST') {
	const response = await fetch(url, {
		method,
		headers: contentType ? { 'Content-Type': contentType } : {},
		body: method === 'GET' ? undefined : body,
	});
	return { status: response.status, text: await response.text() };
}

it('activates with checkExists then create, deactivates with delete, and serves <webhookId>/<path>', async () => {
	lifecycle.length = 0;
	await withFake('emit', async (server) => {
		expect(lifecycle).toEqual(['checkExists', 'create']);
		expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhook\/[0-9a-f-]{36}\/hook$/);
	});
	expect(lifecycle).toEqual(['checkExists', 'create', 'delete']);
});

it('runs webhook() with the parsed body, the raw body and the query, then the workflow from the trigger', async () => {
	await withFake('emit', async (server) => {
		const answer = await send(`${server.url}?a=1`, '{ "x": [1, 2] }', 'application/json; charset=utf-8');
		expect(answer).toEqual({ status: 200, text: JSON.stringify({ message: 'Workflow was started' }) });
		const [execution] = await server.waitForExecutions(1);
		const seen = { body: { x: [1, 2] }, raw: '{ "x": [1, 2] }', contentType: 'application/json', query: { a: '1' } };
		expect(execution.items.map((item) => item.json)).toEqual([{ ...seen, webhookName: 'default' }]);
		expect(execution.status).toBe('success');
		expect(execution.nodeExecutionOrder).toEqual(['Fake Trigger', 'Fake Follower']);
		expect(execution.outputOf('Fake Follower').map((item) => item.json)).toEqual([
			{ ...seen, webhookName: 'default', followed: true },
		]);
	});
});

it('parses bodies by content type as n8n does, and refuses invalid JSON with 422 before the node runs', async () => {
	await withFake('emit', async (server) => {
		await send(server.url, 'a=1&b=two', 'application/x-www-form-urlencoded');
		await send(server.url, '{"as":"text"}', 'text/plain');
		await send(server.url, '{"not":"parsed"}', 'application/octet-stream');
		await send(server.url, '', 'application/json');
		const bodies = (await server.waitForExecutions(4)).map((execution) => execution.items[0].json.body);
		expect(bodies).toEqual([{ a: '1', b: 'two' }, '{"as":"text"}', undefined, undefined]);

		const refused = await send(server.url, '{"broken": ', 'application/json');
		expect(refused.status).toBe(422);
		expect(JSON.parse(refused.text)).toMatchObject({ code: 422, message: 'Failed to parse request body' });
		await server.idle();
		expect(server.executions).toHaveLength(4);
		expect(server.calls[4].statusCode).toBe(422);
		expect(server.calls[4]).not.toHaveProperty('webhookResult');
	});
});

it('answers 404 for another path or method, without running anything', async () => {
	await withFake('emit', async (server) => {
		expect((await send(`${server.url}x`, '{}', 'application/json')).status).toBe(404);
		expect((await send(server.url, '', undefined, 'GET')).status).toBe(404);
		await server.idle();
		expect(server.executions).toHaveLength(0);
	});
});

it('leaves the answer to a node that gives one, and runs the workflow all the same', async () => {
	await withFake('answer', async (server) => {
		expect(await send(server.url, '{}', 'application/json')).toEqual({ status: 202, text: 'answered by the node' });
		expect(await server.waitForExecutions(1)).toHaveLength(1);
	});
});

it.each([
	['nothing', { message: 'Webhook call received' }],
	['webhookResponse', { ok: true }],
])('without workflowData (%s): answers as n8n does and starts nothing', async (behaviour, expected) => {
	await withFake(behaviour, async (server) => {
		const answer = await send(server.url, '{}', 'application/json');
		expect({ status: answer.status, body: JSON.parse(answer.text) }).toEqual({ status: 200, body: expected });
		await server.idle();
		expect(server.executions).toHaveLength(0);
	});
});

it('a webhook() that throws: 500 with n8n’s message, and a failed execution carrying the error', async () => {
	await withFake('throw', async (server) => {
		const answer = await send(server.url, '{}', 'application/json');
		expect(answer.status).toBe(500);
		expect(JSON.parse(answer.text)).toEqual({
			code: 0,
			message: 'Workflow Webhook Error: Workflow could not be started!',
		});
		const [execution] = await server.waitForExecutions(1);
		expect(execution.status).toBe('error');
		expect(execution.error?.message).toBe('the webhook broke');
		expect(server.calls[0].webhookError?.message).toBe('the webhook broke');
	});
});

it('waitForExecutions gives up after its time-out', async () => {
	await withFake('nothing', async (server) => {
		await expect(server.waitForExecutions(1, 200)).rejects.toThrow(/Timed out after 200 ms/);
	});
});
