import type { IDataObject } from 'n8n-workflow';

import { numericResCode } from './result';
import type { CallSettings, GatewayCall } from './types';
import { isWrite } from './types';

const MAX_RETRY_WAIT_MS = 60_000;

/** How often a call may be sent again: never a write, whatever the settings ask. */
export function retriesAllowed(call: GatewayCall, settings: CallSettings): number {
	return isWrite(call) ? 0 : Math.max(0, Math.floor(settings.maxRetries ?? 0));
}

function isRetryable(code: number | undefined): boolean {
	return code !== undefined && (code === 429 || code >= 500);
}

/**
 * A 429 or 5xx may be told by the HTTP status or, under HTTP 200, by the body's resCode; a success that is not
 * JSON (`body` undefined) is no answer either.
 */
export function asksForRetry(httpStatus: number, body: IDataObject | undefined): boolean {
	return isRetryable(httpStatus) || isRetryable(body ? numericResCode(body) : undefined) || (!body && httpStatus < 300);
}

/** The wait before the next attempt: what Retry-After asks, else a doubling back-off; never over a minute. */
export function retryDelayMs(attempt: number, retryAfter: unknown): number {
	const header = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
	if (typeof header === 'string' && header.trim()) {
		const seconds = Number(header);
		const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
		if (Number.isFinite(ms)) return Math.min(Math.max(ms, 0), MAX_RETRY_WAIT_MS);
	}
	return Math.min(500 * 2 ** attempt, MAX_RETRY_WAIT_MS);
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
