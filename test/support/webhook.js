'use strict';

/**
 * Production-webhook harness: a real HTTP server on 127.0.0.1 that serves a trigger node's webhooks the way
 * n8n's webhook server does for an active workflow (n8n 2.x, `live-webhooks` and `webhook-helpers` in its CLI):
 *
 *  1. The body is read raw and parsed by content type with n8n's own rules (`application/json` through
 *     `jsonParse`, form bodies, plain text); a body that does not parse is refused with 422 before any node
 *     runs. `req.rawBody` keeps the bytes, `req.contentType`, `req.query` and `req.params` are set as n8n does.
 *  2. A Workflow is built with the trigger and the nodes that follow it, and n8n-core's real `WebhookContext`
 *     is created with `additionalData.httpRequest` / `httpResponse` set to the real request and response.
 *  3. The node type's `webhook()` runs. When it returns `workflowData`, the workflow runs from the trigger
 *     through `WorkflowExecute`, with the trigger on the execution stack holding that data, and the run is
 *     recorded. When the node did not answer, the answer is n8n's for response mode `onReceived`.
 *
 * Activation and shutdown call the node's `webhookMethods` (checkExists, create, delete) through n8n-core's
 * `HookContext`, as activating and deactivating a workflow does. The node, credential and engine set-up are
 * engine.js's (same credentials helper, same real HTTP helpers).
 */

const http = require('node:http');
const querystring = require('node:querystring');
const { randomUUID } = require('node:crypto');

const core = require('n8n-core');
const { NodeHelpers, Workflow, createRunExecutionData, jsonParse } = require('n8n-workflow');

const { ensureSetup, internals } = require('./engine');

const {
	HarnessNodeTypes,
	HarnessCredentialsHelper,
	buildAdditionalData,
	registerNodeType,
	setUpCredentials,
	executeWorkflow,
	nodeResult,
	latestVersion,
	clone,
	requireFromCore,
} = internals;
const { parseIncomingMessage } = requireFromCore('@n8n/backend-network');

const MODE = 'webhook';
const WORKFLOW_ID = 'harness-webhook-workflow';

function sendJson(res, statusCode, body) {
	res.statusCode = statusCode;
	res.setHeader('Content-Type', 'application/json; charset=utf-8');
	res.end(JSON.stringify(body));
}

async function readRawBody(req) {
	const chunks = [];
	for await (const chunk of req) chunks.push(chunk);
	return Buffer.concat(chunks);
}

/** n8n's parseBody: only the content types it knows are parsed; anything else leaves `body` undefined. */
function parseBody(req) {
	const { rawBody, contentType, encoding } = req;
	if (!rawBody.length) return;
	const text = () => rawBody.toString(encoding).replace(/^\uFEFF/, '');
	if (contentType === 'application/json') req.body = jsonParse(text());
	else if (contentType === 'application/x-www-form-urlencoded') req.body = querystring.parse(text(), undefined, undefined, { maxKeys: 1000 });
	else if (contentType === 'text/plain') req.body = rawBody.toString(encoding);
}

/** A value of the webhook description, which may be an expression over the node's parameters. */
function descriptionValue(workflow, node, description, key, fallback) {
	const value = description[key];
	if (value === undefined) return fallback;
	return workflow.expression.getSimpleParameterValue(node, value, MODE, {}, undefined, fallback);
}

/**
 * Starts the server and activates the workflow. Options: `nodeType` (the trigger), `credentialType`,
 * `credentials`, `parameters`, `then` (nodes run after the trigger, each `{ nodeType, parameters, name? }`,
 * chained in order, with the same credential), `packageName`, `workflowSettings`.
 */
async function startWebhookServer(options) {
	ensureSetup();
	const { nodeType: triggerInput, parameters = {}, then = [], packageName, workflowSettings = {} } = options;

	const nodeTypes = new HarnessNodeTypes();
	const credentialsHelper = new HarnessCredentialsHelper(nodeTypes);
	const nodeCredentials = setUpCredentials(credentialsHelper, options);
	const withCredentials = (node) => (Object.keys(nodeCredentials).length > 0 ? { ...node, credentials: nodeCredentials } : node);

	const trigger = registerNodeType(nodeTypes, triggerInput, packageName);
	const triggerNode = withCredentials({
		id: 'trigger-under-test',
		name: trigger.nodeType.description.defaults.name,
		type: trigger.fullTypeName,
		typeVersion: latestVersion(trigger.nodeType),
		position: [0, 0],
		parameters: clone(parameters),
		webhookId: randomUUID(),
	});
	const nodes = [triggerNode];
	for (const [index, next] of then.entries()) {
		const registered = registerNodeType(nodeTypes, next.nodeType, packageName);
		nodes.push(
			withCredentials({
				id: `then-${index}`,
				name: next.name ?? registered.nodeType.description.defaults.name,
				type: registered.fullTypeName,
				typeVersion: latestVersion(registered.nodeType),
				position: [250 * (index + 1), 0],
				parameters: clone(next.parameters ?? {}),
			}),
		);
	}
	const connections = {};
	for (let index = 1; index < nodes.length; index++) {
		connections[nodes[index - 1].name] = { main: [[{ node: nodes[index].name, type: 'main', index: 0 }]] };
	}
	const settings = { executionOrder: 'v1', ...workflowSettings };
	const staticData = {};
	// n8n builds the workflow anew for every webhook call and again for the run it starts.
	const newWorkflow = () =>
		new Workflow({ id: WORKFLOW_ID, name: 'Harness webhook workflow', nodes: clone(nodes), connections, active: true, nodeTypes, settings, staticData });

	const baseAdditionalData = () => buildAdditionalData({ credentialsHelper, hooks: undefined, executionId: undefined });
	const webhooks = (workflow) => {
		const node = workflow.getNode(triggerNode.name);
		return (trigger.nodeType.description.webhooks ?? []).map((description) => {
			const path = String(descriptionValue(workflow, node, description, 'path', '')).trim().replace(/^\/|\/$/g, '');
			const isFullPath = descriptionValue(workflow, node, description, 'isFullPath', false);
			const responseMode = descriptionValue(workflow, node, description, 'responseMode', 'onReceived');
			if (responseMode !== 'onReceived') {
				throw new Error(`The webhook harness serves response mode onReceived only, not "${responseMode}"`);
			}
			return {
				httpMethod: String(descriptionValue(workflow, node, description, 'httpMethod', 'GET')),
				node: node.name,
				path: NodeHelpers.getNodeWebhookPath(WORKFLOW_ID, node, path, isFullPath),
				webhookDescription: description,
				workflowId: WORKFLOW_ID,
				workflowExecuteAdditionalData: baseAdditionalData(),
				webhookId: node.webhookId,
			};
		});
	};

	async function runWebhookMethods(methods, activation) {
		const workflow = newWorkflow();
		const node = workflow.getNode(triggerNode.name);
		for (const webhookData of webhooks(workflow)) {
			const methodsOf = trigger.nodeType.webhookMethods?.[webhookData.webhookDescription.name] ?? {};
			for (const method of methods) {
				if (!methodsOf[method]) continue;
				const context = new core.HookContext(workflow, node, webhookData.workflowExecuteAdditionalData, MODE, activation, webhookData);
				// Activation creates the webhook only when checkExists says it is not there yet.
				if ((await methodsOf[method].call(context)) === true && method === 'checkExists') break;
			}
		}
	}

	const executions = [];
	const calls = [];
	const inFlight = new Set();
	const waiters = new Set();
	const notify = () => {
		for (const waiter of waiters) waiter();
	};
	const track = (promise) => {
		const tracked = promise.finally(() => {
			inFlight.delete(tracked);
			notify();
		});
		inFlight.add(tracked);
		return tracked;
	};

	/** WorkflowExecute from the trigger, its data on the stack, as n8n's prepareExecutionData sets it up. */
	async function runExecution(webhookResultData, resultData) {
		const workflow = newWorkflow();
		const startedAt = new Date();
		const runExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [{ node: workflow.getNode(triggerNode.name), data: { main: webhookResultData.workflowData ?? [] }, source: null }],
			},
		});
		if (resultData) Object.assign(runExecutionData, { resultData: { ...runExecutionData.resultData, ...resultData } });
		const { executionId, run, nodeExecutionOrder, refused } = await executeWorkflow({ workflow, mode: MODE, credentialsHelper, runExecutionData });
		const execution = { id: executionId, startedAt, stoppedAt: new Date(), nodeExecutionOrder, run };
		if (refused) Object.assign(execution, { status: 'error', items: [], error: refused });
		else Object.assign(execution, nodeResult(run, triggerNode.name));
		execution.outputOf = (nodeName) => (run ? nodeResult(run, nodeName).items : []);
		executions.push(execution);
		return execution;
	}

	async function handle(req, res) {
		const call = { method: req.method, url: req.url, receivedAt: new Date() };
		calls.push(call);
		res.on('finish', () => {
			call.statusCode = res.statusCode;
			call.answeredAt = new Date();
		});

		const url = new URL(req.url, 'http://127.0.0.1');
		const workflow = newWorkflow();
		const webhookData = webhooks(workflow).find((w) => `/webhook/${w.path}` === url.pathname && w.httpMethod === req.method);
		if (!webhookData) {
			return sendJson(res, 404, { code: 404, message: `The requested webhook "${req.method} ${url.pathname}" is not registered.` });
		}

		parseIncomingMessage(req);
		req.rawBody = await readRawBody(req);
		req.query = Object.fromEntries(url.searchParams);
		req.params = {};
		try {
			parseBody(req);
		} catch (error) {
			return sendJson(res, 422, { code: 422, message: 'Failed to parse request body', hint: error.message });
		}

		const node = workflow.getNode(triggerNode.name);
		const additionalData = { ...baseAdditionalData(), httpRequest: req, httpResponse: res };
		const closeFunctions = [];
		const context = new core.WebhookContext(workflow, node, additionalData, MODE, webhookData, closeFunctions, null);
		let webhookResultData;
		try {
			webhookResultData = await trigger.nodeType.webhook.call(context);
		} catch (error) {
			call.webhookError = error;
			if (!res.headersSent) sendJson(res, 500, { code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' });
			// n8n still records an execution, failed with the webhook's error.
			const resultData = { runData: {}, lastNodeExecuted: node.name, error: { ...error, message: error.message, stack: error.stack } };
			return await runExecution({ workflowData: [[{ json: {} }]] }, resultData);
		} finally {
			await Promise.allSettled(closeFunctions.map(async (close) => await close()));
		}
		call.webhookResult = webhookResultData;

		const answered = webhookResultData.noWebhookResponse === true || res.headersSent;
		const responseCode = descriptionValue(workflow, node, webhookData.webhookDescription, 'responseCode', 200);
		if (webhookResultData.workflowData === undefined) {
			if (!answered) sendJson(res, responseCode, webhookResultData.webhookResponse ?? { message: 'Webhook call received' });
			return;
		}
		const execution = runExecution(webhookResultData);
		if (!answered) sendJson(res, responseCode, webhookResultData.webhookResponse ?? { message: 'Workflow was started' });
		return await execution;
	}

	await runWebhookMethods(['checkExists', 'create'], 'activate');
	const server = http.createServer((req, res) => {
		track(
			handle(req, res).catch((error) => {
				if (!res.headersSent) sendJson(res, 500, { code: 0, message: error.message });
			}),
		);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const origin = `http://127.0.0.1:${server.address().port}`;

	/** Resolves once `predicate` holds, checked after every call and execution; rejects after `timeoutMs`. */
	function waitUntil(predicate, what, timeoutMs) {
		return new Promise((resolve, reject) => {
			const check = () => {
				if (!predicate()) return;
				clearTimeout(timer);
				waiters.delete(check);
				resolve();
			};
			const timer = setTimeout(() => {
				waiters.delete(check);
				reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what} (${executions.length} executions so far)`));
			}, timeoutMs);
			waiters.add(check);
			check();
		});
	}

	const probe = webhooks(newWorkflow());
	return {
		origin,
		url: `${origin}/webhook/${probe[0].path}`,
		urls: probe.map((w) => `${origin}/webhook/${w.path}`),
		executions,
		calls,
		async waitForExecutions(count, timeoutMs = 10_000) {
			await waitUntil(() => executions.length >= count, `${count} execution(s)`, timeoutMs);
			return executions.slice(0, count);
		},
		async idle(timeoutMs = 10_000) {
			await waitUntil(() => inFlight.size === 0, 'the calls in flight to finish', timeoutMs);
		},
		reset() {
			executions.length = 0;
			calls.length = 0;
		},
		async close() {
			const closed = new Promise((resolve) => server.close(resolve));
			server.closeIdleConnections();
			await Promise.allSettled([...inFlight]);
			await closed;
			await runWebhookMethods(['delete'], 'deactivate');
		},
	};
}

module.exports = { startWebhookServer };
