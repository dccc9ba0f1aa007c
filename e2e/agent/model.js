'use strict';

// A stand-in for an OpenAI-compatible language model on 127.0.0.1: what n8n's OpenAI Chat Model node (Responses API
// off) calls, `POST <credential url>/chat/completions`, answered from a script instead of a model, so that a check
// decides which tool the agent calls with which arguments. Nothing leaves the machine. A conversation is found by a
// phrase of its user message: before any tool answer the model calls the scripted tool (or several tools in one
// message, as models ask for parallel tool calls), after it the model answers in words, quoting what the tools said.
// The shapes are those of the Chat Completions API as the openai client of n8n
// 2.41.1 reads them: one choice, `tool_calls` with JSON-encoded `arguments`, `finish_reason` "tool_calls" or "stop".
//
// A message no script matches is read by the two sentences of UNDERSTOOD (what `npm run agent:standin` offers for
// trying examples/support-agent.json without a model), and anything else is answered with them.

const { once } = require('node:events');
const http = require('node:http');
const { text: readText } = require('node:stream/consumers');

const { parseJson } = require('../lib/processes');

/** The text of a message, whether n8n sent it as a string or as content parts. */
const textOf = (message) => (Array.isArray(message?.content) ? message.content.map((part) => part.text ?? '').join('') : typeof message?.content === 'string' ? message.content : '');

/** A tool's own arguments: under `toolParameters` for a tool behind human review. */
const toolArguments = (tool) => tool?.parameters?.properties?.toolParameters?.properties ?? tool?.parameters?.properties ?? {};

/**
 * What the stand-in reads without a script: a sentence, the tool it calls (the first offered whose arguments fit),
 * and the arguments; `hitl` are those of a human review in front of the tool (the review message's own `$fromAI`).
 */
const UNDERSTOOD = [
	{
		example: 'What is the status of order <orderId>?',
		pattern: /\bstatus of order\s+([^\s?!,;]+)/i,
		fits: (args) => 'orderId' in args && !('amount' in args),
		call: ([, orderId]) => ({ args: { orderId } }),
	},
	{
		example: 'Refund <amount> <currency> of payment <paymentId>',
		pattern: /\brefund\s+(\d+(?:\.\d+)?)\s*([A-Za-z]{3})?\s+of payment\s+([^\s?!,;]+)/i,
		fits: (args) => 'paymentId' in args && 'amount' in args,
		call: ([, amount, currency, paymentId]) => ({ args: { paymentId, amount: Number(amount) }, hitl: currency ? { currency: currency.toUpperCase() } : {} }),
	},
];

const HELP = `I am the stand-in model of n8n-nodes-payment-gateway, not a language model. I understand two sentences: ${UNDERSTOOD.map((rule) => `"${rule.example}"`).join(' and ')}.`;

/** The scripted call for a message, or else the call its sentence asks for; undefined for neither. */
function callFor(scripts, user, offered) {
	const script = scripts.find(({ phrase }) => user.includes(phrase));
	if (script) return script;
	for (const rule of UNDERSTOOD) {
		const match = rule.pattern.exec(user);
		const tool = match && offered.find((candidate) => rule.fits(toolArguments(candidate)));
		if (tool) return { calls: [{ tool: tool.name, ...rule.call(match) }] };
	}
	return undefined;
}

function nextTurn(scripts, body, callId) {
	const messages = body.messages ?? [];
	const user = textOf(messages.findLast((message) => message.role === 'user'));
	const offered = (body.tools ?? []).map((tool) => tool.function).filter(Boolean);
	const script = callFor(scripts, user, offered);
	if (!script) return { role: 'assistant', content: HELP };
	const answered = messages.filter((message) => message.role === 'tool');
	if (answered.length) return { role: 'assistant', content: `The tool answered: ${answered.map(textOf).join(' | ')}` };
	const toolCalls = [];
	for (const [index, { tool: name, args, hitl }] of script.calls.entries()) {
		const tool = offered.find((candidate) => candidate.name === name);
		if (!tool) return { role: 'assistant', content: `The tool ${name} is not offered (offered: ${offered.map((t) => t.name).join(', ')})` };
		// As a model follows the schema: a tool behind human review takes its own arguments under toolParameters.
		const given = tool.parameters?.properties?.toolParameters ? { toolParameters: args, hitlParameters: hitl ?? {} } : args;
		toolCalls.push({ id: index === 0 ? callId : `${callId}_${index}`, type: 'function', function: { name, arguments: JSON.stringify(given) } });
	}
	return { role: 'assistant', content: null, tool_calls: toolCalls };
}

/**
 * Starts the stand-in on `port` (a free one by default): { url (the credential's base URL), requests, script(),
 * conversation(), toolAnswers(), close() }.
 */
async function startModel({ port = 0 } = {}) {
	const scripts = [];
	const requests = [];
	const server = http.createServer(async (req, res) => {
		const text = await readText(req);
		const body = text ? parseJson(text) : {};
		const path = req.url.split('?')[0];
		requests.push({ method: req.method, path, body, text });
		const send = (status, json) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
		if (req.method === 'GET' && path.endsWith('/models')) return send(200, { object: 'list', data: [{ id: 'stand-in', object: 'model', created: 0, owned_by: 'e2e' }] });
		if (req.method !== 'POST' || !path.endsWith('/chat/completions') || !body) return send(404, { error: { message: `the stand-in model does not answer ${req.method} ${path}` } });
		// A streamed answer is another format; the checks' workflows do not stream, so saying so is enough.
		if (body.stream) return send(400, { error: { message: 'the stand-in model does not stream' } });
		const message = nextTurn(scripts, body, `call_${requests.length}`);
		const choice = { index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop', logprobs: null };
		const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
		send(200, { id: `chatcmpl-stand-in-${Date.now()}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: body.model, choices: [choice], usage });
	});
	const conversation = (phrase) => requests.filter(({ body }) => textOf(body?.messages?.find((message) => message.role === 'user')).includes(phrase));
	await once(server.listen(port, '127.0.0.1'), 'listening');
	return {
		url: `http://127.0.0.1:${server.address().port}/v1`,
		requests,
		/** The conversation whose user message holds `phrase`: make every one of `calls` ({ tool, args }) at once, then answer. */
		script: (phrase, calls) => scripts.push({ phrase, calls }),
		/** The chat-completion requests of that conversation, in order. */
		conversation,
		/** What n8n gave the model as the tools' answers in that conversation (the `tool` messages), in order. */
		toolAnswers: (phrase) => (conversation(phrase).at(-1)?.body.messages ?? []).filter((message) => message.role === 'tool').map(textOf),
		close: () => new Promise((done) => server.close(() => done()) && server.closeAllConnections()),
	};
}

module.exports = { startModel, UNDERSTOOD };
