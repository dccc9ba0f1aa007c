import type {
	ExecutionStatus,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRun,
	IRunData,
	IVersionedNodeType,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';

type ClassOrInstance<T> = (new () => T) | T;

export type NodeTypeInput = ClassOrInstance<INodeType | IVersionedNodeType>;
export type CredentialTypeInput = ClassOrInstance<ICredentialType>;

export interface RunWorkflowOptions {
	/** The node class (or an instance). Registered as `<packageName>.<description.name>`. */
	nodeType: NodeTypeInput;
	/** The credential class (or an instance) the node uses; registered under its `name`. */
	credentialType?: CredentialTypeInput;
	/** Field values of that credential. Defaults and `={{ }}` expressions are applied like n8n does. */
	credentials?: ICredentialDataDecryptedObject;
	/** Node parameters; values starting with `=` are n8n expressions, resolved per item. */
	parameters?: INodeParameters;
	/** Input items as plain JSON objects, emitted by the harness's start node. Default: `[{}]`. */
	items?: IDataObject[];
	/** Shorthand for `onError: 'continueRegularOutput'`. */
	continueOnFail?: boolean;
	/** The node's "On Error" setting; wins over `continueOnFail`. */
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	/** Node name in the workflow. Default: `description.defaults.name`. */
	nodeName?: string;
	/** Default: the version a node added in the editor gets (`defaultVersion`, else the highest). */
	typeVersion?: number;
	/** Prefix of the node type name. Default: `name` from the project's package.json. */
	packageName?: string;
	/** Further credential types to register (e.g. parents named in `extends`). */
	extraCredentialTypes?: CredentialTypeInput[];
	/** Data for further credential types, keyed by credential type name; also set on the node. */
	credentialsByType?: Record<string, ICredentialDataDecryptedObject>;
	/** Default: `'manual'`, or `'retry'` with `retryOf`. */
	mode?: WorkflowExecuteMode;
	/** The mode of the execution at the root, as n8n gives a sub-workflow's run (its own mode is `'integrated'`). */
	rootExecutionMode?: WorkflowExecuteMode;
	/**
	 * Runs a retry of this failed run, as n8n's "Retry" of an execution does: from the run's stored data, the failed
	 * node again with the input items it had (`items` is then unused). `loadWorkflow`: "with the currently saved
	 * workflow" (the node as `parameters` and the other options give it now), else "with the original" (the node as
	 * it was in the failed run).
	 */
	retryOf?: { run: IRun; loadWorkflow?: boolean };
	/** Merged over `{ executionOrder: 'v1' }`. */
	workflowSettings?: IWorkflowSettings;
	/** The node's Retry On Fail setting (2 tries, no wait between them). */
	retryOnFail?: boolean;
}

/**
 * The node error as WorkflowExecute records it: a plain copy of the thrown
 * NodeApiError / NodeOperationError with its own properties plus message and stack.
 */
export interface RecordedNodeError {
	name?: string;
	message: string;
	description?: string | null;
	httpCode?: string | null;
	context?: IDataObject;
	node?: INode;
	stack?: string;
	[key: string]: unknown;
}

export interface RunWorkflowResult {
	/** Output 0 of the node under test (with pairedItem). Empty when the node failed. */
	items: INodeExecutionData[];
	/** All outputs of the node under test (output 1 is the error output with `continueErrorOutput`). */
	outputs: INodeExecutionData[][];
	/**
	 * The node's error, or the execution's error if the run failed before the node ran.
	 * When the engine refuses to start because of parameter issues (e.g. a required
	 * parameter is missing), this is the thrown `WorkflowHasIssuesError` and `run` is undefined.
	 */
	error?: RecordedNodeError;
	runData: IRunData;
	status: ExecutionStatus;
	/** The complete IRun returned by WorkflowExecute. */
	run?: IRun;
	nodeExecutionOrder: string[];
	/** Credential data written back during the run (preAuthentication / OAuth token refresh). */
	credentialUpdates: Array<{ type: string; data: ICredentialDataDecryptedObject }>;
}

export function runWorkflow(options: RunWorkflowOptions): Promise<RunWorkflowResult>;

/**
 * The typeVersion a node added in n8n's editor gets, read from the node type: a versioned type's current version,
 * else its description's `defaultVersion`, else its highest `version`. runWorkflow's default.
 */
export function latestVersion(nodeType: INodeType | IVersionedNodeType): number;

export interface RunListSearchOptions {
	nodeType: NodeTypeInput;
	credentialType?: CredentialTypeInput;
	credentials?: ICredentialDataDecryptedObject;
	/** The name in the node type's `methods.listSearch`. */
	method: string;
	/** The node's parameters as the editor holds them (expressions unresolved). */
	parameters?: INodeParameters;
	packageName?: string;
	filter?: string;
}

export interface RunListSearchResult {
	results?: Array<{ name: string; value: string | number; url?: string }>;
	/** The error as the editor's list shows it. */
	error?: { name?: string; message: string; description?: string | null; httpCode?: string | null };
}

/** Calls a resource locator's list search in a real LoadOptionsContext, as the editor's list does. */
export function runListSearch(options: RunListSearchOptions): Promise<RunListSearchResult>;

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

export interface TestCredentialOptions {
	extraCredentialTypes?: CredentialTypeInput[];
	/** Node types using the credential, searched in order for a `testedBy` when the credential has no `test`. */
	nodeTypes?: NodeTypeInput[];
}

/**
 * Runs the credential's test the way n8n's credentials tester does (its `test` request, or else the
 * `methods.credentialTest` function a node names with `testedBy`) and reports `{ status, message }` as the n8n UI
 * would show it.
 */
export function testCredential(
	credentialType: CredentialTypeInput,
	credentialsData: ICredentialDataDecryptedObject,
	options?: TestCredentialOptions,
): Promise<CredentialTestResult>;

/** Performs the one-time DI container / expression engine setup (done implicitly by the functions above). */
export function ensureSetup(): void;
