'use strict';

// The example workflows of examples/ as users import them, the two ways a check feeds them its own data (the sample
// list of a Code node, "the place to plug your database", and a field of a Set node, the settings), and what n8n
// knows of the node types they use.

const fs = require('node:fs');
const path = require('node:path');

const { paths } = require('./package');

// E2E_EXAMPLES_FROM: the examples as an earlier release shipped them (npm run e2e:saved), checked the same way.
const EXAMPLES_DIR = path.resolve(paths.ROOT, process.env.E2E_EXAMPLES_FROM || 'examples');
/** The credential every example refers to by name; n8n picks a credential of that name on import. */
const EXAMPLE_CREDENTIAL_NAME = 'Payment Gateway account';

/** { <name>: workflow } for every examples/<name>.json. */
function loadExamples() {
	const files = fs.readdirSync(EXAMPLES_DIR).filter((file) => file.endsWith('.json')).sort();
	return Object.fromEntries(files.map((file) => [file.slice(0, -5), JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8'))]));
}

/** The node of that name; none throws. */
function nodeOf(workflow, name) {
	const node = workflow.nodes.find((candidate) => candidate.name === name);
	if (!node) throw new Error(`"${workflow.name}" has no node "${name}"`);
	return node;
}

/** A copy whose Code node `nodeName` returns `list` in place of its sample `const <variable> = [...];`. */
function withCodeList(workflow, nodeName, variable, list) {
	const copy = structuredClone(workflow);
	const node = nodeOf(copy, nodeName);
	const sample = new RegExp(`const ${variable} = \\[[\\s\\S]*?\\n\\];`);
	if (!sample.test(node.parameters.jsCode)) throw new Error(`"${nodeName}" has no sample list "const ${variable} = [...];"`);
	node.parameters.jsCode = node.parameters.jsCode.replace(sample, () => `const ${variable} = ${JSON.stringify(list, null, 2)};`);
	return copy;
}

/** A copy whose Set node `nodeName` sets `field` to `value`. */
function withSetField(workflow, nodeName, field, value) {
	const copy = structuredClone(workflow);
	const assignment = nodeOf(copy, nodeName).parameters.assignments.assignments.find((a) => a.name === field);
	if (!assignment) throw new Error(`"${nodeName}" sets no field "${field}"`);
	assignment.value = value;
	return copy;
}

/** The `type@version`s of the workflow's nodes that the running n8n does not know, as its editor reads them (/types/nodes.json). */
async function unknownTypes(session, workflow) {
	const { status, body } = await session.call('GET', '/types/nodes.json');
	if (status !== 200 || !Array.isArray(body)) throw new Error(`n8n does not list its node types (/types/nodes.json: HTTP ${status})`);
	const known = new Set(body.flatMap((type) => [type.version].flat().map((version) => `${type.name}@${version}`)));
	return workflow.nodes.map((node) => `${node.type}@${node.typeVersion}`).filter((type) => !known.has(type));
}

module.exports = { EXAMPLES_DIR, EXAMPLE_CREDENTIAL_NAME, loadExamples, nodeOf, withCodeList, withSetField, unknownTypes };
