'use strict';

// How bench/profile.js names the code a CPU sample is in: by package and file (self time), and by component.

const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

const urlOf = (frame) => frame.url.replace(/^file:\/\//, '');

/** `[, package, file]` of the innermost node_modules folder (n8n's packages nest their own axios). */
const packageOf = (url) => /.*node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
const inPackage = (...names) => (frame) => names.includes(packageOf(urlOf(frame))?.[1]);

/** Package and, for n8n's own packages, the file; for this package the path under dist/. */
function classify(frame) {
	const url = urlOf(frame);
	if (url === '') return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
	if (url.startsWith('node:')) {
		const module = url.slice('node:'.length).replace(/^internal\//, '');
		if (/http/.test(module)) return 'Node: http';
		if (/^(net|stream|streams|tcp|dns|socket)/.test(module)) return 'Node: net and streams';
		if (/crypto|buffer/.test(module)) return 'Node: crypto and buffer';
		if (/timers|process\/task_queues|async_hooks/.test(module)) return 'Node: timers and microtasks';
		return `Node: ${module.split('/')[0]}`;
	}
	const inModules = packageOf(url);
	if (inModules) {
		const [, name, file] = inModules;
		if (['n8n-core', 'n8n-workflow', '@n8n/backend-network'].includes(name)) {
			return `${name} ${file.replace(/^dist\/(cjs\/)?/, '').replace(/^execution-engine\//, '')}`;
		}
		return name;
	}
	const relative = path.relative(ROOT, url);
	if (relative.startsWith('dist/')) return `this package: ${relative.slice('dist/'.length)}`;
	return relative;
}

const inFile = (fragment) => (frame) => urlOf(frame).includes(fragment);
const named = (name, fragment) => (frame) => frame.functionName === name && urlOf(frame).includes(fragment);

/**
 * A sample counts for the innermost specific component on its stack, else for the innermost general one. The stack
 * of a sample holds only synchronous callers: work done after an `await` or in a socket callback is counted where it
 * resumes (e.g. reading the answer counts under Node's net and http, not under the helper that sent the request).
 */
const SPECIFIC = [
	{ name: 'getNodeParameter: parameter resolution (n8n-core, n8n-workflow)', test: named('_getNodeParameter', 'n8n-core/') },
	{ name: 'getCredentials (n8n-core checks + credentials helper)', test: named('_getCredentials', 'n8n-core/') },
	{ name: "credential's authenticate(): signing and headers", test: inFile('/dist/credentials/') },
	{ name: 'axios and follow-redirects (what the plain client runs too), incl. connect', test: inPackage('axios', 'follow-redirects') },
	{
		name: "n8n's HTTP helper around axios: request options, new agents, env proxy lookup, socket set-up",
		test: inPackage('@n8n/backend-network', 'proxy-from-env'),
	},
	{ name: 'httpRequestWithAuthentication (n8n-core, own code)', test: inFile('n8n-core/dist/execution-engine/node-execution-context/utils/request-helpers/') },
	{ name: 'signing and card encryption (transport/crypto.js)', test: inFile('/dist/nodes/PaymentGateway/transport/crypto.js') },
	{ name: 'transport: request, answer reading and error mapping', test: inFile('/dist/nodes/PaymentGateway/transport/') },
	{ name: 'router: the item runner', test: inFile('/dist/nodes/PaymentGateway/actions/router.js') },
	{ name: 'operation, options and validation', test: inFile('/dist/nodes/PaymentGateway/') },
];
const GENERAL = [
	{ name: 'n8n-core outside the above: WorkflowExecute, node contexts', test: inFile('node_modules/n8n-core/') },
	{ name: 'n8n-workflow outside the above', test: inFile('node_modules/n8n-workflow/') },
	{ name: 'harness outside the above: run set-up and results (test/support/engine.js)', test: inFile('/test/support/') },
];
const COMPONENTS = [...SPECIFIC, ...GENERAL];

function componentOf(stack) {
	for (const tier of [SPECIFIC, GENERAL]) {
		for (const frame of stack) {
			const component = tier.find((candidate) => candidate.test(frame));
			if (component) return component.name;
		}
	}
	return `elsewhere: ${classify(stack[0])}`;
}

module.exports = { classify, COMPONENTS, componentOf };
