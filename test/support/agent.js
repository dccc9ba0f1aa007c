'use strict';

/**
 * A node used as an AI agent's tool, through n8n's engine.
 *
 *  - The node under test becomes the tool variant n8n's loader makes of every node with `usableAsTool`: type
 *    `<package>.<name>Tool`, no main input, one `ai_tool` output, and n8n's tool description fields unless the node
 *    declares its own `toolDescription`.
 *  - A stand-in agent node, connected to it, asks n8n-core for its tools (`getInputConnectionData('ai_tool')`, the call
 *    n8n's AI Agent makes: `createNodeAsTool`, the `$fromAI()` schema, `makeHandleToolInvocation`) and invokes them with
 *    scripted arguments, as a language model's tool calls would.
 *  - Each call gives what the model would read: the tool's answer (JSON text), or the error it raised.
 */

const { deepCopy, NodeConnectionTypes, Workflow, createRunExecutionData } = require('n8n-workflow');

const { ensureSetup, internals } = require('./engine');

const { HarnessNodeTypes, HarnessCredentialsHelper, harnessNode, registerNodeType, setUpCredentials, executeWorkflow, latestVersion } =
	internals;

const AGENT_TYPE = 'n8n-nodes-harness.agent';
const AGENT_NAME = 'Agent';

/** What n8n's loader does to a node type with `usableAsTool` (convertNodeToAiTool in n8n's CLI). */
function toolVariantOf(nodeTypeInput) {
	const base = typeof nodeTypeInput === 'function' ? new nodeTypeInput() : nodeTypeInput;
	const description = deepCopy(base.description);
	if (!description.usableAsTool) throw new Error(`${description.name} is not usable as a tool`);
	description.name += 'Tool';
	description.displayName += ' Tool';
	description.inputs = [];
	description.outputs = [NodeConnectionTypes.AiTool];
	delete description.usableAsTool;
	if (!description.properties.some((property) => property.name === 'toolDescription')) {
		description.properties.unshift(
			{
				displayName: 'Tool Description',
				name: 'descriptionType',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Set Automatically', value: 'auto' },
					{ name: 'Set Manually', value: 'manual' },
				],
				default: 'auto',
			},
			{
				displayName: 'Description',
				name: 'toolDescription',
				type: 'string',
				default: description.description,
				required: true,
				displayOptions: { show: { descriptionType: ['manual'] } },
			},
		);
	}
	return { description, execute: base.execute, methods: base.methods };
}

/** The description of the harness's agent node: a main input and the tools it calls. */
const AGENT_DESCRIPTION = {
	displayName: 'Harness Agent',
	name: 'agent',
	group: ['transform'],
	version: 1,
	description: 'Calls its tools as a language model would',
	defaults: { name: AGENT_NAME },
	inputs: [NodeConnectionTypes.Main, { type: NodeConnectionTypes.AiTool, displayName: 'Tools', required: true }],
	outputs: [NodeConnectionTypes.Main],
	properties: [],
};

/**
 * An agent node whose "model" makes the given tool calls: [{ args, tool? }], in turn, or all at once with `parallel`
 * (as a model that asks for several tool calls in one message, which n8n's agent runs together).
 */
function scriptedAgent(calls, parallel = false) {
	return {
		description: AGENT_DESCRIPTION,
		async execute() {
			const supplied = await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0);
			const tools = (Array.isArray(supplied) ? supplied : [supplied]).flatMap((tool) => tool.tools ?? [tool]);
			const invoke = async (call) => {
				const tool = call.tool ? tools.find((candidate) => candidate.name === call.tool) : tools[0];
				try {
					return { answer: await tool.invoke(call.args ?? {}) };
				} catch (error) {
					return { error: error.message };
				}
			};
			const answers = [];
			if (parallel) answers.push(...(await Promise.all(calls.map(invoke))));
			else for (const call of calls) answers.push(await invoke(call));
			const described = tools.map((tool) => ({
				name: tool.name,
				description: tool.description,
				arguments: Object.keys(tool.schema?.shape ?? {}),
			}));
			return [[{ json: { tools: described, answers } }]];
		},
	};
}

/**
 * Runs the node as a tool and makes `calls` against it. Options as runWorkflow's (nodeType, credentialType,
 * credentials, parameters, nodeName, packageName, onError, retryOnFail, typeVersion: the node's newest unless given), plus `calls`
 * and `parallel`; `staticData` (the workflow's, as saved between executions), `mode` and `workflowId`.
 * Resolves with { answers: [{ answer } | { error }], tools: [{ name, description, arguments }], toolRuns, run, error }.
 */
async function runAsTool(options) {
	ensureSetup();
	const { nodeType, parameters = {}, calls = [{}], parallel, nodeName = 'Payment Gateway', onError, retryOnFail, packageName } = options;
	const { staticData, mode = 'manual', workflowId = 'harness-agent-workflow' } = options;
	const nodeTypes = new HarnessNodeTypes();
	nodeTypes.register(AGENT_TYPE, scriptedAgent(calls, parallel));
	const { nodeType: registered, fullTypeName } = registerNodeType(nodeTypes, toolVariantOf(nodeType), packageName);
	const typeVersion = options.typeVersion ?? latestVersion(registered);

	const credentialsHelper = new HarnessCredentialsHelper(nodeTypes);
	const credentials = setUpCredentials(credentialsHelper, options);
	const tool = harnessNode({
		id: 'tool-under-test',
		name: nodeName,
		type: fullTypeName,
		typeVersion,
		position: [0, 200],
		parameters,
		credentials,
		onError,
		retryOnFail,
	});
	const agent = { id: 'harness-agent', name: AGENT_NAME, type: AGENT_TYPE, typeVersion: 1, position: [0, 0], parameters: {} };
	const workflow = new Workflow({
		id: workflowId,
		// The saved workflow's static data, when the test keeps one across executions as n8n's database does.
		...(staticData ? { staticData } : {}),
		name: 'Harness agent workflow',
		nodes: [agent, tool],
		connections: { [nodeName]: { [NodeConnectionTypes.AiTool]: [[{ node: AGENT_NAME, type: NodeConnectionTypes.AiTool, index: 0 }]] } },
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: workflow.getNode(AGENT_NAME), data: { main: [[{ json: {} }]] }, source: null }],
		},
	});
	const { run, refused } = await executeWorkflow({ workflow, mode, credentialsHelper, runExecutionData });
	if (refused) return { answers: [], tools: [], toolRuns: [], run: undefined, error: refused };
	const runData = run.data.resultData.runData;
	const agentError = runData[AGENT_NAME]?.[0]?.error;
	// Before any call (the tool's schema, its description): a mistake of the test, not an answer to a model.
	if (agentError) throw new Error(`the agent could not use the tool: ${agentError.message}`);
	const output = runData[AGENT_NAME]?.[0]?.data?.main?.[0]?.[0]?.json ?? {};
	return {
		answers: output.answers ?? [],
		tools: output.tools ?? [],
		toolRuns: runData[nodeName] ?? [],
		run,
		error: run.data.resultData.error,
	};
}

module.exports = { AGENT_DESCRIPTION, runAsTool, toolVariantOf };
