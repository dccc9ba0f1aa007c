import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { stringText } from '../helpers/text';
import { knownFailureFields } from './failureFields';

/** Which endpoint failed matters: the same resCode means different things on different endpoints. */
export type Endpoint =
	| 'createOrder'
	| 'createCheckout'
	| 'initiate'
	| 'refund'
	| 'refundRead'
	| 'statusByOrderId'
	| 'statusByPaymentId'
	| 'listCards'
	| 'getCard'
	| 'deleteCard'
	| 'credentialTest';

interface Advice {
	resCode?: number;
	endpoints?: Endpoint[];
	message?: RegExp;
	description: string;
}

/** How each endpoint is named to users in messages: the node's resource and operation. */
export const ENDPOINT_LABELS: Record<Endpoint, string> = {
	createOrder: 'Order → Create',
	createCheckout: 'Order → Create Checkout',
	initiate: 'Transaction → Initiate',
	refund: 'Transaction → Refund',
	refundRead: 'Transaction → Refund (reading the payment)',
	statusByOrderId: 'Status → Get by Order ID',
	statusByPaymentId: 'Status → Get by Payment ID',
	listCards: 'Digital Card → Get Many',
	getCard: 'Digital Card → Get',
	deleteCard: 'Digital Card → Delete',
	credentialTest: 'Credential test',
};

/** The endpoints whose operations offer Concurrency and Max Retries; a refund's read of its payment has neither. */
const OFFERS_RETRIES: Endpoint[] = ['listCards', 'getCard', 'deleteCard', 'statusByOrderId', 'statusByPaymentId'];

export function offersRetries(endpoint: Endpoint): boolean {
	return OFFERS_RETRIES.includes(endpoint);
}

/** What to do before sending a write again whose outcome is unknown: each moves money or makes an order. */
const CHECK_FIRST: Partial<Record<Endpoint, string>> = {
	createOrder:
		'The gateway may have created the order without answering. Before creating it again, check the status of any order already made for this purchase (Status → Get by Order ID), so that it is not paid twice.',
	initiate:
		'Check the order with Status → Get by Order ID before initiating again, so that the customer is not charged twice.',
	refund:
		'Check the payment with Status → Get by Payment ID before refunding again, so that the customer is not refunded twice.',
};
CHECK_FIRST.createCheckout = CHECK_FIRST.createOrder;

/** The advice for a write whose outcome is unknown; undefined for reads and deletes, which can simply run again. */
export function checkFirstAdvice(endpoint: Endpoint): string | undefined {
	return CHECK_FIRST[endpoint];
}

const CHECK_STATUS_FIRST = CHECK_FIRST.initiate;

/** Ordered from specific to general: the first match gives the description. */
const ADVICE: Advice[] = [
	{
		// The gateway's answer to a path it does not serve: the Base URL stops in the wrong place.
		resCode: 404,
		message: /^no route found$/i,
		description:
			'The gateway has no such endpoint. Check that the Base URL ends where the endpoint paths begin (e.g. …/merchant-host, without /order) and that the Checkout Base URL is the address in front of /nac/api/v1/pg/….',
	},
	{
		resCode: 401,
		message: /signature/i,
		description:
			'The gateway refused the request signature. Check the Client Secret in the Payment Gateway API credential, and that the Base URL stops before the endpoint path.',
	},
	{
		resCode: 401,
		endpoints: ['createOrder'],
		message: /internal/i,
		description: 'The gateway had an internal error creating the order (it reports this as 401). Try again later.',
	},
	{
		resCode: 401,
		description:
			'Check the Client ID and Client Secret in the Payment Gateway API credential, and that the client is active on the gateway.',
	},
	{
		resCode: 422,
		endpoints: ['createOrder'],
		description: 'The gateway refused the UI mode of the order; it accepts only "checkout".',
	},
	{
		resCode: 422,
		endpoints: ['initiate'],
		message: /limit/i,
		description:
			'This customer has no room left for another stored card. Delete one with Digital Card → Delete, or pay without Secure Card.',
	},
	{
		resCode: 422,
		endpoints: ['initiate'],
		description:
			"The gateway's fraud rules refused this payment. Do not retry it with the same details; ask the customer for another payment method.",
	},
	{
		resCode: 400,
		endpoints: ['createCheckout'],
		description: 'The gateway could not create the order. Check the amount, currency, customer fields and redirect type.',
	},
	{
		resCode: 404,
		endpoints: ['initiate'],
		message: /another card/i,
		description: 'No payment route exists for this card. Ask the customer to pay with another card.',
	},
	{
		resCode: 404,
		endpoints: ['initiate'],
		message: /alternative/i,
		description: 'No payment route exists for this card. Offer the customer another payment method.',
	},
	{
		resCode: 404,
		endpoints: ['initiate'],
		message: /merchant/i,
		description: "No payment route is set up for this merchant account. Contact the gateway's support.",
	},
	{
		resCode: 404,
		endpoints: ['initiate'],
		description:
			'The gateway does not know this order. Check that the Order ID comes from Order → Create with the same credential.',
	},
	{
		resCode: 409,
		endpoints: ['initiate'],
		message: /in progress/i,
		description: `A transaction for this order is already in progress. ${CHECK_STATUS_FIRST}`,
	},
	{
		resCode: 409,
		endpoints: ['initiate'],
		description: "This merchant account may not take sales transactions. Contact the gateway's support.",
	},
	{
		resCode: 500,
		endpoints: ['initiate'],
		description: `The gateway had an internal error. ${CHECK_STATUS_FIRST}`,
	},
	{
		resCode: 500,
		endpoints: ['refund'],
		description: `The gateway had an internal error. ${CHECK_FIRST.refund}`,
	},
	{
		resCode: 400,
		endpoints: ['refund'],
		message: /exceed/i,
		description:
			'The amount is more than is left to refund on this payment: earlier refunds count against it. Check the payment with Status → Get by Payment ID.',
	},
	{
		resCode: 400,
		endpoints: ['refund'],
		message: /success/i,
		description:
			'Only a successful payment can be refunded. Check the payment with Status → Get by Payment ID; a pending payment must complete first.',
	},
	{
		resCode: 404,
		endpoints: ['refund'],
		description: 'The gateway does not know this payment. Check that the Payment ID comes from this credential’s merchant account.',
	},
	{
		resCode: 404,
		endpoints: ['deleteCard'],
		description: 'The card was not found: it was already deleted or belongs to another customer. Nothing was removed.',
	},
	{
		resCode: 404,
		endpoints: ['statusByOrderId', 'statusByPaymentId', 'getCard', 'refundRead'],
		description: 'The gateway does not know this identifier. Check that it comes from this credential’s merchant account.',
	},
	{
		resCode: 429,
		endpoints: ['createOrder', 'createCheckout', 'initiate', 'refund'],
		description:
			'The gateway is limiting requests and did not act on this one. Wait a little and run this item again; orders, payments and refunds are never retried automatically.',
	},
	{
		resCode: 429,
		endpoints: OFFERS_RETRIES,
		description: 'The gateway is limiting requests. Lower Concurrency, or raise Max Retries so that reads wait and try again.',
	},
	{
		resCode: 429,
		description: 'The gateway is limiting requests and did not act on this one. Wait a little and run this item again.',
	},
	{
		resCode: 500,
		endpoints: ['refundRead'],
		description: 'The gateway had a temporary error while the payment was read. No refund was sent: run again later.',
	},
	{
		resCode: 500,
		endpoints: OFFERS_RETRIES,
		description: 'The gateway had a temporary error. Run again later, or raise Max Retries in the options.',
	},
	{
		resCode: 400,
		description: 'The gateway refused the request as invalid. Check the fields named in the message.',
	},
];

function adviceFor(endpoint: Endpoint, resCode: number | undefined, message: string): string | undefined {
	const match = ADVICE.find(
		(advice) =>
			(advice.resCode === undefined || advice.resCode === resCode) &&
			(advice.endpoints === undefined || advice.endpoints.includes(endpoint)) &&
			(advice.message === undefined || advice.message.test(message)),
	);
	if (match) return match.description;
	if (resCode !== undefined && resCode >= 500) {
		// A 502 or 504 from a proxy may hide a request that reached the gateway.
		const checkFirst = checkFirstAdvice(endpoint);
		return checkFirst
			? `The gateway or a proxy in front of it failed. ${checkFirst}`
			: `The gateway had an error. Run again later${offersRetries(endpoint) ? ', or raise Max Retries in the options' : ''}.`;
	}
	return undefined;
}

export function gatewayMessage(body: IDataObject, httpStatus: number): string {
	for (const key of ['errMessage', 'message']) {
		const value = stringText(body[key]);
		if (value) return value;
	}
	return `The gateway answered with HTTP ${httpStatus}`;
}

/** The error that every gateway failure becomes. Only the known fields of the answer go in, never the request. */
export function gatewayError(
	node: INode,
	endpoint: Endpoint,
	itemIndex: number,
	failure: {
		resCode?: number;
		message: string;
		httpStatus?: number;
		body?: IDataObject;
		description?: string;
		/** A network error's code (ECONNRESET, ETIMEDOUT, …) when no answer arrived. */
		code?: string;
	},
): NodeApiError {
	const description = failure.description ?? adviceFor(endpoint, failure.resCode, failure.message);
	const error = new NodeApiError(
		node,
		{ message: failure.message, resCode: failure.resCode ?? null, ...knownFailureFields(failure.body ?? {}) } as JsonObject,
		{
			message: failure.message,
			description,
			httpCode: failure.resCode === undefined ? undefined : String(failure.resCode),
			itemIndex,
		},
	);
	error.context.resCode = failure.resCode ?? null;
	if (failure.httpStatus !== undefined) error.context.httpStatus = failure.httpStatus;
	if (failure.code !== undefined) error.context.code = failure.code;
	return error;
}
