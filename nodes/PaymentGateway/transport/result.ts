import type { IDataObject, INode, NodeApiError } from 'n8n-workflow';

import { isPlainObject } from '../helpers/json';
import { gatewayError, gatewayMessage } from './errors';
import { knownFailureFields } from './failureFields';
import { declaredOutput } from './outputs';
import type { Funnel } from './redact';
import { cardDataFunnel } from './redact';
import type { GatewayCall } from './types';
import { offersRetries } from './types';

const CHECK_BASE_URLS =
	'Check that the Base URL and Checkout Base URL in the credential reach the gateway’s merchant API.';

/**
 * A retried delete answered "not found" after an attempt whose answer was lost: that attempt may have removed the
 * card, or the card was never there (wrong id, another customer). The answer cannot tell which, so it is no deletion.
 */
const LOST_DELETE =
	'The card is not stored for this customer now, but this run cannot tell whether it deleted it: an earlier attempt got no usable answer and may have removed the card, or the card was already gone or belongs to another customer. Check the customer’s cards with Digital Card → Get Many; there is nothing left to delete.';

/** The body's resCode, an HTTP-style code of three digits; anything else there (an echoed card number) is none. */
export function numericResCode(body: IDataObject): number | undefined {
	const value = body.resCode;
	if (typeof value !== 'number' && typeof value !== 'string') return undefined;
	const code = Number(value);
	return Number.isInteger(code) && code >= 100 && code <= 999 ? code : undefined;
}

/** The gateway's answers all carry a `status` word or a `resCode`; another server's JSON does not. */
export function isGatewayShaped(body: IDataObject): boolean {
	return typeof body.status === 'string' || numericResCode(body) !== undefined;
}

/** An answer came but is not one of the gateway's: its HTTP status, or `EBADANSWER` when that says nothing. */
export function unreadableAnswerError(
	node: INode,
	call: GatewayCall,
	itemIndex: number,
	what: string,
	httpStatus?: number,
): NodeApiError {
	const failedHttp = httpStatus !== undefined && httpStatus >= 400;
	const { endpoint } = call;
	const error = gatewayError(node, endpoint, itemIndex, {
		resCode: failedHttp ? httpStatus : undefined,
		httpStatus,
		code: failedHttp ? undefined : 'EBADANSWER',
		message: `${endpoint.label}: the gateway sent ${what}`,
		description: endpoint.sendsOnce
			? `Whether the gateway acted on the request is unknown. ${endpoint.checkFirst} If every request ends like this: ${CHECK_BASE_URLS}`
			: httpStatus !== undefined && httpStatus >= 500
				? `The gateway or a proxy in front of it failed. Run again later${offersRetries(endpoint) ? ', or raise Max Retries in the options' : ''}.`
				: `${CHECK_BASE_URLS} Then run again.`,
	});
	// Not the gateway's own word: whatever its status, nothing says that the gateway did not act.
	error.context.unreadAnswer = true;
	return error;
}

/**
 * The data of a JSON answer, or the error it reports thrown. Failures can come with HTTP 200: the body decides. In
 * the flat long-family answers `status` can be a payment's status, so a `failure` there is an error only when the
 * body is not about an order. `uncertain`: the call was sent more than once, and an earlier attempt may have acted
 * (its answer was lost, or was no refusal). What leaves of it is what the endpoint declares (`answer`), every text
 * through `funnel`; a failure leaves only its known fields.
 */
export function dataOfAnswerOrThrow(
	node: INode,
	call: GatewayCall,
	itemIndex: number,
	body: IDataObject,
	httpStatus: number,
	uncertain: boolean,
	funnel: Funnel = cardDataFunnel,
): IDataObject {
	const resCode = numericResCode(body);
	const nested = body.data;
	const record = body.orderId === undefined && isPlainObject(nested) ? nested : body;
	const failed =
		httpStatus >= 400 ||
		(resCode !== undefined && resCode !== 200) ||
		(body.status === 'failure' && (call.family === 'short' || record.orderId === undefined));
	if (failed) {
		const known = knownFailureFields(body, funnel);
		if (call.failureIsData?.(known)) return declaredOf(node, call, itemIndex, body, funnel);
		const error = gatewayError(node, call.endpoint, itemIndex, {
			resCode: resCode ?? httpStatus,
			httpStatus,
			message: gatewayMessage(known, httpStatus),
			body: known,
			// Another server's JSON error (a framework's 404) is not the gateway's: the address is what to fix.
			description: !isGatewayShaped(body)
				? CHECK_BASE_URLS
				: uncertain && call.method === 'DELETE' && (resCode ?? httpStatus) === 404
					? LOST_DELETE
					: undefined,
		});
		// Another server's JSON (a proxy's 403) is not the gateway's word that it did not act.
		if (!isGatewayShaped(body)) error.context.unreadAnswer = true;
		throw error;
	}
	if (!isGatewayShaped(body)) {
		throw gatewayError(node, call.endpoint, itemIndex, {
			httpStatus,
			code: 'EBADANSWER',
			message: `${call.endpoint.label}: the answer does not come from the gateway's merchant API (no status in it)`,
			description: CHECK_BASE_URLS,
		});
	}
	// Check-status is documented flat, but one sample integration reads it under `data`.
	return declaredOf(node, call, itemIndex, call.family === 'short' ? nested : record, funnel);
}

/** What the endpoint declares of an answer; one whose fields together quote a secret is no answer to read. */
function declaredOf(node: INode, call: GatewayCall, itemIndex: number, record: unknown, funnel: Funnel): IDataObject {
	const output = declaredOutput(call.endpoint.answer, record, funnel);
	if (!output) throw unreadableAnswerError(node, call, itemIndex, 'an answer that quotes the credential or the card data it was sent');
	return output;
}
