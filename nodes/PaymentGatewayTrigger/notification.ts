import type { IDataObject } from 'n8n-workflow';

import { isPlainObject, nestsDeeperThan, parseJson } from '../PaymentGateway/helpers/json';
import { scalarText } from '../PaymentGateway/helpers/text';
import { isRefundStatus } from '../PaymentGateway/actions/status/confirm';

/** A notification as the trigger emits it: flat, values trimmed, with the ids it is signed over. */
export interface Notification extends IDataObject {
	orderId: string;
	paymentId: string;
}

export type Outcome = 'succeeded' | 'failed' | 'refunded' | 'other';

/** Real notifications nest two levels deep; anything far deeper is refused before it is walked. */
const MAX_DEPTH = 16;

/** The provider's own document shows values with stray spaces; signatures are over the trimmed values. */
function trimmed(value: unknown): unknown {
	if (typeof value === 'string') return value.trim();
	if (Array.isArray(value)) return value.map(trimmed);
	if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, trimmed(entry)]));
	return value;
}

/** The request's own bytes decide when n8n kept them: a form or other non-JSON body is not a notification. */
function jsonOf(body: unknown, rawBody: unknown): unknown {
	const raw = Buffer.isBuffer(rawBody) ? rawBody.toString('utf8') : typeof body === 'string' ? body : '';
	return raw.trim() ? parseJson(raw) : body;
}

/**
 * The notification in a request, flat or wrapped as `{ eventType, data }`, or undefined when the body is not a
 * JSON object naming an order and a payment.
 */
export function readNotification(body: unknown, rawBody: unknown): Notification | undefined {
	const json = jsonOf(body, rawBody);
	if (!isPlainObject(json) || nestsDeeperThan(json, MAX_DEPTH)) return undefined;
	const parsed = trimmed(json) as IDataObject;
	const flat = isPlainObject(parsed.data) ? { eventType: parsed.eventType ?? null, ...parsed.data } : parsed;
	const orderId = scalarText(flat.orderId) ?? '';
	const paymentId = scalarText(flat.paymentId) ?? '';
	if (!orderId || !paymentId) return undefined;
	return { ...flat, orderId, paymentId };
}

const SUCCEEDED = /^(success|succeeded|successful|completed|paid|captured)$/i;
const FAILED = /^(failure|failed|declined|cancell?ed|rejected|expired)$/i;

/**
 * What the gateway's confirmed status reports: a refund only where it shows one, so that a paid payment notified as
 * `REFUND_SUCCESS` is a success, and a late notification of a payment refunded since is a refund.
 */
export function confirmedOutcome(status: unknown): Outcome {
	const text = typeof status === 'string' ? status.trim() : '';
	if (isRefundStatus(text)) return 'refunded';
	if (SUCCEEDED.test(text)) return 'succeeded';
	if (FAILED.test(text)) return 'failed';
	return 'other';
}

/**
 * What a notification claims, for a trigger whose author turned the re-check off: a refund is told by its event
 * type, its refundId or its status; anything else by its status.
 */
export function claimedOutcome(notification: IDataObject): Outcome {
	const event = typeof notification.eventType === 'string' ? notification.eventType.toUpperCase() : '';
	const status = typeof notification.status === 'string' ? notification.status : '';
	const refundId = notification.refundId;
	if (event.startsWith('REFUND') || (typeof refundId === 'string' && refundId !== '') || /refund/i.test(status)) {
		return event === 'REFUND_FAILED' ? 'other' : 'refunded';
	}
	return confirmedOutcome(status);
}
