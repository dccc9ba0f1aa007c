'use strict';

// What the checks that drive a running n8n share: calling its webhooks, counting the executions a call started, and
// reading a node's items out of a stored execution.

const { sleep } = require('./processes');

/** Where a workflow's first webhook listens, relative to n8n's /webhook/: a Webhook node's path, or a trigger's. */
function webhookPathOf(workflow) {
	const hook = workflow.nodes.find((node) => node.webhookId);
	if (!hook) throw new Error(`"${workflow.name}" has no webhook`);
	// The Payment Gateway Trigger's webhook path is "webhook", under its webhook id.
	return hook.type === 'n8n-nodes-base.webhook' ? hook.parameters.path : `${hook.webhookId}/webhook`;
}

/**
 * POSTs `body` (JSON, or a string sent as it is) to `url`, with `headers` added; redirects are not followed, so that a
 * check sees them.
 * Resolves with { status, headers, text, json (parsed, or undefined) }.
 */
async function post(url, body, { contentType = 'application/json', headers = {} } = {}) {
	const res = await fetch(url, {
		method: 'POST',
		redirect: 'manual',
		headers: { 'content-type': contentType, ...headers },
		body: typeof body === 'string' ? body : JSON.stringify(body),
	});
	const text = await res.text();
	let json;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: res.status, headers: res.headers, text, json };
}

/**
 * The workflow's finished executions once there are `count`, after `quietMs` more in which no other may start: a
 * check of "exactly one" must give a second one the time to show up. Newest first, as n8n lists them.
 */
async function executionsSettled(session, workflowId, count, { timeoutMs = 30_000, quietMs = 1500 } = {}) {
	const finished = await session.finishedExecutions(workflowId, count, timeoutMs);
	if (finished.length < count) return finished;
	await sleep(quietMs);
	return (await session.executions({ workflowId })).filter((execution) => execution.stoppedAt);
}

/** The JSON of every item a node output in a run (its last run, main output `output`); [] when it did not run. */
function nodeItems(runData, node, output = 0) {
	const runs = runData?.[node];
	if (!runs?.length) return [];
	return (runs[runs.length - 1].data?.main?.[output] ?? []).map((item) => item.json);
}

/** The run data of a stored execution (GET /rest/executions/<id>). */
async function runDataOf(session, execution) {
	const stored = await session.execution(execution.id);
	return stored.data?.resultData?.runData ?? {};
}

module.exports = { webhookPathOf, post, executionsSettled, nodeItems, runDataOf };
