'use strict';

// A reconciliation nobody tuned: what a user gets from adding the node and setting only the order id, against what
// they would build instead, n8n's own HTTP Request node with its defaults (it sends every item's request at once).
// The HTTP Request node is the real one, from the n8n install the real-n8n checks use (e2e/install-n8n.sh).

const path = require('node:path');

const { runWorkflow } = require('../../test/support/engine');
const { ensureN8n, requireFromN8n } = require('../../e2e/lib/package');
const { CHECK_STATUS_PATH } = require('./plain-client');
const { forgetPaces, runNode, statusesInOrder } = require('./node-runs');

async function httpRequestNode() {
	await ensureN8n({ log: (message) => process.stderr.write(`${message}\n`) });
	const file = path.join('n8n-nodes-base', 'dist', 'nodes', 'HttpRequest', 'HttpRequest.node.js');
	return requireFromN8n(file).HttpRequest;
}

/**
 * n8n's HTTP Request node with its defaults, sending the node's request (the signed headers as fixed header parameters)
 * for every order; its output items. `continueOnFail`: the failed requests' items come back too.
 */
async function httpRequestRun(sandbox, headers, orderIds, { continueOnFail = false } = {}) {
	const result = await runWorkflow({
		nodeType: await httpRequestNode(),
		packageName: 'n8n-nodes-base',
		continueOnFail,
		parameters: {
			method: 'GET',
			url: sandbox.checkoutBaseUrl + CHECK_STATUS_PATH,
			sendQuery: true,
			queryParameters: { parameters: [{ name: 'orderId', value: '={{ $json.orderId }}' }] },
			sendHeaders: true,
			headerParameters: { parameters: Object.entries(headers).map(([name, value]) => ({ name, value })) },
			options: {},
		},
		items: orderIds.map((orderId) => ({ orderId })),
	});
	if (result.error) throw new Error(`the HTTP Request node failed: ${result.error.message}`);
	return result.items;
}

async function httpRequestStatusOfAll(sandbox, headers, orderIds) {
	return statusesInOrder('the HTTP Request node', await httpRequestRun(sandbox, headers, orderIds), orderIds);
}

/** The node with only the order id set: no options at all, as the first run in its process. */
async function untunedStatusOfAll(sandbox, orderIds) {
	forgetPaces();
	const items = await runNode(
		sandbox,
		{ resource: 'status', operation: 'getByOrderId', orderId: '={{ $json.orderId }}' },
		orderIds.map((orderId) => ({ orderId })),
	);
	return statusesInOrder('the node', items, orderIds);
}

module.exports = { httpRequestRun, httpRequestStatusOfAll, untunedStatusOfAll };
