'use strict';

// Where n8n 2.41.1 keeps a language model's tool-call arguments, whatever the tool does with them: the leak search
// takes these out of what it searches (and reports what it found there), so that only what the tools did is judged.
// Seen in a run's execution data (runData of each node):
//
// - the tool node's input record, `inputOverride.ai_tool` (the arguments as the model gave them, one item);
// - the agent's request to the engine to run a tool, `metadata.subNodeExecutionData.actions[].action.input`;
// - the conversation as the chat model node received it, `inputOverride.ai_languageModel[…].json.messages`: one string
//   per conversation, the model's earlier tool calls on lines `AI: [{"name":…,"args":{…},"type":"tool_call"}]`;
// - while an execution waits (human review), the pending node's input on `executionData.nodeExecutionStack`.
//
// And in n8n's event log (.n8n/n8nEventLog.log), each `n8n.ai.llm.generated` event: the same conversation, as JSON
// in `payload.msg`.
//
// And in what the stand-in model receives: its own earlier tool calls, sent back as assistant messages.

const path = require('node:path');

const { parseJson } = require('../lib/processes');

/** A conversation line holding only the model's tool calls, e.g. `AI: [{"name":"Refund","args":{…},"type":"tool_call"}]`. */
function isToolCallLine(line) {
	const calls = line.startsWith('AI: [') ? parseJson(line.slice('AI: '.length)) : undefined;
	return Array.isArray(calls) && calls.length > 0 && calls.every((call) => call?.type === 'tool_call');
}

const withoutToolCallLines = (text) => (typeof text === 'string' ? text.split('\n').map((line) => (isToolCallLine(line) ? 'AI: <tool calls>' : line)).join('\n') : text);

/** A copy of stored execution data (parsed) without the model's tool-call arguments. */
function withoutToolCallArguments(data) {
	if (!data || typeof data !== 'object') return data;
	const copy = structuredClone(data);
	for (const run of Object.values(copy.resultData?.runData ?? {}).flat()) {
		if (run?.inputOverride?.ai_tool) delete run.inputOverride.ai_tool;
		for (const action of run?.metadata?.subNodeExecutionData?.actions ?? []) delete action.action?.input;
		for (const item of (run?.inputOverride?.ai_languageModel ?? []).flat()) {
			if (Array.isArray(item?.json?.messages)) item.json.messages = item.json.messages.map(withoutToolCallLines);
		}
	}
	for (const pending of copy.executionData?.nodeExecutionStack ?? []) if (pending.node?.type?.endsWith('Tool')) delete pending.data;
	return copy;
}

/** An event of n8n's event log (one parsed line) with the conversation it logs as JSON (`payload.msg`) parsed. */
function eventExpanded(event) {
	const msg = event?.eventName === 'n8n.ai.llm.generated' && typeof event.payload?.msg === 'string' ? parseJson(event.payload.msg) : undefined;
	return msg === undefined ? event : { ...event, payload: { ...event.payload, msg } };
}

/** An expanded event without the model's tool calls in the conversation it logs. */
function eventWithoutToolCalls(event) {
	if (!Array.isArray(event?.payload?.msg?.messages)) return event;
	return { ...event, payload: { ...event.payload, msg: { ...event.payload.msg, messages: event.payload.msg.messages.map(withoutToolCallLines) } } };
}

const WHAT = "the model's tool-call arguments as n8n keeps them";

/** The leak search's rules for what n8n keeps of tool-call arguments (lib/leaks.js `allowedIn`). */
const TOOL_CALL_ARGUMENTS = {
	'execution_data.data': { what: WHAT, strip: withoutToolCallArguments },
	[path.join('.n8n', 'n8nEventLog.log')]: { what: WHAT, expand: eventExpanded, strip: eventWithoutToolCalls },
};

/**
 * What the stand-in model received, as texts for the leak search, each request without the arguments of the tool
 * calls it made itself (n8n sends the conversation back whole); `echoed`: those arguments, searched apart.
 */
function modelRequestTexts(requests) {
	const texts = [];
	const echoed = [];
	requests.forEach(({ path: route, body, text }, index) => {
		const row = `request ${index + 1}`;
		const copy = body && structuredClone(body);
		for (const call of (copy?.messages ?? []).flatMap((message) => (message.role === 'assistant' ? (message.tool_calls ?? []) : []))) {
			echoed.push({ where: `stand-in ${route}, its own tool call echoed back`, row, text: call.function?.arguments ?? '' });
			if (call.function) call.function.arguments = '<own tool call>';
		}
		texts.push({ where: `stand-in ${route}`, row, text: copy ? JSON.stringify(copy) : text });
	});
	return { texts, echoed };
}

module.exports = { TOOL_CALL_ARGUMENTS, modelRequestTexts };
