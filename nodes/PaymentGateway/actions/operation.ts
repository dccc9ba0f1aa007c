import type { IDataObject, IExecuteFunctions, INodeProperties, NodeExecutionHint } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { Shape } from '../transport/outputs';
import type { Advice, Endpoint, Gateway } from '../transport/request';
import { optionsCollection } from './common';
import { toolDescriptionField } from './toolMode';

/** The node's resources, in the order of its fields; each one's Operation list opens on `defaultOperation`. */
export const RESOURCES = {
	order: { name: 'Order', description: 'An amount to be paid by a customer', defaultOperation: 'create' },
	transaction: { name: 'Transaction', description: 'A payment of an order with a card', defaultOperation: 'initiate' },
	status: { name: 'Status', description: 'The payment status of an order or payment', defaultOperation: 'getByOrderId' },
	digitalCard: { name: 'Digital Card', description: "A customer's stored (tokenized) card", defaultOperation: 'getMany' },
} as const;

export type Resource = keyof typeof RESOURCES;

interface OperationParts<R extends Resource, V extends string> {
	resource: R;
	/** The Operation list's value: saved workflows hold it, so it never changes. */
	value: V;
	/** The Operation list's name, e.g. "Create Checkout"; messages name the operation "Order → Create Checkout". */
	name: string;
	description: string;
	/** What the node does, in the Operation list and as the node's subtitle, e.g. "Create an order". */
	action: string;
	/** What an AI agent reads of this operation as a tool: what it does, whether it moves money, what it needs and returns. */
	toolDescription: string;
	/** The operation's fields, in order. Its Options collection follows them, derived from `sendsOnce`. */
	properties: INodeProperties[];
	/** More entries for the Options collection; `false` for an operation with no Options at all. */
	options?: INodeProperties[] | false;
	/** Advice for this operation's gateway failures, before the general advice (transport/errors.ts). */
	advice?: Advice[];
	/**
	 * The fields of the gateway's answer this operation outputs, each with its kind (shared/answers.ts): the transport
	 * lets nothing else of the answer out, and names what it left out in `droppedFields`.
	 */
	answer: Shape;
	/** One input item: what the router runs once per item, with the execution's gateway. */
	execute(this: IExecuteFunctions, itemIndex: number, gateway: Gateway): Promise<IDataObject | IDataObject[]>;
	/**
	 * What a person reading the run should notice, from each item's outputs (undefined where the item failed) and the
	 * gateway as the run opened it (undefined when it could not be).
	 */
	hints?(this: IExecuteFunctions, outputs: Array<IDataObject[] | undefined>, gateway?: Gateway): NodeExecutionHint[];
}

/**
 * Whether a second request would do it twice. An order, payment or refund is sent once: never retried, one item at a
 * time, refused under n8n's Retry On Fail and in a retried execution, its Options without Concurrency and Max Retries,
 * and its failures say what to check before sending it again.
 */
type Sending = { sendsOnce: true; checkFirst: string } | { sendsOnce: false };

/** Everything an operation is, in its one file: the router, the node's description and the transport derive the rest. */
export type OperationDescriptor<R extends Resource = Resource, V extends string = string> = OperationParts<R, V> & Sending;

export type Operation<R extends Resource = Resource, V extends string = string> = OperationDescriptor<R, V> & {
	/** How its calls fail and are retried. */
	endpoint: Endpoint;
	/** Its fields as the node's description holds them: shown for this resource and operation only. */
	fields: INodeProperties[];
};

export function defineOperation<const R extends Resource, const V extends string>(
	descriptor: OperationDescriptor<R, V>,
): Operation<R, V> {
	const label = `${RESOURCES[descriptor.resource].name} → ${descriptor.name}`;
	const { advice, answer, options = [] } = descriptor;
	const endpoint: Endpoint = descriptor.sendsOnce
		? { label, advice, answer, sendsOnce: true, checkFirst: descriptor.checkFirst }
		: { label, advice, answer, sendsOnce: false, offersRetries: options !== false };
	const collection = options === false ? [] : [optionsCollection(descriptor.sendsOnce ? 'sentOnce' : 'repeatable', options)];
	const fields = updateDisplayOptions(
		{ show: { resource: [descriptor.resource], operation: [descriptor.value] } },
		[toolDescriptionField(descriptor.toolDescription), ...descriptor.properties, ...collection],
	);
	return { ...descriptor, endpoint, fields };
}
