'use strict';

// The MCP check's workflow (workflow.json): n8n's MCP Server Trigger with the package's tools on its ai_tool input,
// each tool's money-moving fields set by the author and the rest from $fromAI(), as an outside MCP client fills them
// (the client calls a tool by its node name). Refund With Day 30 is at typeVersion 1.3, where the daily budget across
// executions starts (each tools/call being one); Pay With Card uses card mode, which the editor does not offer a tool,
// with a generous limit, so only the card rule can refuse it. And the official SDK client that calls them (also from
// the queue check).

const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

const { waitUntil } = require('../lib/processes');

const CREDENTIAL = { id: 'pgMcpCred0000001', name: 'Payment Gateway account', type: 'paymentGatewayApi' };
const TRIGGER = 'MCP Server Trigger';
/** A fresh copy of workflow.json; the MCP endpoint's path is its trigger's. */
const workflow = () => structuredClone(require('./workflow.json'));
const PATH = workflow().nodes.find((node) => node.name === TRIGGER).parameters.path;

/** The name n8n gives a tool node's tool: its node name with everything but letters, digits, - and _ as _. */
const toolName = (nodeName) => nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_');

/** The SDK client connected to the MCP endpoint `url` over Streamable HTTP, retried while n8n registers it. */
async function connectClient(url, name) {
	let lastError;
	const connected = await waitUntil(() => {
		const client = new Client({ name, version: '1.0.0' });
		return client.connect(new StreamableHTTPClientTransport(new URL(url))).then(() => client, (error) => void (lastError = error));
	}, { timeoutMs: 30_000, intervalMs: 500 });
	if (!connected) throw new Error(`the MCP endpoint ${url} answers: ${lastError?.message}`);
	return connected;
}

/**
 * Ends the client's session on the server too (HTTP DELETE), then closes it: a session n8n still holds can keep the
 * process that serves it from stopping on SIGTERM.
 */
async function closeClient(client) {
	await client.transport?.terminateSession?.().catch(() => {});
	await client.close();
}

/** The text of a tools/call result. */
const resultText = (result) => result.content?.map((part) => part.text ?? '').join('') ?? '';

module.exports = { PATH, CREDENTIAL, TRIGGER, workflow, toolName, connectClient, closeClient, resultText };
