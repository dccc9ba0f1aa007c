import type {
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	IRun,
	IRunData,
	IWebhookResponseData,
	IWorkflowSettings,
} from 'n8n-workflow';

import type { CredentialTypeInput, NodeTypeInput, RecordedNodeError } from './engine';

export interface FollowingNode {
	nodeType: NodeTypeInput;
	parameters?: INodeParameters;
	/** Default: the node type's newest. */
	typeVersion?: number;
	/** Default: the node type's default name. */
	name?: string;
}

export interface WebhookServerOptions {
	/** The trigger node class (or an instance); its first webhook gives `url`. */
	nodeType: NodeTypeInput;
	credentialType?: CredentialTypeInput;
	/** Field values of that credential, given to the trigger and to every following node. */
	credentials?: IDataObject;
	/** The trigger's parameters. */
	parameters?: INodeParameters;
	/** The trigger's typeVersion; default its newest. */
	typeVersion?: number;
	/** Nodes run after the trigger, chained in this order. */
	then?: FollowingNode[];
	packageName?: string;
	workflowSettings?: IWorkflowSettings;
	/** The workflow's saved static data; servers given the same object share it, as webhook processes share a database. */
	store?: StaticDataStore;
}

/** The workflow's static data as the database holds it between calls. */
export interface StaticDataStore {
	staticData: IDataObject;
}

/** One workflow run started by a webhook call, as WorkflowExecute finished it. */
export interface WebhookExecution {
	id: string;
	startedAt: Date;
	stoppedAt: Date;
	status: string;
	/** Output 0 of the trigger node. */
	items: INodeExecutionData[];
	outputs: INodeExecutionData[][];
	runData: IRunData;
	error?: RecordedNodeError;
	nodeExecutionOrder: string[];
	run?: IRun;
	/** Output 0 of another node of the run. */
	outputOf(nodeName: string): INodeExecutionData[];
}

/** One HTTP request the server received. */
export interface WebhookCall {
	method: string;
	url: string;
	receivedAt: Date;
	/** Set when the answer has been written. */
	statusCode?: number;
	answeredAt?: Date;
	/** The same moment on the process's monotonic clock, the one of the sandbox's request log (`receivedAtMs`). */
	answeredAtMs?: number;
	/** What the node's webhook() returned (undefined when it was not called or threw). */
	webhookResult?: IWebhookResponseData;
	webhookError?: Error;
}

export interface WebhookServer {
	/** http://127.0.0.1:<port> */
	origin: string;
	store: StaticDataStore;
	/** Production URL of the trigger's (first) webhook: `<origin>/webhook/<webhookId>/<path>`. */
	url: string;
	urls: string[];
	/** Finished executions, in the order they finished. */
	executions: WebhookExecution[];
	calls: WebhookCall[];
	/** Resolves with the first `count` executions once that many have finished; rejects after the time-out (20 s). */
	waitForExecutions(count: number, timeoutMs?: number): Promise<WebhookExecution[]>;
	/** Resolves once every call received so far has been handled and its execution, if any, finished (or rejects after 20 s). */
	idle(timeoutMs?: number): Promise<void>;
	/** Forgets the recorded executions and calls. */
	reset(): void;
	/** Stops listening, waits for the calls in flight and deactivates the workflow. */
	close(): Promise<void>;
}

export function startWebhookServer(options: WebhookServerOptions): Promise<WebhookServer>;
