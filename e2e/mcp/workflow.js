'use strict';

// The MCP check's workflow: n8n's MCP Server Trigger with the package's tools on its ai_tool input, each tool's
// money-moving fields set by the author and the rest from $fromAI(), as an outside MCP client fills them; and the
// official SDK client that calls them (also from the queue check).

const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

const { sleep } = require('../lib/processes');

const PATH = 'payment-gateway-check';
const CREDENTIAL = { id: 'pgMcpCred0000001', name: 'Payment Gateway account', type: 'paymentGatewayApi' };

const fromAI = (key, description, type = 'string') => `={{ $fromAI('${key}', '${description}', '${type}') }}`;
const limits = (perCall, total = 0) => ({ toolMaxAmount: perCall, toolLimitCurrency: 'USD', toolMaxTotal: total });

const refund = (extra) => ({
	resource: 'transaction',
	operation: 'refund',
	paymentId: fromAI('paymentId', 'The paymentId of the successful payment to refund'),
	amount: fromAI('amount', 'How much to refund, as a number', 'number'),
	...extra,
});

const storedCard = (extra) => ({
	resource: 'transaction',
	operation: 'initiate',
	orderId: fromAI('orderId', 'The orderId of the order to pay'),
	paymentMode: 'token',
	digitalCardId: fromAI('digitalCardId', 'The digitalCardId of the stored card'),
	amount: fromAI('amount', 'The amount of the order', 'number'),
	currency: fromAI('currency', 'The currency of the order, e.g. USD'),
	cardHolderName: 'Gia Gateway',
	redirectionUrl: 'https://shop.example.com/payment/done',
	...limits(30),
	...extra,
});

/** Node name → parameters: the name is what the client calls (n8n makes a tool name of it). */
const TOOLS = {
	'Payment Status': { resource: 'status', operation: 'getByPaymentId', paymentId: fromAI('paymentId', 'The paymentId of the payment'), options: {} },
	'Refund Up To 10': refund(limits(10)),
	'Refund With Total 5': refund(limits(10, 5)),
	// typeVersion 1.3 (below): a budget across executions, each tools/call being one.
	'Refund With Day 30': refund({ ...limits(10, 10), toolMaxDaily: 30 }),
	'Pay With Stored Card': storedCard({ customerAuthentication: 'otpOnly', cardCVV: fromAI('cvv', 'The CVV') }),
	'Pay Without Confirmation': storedCard({ customerAuthentication: 'none' }),
	'Pay With CVV And OTP': storedCard({ customerAuthentication: 'cvvAndOtp' }),
	// Card mode, which the editor does not offer a tool, with a generous limit: only the card rule can refuse it.
	'Pay With Card': {
		resource: 'transaction',
		operation: 'initiate',
		orderId: fromAI('orderId', 'The orderId of the order to pay'),
		paymentMode: 'card',
		cardNumber: fromAI('cardNumber', 'The card number'),
		cardExpMonth: fromAI('cardExpMonth', 'The expiry month'),
		cardExpYear: fromAI('cardExpYear', 'The expiry year'),
		cardHolderName: 'Gia Gateway',
		redirectionUrl: 'https://shop.example.com/payment/done',
		amount: fromAI('amount', 'The amount of the order', 'number'),
		currency: 'USD',
		customerAuthentication: 'otpOnly',
		...limits(1000),
	},
};

const TRIGGER = 'MCP Server Trigger';
/** Tools at a typeVersion of their own: the daily budget is there from 1.3. */
const TYPE_VERSIONS = { 'Refund With Day 30': 1.3 };

function workflow() {
	const tools = Object.entries(TOOLS).map(([name, parameters], index) => ({
		id: `5d0c3f7e-tool-${index}`,
		name,
		type: 'n8n-nodes-payment-gateway.paymentGatewayTool',
		typeVersion: TYPE_VERSIONS[name] ?? 1.1,
		position: [200 * index, 240],
		parameters: { ...parameters },
		credentials: { paymentGatewayApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } },
	}));
	return {
		name: 'MCP check: payment tools',
		nodes: [
			{
				id: '5d0c3f7e-trigger',
				name: TRIGGER,
				type: '@n8n/n8n-nodes-langchain.mcpTrigger',
				typeVersion: 2.1,
				position: [0, 0],
				webhookId: '5d0c3f7e-6b1a-4c9e-8f20-7a3d2e1b0001',
				parameters: { path: PATH, authentication: 'none' },
			},
			...tools,
		],
		connections: Object.fromEntries(tools.map((tool) => [tool.name, { ai_tool: [[{ node: TRIGGER, type: 'ai_tool', index: 0 }]] }])),
		settings: { executionOrder: 'v1' },
	};
}

/** The name n8n gives a tool node's tool: its node name with everything but letters, digits, - and _ as _. */
const toolName = (nodeName) => nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_');

/** The SDK client connected to the MCP endpoint `url` over Streamable HTTP, retried while n8n registers it. */
async function connectClient(url, name) {
	let lastError;
	for (let attempt = 0; attempt < 60; attempt++) {
		const client = new Client({ name, version: '1.0.0' });
		try {
			await client.connect(new StreamableHTTPClientTransport(new URL(url)));
			return client;
		} catch (error) {
			lastError = error;
			await sleep(500);
		}
	}
	throw new Error(`the MCP endpoint ${url} answers: ${lastError?.message}`);
}

/** The text of a tools/call result. */
const resultText = (result) => result.content?.map((part) => part.text ?? '').join('') ?? '';

module.exports = { PATH, CREDENTIAL, TRIGGER, workflow, toolName, connectClient, resultText };
