'use strict';

// A stand-in for an OpenAI-compatible language model, on 127.0.0.1: what n8n's OpenAI Chat Model node (Responses
// API off) calls, `POST <credential url>/chat/completions`, answered from a script instead of a model, so that a
// check decides which tool the agent calls with which arguments. Nothing leaves the machine.
//
//   const model = await startModel();
//   model.script('order status', { tool: 'Order_Status', args: { orderId } });
//   // a chat message holding "order status": first the tool call, then, once the tool's answer comes back in the
//   // next request, a final answer quoting it
//   model.requests      // every request received: { path, body }
//   model.toolAnswers('order status')  // the tool messages n8n sent back in that conversation
//
// The shapes are those of the Chat Completions API as the openai client n8n 2.41.1 uses reads them: one choice,
// `tool_calls` with JSON-encoded `arguments`, `finish_reason` "tool_calls" or "stop".

const http = require('node:http');

/** The text of a message, whether n8n sent it as a string or as content parts. */
function textOf(message) {
	if (typeof message?.content === 'string') return message.content;
	if (Array.isArray(message?.content)) return message.content.map((part) => part.text ?? '').join('');
	return '';
}

function completion(body, message, finishReason) {
	return {
		id: `chatcmpl-stand-in-${Date.now()}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: body.model,
		choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
		usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
	};
}

/**
 * The next turn of a scripted conversation. A conversation is found by a phrase in its user message; before any
 * tool answer the model calls the scripted tool, after it the model answers in words, quoting what the tool said.
 */
function nextTurn(scripts, body, callId) {
	const messages = body.messages ?? [];
	const user = [...messages].reverse().find((message) => message.role === 'user');
	const script = scripts.find(({ phrase }) => textOf(user).includes(phrase));
	if (!script) return { role: 'assistant', content: `No script for: ${textOf(user).slice(0, 80)}` };
	const answered = messages.filter((message) => message.role === 'tool');
	if (answered.length > 0) {
		return { role: 'assistant', content: `The tool answered: ${textOf(answered[answered.length - 1])}` };
	}
	const offered = (body.tools ?? []).map((tool) => tool.function);
	const tool = offered.find((candidate) => candidate?.name === script.tool);
	if (!tool) {
		return { role: 'assistant', content: `The tool ${script.tool} is not offered (offered: ${offered.map((t) => t?.name).join(', ')})` };
	}
	// As a model follows the schema: a tool behind human review takes its own arguments under toolParameters.
	const gated = Boolean(tool.parameters?.properties?.toolParameters);
	const args = gated ? { toolParameters: script.args, hitlParameters: {} } : script.args;
	return {
		role: 'assistant',
		content: null,
		tool_calls: [{ id: callId, type: 'function', function: { name: script.tool, arguments: JSON.stringify(args) } }],
	};
}

/** Starts the stand-in on a free port; resolves with { url (the credential's base URL), requests, script, ... }. */
function startModel() {
	const scripts = [];
	const requests = [];
	let calls = 0;

	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			let body;
			try {
				body = text ? JSON.parse(text) : {};
			} catch {
				body = undefined;
			}
			const path = req.url.split('?')[0];
			requests.push({ method: req.method, path, body, text });
			const send = (status, json) => {
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(JSON.stringify(json));
			};
			if (req.method === 'GET' && path.endsWith('/models')) {
				return send(200, { object: 'list', data: [{ id: 'stand-in', object: 'model', created: 0, owned_by: 'e2e' }] });
			}
			if (req.method !== 'POST' || !path.endsWith('/chat/completions') || !body) {
				return send(404, { error: { message: `the stand-in model does not answer ${req.method} ${path}` } });
			}
			// A streamed answer is another format; the checks' workflows do not stream, so saying so is enough.
			if (body.stream) return send(400, { error: { message: 'the stand-in model does not stream' } });
			calls += 1;
			const message = nextTurn(scripts, body, `call_${calls}`);
			return send(200, completion(body, message, message.tool_calls ? 'tool_calls' : 'stop'));
		});
	});

	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const url = `http://127.0.0.1:${server.address().port}/v1`;
			resolve({
				url,
				requests,
				/** The conversation whose user message holds `phrase`: call `tool` with `args`, then answer. */
				script(phrase, { tool, args }) {
					scripts.push({ phrase, tool, args });
				},
				/** The chat-completion requests of one conversation, in order. */
				conversation(phrase) {
					return requests.filter(({ body }) => {
						const user = (body?.messages ?? []).find((message) => message.role === 'user');
						return textOf(user).includes(phrase);
					});
				},
				/** What n8n gave the model as the tools' answers in that conversation (the `tool` messages), in order. */
				toolAnswers(phrase) {
					const last = this.conversation(phrase).at(-1);
					return (last?.body.messages ?? []).filter((message) => message.role === 'tool').map(textOf);
				},
				close: () =>
					new Promise((done) => {
						server.close(() => done());
						server.closeAllConnections();
					}),
			});
		});
	});
}

module.exports = { startModel, textOf };
