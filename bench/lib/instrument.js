'use strict';

// Counts calls of the n8n-core, n8n-workflow and credential functions a status read goes through, and the time
// until each settles. Wrapping costs a little time per call, so profiles are taken without it.

const path = require('node:path');

const coreDir = path.dirname(require.resolve('n8n-core/package.json'));
const workflowDir = path.dirname(require.resolve('n8n-workflow/package.json', { paths: [coreDir] }));
const fromCore = (file) => require(path.join(coreDir, 'dist', file));
const fromWorkflow = (file) => require(path.join(workflowDir, 'dist', 'cjs', file));

const counters = new Map();

function counter(name) {
	if (!counters.has(name)) counters.set(name, { calls: 0, ns: 0n });
	return counters.get(name);
}

/**
 * Replaces `owner[key]` by a function that counts calls and adds up the time until the result settles.
 * `name` may be a function of the arguments, to count e.g. each parameter name apart.
 */
function wrap(name, owner, key) {
	const original = owner[key];
	if (typeof original !== 'function') throw new Error(`nothing to instrument at ${name}`);
	owner[key] = function (...args) {
		const entry = counter(typeof name === 'function' ? name(...args) : name);
		entry.calls++;
		const start = process.hrtime.bigint();
		const stop = () => {
			entry.ns += process.hrtime.bigint() - start;
		};
		const result = original.apply(this, args);
		if (result && typeof result.then === 'function') return result.finally(stop);
		stop();
		return result;
	};
}

function instrument(credentialType) {
	const { NodeExecutionContext } = fromCore('execution-engine/node-execution-context/node-execution-context.js');
	wrap((parameter) => `getNodeParameter('${parameter}')`, NodeExecutionContext.prototype, '_getNodeParameter');
	wrap('getCredentials', NodeExecutionContext.prototype, '_getCredentials');
	wrap('getAdditionalKeys', fromCore('execution-engine/node-execution-context/utils/get-additional-keys.js'), 'getAdditionalKeys');
	wrap(
		'httpRequestWithAuthentication (until the answer)',
		fromCore('execution-engine/node-execution-context/utils/request-helpers/authentication.js'),
		'httpRequestWithAuthentication',
	);
	wrap('WorkflowDataProxy.getDataProxy', fromWorkflow('workflow-data-proxy.js').WorkflowDataProxy.prototype, 'getDataProxy');
	wrap('Expression.resolveSimpleParameterValue', fromWorkflow('expression.js').Expression.prototype, 'resolveSimpleParameterValue');
	wrap('credential authenticate()', credentialType.prototype, 'authenticate');
}

/** `{ name: { calls, ms } }` since the last call, and starts counting again. */
function takeCounts() {
	const counts = {};
	for (const [name, { calls, ns }] of counters) counts[name] = { calls, ms: Number(ns) / 1e6 };
	counters.clear();
	return counts;
}

module.exports = { instrument, takeCounts };
