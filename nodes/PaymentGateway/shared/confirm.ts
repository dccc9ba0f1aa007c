import type { IDataObject, NodeApiError } from 'n8n-workflow';

import { anyText, scalarText } from '../helpers/text';
import type { JsonBounds, JsonExcess } from '../helpers/json';
import { isPlainObject, MAX_JSON_DEPTH, MAX_JSON_VALUES, valueExceeds } from '../helpers/json';
import { declaredOutput } from '../transport/outputs';
import type { Funnel } from '../transport/redact';
import { NOTIFICATION, PROGRESS_FIELDS } from './answers';
import type { CallSettings, Gateway } from '../transport/request';
import { fetchPaymentStatus } from './paymentStatus';

// A notification's or status record's signature is HMAC(client secret, `orderId|paymentId`) and nothing else, and the
// customer's browser carries it (the gateway posts the same record to the merchant's redirect URL). So a valid
// signature proves two ids; a status, an amount, a currency or a receipt beside them is a claim until the gateway
// confirms it. The trigger and Status → Verify Signature both confirm here, and shape their items here.

/**
 * The values a record claims that only the gateway can confirm, and the names the claims keep beside them;
 * `paymentStatus` is the gateway's own name for a status, so a record's is a claim too.
 */
const CLAIM_NAMES = {
	status: 'notifiedStatus',
	amount: 'notifiedAmount',
	currency: 'notifiedCurrency',
	receiptId: 'notifiedReceiptId',
	paymentStatus: 'notifiedPaymentStatus',
} as const;

type Confirmable = Exclude<keyof typeof CLAIM_NAMES, 'paymentStatus'>;

/**
 * Real notifications are under 2 KiB and nest two levels deep; far more is refused before it is walked or matched, in
 * values and depth by the bounds of the gateway's answers.
 */
export const MAX_NOTIFICATION_BYTES = 64 * 1024;

/** A record read whole, not from a request's bytes, bounded as a notification is: in all, and in any one text. */
const RECORD_BOUNDS: JsonBounds = { values: MAX_JSON_VALUES, depth: MAX_JSON_DEPTH, textBytes: MAX_NOTIFICATION_BYTES, totalBytes: MAX_NOTIFICATION_BYTES };
const RECORD_EXCESS: Record<JsonExcess, string> = {
	values: `it has more than ${MAX_JSON_VALUES} values`,
	depth: `it nests deeper than ${MAX_JSON_DEPTH} levels`,
	textBytes: `it is larger than ${MAX_NOTIFICATION_BYTES / 1024} KiB`,
	totalBytes: `it is larger than ${MAX_NOTIFICATION_BYTES / 1024} KiB`,
};

/**
 * Why a record read whole (Status → Verify Signature's incoming item) cannot be a notification; undefined when it can.
 * It stops at the first bound passed, so that a record of megabytes costs no more than one at the bound.
 */
export function oversizeOf(record: unknown): string | undefined {
	const excess = valueExceeds(record, RECORD_BOUNDS);
	return excess && RECORD_EXCESS[excess];
}

/**
 * A record as the trigger and Verify Signature read it: flat, a wrapped one (`{ eventType, data: { … } }`, as the test
 * environment sends them) as its `data` with its `eventType`. Only one level: what a record wraps further is no
 * field of a notification, and is left out.
 */
export function flatRecord(record: IDataObject): IDataObject {
	return isPlainObject(record.data) ? { eventType: record.eventType ?? null, ...record.data } : record;
}

/**
 * The claims of a record: its declared fields (shared/answers.ts NOTIFICATION) of their kinds. A record whose fields
 * together quote a secret or card data keeps none of them. `signed`: the ids a valid signature covers, authentic
 * whatever their shape, which the record then holds as checked.
 */
export function claimsOf(record: IDataObject, funnel: Funnel, signed?: SignedIds): IDataObject {
	const flat = withoutNodeValues(flatRecord(record));
	const { droppedFields, ...claims } = declaredOutput(NOTIFICATION, signed ? { ...flat, ...signed } : flat, funnel) ?? {};
	if (!signed) return droppedFields ? { ...claims, droppedFields } : claims;
	const dropped = (droppedFields as string[] | undefined)?.filter((name) => name !== 'orderId' && name !== 'paymentId');
	return { ...claims, ...(dropped?.length ? { droppedFields: dropped } : {}), orderId: signed.orderId, paymentId: signed.paymentId };
}

/** What the trigger and Verify Signature set themselves: replaced in an item they check again, never taken from it. */
const NODE_NAMES = ['statusVerified', 'statusMismatch', 'recheckError', 'signatureValid', 'confirmationError', 'repeat', 'droppedFields'];

/** A record without the values only the node sets: a record cannot say it was verified. */
export function withoutNodeValues(record: IDataObject): IDataObject {
	const item: IDataObject = { ...record };
	for (const name of NODE_NAMES) delete item[name];
	return item;
}

export interface SignedIds {
	orderId: string;
	paymentId: string;
}

export interface ConfirmationFailure {
	message: string;
	resCode: number | null;
	code: string | null;
}

export type Confirmation =
	| {
			verified: true;
			values: IDataObject;
			/**
			 * The confirmed values of the record that change with each new event of the payment (a refunded total, a
			 * last-update time), where the record has any: with the status, what tells one confirmed state from another.
			 */
			progress: string;
	  }
	| { verified: false; failure: ConfirmationFailure };

/** The confirmed values of a record that change with each event (shared/answers.ts), as one text. */
function progressOf(record: IDataObject): string {
	const parts = Object.keys(PROGRESS_FIELDS)
		.filter((name) => ['string', 'number'].includes(typeof record[name]))
		.map((name) => `${name}=${String(record[name]).trim()}`);
	if (Array.isArray(record.refunds)) parts.push(`refunds=${record.refunds.length}`);
	return parts.join(',');
}

const sameStatus = (a: unknown, b: unknown) => anyText(a).toLowerCase() === anyText(b).toLowerCase();

/**
 * Reads the very payment the ids name, by its paymentId. Confirmed only when the gateway's record is about that
 * payment of that order; the gateway's failures are thrown as the transport's NodeApiError.
 */
export async function confirmPayment(gateway: Gateway, ids: SignedIds, settings: CallSettings): Promise<Confirmation> {
	const record = await fetchPaymentStatus(gateway, ids.paymentId, settings);
	const unconfirmed = (why: string): Confirmation => ({
		verified: false,
		failure: { message: `The gateway's record of payment ${ids.paymentId} ${why}: nothing is confirmed`, resCode: null, code: null },
	});
	if (scalarText(record.paymentId) !== ids.paymentId || scalarText(record.orderId) !== ids.orderId) {
		return unconfirmed(`is not about this payment of order ${ids.orderId}`);
	}
	// Two statuses that disagree confirm nothing: which one the gateway means is unknown.
	const status = record.status ?? record.paymentStatus;
	if (record.status != null && record.paymentStatus != null && !sameStatus(record.status, record.paymentStatus)) {
		return unconfirmed('gives two different statuses');
	}
	const values: IDataObject = {
		status,
		amount: record.amount,
		currency: record.currency,
		receiptId: record.receiptId,
	};
	for (const name of Object.keys(values) as Confirmable[]) if (values[name] === undefined) delete values[name];
	return { verified: true, values, progress: progressOf(record) };
}

/** A failed confirmation as data: the gateway's message and code, never the request. */
export function failureOf(error: unknown): ConfirmationFailure {
	const failure = error as Partial<NodeApiError>;
	return {
		message: failure.message ?? 'The status re-check failed',
		resCode: (failure.context?.resCode as number | undefined) ?? null,
		code: (failure.context?.code as string | undefined) ?? null,
	};
}

/**
 * The record (a notification's declared fields, shared/answers.ts: never what the node sets itself, such as
 * statusVerified) with its four claimable values moved to names that say they are claims. A claim already set aside
 * stays: Verify Signature after the trigger keeps the notification's own claims, not the trigger's confirmed values.
 */
export function claimsSetAside(claims: IDataObject): IDataObject {
	const item: IDataObject = { ...claims };
	for (const [name, claimName] of Object.entries(CLAIM_NAMES)) {
		delete item[name];
		if (name in claims && !(claimName in claims)) item[claimName] = claims[name];
	}
	return item;
}

/**
 * What the trigger and Verify Signature output: the claims set aside, the gateway's values (when it confirmed this
 * payment) under the four names, and `statusVerified`. Nothing unconfirmed is ever under those four names.
 */
export function confirmedItem(claims: IDataObject & SignedIds, confirmation: Confirmation | undefined): IDataObject {
	const item = claimsSetAside(claims);
	if (!confirmation?.verified) return { ...item, statusVerified: false };
	return {
		...item,
		...confirmation.values,
		statusVerified: true,
		statusMismatch: confirmation.values.status !== claims.status,
	};
}

/** A confirmed status that shows a refund. */
export const isRefundStatus = (status: unknown): boolean =>
	typeof status === 'string' && /^(refunded|partially_refunded)$/i.test(status.trim());

export type Outcome = 'succeeded' | 'failed' | 'refunded' | 'other';

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
