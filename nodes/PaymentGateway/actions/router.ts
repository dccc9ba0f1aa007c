import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	IWorkflowExecuteAdditionalData,
	NodeExecutionHint,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ItemError } from '../shared/nodeError';
import { toNodeError } from '../shared/nodeError';
import { linkWorkflowState } from '../shared/workflowState';
import type { Gateway } from '../transport/request';
import { openGateway } from '../transport/request';
import { AdaptiveLimit, Pace } from '../transport/adaptiveLimit';
import { withBoundedParameters } from './boundedParameters';
import { MAX_CONCURRENCY } from './common';
import { OPERATIONS } from './description';
import type { Operation } from './operation';

/** The operation of each `resource:operation` the node's lists offer. */
const operations = new Map<string, Operation>(OPERATIONS.map((operation) => [`${operation.resource}:${operation.value}`, operation]));

/**
 * Continue On Fail gives `{ error, resCode, ... }` paired to its input. With "Continue (using error output)", n8n
 * routes an item to the error output only when its keys are `error` and `message` (every n8n from 1.x on; later
 * versions also take `details`), so there the rest is said in `message`.
 */
function errorItem(ctx: IExecuteFunctions, error: ItemError, itemIndex: number): INodeExecutionData {
	const details: IDataObject = { resCode: (error.context?.resCode as number | null | undefined) ?? null };
	if (typeof error.context?.code === 'string') details.code = error.context.code;
	if (error.description) details.description = error.description;
	if (error instanceof NodeOperationError) details.itemIndex = itemIndex;
	if (ctx.getNode().onError === 'continueErrorOutput') {
		const said = [
			details.resCode !== null ? `Gateway resCode ${details.resCode}.` : undefined,
			details.code !== undefined ? `Code ${details.code}.` : undefined,
			error.description ?? undefined,
		];
		const message = said.filter((part) => part).join(' ') || error.message;
		return { json: { error: error.message, message }, pairedItem: { item: itemIndex } };
	}
	return { json: { error: error.message, ...details }, pairedItem: { item: itemIndex } };
}

/**
 * n8n's Retry On Fail runs the whole node again for every item, also those that went through before the failure:
 * an order, payment or refund would be made twice. It holds for saved workflows too, so it is checked when running.
 */
function retryOnFailRefusal(node: INode, itemIndex: number): NodeOperationError {
	return new NodeOperationError(
		node,
		`This node must not run with Retry On Fail: n8n would send every item again after a failure, and orders, payments or refunds that went through would be made twice. Nothing was sent.`,
		{
			itemIndex,
			description:
				'Turn off Retry On Fail in the node’s settings. To retry safely, set On Error to "Continue (using error output)", check the failed items with Status → Get by Order ID or Get by Payment ID, and send only those again.',
		},
	);
}

/**
 * n8n's Retry of a failed execution runs the failed node again with all its input items, those that went through
 * before the failure included, and the node cannot tell which those were: an order, payment or refund would be made
 * twice. Checked when running, so saved workflows are covered too.
 */
function executionRetryRefusal(node: INode, itemIndex: number): NodeOperationError {
	return new NodeOperationError(
		node,
		`This node does not send orders, payments or refunds again in a retry of a failed execution: n8n would send every input item again, also those that went through before the failure. Nothing was sent. [item ${itemIndex}]`,
		{
			itemIndex,
			description:
				'The failed execution’s error names the items it sent and their ids. Check the others with Status → Get by Order ID or Get by Payment ID (a refund shows in its payment’s status), then run only the items still to send in a new execution, e.g. by running the workflow again with just those.',
		},
	);
}

/**
 * Whether this run is n8n's Retry of a failed execution, also one level down: a sub-workflow that Execute Workflow
 * runs again in a retried execution runs in mode "integrated", and only its root execution's mode tells the retry.
 */
function inRetriedExecution(ctx: IExecuteFunctions): boolean {
	const { additionalData } = ctx as IExecuteFunctions & { additionalData?: Partial<IWorkflowExecuteAdditionalData> };
	return ctx.getMode() === 'retry' || additionalData?.rootExecutionMode === 'retry';
}

/** The gateway's id of what an item made, most specific first: a refund names its payment and order too. */
function sentIdOf(outputs: IDataObject[] | undefined): { key: string; id: string } | undefined {
	const output = outputs?.[0] ?? {};
	for (const key of ['refundId', 'paymentId', 'orderId']) {
		if (typeof output[key] === 'string' && output[key]) return { key, id: output[key] };
	}
	return undefined;
}

/** `0`, `0-3` or `5`: consecutive item indexes as a person reads them. */
const itemRange = (first: number, last: number) => (first === last ? `item ${first}` : `items ${first}-${last}`);

/**
 * A write that stops the workflow leaves no output: without this, the items sent before it (the gateway has made
 * them) would be named nowhere, and running the node again would send them twice. Writes go one at a time, in order,
 * so every item before the failed one was sent and none after it.
 */
function withSentItems(error: ItemError, failedIndex: number, outputs: Array<IDataObject[] | undefined>, total: number): ItemError {
	const sent = outputs.slice(0, failedIndex).map((output, item) => ({ item, ...sentIdOf(output) }));
	const said = [];
	if (sent.length) {
		const named = sent.map(({ item, key, id }) => (key ? `item ${item} (${key} ${id})` : `item ${item}`));
		said.push(`Sent before this failure: ${named.join(', ')}.`);
	}
	if (failedIndex + 1 < total) said.push(`Not sent: ${itemRange(failedIndex + 1, total - 1)}.`);
	if (sent.length) said.push('Do not run this node again with the same items: send only those not sent, in a new execution.');
	if (said.length) error.description = [error.description, ...said].filter((part) => part).join(' ');
	error.context.sentItems = sent.map(({ item, key, id }) => (key ? { item, [key]: id } : { item }));
	return error;
}

/** Failed items are easy to miss in a long output when the run itself succeeds. */
function failuresHint(ctx: IExecuteFunctions, failures: number, total: number): NodeExecutionHint {
	const where = ctx.getNode().onError === 'continueErrorOutput' ? 'the error output' : 'the output, with an "error" field';
	return {
		message: `${failures} of ${total} item${total === 1 ? '' : 's'} failed and went on as error items in ${where}.`,
		type: 'warning',
		location: 'outputPane',
	};
}

/**
 * How many items run at once, and the pace their requests keep. Only repeatable operations offer Concurrency; orders,
 * payments and refunds always go one item at a time, unpaced. No fixed number suits every gateway (50 at once lose
 * items to one serving 10 and leave a faster one idle), so a run without Concurrency finds the gateway's pace
 * (transport/adaptiveLimit.ts, up to MAX_CONCURRENCY); one with it keeps exactly that many. A Retry-After pauses every
 * request of either.
 */
function concurrencyOf(ctx: IExecuteFunctions, sendsOnce: boolean): { workers: number; pace?: Pace } {
	if (sendsOnce) return { workers: 1 };
	// null when the workflow does not set it (n8n refuses undefined as a fallback).
	const set = ctx.getNodeParameter('options.concurrency', 0, null) as unknown;
	if (set === null) return { workers: MAX_CONCURRENCY, pace: new Pace(new AdaptiveLimit(MAX_CONCURRENCY)) };
	const workers = typeof set === 'number' && set >= 1 ? Math.min(Math.floor(set), MAX_CONCURRENCY) : 1;
	return { workers, pace: new Pace(new AdaptiveLimit(MAX_CONCURRENCY, undefined, workers)) };
}

/**
 * The one per-item loop: every operation is a function of one item index. This runner pairs each result
 * with its input, turns failures into error items under Continue On Fail, and bounds the requests in flight.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	// Before anything else, whatever this execution does: its save must not drop what this process keeps for the workflow.
	linkWorkflowState(this);
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	// Saved workflows can name anything: an unknown name is refused.
	const operationModule = operations.get(`${resource}:${operation}`);
	if (!operationModule) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not known for "${resource}"`);
	}

	// One read of the credential for the whole execution, shared by every item and worker.
	const node = this.getNode();
	const { sendsOnce } = operationModule;
	const { workers, pace } = concurrencyOf(this, sendsOnce);
	let gateway: Promise<Gateway> | undefined;
	const gatewayOnce = async () => await (gateway ??= openGateway(this, operationModule.endpoint, pace));

	// Every parameter an operation reads is bounded in length at this one entry (boundedParameters.ts).
	const context = withBoundedParameters(this, operationModule.fields);
	const refuseRetries = sendsOnce && node.retryOnFail === true;
	const refuseExecutionRetry = sendsOnce && inRetriedExecution(this);
	const results: INodeExecutionData[][] = new Array(items.length);
	const outputs: Array<IDataObject[] | undefined> = new Array(items.length);
	let failures = 0;
	let nextIndex = 0;
	let stopError: ItemError | undefined;
	let stopIndex = 0;
	const worker = async () => {
		while (stopError === undefined && nextIndex < items.length) {
			const itemIndex = nextIndex++;
			try {
				if (refuseRetries) throw retryOnFailRefusal(node, itemIndex);
				if (refuseExecutionRetry) throw executionRetryRefusal(node, itemIndex);
				const output = await operationModule.execute.call(context, itemIndex, await gatewayOnce());
				outputs[itemIndex] = Array.isArray(output) ? output : [output];
				results[itemIndex] = outputs[itemIndex].map((json) => ({ json, pairedItem: { item: itemIndex } }));
			} catch (error) {
				const nodeError = toNodeError(node, error, itemIndex);
				if (this.continueOnFail()) {
					failures++;
					results[itemIndex] = [errorItem(this, nodeError, itemIndex)];
				} else if (stopError === undefined) {
					stopError = nodeError;
					stopIndex = itemIndex;
				}
			}
		}
	};
	try {
		await Promise.all(Array.from({ length: Math.min(workers, Math.max(items.length, 1)) }, worker));
	} finally {
		// What the run learned of the gateway's pace, for the next run on it in this process (transport/paceMemory.ts).
		pace?.keepLearned();
	}
	if (stopError) throw sendsOnce ? withSentItems(stopError, stopIndex, outputs, items.length) : stopError;

	const opened = await gateway?.catch(() => undefined);
	const hints = operationModule.hints?.call(this, outputs, opened) ?? [];
	if (failures > 0) hints.push(failuresHint(this, failures, items.length));
	if (hints.length > 0) this.addExecutionHints(...hints);
	return [results.flat()];
}
