'use strict';

/**
 * Workflow test harness that runs nodes through n8n's own execution engine.
 *
 *  - `WorkflowExecute` (n8n-core) drives a two-node workflow: a tiny input node that
 *    emits the given items, connected to the node under test.
 *  - `Workflow` (n8n-workflow) applies parameter defaults and resolves expressions
 *    with the legacy (tournament) evaluator.
 *  - A credentials helper (an `ICredentialsHelper`) feeds credential data from memory
 *    and calls the credential type's real `authenticate` (function or generic form).
 *  - HTTP goes through n8n-core's request helpers (`OutboundHttp` from
 *    `@n8n/backend-network`), i.e. real axios requests over the network stack.
 *
 * Usable from jest (via engine.d.ts) and from plain node scripts with the compiled node.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

// Resolve n8n's internal packages from n8n-core's location so that the harness
// shares the very same module instances (the DI container is a module singleton).
const corePackageDir = path.dirname(require.resolve('n8n-core/package.json'));
const requireFromCore = (id) => require(require.resolve(id, { paths: [corePackageDir] }));

const { Container } = requireFromCore('@n8n/di');
const { GlobalConfig, InstanceSettingsConfig, SsrfProtectionConfig } = requireFromCore('@n8n/config');
const { Logger } = requireFromCore('@n8n/backend-common');
const { OutboundHttp } = requireFromCore('@n8n/backend-network');
const get = requireFromCore('lodash/get');
const core = require('n8n-core');
const {
	Expression,
	ICredentialsHelper,
	NodeHelpers,
	Workflow,
	createRunExecutionData,
	isExpression,
} = require('n8n-workflow');

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
const INPUT_NODE_TYPE = 'n8n-nodes-harness.input';
const INPUT_NODE_NAME = 'Input';
const NOOP_NODE_TYPE = 'n8n-nodes-base.noOp';
const CREDENTIAL_ID = 'harness-credential-1';
const CREDENTIAL_NAME = 'Harness credential';

function defaultPackageName() {
	try {
		return JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')).name;
	} catch {
		return 'n8n-nodes-payment-gateway';
	}
}

// ---------------------------------------------------------------------------
// One-time process setup
// ---------------------------------------------------------------------------

let setupDone = false;

/**
 * Minimal real setup of the services n8n-core reaches for through the DI container:
 *  - InstanceSettings (every node execution context reads it) is created for real, but
 *    from a throwaway folder, so nothing is written to the user's ~/.n8n.
 *  - BinaryDataService is left uninitialised: with no storage manager, n8n-core keeps
 *    binary data inline (base64 in the item), which needs no disk.
 *  - Logger is the real winston logger, quiet unless N8N_LOG_LEVEL says otherwise.
 *  - OutboundHttp (used by httpRequest / httpRequestWithAuthentication) is the real
 *    service; SSRF protection is switched off so loopback test servers are reachable.
 *  - The expression engine is pinned to 'legacy' (tournament, in-process): the 'vm'
 *    engine needs the native isolated-vm module, which is not built here.
 */
function ensureSetup() {
	if (setupDone) return;
	setupDone = true;

	Expression.setExpressionEngine('legacy');

	const globalConfig = Container.get(GlobalConfig);
	globalConfig.logging.level = process.env.N8N_LOG_LEVEL || 'silent';

	// InstanceSettings loads (or creates) "<n8n folder>/config" in its constructor, so give
	// it a throwaway folder, and remove that folder again once the settings are loaded.
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-harness-'));
	const instanceSettingsConfig = Container.get(InstanceSettingsConfig);
	instanceSettingsConfig.n8nFolder = userFolder;
	instanceSettingsConfig.userHome = userFolder;
	instanceSettingsConfig.encryptionKey = 'harness-encryption-key';
	instanceSettingsConfig.enforceSettingsFilePermissions = false;
	try {
		Container.get(core.InstanceSettings);
	} finally {
		fs.rmSync(userFolder, { recursive: true, force: true });
	}

	Container.get(SsrfProtectionConfig).enabled = false;

	// Construct eagerly so configuration mistakes surface here, not mid-run.
	Container.get(Logger);
	Container.get(OutboundHttp);
}

// ---------------------------------------------------------------------------
// Node and credential types
// ---------------------------------------------------------------------------

const instantiate = (typeOrInstance) =>
	typeof typeOrInstance === 'function' ? new typeOrInstance() : typeOrInstance;

/** The start node: passes the items it is given on to the node under test. */
class HarnessInput {
	constructor() {
		this.description = {
			displayName: 'Harness Input',
			name: 'input',
			group: ['input'],
			version: 1,
			description: 'Emits the items handed to the test harness',
			defaults: { name: INPUT_NODE_NAME },
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
		};
	}

	async execute() {
		return [this.getInputData()];
	}
}

/** Stand-in for n8n's "No Operation" node, which the credentials tester builds its request node from. */
const noOpDescription = {
	displayName: 'No Operation, do nothing',
	name: NOOP_NODE_TYPE,
	group: ['organization'],
	version: 1,
	description: 'No Operation',
	defaults: { name: 'No Operation, do nothing' },
	inputs: ['main'],
	outputs: ['main'],
	properties: [],
};

/**
 * The typeVersion a node added in n8n's editor gets, read from the node type itself so that it never goes stale: a
 * versioned type's current version, else the description's defaultVersion, else its highest version. The harness
 * runs nodes at it unless a test names another.
 */
function latestVersion(nodeType) {
	if (nodeType.currentVersion !== undefined) return nodeType.currentVersion;
	const { version, defaultVersion } = nodeType.description;
	if (defaultVersion !== undefined) return defaultVersion;
	return Array.isArray(version) ? Math.max(...version) : version;
}

const preparedNodeTypes = new WeakSet();

/** Loader-time adjustments n8n applies to a node type (declarative `requestOptions`), once per instance. */
function prepareNodeType(nodeType) {
	if (preparedNodeTypes.has(nodeType)) return nodeType;
	preparedNodeTypes.add(nodeType);
	const versions = nodeType.nodeVersions ? Object.values(nodeType.nodeVersions) : [nodeType];
	for (const version of versions) {
		core.DirectoryLoader.applyDeclarativeNodeOptionParameters(version);
	}
	return nodeType;
}

class HarnessNodeTypes {
	constructor() {
		this.types = new Map();
	}

	register(name, nodeType) {
		this.types.set(name, nodeType);
	}

	getByName(name) {
		return this.types.get(name);
	}

	getByNameAndVersion(name, version) {
		const type = this.types.get(name);
		if (type === undefined) return undefined;
		return NodeHelpers.getVersionedNodeType(type, version);
	}

	getKnownTypes() {
		return {};
	}

	/** Full names of the registered nodes that list the given credential. */
	nodesUsingCredential(credentialName) {
		const names = [];
		for (const [name, type] of this.types) {
			const versions = type.nodeVersions ? Object.values(type.nodeVersions) : [type];
			if (
				versions.some((v) => (v.description.credentials || []).some((c) => c.name === credentialName))
			) {
				names.push(name);
			}
		}
		return names;
	}
}

// ---------------------------------------------------------------------------
// Credentials helper
// ---------------------------------------------------------------------------

const clone = (value) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

const mockNode = {
	id: 'harness-mock',
	name: '',
	typeVersion: 1,
	type: 'mock',
	position: [0, 0],
	parameters: {},
};

/**
 * An ICredentialsHelper that keeps the credential data in memory (one set per credential
 * type) and otherwise follows what n8n's server-side helper does: defaults from the
 * credential properties, expression resolution in credential fields, the credential's
 * own `authenticate` (function or generic object), and `preAuthentication` for
 * expirable tokens.
 */
class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(nodeTypes) {
		super();
		this.nodeTypes = nodeTypes;
		this.credentialTypes = new Map();
		this.store = new Map();
		this.updates = [];
	}

	registerType(credentialType) {
		this.credentialTypes.set(credentialType.name, credentialType);
	}

	setData(typeName, data) {
		this.store.set(typeName, clone(data ?? {}));
	}

	getType(typeName) {
		const type = this.credentialTypes.get(typeName);
		if (!type) throw new Error(`Unknown credential type "${typeName}"`);
		return type;
	}

	getParentTypes(typeName) {
		const type = this.credentialTypes.get(typeName);
		if (!type || !type.extends) return [];
		const parents = [];
		for (const parent of type.extends) {
			parents.push(parent, ...this.getParentTypes(parent));
		}
		return parents;
	}

	isCredentialUsableByNode(credentialType, nodeType) {
		const type = this.credentialTypes.get(credentialType);
		if (!type || !type.restrictToSupportedNodes) return true;
		return this.nodeTypes.nodesUsingCredential(credentialType).includes(nodeType);
	}

	async authenticate(credentials, typeName, requestOptions, workflow, node) {
		const credentialType = this.getType(typeName);
		const { authenticate } = credentialType;
		if (!authenticate) return requestOptions;

		if (typeof authenticate === 'function') {
			return await authenticate.call(credentialType, credentials, requestOptions);
		}

		if (typeof authenticate === 'object' && authenticate.type === 'generic') {
			if (!workflow || !node) {
				throw new Error('Workflow and node are required for declarative credential authentication');
			}
			if (requestOptions.headers === undefined) requestOptions.headers = {};
			const resolve = (value) => {
				if (!isExpression(value)) return value;
				const resolved = workflow.expression.getSimpleParameterValue(
					node,
					value,
					'internal',
					{ $credentials: credentials },
					undefined,
					'',
				);
				return resolved ? resolved.toString() : '';
			};
			for (const [target, entries] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(entries)) {
					if (!requestOptions[target]) requestOptions[target] = {};
					requestOptions[target][resolve(key)] = resolve(value);
				}
			}
		}
		return requestOptions;
	}

	async preAuthentication(helpers, credentials, typeName, node, credentialsExpired) {
		const credentialType = this.getType(typeName);
		const expirable = (credentialType.properties || []).find(
			(p) => p.type === 'hidden' && p.typeOptions && p.typeOptions.expirable === true,
		);
		if (!expirable || typeof credentialType.preAuthentication !== 'function') return undefined;

		const isTestingCredentials =
			node && node.parameters && node.parameters.temp === '' && node.type === NOOP_NODE_TYPE;
		if (credentials[expirable.name] !== '' && !credentialsExpired && !isTestingCredentials) {
			return undefined;
		}

		const output = await credentialType.preAuthentication.call(
			{ helpers: { httpRequest: helpers.helpers.httpRequest } },
			credentials,
		);
		if (!output || output[expirable.name] === undefined) return undefined;

		if (node.credentials) {
			const stored = this.store.get(typeName) || {};
			this.setData(typeName, { ...stored, ...output });
			this.updates.push({ type: typeName, data: clone(output) });
			return Object.assign(credentials, output);
		}
		return undefined;
	}

	async runPreAuthentication(helpers, credentials, typeName) {
		const credentialType = this.getType(typeName);
		if (typeof credentialType.preAuthentication !== 'function') return undefined;
		const output = await credentialType.preAuthentication.call(
			{ helpers: { httpRequest: helpers.helpers.httpRequest } },
			credentials,
		);
		return output ?? undefined;
	}

	async getCredentials(nodeCredentials, type) {
		const credentials = new core.Credentials(
			{ id: nodeCredentials.id, name: nodeCredentials.name },
			type,
		);
		credentials.setData(clone(this.store.get(type) || {}));
		return credentials;
	}

	async getDecrypted(
		additionalData,
		nodeCredentials,
		type,
		mode,
		executeData,
		raw,
		expressionResolveValues,
	) {
		if (!this.store.has(type)) {
			throw new Error(`No credential data of type "${type}" was given to the harness`);
		}
		const stored = clone(this.store.get(type));
		if (raw === true) return stored;
		return this.applyDefaultsAndOverwrites(
			additionalData,
			stored,
			type,
			mode,
			executeData,
			expressionResolveValues,
		);
	}

	applyDefaultsAndOverwrites(
		additionalData,
		decryptedDataOriginal,
		type,
		mode,
		executeData,
		expressionResolveValues,
	) {
		const properties = this.getCredentialsProperties(type);
		let decryptedData = NodeHelpers.getNodeParameters(
			properties,
			decryptedDataOriginal,
			true,
			false,
			null,
			null,
		);
		if (decryptedDataOriginal.oauthTokenData !== undefined) {
			decryptedData.oauthTokenData = decryptedDataOriginal.oauthTokenData;
		}

		const additionalKeys = core.getAdditionalKeys(additionalData, mode, null, {
			isCredential: true,
		});

		if (expressionResolveValues) {
			try {
				decryptedData = expressionResolveValues.workflow.expression.getParameterValue(
					decryptedData,
					expressionResolveValues.runExecutionData,
					expressionResolveValues.runIndex,
					expressionResolveValues.itemIndex,
					expressionResolveValues.node.name,
					expressionResolveValues.connectionInputData,
					mode,
					additionalKeys,
					executeData,
					false,
					decryptedData,
				);
			} catch (e) {
				e.message += ' [Error resolving credentials]';
				throw e;
			}
		} else {
			const workflow = new Workflow({
				nodes: [{ ...mockNode }],
				connections: {},
				active: false,
				nodeTypes: this.nodeTypes,
			});
			decryptedData = workflow.expression.getComplexParameterValue(
				mockNode,
				decryptedData,
				mode,
				additionalKeys,
				undefined,
				undefined,
				decryptedData,
			);
		}
		return decryptedData;
	}

	async updateCredentials(nodeCredentials, type, data) {
		this.setData(type, data);
		this.updates.push({ type, data: clone(data) });
	}

	async updateCredentialsOauthTokenData(nodeCredentials, type, data) {
		const stored = this.store.get(type) || {};
		this.setData(type, { ...stored, oauthTokenData: data.oauthTokenData });
		this.updates.push({ type, data: clone({ oauthTokenData: data.oauthTokenData }) });
	}

	getCredentialsProperties(type) {
		const credentialType = this.getType(type);
		if (credentialType.extends === undefined) {
			if (['oAuth1Api', 'oAuth2Api'].includes(type)) {
				return [
					...credentialType.properties,
					{
						displayName: 'oauthTokenData',
						name: 'oauthTokenData',
						type: 'json',
						required: false,
						default: {},
					},
				];
			}
			return credentialType.properties;
		}
		const combined = [];
		for (const parent of credentialType.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(combined, credentialType.properties);
		return combined;
	}
}

// ---------------------------------------------------------------------------
// Additional data
// ---------------------------------------------------------------------------

function buildAdditionalData({ credentialsHelper, hooks, executionId, rootExecutionMode }) {
	const notAvailable = (what) => async () => {
		throw new Error(`${what} is not available in the test harness`);
	};
	return {
		credentialsHelper,
		hooks,
		executionId,
		rootExecutionMode,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formBaseUrl: 'http://localhost:5678/form',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		formTestBaseUrl: 'http://localhost:5678/form-test',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		mcpBaseUrl: 'http://localhost:5678/mcp',
		mcpTestBaseUrl: 'http://localhost:5678/mcp-test',
		variables: {},
		userId: 'harness-user',
		executeWorkflow: notAvailable('Executing sub-workflows'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: notAvailable('Task runners'),
	};
}

// ---------------------------------------------------------------------------
// runWorkflow
// ---------------------------------------------------------------------------

let executionCounter = 0;

/** Registers a node type under the name n8n gives a community node: `<package>.<description.name>`. */
function registerNodeType(nodeTypes, nodeTypeInput, packageName = defaultPackageName()) {
	const nodeType = prepareNodeType(instantiate(nodeTypeInput));
	const fullTypeName = `${packageName}.${nodeType.description.name}`;
	nodeTypes.register(fullTypeName, nodeType);
	return { nodeType, fullTypeName };
}

/**
 * Registers the credential types of a run with the helper, stores their data, and returns the node's
 * `credentials` references (the first type under the harness's credential id, the others by type name).
 */
function setUpCredentials(credentialsHelper, options) {
	const { credentialType, credentials, extraCredentialTypes = [], credentialsByType } = options;
	const nodeCredentials = {};
	const credentialTypes = [credentialType, ...extraCredentialTypes].filter(Boolean);
	for (const [index, typeInput] of credentialTypes.entries()) {
		const type = instantiate(typeInput);
		credentialsHelper.registerType(type);
		if (index === 0) {
			credentialsHelper.setData(type.name, credentials ?? {});
			nodeCredentials[type.name] = { id: CREDENTIAL_ID, name: CREDENTIAL_NAME };
		}
	}
	if (credentialsByType) {
		for (const [typeName, data] of Object.entries(credentialsByType)) {
			credentialsHelper.setData(typeName, data);
			nodeCredentials[typeName] = { id: `${CREDENTIAL_ID}-${typeName}`, name: typeName };
		}
	}
	return nodeCredentials;
}

/**
 * Runs a workflow from the given execution data through WorkflowExecute, with lifecycle hooks like n8n's,
 * and resolves once the engine says the execution is over. `run` is undefined when the engine refused to
 * start (WorkflowHasIssuesError, returned as `refused`).
 */
async function executeWorkflow({ workflow, mode, credentialsHelper, runExecutionData, rootExecutionMode }) {
	const executionId = String(++executionCounter);
	const hooks = new core.ExecutionLifecycleHooks(mode, executionId, {
		id: workflow.id,
		name: workflow.name,
		active: false,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: Object.values(workflow.nodes),
		connections: workflow.connectionsBySourceNode,
		settings: workflow.settings,
		activeVersionId: null,
	});
	const nodeExecutionOrder = [];
	hooks.addHandler('nodeExecuteAfter', (name) => {
		nodeExecutionOrder.push(name);
	});
	let workflowFinished;
	const finished = new Promise((resolve) => {
		workflowFinished = resolve;
	});
	hooks.addHandler('workflowExecuteAfter', (fullRunData) => workflowFinished(fullRunData));

	const additionalData = buildAdditionalData({ credentialsHelper, hooks, executionId, rootExecutionMode });
	const workflowExecute = new core.WorkflowExecute(additionalData, mode, runExecutionData);
	let run;
	try {
		run = await workflowExecute.processRunExecutionData(workflow);
	} catch (error) {
		// Before running, the engine checks the parameters against the node description
		// (required parameters, ...) and refuses to start, as the n8n editor does.
		if (error && error.name === 'WorkflowHasIssuesError') {
			return { executionId, run: undefined, nodeExecutionOrder, refused: error };
		}
		throw error;
	}
	await finished;
	return { executionId, run, nodeExecutionOrder };
}

/** Outputs and error of one node in a finished run, as the tests look at them. */
function nodeResult(run, nodeName) {
	const runData = run.data.resultData.runData;
	const task = runData[nodeName] && runData[nodeName][0];
	const outputs = (task && task.data && task.data.main) || [];
	// WorkflowExecute records the node's error on its task as a plain copy of the thrown
	// NodeApiError / NodeOperationError (name, message, description, httpCode, context, ...).
	const error = (task && task.error) || run.data.resultData.error;
	const result = { items: outputs[0] || [], outputs, runData, status: run.status };
	if (error !== undefined) result.error = error;
	return result;
}

/** The node under test as a workflow holds it, with n8n's node settings On Error and Retry On Fail when given. */
function harnessNode({ credentials, onError, retryOnFail, parameters, ...node }) {
	const built = { ...node, parameters: clone(parameters) };
	if (Object.keys(credentials).length > 0) built.credentials = credentials;
	if (onError !== undefined) built.onError = onError;
	// n8n's node setting: WorkflowExecute runs the whole node again after a failure.
	if (retryOnFail) Object.assign(built, { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 });
	return built;
}

/**
 * The execution data of a retry of the failed run `run`, as n8n's "Retry" of an execution prepares it
 * (ExecutionService.retry, n8n 2.x): the data as stored (a JSON copy), the run's error removed and the failed node's
 * last task dropped when it holds an error, so that the node waiting on the stack runs again with the input items it
 * had. With `loadWorkflow` ("with the currently saved workflow") the nodes on the stack are replaced by `workflow`'s.
 */
function retryExecutionData(run, workflow, loadWorkflow) {
	const data = clone(run.data);
	const { lastNodeExecuted } = data.resultData;
	if (lastNodeExecuted) {
		delete data.resultData.error;
		const tasks = data.resultData.runData[lastNodeExecuted] ?? [];
		if (tasks.length > 0 && tasks[tasks.length - 1].error !== undefined) tasks.pop();
	}
	if (loadWorkflow) {
		for (const entry of data.executionData.nodeExecutionStack) {
			const node = workflow.getNode(entry.node.name);
			if (node === null) throw new Error(`Could not find the node "${entry.node.name}" in the workflow to retry`);
			entry.node = node;
		}
	}
	return data;
}

async function runWorkflow(options) {
	ensureSetup();
	const {
		nodeType: nodeTypeInput,
		parameters = {},
		items = [{}],
		continueOnFail = false,
		onError,
		nodeName: nodeNameOption,
		typeVersion: typeVersionOption,
		packageName = defaultPackageName(),
		retryOf,
		mode = retryOf ? 'retry' : 'manual',
		rootExecutionMode,
		workflowSettings = {},
		retryOnFail = false,
	} = options;

	const nodeTypes = new HarnessNodeTypes();
	nodeTypes.register(INPUT_NODE_TYPE, new HarnessInput());
	const { nodeType, fullTypeName } = registerNodeType(nodeTypes, nodeTypeInput, packageName);
	const typeVersion = typeVersionOption ?? latestVersion(nodeType);
	const versionDescription = NodeHelpers.getVersionedNodeType(nodeType, typeVersion).description;
	const nodeName =
		nodeNameOption ??
		(versionDescription.defaults && versionDescription.defaults.name) ??
		versionDescription.displayName;

	const credentialsHelper = new HarnessCredentialsHelper(nodeTypes);
	const nodeCredentials = setUpCredentials(credentialsHelper, options);

	const nodeUnderTest = harnessNode({
		id: 'node-under-test',
		name: nodeName,
		type: fullTypeName,
		typeVersion,
		position: [250, 0],
		parameters,
		credentials: nodeCredentials,
		onError: onError ?? (continueOnFail ? 'continueRegularOutput' : undefined),
		retryOnFail,
	});

	const inputNode = {
		id: 'harness-input',
		name: INPUT_NODE_NAME,
		type: INPUT_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};

	const connections = {
		[INPUT_NODE_NAME]: { main: [[{ node: nodeName, type: 'main', index: 0 }]] },
	};
	const workflow = new Workflow({
		id: 'harness-workflow',
		name: 'Harness workflow',
		nodes: [inputNode, nodeUnderTest],
		connections,
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1', ...workflowSettings },
	});

	const runExecutionData = retryOf
		? retryExecutionData(retryOf.run, workflow, retryOf.loadWorkflow === true)
		: createRunExecutionData({
				executionData: {
					nodeExecutionStack: [
						{
							node: workflow.getNode(INPUT_NODE_NAME),
							data: { main: [items.map((json) => ({ json: clone(json) }))] },
							source: null,
						},
					],
				},
			});

	const { run, nodeExecutionOrder, refused } = await executeWorkflow({
		workflow,
		mode,
		credentialsHelper,
		runExecutionData,
		rootExecutionMode,
	});
	const credentialUpdates = credentialsHelper.updates;
	if (refused) {
		const result = { items: [], outputs: [], runData: {}, status: 'error', run: undefined };
		return { ...result, nodeExecutionOrder, credentialUpdates, error: refused };
	}
	const { error, ...result } = nodeResult(run, nodeName);
	return {
		...result,
		run,
		nodeExecutionOrder,
		credentialUpdates,
		...(error !== undefined ? { error } : {}),
	};
}

// ---------------------------------------------------------------------------
// runListSearch: what the editor's resource locator lists, as n8n's dynamic node parameters service asks for it
// ---------------------------------------------------------------------------

/**
 * Calls the node type's `methods.listSearch[method]` in a real LoadOptionsContext: the node as the editor holds it
 * (its current parameters, unresolved), its credential, n8n-core's request helpers. Resolves with
 * { results } or { error } (the error as the editor shows it: message, description, httpCode).
 */
async function runListSearch(options) {
	ensureSetup();
	const { nodeType: nodeTypeInput, method, parameters = {}, packageName = defaultPackageName(), filter } = options;
	const nodeTypes = new HarnessNodeTypes();
	const { nodeType, fullTypeName } = registerNodeType(nodeTypes, nodeTypeInput, packageName);
	const credentialsHelper = new HarnessCredentialsHelper(nodeTypes);
	const node = {
		id: 'list-search',
		name: 'Node',
		type: fullTypeName,
		typeVersion: latestVersion(nodeType),
		position: [0, 0],
		parameters: clone(parameters),
		credentials: setUpCredentials(credentialsHelper, options),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = { ...buildAdditionalData({ credentialsHelper }), currentNodeParameters: clone(parameters) };
	const context = new core.LoadOptionsContext(workflow, workflow.getNode(node.name), additionalData, 'parameters.digitalCardId');
	try {
		return { results: (await nodeType.methods.listSearch[method].call(context, filter)).results };
	} catch (error) {
		return { error: { name: error.name, message: error.message, description: error.description, httpCode: error.httpCode } };
	}
}

// ---------------------------------------------------------------------------
// testCredential: the credentials tester's behaviour for `test` request definitions
// ---------------------------------------------------------------------------

/**
 * n8n's CredentialsTester.getCredentialTestFunction for a `testedBy` name: in the first of the node types that names
 * the credential with a `testedBy`, its `methods.credentialTest[testedBy]` (versioned node types not handled).
 */
function nodeCredentialTest(typeName, nodeTypeInputs) {
	for (const input of nodeTypeInputs) {
		const nodeType = instantiate(input);
		for (const { name, testedBy } of nodeType.description.credentials || []) {
			if (name !== typeName || !testedBy) continue;
			if (typeof testedBy !== 'string') throw new Error('a declarative testedBy is not supported by this harness');
			const testFunction = nodeType.methods && nodeType.methods.credentialTest && nodeType.methods.credentialTest[testedBy];
			if (typeof testFunction !== 'function') throw new Error(`${nodeType.description.name}: no methods.credentialTest.${testedBy}`);
			return testFunction;
		}
	}
	return undefined;
}

async function testCredential(credentialTypeInput, credentialsData, options = {}) {
	ensureSetup();
	const credentialType = instantiate(credentialTypeInput);
	const typeName = credentialType.name;
	const testRequest = credentialType.test;
	// As n8n: the credential's own `test` first, else a node's `methods.credentialTest` named by its `testedBy`.
	const testFunction = testRequest ? undefined : nodeCredentialTest(typeName, options.nodeTypes || []);
	if (!testFunction && (!testRequest || typeof testRequest !== 'object' || !testRequest.request)) {
		return { status: 'Error', message: 'No testing function found for this credential.' };
	}

	const nodeTypes = new HarnessNodeTypes();
	const credentialsHelper = new HarnessCredentialsHelper(nodeTypes);
	credentialsHelper.registerType(credentialType);
	for (const extra of options.extraCredentialTypes || []) {
		credentialsHelper.registerType(instantiate(extra));
	}
	credentialsHelper.setData(typeName, credentialsData ?? {});

	const baseAdditionalData = buildAdditionalData({
		credentialsHelper,
		hooks: undefined,
		executionId: undefined,
	});

	const credentialsDecrypted = {
		id: CREDENTIAL_ID,
		name: CREDENTIAL_NAME,
		type: typeName,
		data: clone(credentialsData ?? {}),
	};
	try {
		credentialsDecrypted.data = credentialsHelper.applyDefaultsAndOverwrites(
			baseAdditionalData,
			credentialsDecrypted.data,
			typeName,
			'internal',
		);
	} catch (error) {
		return { status: 'Error', message: String(error.message) };
	}
	if (testFunction) return await testFunction.call(new core.CredentialTestContext(baseAdditionalData), credentialsDecrypted);

	// The tester turns the test request into the routing of a single throwaway parameter
	// on a copy of the "No Operation" node, then lets the declarative RoutingNode send it.
	const nodeTypeCopy = {
		description: {
			...noOpDescription,
			credentials: [{ name: typeName, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: testRequest.request },
					default: '',
				},
			],
		},
	};
	nodeTypes.register(nodeTypeCopy.description.name, nodeTypeCopy);

	const node = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: nodeTypeCopy.description.name,
		typeVersion: 1,
		position: [0, 0],
		credentials: { [typeName]: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });

	const runExecutionData = createRunExecutionData({ executionData: null });
	const inputData = { main: [[{ json: {} }]] };
	const executeData = { node, data: {}, source: null };
	const executeFunctions = new core.ExecuteContext(
		workflow,
		node,
		baseAdditionalData,
		'internal',
		runExecutionData,
		0,
		[],
		inputData,
		executeData,
		[],
	);
	const routingNode = new core.RoutingNode(executeFunctions, nodeTypeCopy, credentialsDecrypted);

	let response;
	try {
		response = await routingNode.runNode();
	} catch (error) {
		const cause = error && error.cause;
		if (cause && cause.response) {
			const statusCode = cause.response.status;
			const statusMessage = cause.response.statusText;
			for (const rule of testRequest.rules || []) {
				if (rule.type === 'responseCode' && statusCode === rule.properties.value) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (statusCode < 199 || statusCode > 299) {
				return {
					status: 'Error',
					message: statusMessage || `Received HTTP status code: ${statusCode}`,
				};
			}
		} else if (cause && cause.code) {
			return { status: 'Error', message: cause.code };
		}
		return { status: 'Error', message: String(error.message) };
	}

	if (Array.isArray(testRequest.rules)) {
		for (const rule of testRequest.rules) {
			if (rule.type === 'responseSuccessBody') {
				const responseData = response[0][0].json;
				if (get(responseData, rule.properties.key) === rule.properties.value) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

module.exports = {
	runWorkflow,
	runListSearch,
	testCredential,
	ensureSetup,
	latestVersion,
	// The pieces runWorkflow is made of, for harnesses that start workflows another way (webhook.js).
	internals: {
		HarnessNodeTypes,
		HarnessCredentialsHelper,
		harnessNode,
		buildAdditionalData,
		registerNodeType,
		setUpCredentials,
		executeWorkflow,
		nodeResult,
		latestVersion,
		clone,
		requireFromCore,
	},
};
