import type { INode, NodeApiError } from 'n8n-workflow';

import { gatewayError } from './errors';
import type { GatewayCall } from './types';
import { offersRetries } from './types';

/** No answer arrived: the request may or may not have reached the gateway. */
export class NoAnswer extends Error {
	constructor(
		readonly code: string,
		readonly timedOut: boolean,
	) {
		super(code);
	}
}

/** Said in words: n8n replaces a message that names a network code with its own generic text. */
export const NETWORK_PHRASES: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused',
	ECONNRESET: 'the connection closed before an answer',
	ENOTFOUND: 'its host name was not found',
	EAI_AGAIN: 'its host name could not be looked up',
	EHOSTUNREACH: 'its host is unreachable',
	ENETUNREACH: 'its network is unreachable',
	EPIPE: 'the connection broke while sending',
};

const NETWORK_CODES = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|ECONNABORTED|ENOTFOUND|EAI_AGAIN|EPIPE|EHOSTUNREACH|ENETUNREACH|socket hang up|aborted|timeout/i;

/** Only the code of a failed request goes on: the error itself can hold the signed request and its headers. */
export function noAnswerOf(error: unknown, deadline: { readonly passed: boolean }): NoAnswer {
	if (error instanceof NoAnswer) return error;
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		const candidate = current as { code?: unknown; message?: unknown; cause?: unknown };
		for (const value of [candidate.code, candidate.message]) {
			const match = typeof value === 'string' ? NETWORK_CODES.exec(value) : null;
			if (!match) continue;
			const timedOut = /ECONNABORTED|ETIMEDOUT|timeout/i.test(match[0]);
			const code = timedOut ? 'ETIMEDOUT' : /hang up|aborted/i.test(match[0]) ? 'ECONNRESET' : match[0];
			return new NoAnswer(code, timedOut);
		}
		current = candidate.cause;
	}
	return new NoAnswer(deadline.passed ? 'ETIMEDOUT' : 'EREQUEST', deadline.passed);
}

/** No answer came: the network's code, and for a write the advice to check before sending it again. */
export function noAnswerError(
	node: INode,
	call: GatewayCall,
	itemIndex: number,
	failure: NoAnswer,
	timeout: number,
): NodeApiError {
	const { endpoint } = call;
	const { label } = endpoint;
	return gatewayError(node, endpoint, itemIndex, {
		message: failure.timedOut
			? `${label}: the gateway did not answer within the time-out of ${timeout} ms`
			: `${label}: could not reach the payment gateway (${NETWORK_PHRASES[failure.code] ?? 'the request failed'})`,
		code: failure.code,
		description: endpoint.sendsOnce
			? `The request may or may not have reached the gateway. ${endpoint.checkFirst}`
			: failure.timedOut
				? `The gateway was slow to answer. Raise Timeout in the options (its test environment can take 30-40 s)${offersRetries(endpoint) ? ', or Max Retries' : ''}.`
				: 'Check the Base URL in the credential and that the gateway is reachable, then run again.',
	});
}

/** A 3xx answer: the gateway's answers are never redirects, and following one would send the credentials elsewhere. */
export const isRedirect = (statusCode: number): boolean => statusCode >= 300 && statusCode < 400;

/** Whether the answer is a redirect; its body is then let go of unread, so that its connection is freed. */
export function droppedRedirect(response: { statusCode?: number; body?: unknown }): boolean {
	if (!isRedirect(response.statusCode ?? 0)) return false;
	const stream = response.body as { destroy?: () => void } | null | undefined;
	if (stream && typeof stream.destroy === 'function') stream.destroy();
	return true;
}

/**
 * A redirect is never followed (n8n's helper would send the Basic header and a signed body to its address): it fails
 * the call, naming the credential field whose address answered it. A write may have been acted on before it.
 */
export function redirectError(node: INode, call: GatewayCall, itemIndex: number, httpStatus: number, field: string): NodeApiError {
	const { endpoint } = call;
	const error = gatewayError(node, endpoint, itemIndex, {
		message: `${endpoint.label}: the gateway answered with a redirect (HTTP ${httpStatus}) to another address, which was not followed`,
		httpStatus,
		code: 'EREDIRECT',
		description: [
			`Nothing was sent to the redirect's address: the credentials and the signed request go only to the ${field}.`,
			`Check the ${field} in the Payment Gateway API credential: it must be the gateway's own https:// address as given at onboarding (a redirect usually means a wrong scheme, host or path, or a proxy in the way).`,
			endpoint.sendsOnce ? `The gateway may have acted before redirecting. ${endpoint.checkFirst}` : '',
		]
			.filter(Boolean)
			.join(' '),
	});
	error.context.unreadAnswer = true;
	return error;
}
