import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { stringText } from '../helpers/text';
import { knownFailureFields } from './failureFields';
import type { Advice, Endpoint } from './types';
import { offersRetries } from './types';

/** Said for an identifier the gateway does not know, by every read of one. */
export const UNKNOWN_ID: Advice = {
	resCode: 404,
	description: 'The gateway does not know this identifier. Check that it comes from this credential’s merchant account.',
};

/** Looked up before an endpoint's own advice: the gateway's answers to a wrong address or secret, on any endpoint. */
const FIRST: Advice[] = [
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
];

/** Looked up after an endpoint's own advice; what a rate limit or an error means depends on whether it sends once. */
function generalAdvice(endpoint: Endpoint): Advice[] {
	const rateLimited = endpoint.sendsOnce
		? 'The gateway is limiting requests and did not act on this one. Wait a little and run this item again; orders, payments and refunds are never retried automatically.'
		: offersRetries(endpoint)
			? 'The gateway is limiting requests. Lower Concurrency, or raise Max Retries so that reads wait and try again.'
			: 'The gateway is limiting requests and did not act on this one. Wait a little and run this item again.';
	return [
		{
			resCode: 401,
			description:
				'Check the Client ID and Client Secret in the Payment Gateway API credential, and that the client is active on the gateway.',
		},
		{ resCode: 429, description: rateLimited },
		...(offersRetries(endpoint)
			? [{ resCode: 500, description: 'The gateway had a temporary error. Run again later, or raise Max Retries in the options.' }]
			: []),
		{ resCode: 400, description: 'The gateway refused the request as invalid. Check the fields named in the message.' },
	];
}

function adviceFor(endpoint: Endpoint, resCode: number | undefined, message: string): string | undefined {
	const match = [...FIRST, ...(endpoint.advice ?? []), ...generalAdvice(endpoint)].find(
		(advice) => advice.resCode === resCode && (advice.message === undefined || advice.message.test(message)),
	);
	if (match) return match.description;
	if (resCode !== undefined && resCode >= 500) {
		// A 502 or 504 from a proxy may hide a request that reached the gateway.
		return endpoint.sendsOnce
			? `The gateway or a proxy in front of it failed. ${endpoint.checkFirst}`
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
