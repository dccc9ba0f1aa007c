import type { IDataObject } from 'n8n-workflow';

import type { PaceOutcome } from './adaptiveLimit';
import { numericResCode } from './result';
import type { CallSettings, GatewayCall } from './types';

const MAX_RETRY_WAIT_MS = 60_000;

/** How often a call may be sent again: never a write, whatever the settings ask. */
export function retriesAllowed(call: GatewayCall, settings: CallSettings): number {
	return call.endpoint.sendsOnce ? 0 : Math.max(0, Math.floor(settings.maxRetries ?? 0));
}

function isRetryable(code: number | undefined): boolean {
	return code !== undefined && (code === 429 || code >= 500);
}

/** The gateway (or a proxy) refused the request for its rate, before acting on it: by HTTP status or by resCode. */
export function isRateLimited(httpStatus: number, body: IDataObject | undefined): boolean {
	return httpStatus === 429 || (body !== undefined && numericResCode(body) === 429);
}

/**
 * A 429 or 5xx may be told by the HTTP status or, under HTTP 200, by the body's resCode; a success that is not
 * JSON (`body` undefined) is no answer either.
 */
export function asksForRetry(httpStatus: number, body: IDataObject | undefined): boolean {
	return isRetryable(httpStatus) || isRetryable(body ? numericResCode(body) : undefined) || (!body && httpStatus < 300);
}

/** What a Retry-After header asks for (seconds or an HTTP date), never over a minute; undefined without one. */
export function retryAfterMs(retryAfter: unknown): number | undefined {
	const header = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
	if (typeof header === 'string' && header.trim()) {
		const seconds = Number(header);
		const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
		if (Number.isFinite(ms)) return Math.min(Math.max(ms, 0), MAX_RETRY_WAIT_MS);
	}
	return undefined;
}

/** The wait before the next attempt: what Retry-After asks, else a doubling back-off; never over a minute. */
export function retryDelayMs(attempt: number, retryAfter: unknown): number {
	return retryAfterMs(retryAfter) ?? Math.min(500 * 2 ** attempt, MAX_RETRY_WAIT_MS);
}

/**
 * What an answer says of the gateway's load: a 429 or 503 (by HTTP status or resCode) is a refusal, with the pause its
 * Retry-After asks for; any other JSON answer below 500 (an order's status, or "not found") is the gateway keeping
 * up, and its time counts; a 5xx or an answer that is not JSON says nothing.
 */
export function paceOutcome(httpStatus: number, body: IDataObject | undefined, retryAfter: unknown): PaceOutcome {
	const code = body ? numericResCode(body) : undefined;
	if ([httpStatus, code].some((status) => status === 429 || status === 503)) {
		return { kind: 'refused', pauseMs: retryAfterMs(retryAfter) };
	}
	return httpStatus < 500 && body && (code === undefined || code < 500) ? { kind: 'answered' } : { kind: 'other' };
}

/**
 * The wait before attempt `attemptIndex + 2`, or undefined when no retry is to be made: the retries are used up, or
 * the wait would take the waits so far past `settings.maxTotalRetryWaitMs` (a Retry-After is honoured, not cut short).
 */
export function nextRetryWaitMs(
	attemptIndex: number,
	maxRetries: number,
	waitedMs: number,
	settings: CallSettings,
	retryAfter: unknown,
): number | undefined {
	if (attemptIndex >= maxRetries) return undefined;
	const wait = retryDelayMs(attemptIndex, retryAfter);
	return waitedMs + wait > (settings.maxTotalRetryWaitMs ?? Infinity) ? undefined : wait;
}
