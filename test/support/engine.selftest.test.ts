/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeApiError } from 'n8n-workflow';
import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	JsonObject,
} from 'n8n-workflow';

import { runWorkflow, testCredential } from './engine';
import { standInDescription } from './stand-in';

// Checks of the harness itself: a fake node and credential run through n8n's real
// execution engine against a throwaway HTTP server on the loopback interface.

interface ReceivedRequest {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
	body: Buffer;
}

let server: http.Server;
let baseUrl: string;
const received: ReceivedRequest[] = [];

const RESPONSE_TEXT = '{ "ok": true,  "spacing": "kept" }';

beforeAll(async () => {
	server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			received.push({
				method: req.method ?? '',
				url: req.url ?? '',
				headers: req.headers,
				body: Buffer.concat(chunks),
			});
			const status = /^\/status\/(\d{3})/.exec(req.url ?? '');
			const code = status ? Number(status[1]) : 200;
			if (req.url === '/me' && req.headers['x-api-key'] !== 'good-key') {
				res.writeHead(401, { 'Content-Type': 'application/json' });
				res.end('{"error":"invalid key"}');
				return;
			}
			if (req.url === '/me-flagged') {
				res.writeHead(200, { 'Content-Type': 'application/json' });
				res.end('{"account":{"status":"disabled"}}');
				return;
			}
			res.writeHead(code, { 'Content-Type': 'application/json' });
			res.end(code < 400 ? RESPONSE_TEXT : '{"error":"declined"}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
	received.length = 0;
});

// --- fake credential ---------------------------------------------------------

const credentialProperties: INodeProperties[] = [
	{ displayName: 'API Key', name: 'apiKey', type: 'string', typeOptions: { password: true }, default: '' },
	{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: 'http://unused.invalid' },
	{ displayName: 'Region', name: 'region', type: 'string', default: 'eu' },
];

class FakeApi implements ICredentialType {
	name = 'fakeApi';

	displayName = 'Fake API';

	properties = credentialProperties;

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: {
				...requestOptions.headers,
				'X-Api-Key': credentials.apiKey as string,
				'X-Region': credentials.region as string,
			},
		};
	}

	test: ICredentialTestRequest = {
		request: { baseURL: '={{$credentials.baseUrl}}', url: '/me', method: 'GET' },
	};
}

// ICredentialTestRequest types `rules` as all-responseCode or all-responseSuccessBody.
class FakeApiWithCodeRule extends FakeApi {
	test: ICredentialTestRequest = {
		request: { baseURL: '={{$credentials.baseUrl}}', url: '/me' },
		rules: [
			{ type: 'responseCode', properties: { value: 401, message: 'The API key was rejected' } },
		],
	};
}

class FakeApiWithBodyRule extends FakeApi {
	test: ICredentialTestRequest = {
		request: { baseURL: '={{$credentials.baseUrl}}', url: '={{$credentials.path}}' },
		rules: [
			{
				type: 'responseSuccessBody',
				properties: { key: 'account.status', value: 'disabled', message: 'The account is disabled' },
			},
		],
	};

	properties = [
		...credentialProperties,
		{ displayName: 'Path', name: 'path', type: 'string' as const, default: '/me' },
	];
}

class GenericApi implements ICredentialType {
	name = 'fakeApi';

	displayName = 'Fake API (generic auth)';

	properties = credentialProperties;

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: { 'X-Api-Key': '={{$credentials.apiKey}}' },
			qs: { region: '={{$credentials.region}}' },
		},
	};
}

// --- fake node ---------------------------------------------------------------

class FakeNode implements INodeType {
	description: INodeTypeDescription = standInDescription('Fake', 'Test node', {
		credentials: [{ name: 'fakeApi', required: true }],
		properties: [
			{ displayName: 'Path', name: 'path', type: 'string', default: '/x' },
			{ displayName: 'Body', name: 'body', type: 'string', default: '{"a":1}' },
			{ displayName: 'Reference', name: 'reference', type: 'string', default: '' },
			{ displayName: 'Amount', name: 'amount', type: 'number', default: 0 },
			{ displayName: 'Ignore HTTP Status Errors', name: 'ignoreStatus', type: 'boolean', default: true },
		],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const { baseUrl: credentialBaseUrl } = await this.getCredentials('fakeApi');
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			try {
				const reference = this.getNodeParameter('reference', i) as string;
				const amount = this.getNodeParameter('amount', i) as number;
				const response = (await this.helpers.httpRequestWithAuthentication.call(this, 'fakeApi', {
					method: 'POST',
					baseURL: credentialBaseUrl as string,
					url: this.getNodeParameter('path', i) as string,
					body: this.getNodeParameter('body', i) as string,
					headers: { 'Content-Type': 'application/json', 'X-Reference': reference },
					returnFullResponse: true,
					ignoreHttpStatusErrors: this.getNodeParameter('ignoreStatus', i) as boolean,
					encoding: 'text',
				})) as IN8nHttpFullResponse;
				if (response.statusCode >= 400) {
					throw new NodeApiError(
						this.getNode(),
						{ statusCode: response.statusCode, body: String(response.body) } as JsonObject,
						{
							itemIndex: i,
							httpCode: String(response.statusCode),
							message: `Gateway answered ${response.statusCode}`,
						},
					);
				}
				out.push({
					json: {
						reference,
						amount,
						statusCode: response.statusCode,
						bodyType: typeof response.body,
						body: response.body as string,
					},
					pairedItem: { item: i },
				});
			} catch (error) {
				if (this.continueOnFail()) {
					out.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
					continue;
				}
				throw error;
			}
		}
		return [out];
	}
}

class FakeNodeWithRequiredParameter extends FakeNode {
	constructor() {
		super();
		this.description = {
			...this.description,
			properties: [
				...this.description.properties,
				{ displayName: 'Currency', name: 'currency', type: 'string', required: true, default: '' },
			],
		};
	}
}

const credentials = () => ({ apiKey: 'good-key', baseUrl });

const items = [
	{ ref: 'A-1', amount: 10, path: '/x' },
	{ ref: 'B-2', amount: 20.5, path: '/status/402' },
	{ ref: 'C-3', amount: 30, path: '/x' },
];

// --- runWorkflow ---------------------------------------------------------------

describe('runWorkflow', () => {
	it('runs three items through the node and keeps pairedItem', async () => {
		const result = await runWorkflow({
			nodeType: FakeNode,
			credentialType: FakeApi,
			credentials: credentials(),
			parameters: { reference: '={{ $json.ref }}', amount: '={{ $json.amount * 2 }}' },
			items: items.map((item) => ({ ...item, path: '/x' })),
		});

		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		expect(result.nodeExecutionOrder).toEqual(['Input', 'Fake']);
		expect(result.items).toHaveLength(3);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(result.items.map((item) => item.json.reference)).toEqual(['A-1', 'B-2', 'C-3']);
		expect(result.items.map((item) => item.json.amount)).toEqual([20, 41, 60]);
		expect(result.runData.Fake[0].executionStatus).toBe('success');
	});

	it('sends the headers added by authenticate() and the expression values, over real HTTP', async () => {
		await runWorkflow({
			nodeType: FakeNode,
			credentialType: FakeApi,
			credentials: credentials(),
			parameters: { reference: '={{ $json.ref }}' },
			items: [{ ref: 'A-1' }, { ref: 'B-2' }, { ref: 'C-3' }],
		});

		expect(received).toHaveLength(3);
		for (const request of received) {
			expect(request.method).toBe('POST');
			expect(request.url).toBe('/x');
			expect(request.headers['x-api-key']).toBe('good-key');
			// A credential field left out falls back to the property default, as in n8n.
			expect(request.headers['x-region']).toBe('eu');
		}
		expect(received.map((request) => request.headers['x-reference'])).toEqual([
			'A-1',
			'B-2',
			'C-3',
		]);
	});

	it('supports the generic (declarative) authenticate form', async () => {
		const result = await runWorkflow({
			nodeType: FakeNode,
			credentialType: GenericApi,
			credentials: { ...credentials(), region: 'us' },
			items: [{}],
		});

		expect(result.status).toBe('success');
		expect(received).toHaveLength(1);
		expect(received[0].headers['x-api-key']).toBe('good-key');
		expect(received[0].url).toBe('/x?region=us');
	});

	it('sends a string body byte for byte and returns the response body as text', async () => {
		const body = '{"amount":"10.00","currency":"EUR","name":"Zoë","nested":{"b":2,"a":1}}';
		const result = await runWorkflow({
			nodeType: FakeNode,
			credentialType: FakeApi,
			credentials: credentials(),
			parameters: { body },
			items: [{}],
		});

		expect(received).toHaveLength(1);
		expect(received[0].body.equals(Buffer.from(body, 'utf8'))).toBe(true);
		expect(received[0].headers['content-length']).toBe(String(Buffer.byteLength(body)));
		expect(received[0].headers['content-type']).toBe('application/json');
		// encoding: 'text' keeps the response unparsed, even though it is JSON.
		expect(result.items[0].json.bodyType).toBe('string');
		expect(result.items[0].json.body).toBe(RESPONSE_TEXT);
	});

	it('documents how axios treats string bodies sent as application/json', async () => {
		// A JSON string is sent as-is, but surrounding whitespace is trimmed and a string that
		// is not valid JSON is JSON-encoded. Sign exactly the string you send, and send valid,
		// trimmed JSON.
		const cases: Array<[string, string]> = [
			['{"a":1}', '{"a":1}'],
			['{ "a" : 1 }', '{ "a" : 1 }'],
			['  {"a":1}\n', '{"a":1}'],
			['not json', '"not json"'],
		];
		for (const [sent, arrives] of cases) {
			received.length = 0;
			await runWorkflow({
				nodeType: FakeNode,
				credentialType: FakeApi,
				credentials: credentials(),
				parameters: { body: sent },
				items: [{}],
			});
			expect(received[0].body.toString('utf8')).toBe(arrives);
		}
	});

	it('with continueOnFail, gives one error item per failing input', async () => {
		const result = await runWorkflow({
			nodeType: FakeNode,
			credentialType: FakeApi,
			credentials: credentials(),
			parameters: { reference: '={{ $json.ref }}', path: '={{ $json.path }}' },
			items,
			continueOnFail: true,
		});

		expect(result.status).toBe('success');
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(3);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(result.items[0].json.reference).toBe('A-1');
		expect(result.items[1].json).toEqual({ error: 'Gateway answered 402' });
		expect(result.items[2].json.reference).toBe('C-3');
		expect(received.map((request) => request.url)).toEqual(['/x', '/status/402', '/x']);
	});

	it('without continueOnFail, reports the node error and stops', async () => {
		const result = await runWorkflow({
			nodeType: FakeNode,
			credentialType: FakeApi,
			credentials: credentials(),
			parameters: { path: '={{ $json.path }}' },
			items,
		});

		expect(result.status).toBe('error');
		expect(result.items).toEqual([]);
		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			message: 'Gateway answered 402',
			httpCode: '402',
		});
		expect(result.error?.context).toMatchObject({ itemIndex: 1 });
		expect(result.runData.Fake[0].executionStatus).toBe('error');
		// The third item is never sent.
		expect(received.map((request) => request.url)).toEqual(['/x', '/status/402']);
	});

	it('on a 401 without ignoreHttpStatusErrors, n8n sends the request a second time', async () => {
		const result = await runWorkflow({
			nodeType: FakeNode,
			credentialType: FakeApi,
			credentials: credentials(),
			parameters: { path: '/status/401', ignoreStatus: false },
			items: [{}],
		});

		expect(result.status).toBe('error');
		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '401',
			message: 'Authorization failed - please check your credentials',
		});
		expect(received.map((request) => request.url)).toEqual(['/status/401', '/status/401']);
		// Both attempts carry identical bytes and headers.
		expect(received[1].body.equals(received[0].body)).toBe(true);
		expect(received[1].headers['x-api-key']).toBe(received[0].headers['x-api-key']);
	});

	it('refuses to start, like n8n, when a required parameter is missing', async () => {
		const result = await runWorkflow({
			nodeType: FakeNodeWithRequiredParameter,
			credentialType: FakeApi,
			credentials: credentials(),
			items: [{}],
		});

		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('WorkflowHasIssuesError');
		expect(result.error?.message).toContain('Parameter "Currency" is required.');
		expect(received).toHaveLength(0);

		const withCurrency = await runWorkflow({
			nodeType: FakeNodeWithRequiredParameter,
			credentialType: FakeApi,
			credentials: credentials(),
			parameters: { currency: '={{ $json.currency }}' },
			items: [{ currency: 'EUR' }],
		});
		expect(withCurrency.status).toBe('success');
	});

	it('on a 401 with ignoreHttpStatusErrors, the request is sent once', async () => {
		const result = await runWorkflow({
			nodeType: FakeNode,
			credentialType: FakeApi,
			credentials: credentials(),
			parameters: { path: '/status/401' },
			items: [{}],
		});

		expect(result.error).toMatchObject({ httpCode: '401', message: 'Gateway answered 401' });
		expect(received).toHaveLength(1);
	});
});

// --- testCredential --------------------------------------------------------------

describe('testCredential', () => {
	it('reports OK on a 2xx answer', async () => {
		await expect(testCredential(FakeApi, { apiKey: 'good-key', baseUrl })).resolves.toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(received).toHaveLength(1);
		expect(received[0]).toMatchObject({ method: 'GET', url: '/me' });
		expect(received[0].headers['x-api-key']).toBe('good-key');
	});

	it('reports the HTTP status text on a 401 (after n8n retried it once)', async () => {
		await expect(testCredential(FakeApi, { apiKey: 'wrong', baseUrl })).resolves.toEqual({
			status: 'Error',
			message: 'Unauthorized',
		});
		expect(received.map((request) => request.url)).toEqual(['/me', '/me']);
	});

	it('applies responseCode and responseSuccessBody rules', async () => {
		await expect(
			testCredential(FakeApiWithCodeRule, { apiKey: 'wrong', baseUrl }),
		).resolves.toEqual({ status: 'Error', message: 'The API key was rejected' });
		await expect(
			testCredential(FakeApiWithBodyRule, { apiKey: 'good-key', baseUrl, path: '/me-flagged' }),
		).resolves.toEqual({ status: 'Error', message: 'The account is disabled' });
		await expect(
			testCredential(FakeApiWithBodyRule, { apiKey: 'good-key', baseUrl }),
		).resolves.toEqual({ status: 'OK', message: 'Connection successful!' });
	});

	it('reports the error code when nothing answers', async () => {
		const closed = http.createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise((resolve) => closed.close(resolve));

		await expect(
			testCredential(FakeApi, { apiKey: 'good-key', baseUrl: `http://127.0.0.1:${port}` }),
		).resolves.toEqual({ status: 'Error', message: 'ECONNREFUSED' });
	});

	it('reports a credential without a test', async () => {
		await expect(testCredential(GenericApi, { apiKey: 'x' })).resolves.toEqual({
			status: 'Error',
			message: 'No testing function found for this credential.',
		});
	});
});

// --- a retry of a failed run ------------------------------------------------------

/** Fails while its parameter says so; records the mode and what it was given each time it runs. */
const retryRuns: Array<{ mode: string; label: unknown; items: number }> = [];
class FlakyNode implements INodeType {
	description: INodeTypeDescription = standInDescription('Flaky', 'Fails while told to', {
		properties: [
			{ displayName: 'Fail', name: 'fail', type: 'boolean', default: false },
			{ displayName: 'Label', name: 'label', type: 'string', default: '' },
		],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		retryRuns.push({ mode: this.getMode(), label: this.getNodeParameter('label', 0), items: items.length });
		if (this.getNodeParameter('fail', 0)) throw new Error('told to fail');
		return [items];
	}
}

describe('retryOf: a retry of a failed run, as n8n retries a failed execution', () => {
	it('runs the failed node again in mode "retry" with the input items it had, as saved then or as given now', async () => {
		retryRuns.length = 0;
		const items = [{ n: 1 }, { n: 2 }, { n: 3 }];
		const failed = await runWorkflow({ nodeType: FlakyNode, parameters: { fail: true, label: 'saved then' }, items });
		expect(failed.error?.message).toBe('told to fail');

		const original = await runWorkflow({ nodeType: FlakyNode, parameters: { fail: false, label: 'now' }, retryOf: { run: failed.run! } });
		expect(original.error?.message).toBe('told to fail');
		const current = await runWorkflow({ nodeType: FlakyNode, parameters: { fail: false, label: 'now' }, retryOf: { run: failed.run!, loadWorkflow: true } });
		expect(current.error).toBeUndefined();
		expect(current.items.map((item) => item.json)).toEqual(items);
		expect(current.run?.mode).toBe('retry');

		expect(retryRuns).toEqual([
			{ mode: 'manual', label: 'saved then', items: 3 },
			{ mode: 'retry', label: 'saved then', items: 3 },
			{ mode: 'retry', label: 'now', items: 3 },
		]);
	});
});
