import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData, NodeExecutionHint } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Gateway } from '../transport/request';
import { openGateway } from '../transport/request';
import { InvalidCredential } from '../validation/credential';
import { InvalidInput } from '../validation/input';
import type { OperationModule } from './common';
import { MAX_CONCURRENCY } from './common';
import { repeatableDefaults } from './versions';
import type { PaymentGatewayMap, Resource } from './node.type';
import * as digitalCard from './digitalCard';
import * as order from './order';
import * as status from './status';
import { ToolRefusal } from './toolMode';
import * as transaction from './transaction';

/** What the router runs for each resource and operation: one the description offers but missing here fails to compile. */
const operations: { [R in Resource]: Record<PaymentGatewayMap[R], OperationModule> } = {
	order: { create: order.create, createCheckout: order.createCheckout },
	transaction: { initiate: transaction.initiate, refund: transaction.refund },
	status: {
		getByOrderId: status.getByOrderId,
		getByPaymentId: status.getByPaymentId,
		verifySignature: status.verifySignature,
	},
	digitalCard: { getMany: digitalCard.getMany, get: digitalCard.get, delete: digitalCard.delete },
};

type ItemError = NodeApiError | NodeOperationError;

/**
 * Any failure as the error n8n shows, also as an error item's `error`: the field or credential named, nothing of the
 * value repeated, and the item named at the end of the message (`[item N]`, as n8n's own nodes do), the gateway's
 * failures too. Without an item (the editor's card list) the message names none; a refusal in tool mode, always of
 * the one item of a call, neither.
 */
export function toNodeError(node: INode, error: unknown, itemIndex?: number): ItemError {
	if (error instanceof ToolRefusal) {
		return new NodeOperationError(node, error.message, { itemIndex, description: error.advice });
	}
	return namingItem(itemError(node, error, itemIndex), itemIndex);
}

function itemError(node: INode, error: unknown, itemIndex?: number): ItemError {
	const forItem = itemIndex === undefined ? '' : ' for this item';
	if (error instanceof InvalidCredential) {
		return new NodeOperationError(node, `The credential's ${error.field} ${error.problem}`, {
			itemIndex,
			description: `Fix ${error.field} in the Payment Gateway API credential. Nothing was sent to the gateway${forItem}.`,
		});
	}
	if (error instanceof InvalidInput) {
		return new NodeOperationError(node, `${error.field} ${error.problem}`, {
			itemIndex,
			description: `Fix ${error.field}${itemIndex === undefined ? '' : ` for item ${itemIndex}`}. Nothing was sent to the gateway${forItem}.`,
		});
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error instanceof Error ? error : String(error), { itemIndex });
}

/** The one place that puts `[item N]` at the end of a message. */
function namingItem(error: ItemError, itemIndex?: number): ItemError {
	const suffix = ` [item ${itemIndex}]`;
	if (itemIndex !== undefined && !error.message.endsWith(suffix)) error.message += suffix;
	return error;
}

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

/** Failed items are easy to miss in a long output when the run itself succeeds. */
function failuresHint(ctx: IExecuteFunctions, failures: number, total: number): NodeExecutionHint {
	const where = ctx.getNode().onError === 'continueErrorOutput' ? 'the error output' : 'the output, with an "error" field';
	return {
		message: `${failures} of ${total} item${total === 1 ? '' : 's'} failed and went on as error items in ${where}.`,
		type: 'warning',
		location: 'outputPane',
	};
}

/** Only repeatable operations offer the option; orders, payments and refunds always go one item at a time. */
function concurrencyOf(ctx: IExecuteFunctions, sendsOnce: boolean): number {
	if (sendsOnce) return 1;
	const value = ctx.getNodeParameter('options.concurrency', 0, repeatableDefaults(ctx.getNode().typeVersion).concurrency);
	return typeof value === 'number' && value >= 1 ? Math.min(Math.floor(value), MAX_CONCURRENCY) : 1;
}

/**
 * The one per-item loop: every operation is a function of one item index. This runner pairs each result
 * with its input, turns failures into error items under Continue On Fail, and bounds the requests in flight.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	// Saved workflows can name anything: an unknown name is refused below, not looked up as a typed one.
	const byName: Partial<Record<string, Partial<Record<string, OperationModule>>>> = operations;
	const operationModule = byName[resource]?.[operation];
	if (!operationModule) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not known for "${resource}"`);
	}

	// One read of the credential for the whole execution, shared by every item and worker.
	let gateway: Promise<Gateway> | undefined;
	const gatewayOnce = async () => await (gateway ??= openGateway(this));

	const node = this.getNode();
	const refuseRetries = operationModule.sendsOnce === true && node.retryOnFail === true;
	const results: INodeExecutionData[][] = new Array(items.length);
	const outputs: Array<IDataObject[] | undefined> = new Array(items.length);
	let failures = 0;
	let nextIndex = 0;
	let stopError: ItemError | undefined;
	const worker = async () => {
		while (stopError === undefined && nextIndex < items.length) {
			const itemIndex = nextIndex++;
			try {
				if (refuseRetries) throw retryOnFailRefusal(node, itemIndex);
				const output = await operationModule.execute.call(this, itemIndex, await gatewayOnce());
				outputs[itemIndex] = Array.isArray(output) ? output : [output];
				results[itemIndex] = outputs[itemIndex].map((json) => ({ json, pairedItem: { item: itemIndex } }));
			} catch (error) {
				const nodeError = toNodeError(node, error, itemIndex);
				if (this.continueOnFail()) {
					failures++;
					results[itemIndex] = [errorItem(this, nodeError, itemIndex)];
				} else stopError ??= nodeError;
			}
		}
	};
	const workers = Math.min(concurrencyOf(this, operationModule.sendsOnce === true), Math.max(items.length, 1));
	await Promise.all(Array.from({ length: workers }, worker));
	if (stopError) throw stopError;

	const hints = operationModule.hints?.call(this, outputs) ?? [];
	if (failures > 0) hints.push(failuresHint(this, failures, items.length));
	if (hints.length > 0) this.addExecutionHints(...hints);
	return [results.flat()];
}
