import type { IDataObject, INodeParameters, INodeTypeDescription, IRun, ITaskData } from 'n8n-workflow';

import type { RunWorkflowOptions } from './engine';

export interface ToolCall {
	/** What the model fills in for the tool's $fromAI() keys. */
	args?: IDataObject;
	/** Which tool to call, by the name the agent knows it by; default: the first. */
	tool?: string;
}

export interface ToolAnswer {
	/** The tool's answer as the model reads it (JSON text). */
	answer?: string;
	/** The message of the error the tool raised, as the model reads it. */
	error?: string;
}

export interface RunAsToolOptions extends Omit<RunWorkflowOptions, 'items' | 'continueOnFail' | 'parameters'> {
	parameters?: INodeParameters;
	calls?: ToolCall[];
	/** Make all the calls at once, as a model asking for several tool calls in one message. */
	parallel?: boolean;
	/** The node's Retry On Fail setting (3 tries, no wait). */
	retryOnFail?: boolean;
	/** The workflow's static data as saved between executions: the same object for runs of one workflow. */
	staticData?: IDataObject;
	/** Default 'manual'; n8n saves static data for every other mode ('webhook', 'chat', 'integrated', …). */
	mode?: RunWorkflowOptions['mode'];
	/** Default 'harness-agent-workflow'. */
	workflowId?: string;
}

export interface RunAsToolResult {
	answers: ToolAnswer[];
	/** The tools as the agent sees them: name, description and the keys of their arguments. */
	tools: Array<{ name: string; description: string; arguments: string[] }>;
	/** The tool node's runs as n8n records them (one per call). */
	toolRuns: ITaskData[];
	run: IRun | undefined;
	error?: unknown;
}

/** The description of the harness's agent node: a main input and the tools it calls. */
export const AGENT_DESCRIPTION: INodeTypeDescription;

export function runAsTool(options: RunAsToolOptions): Promise<RunAsToolResult>;

/** The tool variant n8n's loader makes of a node type with `usableAsTool` (`<name>Tool`, an ai_tool output). */
export function toolVariantOf(nodeType: RunWorkflowOptions['nodeType']): { description: INodeTypeDescription };
