'use strict';

// The check's own agent workflows: a Chat Trigger answered over HTTP ("Embedded Chat", responding when the last node
// finishes), an AI Agent on the OpenAI Chat Model (pointed at the stand-in), and Payment Gateway nodes as its tools.
// The example's workflow (examples/support-agent.json) is imported from its file instead.

const CHAT_TRIGGER = '@n8n/n8n-nodes-langchain.chatTrigger';
const TOOL_TYPE = 'n8n-nodes-payment-gateway.paymentGatewayTool';
/** The credentials the check imports; the example finds them by name. */
const CREDENTIALS = {
	gateway: { id: 'pgAgentCred00001', name: 'Payment Gateway account', type: 'paymentGatewayApi' },
	model: { id: 'openAiStandIn001', name: 'OpenAI account', type: 'openAiApi' },
};

const fromAI = (key, description, type = 'string') => `={{ $fromAI('${key}', '${description}', '${type}') }}`;

const refundArguments = {
	paymentId: fromAI('paymentId', 'The paymentId of the successful payment to refund'),
	amount: fromAI('amount', 'How much to refund, as a number', 'number'),
};

/** The tools of the status and refund checks: a read, and Refund with a limit of 5 and with the default 0. */
const REFUND_TOOLS = {
	'Order Status': { resource: 'status', operation: 'getByOrderId', orderId: fromAI('orderId', 'The orderId of the order'), options: {} },
	'Refund Up To 5': { resource: 'transaction', operation: 'refund', ...refundArguments, toolMaxAmount: 5, options: {} },
	'Refund Without Limit': { resource: 'transaction', operation: 'refund', ...refundArguments, options: {} },
};

/**
 * Initiate in card mode with the card from the model: the editor does not offer "New Card" in tool mode, but a
 * workflow file can carry it. A generous limit, so that only the card rule can refuse it.
 */
const CARD_TOOLS = {
	'Pay With Card': {
		resource: 'transaction',
		operation: 'initiate',
		orderId: fromAI('orderId', 'The orderId of the order to pay'),
		paymentMode: 'card',
		cardNumber: fromAI('cardNumber', 'The card number'),
		cardExpMonth: fromAI('cardExpMonth', 'The expiry month'),
		cardExpYear: fromAI('cardExpYear', 'The expiry year'),
		cardCVV: fromAI('cardCVV', 'The CVV'),
		cardHolderName: fromAI('cardHolderName', 'The name on the card'),
		redirectionUrl: 'https://shop.example.com/payment/done',
		amount: fromAI('amount', 'The amount of the order', 'number'),
		toolMaxAmount: 1000,
		options: {},
	},
};

const reference = ({ id, name }) => ({ id, name });

/** Chat Trigger → AI Agent with the given Payment Gateway tools; `webhookId` fixes the chat's URL. */
function agentWorkflow(name, webhookId, tools) {
	const toolNodes = Object.entries(tools).map(([toolName, parameters], index) => ({
		id: `${webhookId.slice(0, 8)}-tool-${index}`,
		name: toolName,
		type: TOOL_TYPE,
		typeVersion: 1,
		position: [400 + index * 180, 240],
		parameters,
		credentials: { paymentGatewayApi: reference(CREDENTIALS.gateway) },
	}));
	const toAgent = (type) => ({ [type]: [[{ node: 'AI Agent', type, index: 0 }]] });
	return {
		name,
		nodes: [
			{
				id: `${webhookId.slice(0, 8)}-chat`,
				name: 'When chat message received',
				type: CHAT_TRIGGER,
				typeVersion: 1.4,
				position: [0, 0],
				webhookId,
				parameters: { public: true, mode: 'webhook', options: { responseMode: 'lastNode' } },
			},
			{
				id: `${webhookId.slice(0, 8)}-agent`,
				name: 'AI Agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: 3.1,
				position: [260, 0],
				parameters: { options: { systemMessage: "You help a shop's support team with payments." } },
			},
			{
				id: `${webhookId.slice(0, 8)}-model`,
				name: 'OpenAI Chat Model',
				type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
				typeVersion: 1.3,
				position: [200, 240],
				// The Responses API is another endpoint (/responses); Chat Completions is what compatible servers speak.
				parameters: { model: { __rl: true, mode: 'list', value: 'gpt-5-mini' }, responsesApiEnabled: false, options: {} },
				credentials: { openAiApi: reference(CREDENTIALS.model) },
			},
			...toolNodes,
		],
		connections: {
			'When chat message received': { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'OpenAI Chat Model': toAgent('ai_languageModel'),
			...Object.fromEntries(toolNodes.map((node) => [node.name, toAgent('ai_tool')])),
		},
		settings: { executionOrder: 'v1' },
	};
}

const WORKFLOWS = {
	refunds: agentWorkflow('Agent check: status and refunds', '7a1e0c52-6f0e-4b8a-9d2c-3f5b8e1a0001', REFUND_TOOLS),
	card: agentWorkflow('Agent check: card payment', '7a1e0c52-6f0e-4b8a-9d2c-3f5b8e1a0002', CARD_TOOLS),
};

/** The name n8n gives a tool node's tool (its node name with everything but letters, digits, - and _ as _). */
const toolName = (nodeName) => nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_');

module.exports = { WORKFLOWS, CREDENTIALS, CHAT_TRIGGER, TOOL_TYPE, toolName };
