'use strict';

// Where n8n 2.41.1 keeps an MCP client's tool-call arguments in the execution each tools/call is saved as, whatever
// the tool does with them (seen in this check's run):
//
// - the MCP Server Trigger's output item, `mcpToolCall.arguments`;
// - the tool node's input record, `inputOverride.ai_tool`;
// - when the tool failed or refused, its output record holds the error n8n made of it with the arguments.
//
// The leak search takes these out of what it searches (and reports what it found there), so that only what the
// tools did is judged.

/** Every JSON path in `value` under which a string holds `needle`. */
function pathsHolding(value, needle, at = []) {
	if (typeof value === 'string') return value.includes(needle) ? [at.join('.')] : [];
	if (!value || typeof value !== 'object') return [];
	return Object.entries(value).flatMap(([key, inner]) => pathsHolding(inner, needle, [...at, key]));
}

/** Which of the three places a path of an execution's data is, for a workflow whose trigger is `trigger`. */
function placeOf(where, trigger) {
	if (!where.startsWith('resultData.runData.')) return 'other';
	const [nodeName] = where.slice('resultData.runData.'.length).split('.');
	if (nodeName === trigger) return where.includes('.mcpToolCall.arguments') ? 'trigger-output' : 'other';
	if (where.includes('.inputOverride.ai_tool.')) return 'tool-input';
	if (/\.(data\.ai_tool|error)\./.test(`${where}.`)) return 'failure-output';
	return 'other';
}

/** "<place> <path>" for every path of the execution's data holding `needle`. */
const placesOf = (data, needle, trigger) => pathsHolding(data, needle).map((where) => `${placeOf(where, trigger)} ${where}`);

/** A copy of stored execution data (parsed) without the three places of a client's arguments. */
function withoutClientArguments(data, trigger) {
	if (!data || typeof data !== 'object') return data;
	const copy = structuredClone(data);
	for (const [nodeName, runs] of Object.entries(copy.resultData?.runData ?? {})) {
		for (const run of runs ?? []) {
			if (nodeName === trigger) {
				for (const item of (run?.data?.main ?? []).flat()) if (item?.json?.mcpToolCall) delete item.json.mcpToolCall.arguments;
				continue;
			}
			if (run?.inputOverride?.ai_tool) delete run.inputOverride.ai_tool;
			if (run?.error) {
				delete run.error;
				if (run.data?.ai_tool) delete run.data.ai_tool;
			}
		}
	}
	return copy;
}

/** The leak search's rule for what n8n keeps of an MCP client's arguments (lib/leaks.js `allowedIn`). */
const mcpArgumentsRule = (trigger) => ({
	'execution_data.data': { what: "the MCP client's arguments as n8n keeps them", strip: (data) => withoutClientArguments(data, trigger) },
});

module.exports = { placesOf, mcpArgumentsRule };
