import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Gateway } from '../transport/request';
import { openGateway } from '../transport/request';
import { InvalidCredential, InvalidInput } from '../validation';
import type { OperationModule } from './common';
import { MAX_CONCURRENCY } from './common';
import * as digitalCard from './digitalCard';
import * as order from './order';
import * as status from './status';
import { ToolRefusal } from './toolMode';
import * as transaction from './transaction';

const operations: Record<string, Record<string, OperationModule>> = {
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

function toNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): ItemError {
	if (error instanceof InvalidCredential) {
		return new NodeOperationError(
			ctx.getNode(),
			`The credential's ${error.field} ${error.problem} [item ${itemIndex}]`,
			{
				itemIndex,
				description: `Fix ${error.field} in the Payment Gateway API credential. Nothing was sent to the gateway for this item.`,
			},
		);
	}
	if (error instanceof ToolRefusal) {
		return new NodeOperationError(ctx.getNode(), error.message, { itemIndex, description: error.advice });
	}
	if (error instanceof InvalidInput) {
		return new NodeOperationError(ctx.getNode(), `${error.field} ${error.problem} [item ${itemIndex}]`, {
			itemIndex,
			description: `Fix ${error.field} for item ${itemIndex}. Nothing was sent to the gateway for this item.`,
		});
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error instanceof Error ? error : String(error), { itemIndex });
}

/**
 * Continue On Fail gives `{ error, resCode, ... }` paired to its input. With "Continue (using error output)",
 * n8n only routes items whose keys are error/message/details, so the rest moves under `details` there.
 */
function errorItem(ctx: IExecuteFunctions, error: ItemError, itemIndex: number): INodeExecutionData {
	const details: IDataObject = { resCode: (error.context?.resCode as number | null | undefined) ?? null };
	if (typeof error.context?.code === 'string') details.code = error.context.code;
	if (error.description) details.description = error.description;
	if (error instanceof NodeOperationError) details.itemIndex = itemIndex;
	const json: IDataObject =
		ctx.getNode().onError === 'continueErrorOutput' ? { error: error.message, details } : { error: error.message, ...details };
	return { json, pairedItem: { item: itemIndex } };
}

function concurrencyOf(ctx: IExecuteFunctions): number {
	// Only read operations offer the option; the others always run one item at a time.
	const value = ctx.getNodeParameter('options.concurrency', 0, 1);
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
	const operationModule = operations[resource]?.[operation];
	if (!operationModule) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not known for "${resource}"`);
	}

	// One read of the credential for the whole execution, shared by every item and worker.
	let gateway: Promise<Gateway> | undefined;
	const gatewayOnce = async () => await (gateway ??= openGateway(this));

	const results: INodeExecutionData[][] = new Array(items.length);
	let nextIndex = 0;
	let stopError: ItemError | undefined;
	const worker = async () => {
		while (stopError === undefined && nextIndex < items.length) {
			const itemIndex = nextIndex++;
			try {
				const output = await operationModule.execute.call(this, itemIndex, await gatewayOnce());
				results[itemIndex] = (Array.isArray(output) ? output : [output]).map((json) => ({
					json,
					pairedItem: { item: itemIndex },
				}));
			} catch (error) {
				const nodeError = toNodeError(this, error, itemIndex);
				if (this.continueOnFail()) results[itemIndex] = [errorItem(this, nodeError, itemIndex)];
				else stopError ??= nodeError;
			}
		}
	};
	const workers = Math.min(concurrencyOf(this), Math.max(items.length, 1));
	await Promise.all(Array.from({ length: workers }, worker));
	if (stopError) throw stopError;
	return [results.flat()];
}
