'use strict';

// The floor: the least any n8n node pays to send the node's status read. A minimal node type, run through the same
// engine, that reads the one expression per item (the order id), and sends the same signed GET through n8n's own
// HTTP helper (`this.helpers.httpRequest`), its fixed headers and signature computed once per execution (a check-status
// GET signs the path alone). What the node costs above it is the node's own.

const crypto = require('node:crypto');

const { runWorkflow } = require('../../test/support/engine');
const { CHECK_STATUS_PATH } = require('./plain-client');
const { pool } = require('./pool');

class BenchFloor {
	description = {
		displayName: 'Floor',
		name: 'benchFloor',
		group: ['transform'],
		version: 1,
		description: 'Sends the status read as plainly as an n8n node can',
		defaults: { name: 'Floor' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [
			{ displayName: 'Order ID', name: 'orderId', type: 'string', default: '' },
			{ displayName: 'Concurrency', name: 'concurrency', type: 'number', default: 1 },
			{ displayName: 'Headers', name: 'headers', type: 'json', default: '{}' },
			{ displayName: 'URL', name: 'url', type: 'string', default: '' },
			{ displayName: 'Client Secret', name: 'clientSecret', type: 'string', default: '' },
		],
	};

	async execute() {
		const items = this.getInputData();
		const url = this.getNodeParameter('url', 0);
		const concurrency = this.getNodeParameter('concurrency', 0);
		const signature = crypto.createHmac('sha256', this.getNodeParameter('clientSecret', 0)).update(CHECK_STATUS_PATH).digest('hex');
		const headers = { ...JSON.parse(this.getNodeParameter('headers', 0)), 'x-signature': signature };
		const output = await pool(items.length, concurrency, async (itemIndex) => {
			const orderId = this.getNodeParameter('orderId', itemIndex);
			const json = await this.helpers.httpRequest({ method: 'GET', url, qs: { orderId }, headers, json: true });
			return { json, pairedItem: { item: itemIndex } };
		});
		return [output];
	}
}

/** The floor's status reads of every order id, `concurrency` at a time, through the engine like the node's. */
async function floorStatusOfAll(sandbox, plainHeaders, orderIds, concurrency) {
	const result = await runWorkflow({
		nodeType: BenchFloor,
		packageName: 'n8n-nodes-bench-floor',
		parameters: {
			orderId: '={{ $json.orderId }}',
			concurrency,
			headers: JSON.stringify(plainHeaders),
			url: sandbox.checkoutBaseUrl + CHECK_STATUS_PATH,
			clientSecret: sandbox.credentials.clientSecret,
		},
		items: orderIds.map((orderId) => ({ orderId })),
	});
	if (result.error) throw new Error(`the floor failed: ${result.error.message}`);
	if (result.items.length !== orderIds.length || result.items.some((item, index) => item.json.orderId !== orderIds[index])) {
		throw new Error('the floor did not return one status per order, in order');
	}
	return result.items;
}

module.exports = { floorStatusOfAll };
