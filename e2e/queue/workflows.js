'use strict';

// The workflows of the queue check, as imported: the sandbox's address filled in, every Payment Gateway credential
// pointing at the check's own. The reconciliation is the repository's example (examples/reconciliation.json) when
// there is one, with a Webhook in place of its triggers; until then queue/reconciliation.json, built the same way.

const fs = require('node:fs');
const path = require('node:path');

const { paths } = require('../lib/package');

const EXAMPLE = path.join(paths.ROOT, 'examples', 'reconciliation.json');
const OWN = path.join(__dirname, 'reconciliation.json');
const WEBHOOK_TYPE = 'n8n-nodes-base.webhook';
/** The node that lists the orders: its code is replaced by the one reading them from the request. */
const ORDERS_NODE = 'Orders To Check';

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

/** `workflow` with the sandbox's address and the check's credential ({ id, name }). */
function prepared(workflow, sandbox, credential) {
	const filled = JSON.parse(JSON.stringify(workflow).split('__SANDBOX_URL__').join(sandbox.url));
	for (const node of filled.nodes) {
		if (node.credentials?.paymentGatewayApi) node.credentials.paymentGatewayApi = { id: credential.id, name: credential.name };
	}
	return filled;
}

/**
 * The example's nodes, its schedule and manual triggers replaced by the Webhook of queue/reconciliation.json (a
 * schedule cannot start six runs at once), and its order list by the one that reads the request's `orders`.
 */
function fromExample(example, own) {
	const triggers = new Set(example.nodes.filter((node) => /trigger$/i.test(node.type)).map((node) => node.name));
	const webhook = own.nodes.find((node) => node.type === WEBHOOK_TYPE);
	const ownOrders = own.nodes.find((node) => node.name === ORDERS_NODE);
	if (!example.nodes.some((node) => node.name === ORDERS_NODE)) throw new Error(`${EXAMPLE} has no "${ORDERS_NODE}" node`);
	return {
		...example,
		id: own.id,
		nodes: [
			webhook,
			...example.nodes
				.filter((node) => !triggers.has(node.name))
				.map((node) => (node.name === ORDERS_NODE ? { ...node, parameters: ownOrders.parameters } : node)),
		],
		connections: {
			...Object.fromEntries(Object.entries(example.connections).filter(([from]) => !triggers.has(from))),
			[webhook.name]: own.connections[webhook.name],
		},
	};
}

/** Resolves with { workflow, source } (source: the file it came from, relative to the repository). */
function reconciliationWorkflow(sandbox, credential) {
	const own = readJson(OWN);
	const example = fs.existsSync(EXAMPLE) ? readJson(EXAMPLE) : undefined;
	return {
		workflow: prepared(example ? fromExample(example, own) : own, sandbox, credential),
		source: path.relative(paths.ROOT, example ? EXAMPLE : OWN),
	};
}

/** Another workflow of e2e/queue/ by name. */
const queueWorkflow = (name, sandbox, credential) => prepared(readJson(path.join(__dirname, `${name}.json`)), sandbox, credential);

module.exports = { reconciliationWorkflow, queueWorkflow, WEBHOOK_TYPE };
