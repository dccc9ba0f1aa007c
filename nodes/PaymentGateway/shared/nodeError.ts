import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { InvalidCredential } from '../validation/credential';
import { InvalidInput } from '../validation/input';

/**
 * A call an AI agent's tool may not make. The message is the answer the agent gets, so it says what was refused and
 * what to do; the description is for the workflow's author.
 */
export class ToolRefusal extends Error {
	constructor(
		message: string,
		readonly advice: string,
	) {
		super(message);
	}
}

export type ItemError = NodeApiError | NodeOperationError;

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
