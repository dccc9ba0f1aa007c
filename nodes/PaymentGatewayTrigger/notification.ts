import type { IDataObject } from 'n8n-workflow';

import { isPlainObject, MAX_JSON_DEPTH, MAX_JSON_VALUES, parseJson } from '../PaymentGateway/helpers/json';
import { scalarText } from '../PaymentGateway/helpers/text';
import type { Outcome } from '../PaymentGateway/shared/confirm';
import { confirmedOutcome, flatRecord, MAX_NOTIFICATION_BYTES } from '../PaymentGateway/shared/confirm';

/** A notification as the trigger emits it: flat, values trimmed, with the ids it is signed over. */
export interface Notification extends IDataObject {
	orderId: string;
	paymentId: string;
}

export type { Outcome };
export { confirmedOutcome };

export { MAX_NOTIFICATION_BYTES };
/** The longest text a notification's field may hold (a redirect URL is the longest real one). */
export const MAX_FIELD_CHARS = 2048;
/** Ids are signed and go into the re-check's path: the gateway's are under 64 characters. */
const MAX_ID_CHARS = 255;

/** A request the trigger answers without running anything: its HTTP status and what it says, naming the field. */
export class RefusedNotification {
	constructor(
		readonly statusCode: number,
		readonly message: string,
	) {}
}

class TooLarge extends Error {}

/**
 * The provider's own document shows values with stray spaces; signatures are over the trimmed values. Every text is
 * bounded here, before anything matches it: the field that is too long or too deep is named.
 */
function trimmed(value: unknown, path: string, budget: { values: number }, depth = 0): unknown {
	if (--budget.values < 0) throw new TooLarge(`body has more than ${MAX_JSON_VALUES} values (at field ${path || 'body'})`);
	if (typeof value === 'string') {
		if (value.length > MAX_FIELD_CHARS) throw new TooLarge(`field ${path || 'body'} is longer than ${MAX_FIELD_CHARS} characters`);
		return value.trim();
	}
	if (value === null || typeof value !== 'object') return value;
	if (depth >= MAX_JSON_DEPTH) throw new TooLarge(`field ${path || 'body'} nests deeper than ${MAX_JSON_DEPTH} levels`);
	if (Array.isArray(value)) return value.map((entry, index) => trimmed(entry, `${path}[${index}]`, budget, depth + 1));
	return Object.fromEntries(
		Object.entries(value).map(([key, entry]) => {
			const name = key.length > 64 ? `${key.slice(0, 64)}…` : key;
			if (key.length > MAX_FIELD_CHARS) throw new TooLarge(`has a field name longer than ${MAX_FIELD_CHARS} characters`);
			return [key, trimmed(entry, path ? `${path}.${name}` : name, budget, depth + 1)];
		}),
	);
}

/** The request's own bytes decide when n8n kept them: a form or other non-JSON body is not a notification. */
function jsonOf(body: unknown, rawBody: unknown): unknown {
	const raw = Buffer.isBuffer(rawBody) ? rawBody.toString('utf8') : typeof body === 'string' ? body : '';
	return raw.trim() ? parseJson(raw) : body;
}

const NOT_A_NOTIFICATION = 'Not a payment notification: a JSON object with orderId and paymentId is expected';

/**
 * The notification in a request, flat or wrapped as `{ eventType, data }`; refused (400) when the body is not a JSON
 * object naming an order and a payment, and (413) when it is far larger than a notification, before it is parsed.
 */
export function readNotification(body: unknown, rawBody: unknown): Notification | RefusedNotification {
	const size = Buffer.isBuffer(rawBody) ? rawBody.length : typeof body === 'string' ? Buffer.byteLength(body) : 0;
	const oversized = size > MAX_NOTIFICATION_BYTES;
	// Too large a body is not parsed again: the field to blame is looked for in what n8n parsed, if anything.
	const json = oversized ? body : jsonOf(body, rawBody);
	if (!isPlainObject(json)) {
		return oversized
			? new RefusedNotification(413, `Not a payment notification: the body is larger than ${MAX_NOTIFICATION_BYTES / 1024} KiB`)
			: new RefusedNotification(400, NOT_A_NOTIFICATION);
	}
	let parsed: IDataObject;
	try {
		parsed = trimmed(json, '', { values: MAX_JSON_VALUES }) as IDataObject;
	} catch (error) {
		// Only a bound throws there (a stack overflow cannot happen: the depth is bounded first).
		const why = error instanceof TooLarge ? `its ${error.message.replace(/^body /, '')}` : 'it cannot be read';
		return new RefusedNotification(oversized ? 413 : 400, `Not a payment notification: ${why}`);
	}
	if (oversized) return new RefusedNotification(413, `Not a payment notification: the body is larger than ${MAX_NOTIFICATION_BYTES / 1024} KiB`);
	const flat = flatRecord(parsed);
	const orderId = scalarText(flat.orderId) ?? '';
	const paymentId = scalarText(flat.paymentId) ?? '';
	if (!orderId || !paymentId) return new RefusedNotification(400, NOT_A_NOTIFICATION);
	for (const [name, id] of [['orderId', orderId], ['paymentId', paymentId]]) {
		if (id.length > MAX_ID_CHARS) return new RefusedNotification(400, `Not a payment notification: its ${name} is longer than ${MAX_ID_CHARS} characters`);
	}
	return { ...flat, orderId, paymentId };
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
