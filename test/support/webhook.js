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

const { HarnessNodeTypes, HarnessCredentialsHelper, buildAdditionalData, registerNodeType, setUpCredentials, executeWorkflow, nodeResult, latestVersion, clone, requireFromCore } = internals;
const { parseIncomingMessage } = requireFromCore('@n8n/backend-network');

const MODE = 'webhook';
/**
 * How long waitForExecutions() and idle() wait. Runs take milliseconds to a few seconds; the deadline only turns a
 * run that never ends into a clear message, so it is generous for a busy machine and still under jest's 30 s.
 */
const WAIT_MS = 20_000;
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
	else if (contentType === 'application/x-www-form-urlencoded')
		req.body = querystring.parse(text(), undefined, undefined, { maxKeys: 1000 });
	else if (contentType === 'text/plain') req.body = rawBody.toString(encoding);
}

/** A value of the webhook description, which may be an expression over the node's parameters. */
function descriptionValue(workflow, node, description, key, fallback) {
	const value = description[key];
	if (value === undefined) return fallback;
	return workflow.expression.getSimpleParameterValue(node, value, MODE, {}, undefined, fallback);
}

/** The trigger and the nodes that follow it, chained in order, all with the run's credential. */
function workflowNodes(nodeTypes, nodeCredentials, { nodeType, parameters = {}, typeVersion, then = [], packageName }) {
	const withCredentials = (node) =>
		Object.keys(nodeCredentials).length > 0 ? { ...node, credentials: nodeCredentials } : node;
	const specs = [{ nodeType, parameters, typeVersion }, ...then];
	const nodes = specs.map((spec, index) => {
		const registered = registerNodeType(nodeTypes, spec.nodeType, packageName);
		return withCredentials({
			id: `node-${index}`,
			name: spec.name ?? registered.nodeType.description.defaults.name,
			type: registered.fullTypeName,
			typeVersion: spec.typeVersion ?? latestVersion(registered.nodeType),
			position: [250 * index, 0],
			parameters: clone(spec.parameters ?? {}),
			...(index === 0 ? { webhookId: randomUUID() } : {}),
		});
	});
	const connections = {};
	for (let index = 1; index < nodes.length; index++) {
		connections[nodes[index - 1].name] = { main: [[{ node: nodes[index].name, type: 'main', index: 0 }]] };
	}
	return { trigger: nodeTypes.getByName(nodes[0].type), triggerName: nodes[0].name, nodes, connections };
}

/** The trigger's webhooks as n8n registers them: method, `<webhookId>/<path>`, description. */
function nodeWebhooks(workflow, node, nodeType, additionalData) {
	return (nodeType.description.webhooks ?? []).map((description) => {
		const path = String(descriptionValue(workflow, node, description, 'path', ''))
			.trim()
			.replace(/^\/|\/$/g, '');
		const responseMode = descriptionValue(workflow, node, description, 'responseMode', 'onReceived');
		if (responseMode !== 'onReceived') {
			throw new Error(`The webhook harness serves response mode onReceived only, not "${responseMode}"`);
		}
		const isFullPath = descriptionValue(workflow, node, description, 'isFullPath', false);
		return {
			httpMethod: String(descriptionValue(workflow, node, description, 'httpMethod', 'GET')),
			node: node.name,
			path: NodeHelpers.getNodeWebhookPath(WORKFLOW_ID, node, path, isFullPath),
			webhookDescription: description,
			workflowId: WORKFLOW_ID,
			workflowExecuteAdditionalData: additionalData,
			webhookId: node.webhookId,
		};
	});
}

/** Calls in flight and finished executions, and waiting for either. */
function recorder() {
	const executions = [];
	const calls = [];
	const inFlight = new Set();
	const waiters = new Set();
	return {
		executions,
		calls,
		inFlight,
		track(promise) {
			const tracked = promise.finally(() => {
				inFlight.delete(tracked);
				for (const waiter of waiters) waiter();
			});
			inFlight.add(tracked);
		},
		/** Resolves once `predicate` holds, checked after every call; rejects after `timeoutMs`. */
		waitUntil(predicate, what, timeoutMs) {
			return new Promise((resolve, reject) => {
				const check = () => {
					if (!predicate()) return;
					clearTimeout(timer);
					waiters.delete(check);
					resolve();
				};
				const timer = setTimeout(() => {
					waiters.delete(check);
					const seen = `${executions.length} executions so far`;
					reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what} (${seen})`));
				}, timeoutMs);
				waiters.add(check);
				check();
			});
		},
	};
}

/**
 * Starts the server and activates the workflow. Options: `nodeType` (the trigger), `credentialType`,
 * `credentials`, `parameters`, `then` (nodes run after the trigger, each `{ nodeType, parameters, name? }`),
 * `packageName`, `workflowSettings`. See webhook.d.ts for what it resolves to.
 */
async function startWebhookServer(options) {
	ensureSetup();
	const nodeTypes = new HarnessNodeTypes();
	const credentialsHelper = new HarnessCredentialsHelper(nodeTypes);
	const { trigger, triggerName, nodes, connections } = workflowNodes(
		nodeTypes,
		setUpCredentials(credentialsHelper, options),
		options,
	);
	const settings = { executionOrder: 'v1', ...options.workflowSettings };
	// The workflow's static data as n8n's database holds it: read whole as each call starts, saved whole after the
	// node's webhook() returned when the node changed it, with no lock (the last save wins). Servers given the same
	// `store` share it, as webhook processes share one database.
	const store = options.store ?? { staticData: {} };
	const mode = options.mode ?? MODE;
	// n8n builds the workflow anew for every webhook call and again for the run it starts.
	const newWorkflow = (staticData = clone(store.staticData)) =>
		new Workflow({
			id: WORKFLOW_ID,
			name: 'Harness webhook workflow',
			nodes: clone(nodes),
			connections,
			active: true,
			nodeTypes,
			settings,
			staticData,
		});
	const baseAdditionalData = () => buildAdditionalData({ credentialsHelper, hooks: undefined, executionId: undefined });
	const webhooksOf = (workflow) => nodeWebhooks(workflow, workflow.getNode(triggerName), trigger, baseAdditionalData());
	const record = recorder();

	/** Activation calls checkExists, then create when the webhook does not exist yet; deactivation delete. */
	async function runWebhookMethods(activation) {
		const workflow = newWorkflow();
		const node = workflow.getNode(triggerName);
		for (const webhookData of webhooksOf(workflow)) {
			const methods = trigger.webhookMethods?.[webhookData.webhookDescription.name] ?? {};
			const call = async (method) =>
				await methods[method]?.call(
					new core.HookContext(
						workflow,
						node,
						webhookData.workflowExecuteAdditionalData,
						MODE,
						activation,
						webhookData,
					),
				);
			if (activation === 'deactivate') await call('delete');
			else if ((await call('checkExists')) !== true) await call('create');
		}
	}

	/** WorkflowExecute from the trigger, its data on the stack, as n8n's prepareExecutionData sets it up. */
	async function runExecution(workflowData, resultData) {
		const workflow = newWorkflow();
		const startedAt = new Date();
		const runExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [{ node: workflow.getNode(triggerName), data: { main: workflowData }, source: null }],
			},
		});
		if (resultData) runExecutionData.resultData = { ...runExecutionData.resultData, ...resultData };
		const { executionId, run, nodeExecutionOrder, refused } = await executeWorkflow({
			workflow,
			mode,
			credentialsHelper,
			runExecutionData,
		});
		// n8n saves the static data a production execution's nodes changed, whole, once it ends (the last save wins).
		if (mode !== 'manual' && workflow.staticData.__dataChanged === true) store.staticData = clone(workflow.staticData);
		const execution = { id: executionId, startedAt, stoppedAt: new Date(), nodeExecutionOrder, run };
		Object.assign(execution, refused ? { status: 'error', items: [], error: refused } : nodeResult(run, triggerName));
		execution.outputOf = (nodeName) => (run ? nodeResult(run, nodeName).items : []);
		record.executions.push(execution);
	}

	async function handle(req, res) {
		const call = { method: req.method, url: req.url, receivedAt: new Date() };
		record.calls.push(call);
		res.on('finish', () =>
			Object.assign(call, { statusCode: res.statusCode, answeredAt: new Date(), answeredAtMs: performance.now() }),
		);

		const url = new URL(req.url, 'http://127.0.0.1');
		const workflow = newWorkflow();
		const webhookData = webhooksOf(workflow).find(
			(w) => `/webhook/${w.path}` === url.pathname && w.httpMethod === req.method,
		);
		if (!webhookData) {
			const message = `The requested webhook "${req.method} ${url.pathname}" is not registered.`;
			return sendJson(res, 404, { code: 404, message });
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

		const node = workflow.getNode(triggerName);
		const additionalData = { ...baseAdditionalData(), httpRequest: req, httpResponse: res };
		const closeFunctions = [];
		const context = new core.WebhookContext(workflow, node, additionalData, mode, webhookData, closeFunctions, null);
		let result;
		try {
			result = await trigger.webhook.call(context);
			if (workflow.staticData.__dataChanged === true) store.staticData = clone(workflow.staticData);
		} catch (error) {
			call.webhookError = error;
			if (!res.headersSent) {
				sendJson(res, 500, { code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' });
			}
			// n8n still runs and records an execution, failed with the webhook's error.
			const error_ = { ...error, message: error.message, stack: error.stack };
			return await runExecution([[{ json: {} }]], { runData: {}, lastNodeExecuted: node.name, error: error_ });
		} finally {
			await Promise.allSettled(closeFunctions.map(async (close) => await close()));
		}
		call.webhookResult = result;

		const answered = result.noWebhookResponse === true || res.headersSent;
		const responseCode = descriptionValue(workflow, node, webhookData.webhookDescription, 'responseCode', 200);
		const answer = (fallback) => answered || sendJson(res, responseCode, result.webhookResponse ?? fallback);
		if (result.workflowData === undefined) return answer({ message: 'Webhook call received' });
		const execution = runExecution(result.workflowData);
		answer({ message: 'Workflow was started' });
		await execution;
	}

	await runWebhookMethods('activate');
	const server = http.createServer((req, res) =>
		record.track(
			handle(req, res).catch((error) => {
				if (!res.headersSent) sendJson(res, 500, { code: 0, message: error.message });
			}),
		),
	);
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const origin = `http://127.0.0.1:${server.address().port}`;
	const urls = webhooksOf(newWorkflow()).map((webhook) => `${origin}/webhook/${webhook.path}`);
	const { executions, calls, inFlight } = record;

	return {
		origin,
		store,
		url: urls[0],
		urls,
		executions,
		calls,
		async waitForExecutions(count, timeoutMs = WAIT_MS) {
			await record.waitUntil(() => executions.length >= count, `${count} execution(s)`, timeoutMs);
			return executions.slice(0, count);
		},
		async idle(timeoutMs = WAIT_MS) {
			await record.waitUntil(() => inFlight.size === 0, 'the calls in flight to finish', timeoutMs);
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
			await runWebhookMethods('deactivate');
		},
	};
}

module.exports = { startWebhookServer };
