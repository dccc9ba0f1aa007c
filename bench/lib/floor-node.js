'use strict';

// The floor: the least any n8n node pays to send the node's status read. A minimal node type, run through the same
// engine, that reads the one expression per item (the order id), and sends the same signed GET through n8n's own
// HTTP helper (`this.helpers.httpRequest`), its fixed headers and signature computed once per execution (a check-status
// GET signs the path alone). What the node costs above it is the node's own.

const crypto = require('node:crypto');

const { runWorkflow } = require('../../test/support/engine');
const { CHECK_STATUS_PATH } = require('./plain-client');
const { PaymentGatewayApi, statusesInOrder } = require('./node-runs');
const { pool } = require('./pool');

/**
 * `step` adds, one at a time, what the node does on top of the floor, so that the bench can tell what each costs:
 * 'stream' reads the answer from a stream with the status and headers (as the node does, to bound its size and
 * time); 'authenticated' also sends through the credential (httpRequestWithAuthentication, which signs).
 */
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
		credentials: [{ name: 'paymentGatewayApi', required: false }],
		properties: [
			{ displayName: 'Order ID', name: 'orderId', type: 'string', default: '' },
			{ displayName: 'Concurrency', name: 'concurrency', type: 'number', default: 1 },
			{ displayName: 'Headers', name: 'headers', type: 'json', default: '{}' },
			{ displayName: 'URL', name: 'url', type: 'string', default: '' },
			{ displayName: 'Client Secret', name: 'clientSecret', type: 'string', default: '' },
			{ displayName: 'Step', name: 'step', type: 'string', default: 'floor' },
		],
	};

	async execute() {
		const items = this.getInputData();
		const url = this.getNodeParameter('url', 0);
		const concurrency = this.getNodeParameter('concurrency', 0);
		const step = this.getNodeParameter('step', 0);
		const signature = crypto.createHmac('sha256', this.getNodeParameter('clientSecret', 0)).update(CHECK_STATUS_PATH).digest('hex');
		const headers = { ...JSON.parse(this.getNodeParameter('headers', 0)), 'x-signature': signature };
		const send = await sender(this, step, headers);
		const output = await pool(items.length, concurrency, async (itemIndex) => {
			const orderId = this.getNodeParameter('orderId', itemIndex);
			return { json: await send({ method: 'GET', url, qs: { orderId } }), pairedItem: { item: itemIndex } };
		});
		return [output];
	}
}

async function sender(ctx, step, headers) {
	if (step === 'floor') return (options) => ctx.helpers.httpRequest({ ...options, headers, json: true });
	const streamed = { returnFullResponse: true, ignoreHttpStatusErrors: true, encoding: 'stream', json: false };
	const readJson = async (response) => {
		const chunks = [];
		for await (const chunk of response.body) chunks.push(chunk);
		return JSON.parse(Buffer.concat(chunks).toString('utf8'));
	};
	if (step === 'stream') return async (options) => readJson(await ctx.helpers.httpRequest({ ...options, headers, ...streamed }));
	// The credential adds Authorization and X-Signature itself, as it does for the node.
	const { authorization, 'x-signature': signature, ...unsigned } = headers;
	const data = await ctx.getCredentials('paymentGatewayApi');
	const credentialOptions = { credentialsDecrypted: { id: 'bench', name: 'bench', type: 'paymentGatewayApi', data } };
	return async (options) =>
		readJson(
			await ctx.helpers.httpRequestWithAuthentication.call(
				ctx,
				'paymentGatewayApi',
				{ ...options, headers: { ...unsigned }, ...streamed },
				credentialOptions,
			),
		);
}

/** The floor's status reads of every order id, `concurrency` at a time, through the engine like the node's. */
async function floorStatusOfAll(sandbox, plainHeaders, orderIds, concurrency, step = 'floor') {
	const result = await runWorkflow({
		nodeType: BenchFloor,
		packageName: 'n8n-nodes-bench-floor',
		...(step === 'authenticated' ? { credentialType: PaymentGatewayApi, credentials: sandbox.credentials } : {}),
		parameters: {
			step,
			orderId: '={{ $json.orderId }}',
			concurrency,
			headers: JSON.stringify(plainHeaders),
			url: sandbox.checkoutBaseUrl + CHECK_STATUS_PATH,
			clientSecret: sandbox.credentials.clientSecret,
		},
		items: orderIds.map((orderId) => ({ orderId })),
	});
	if (result.error) throw new Error(`the floor failed: ${result.error.message}`);
	return statusesInOrder('the floor', result.items, orderIds);
}

module.exports = { floorStatusOfAll };
