import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { PAYMENT_RECORD } from '../../shared/answers';
import type { Confirmation, SignedIds } from '../../shared/confirm';
import { claimsOf, claimsSetAside, confirmedItem, confirmPayment, oversizeOf } from '../../shared/confirm';
import { claimOf, explainedClaim, Rechecks } from '../../shared/rechecks';
import { NODE_FIELDS, repeatKindOf, Repeats, VERIFIED_FIELDS, verifiedScope } from '../../shared/repeats';
import { isAuthenticSignature } from '../../transport/crypto';
import { UNKNOWN_ID } from '../../transport/errors';
import type { Gateway } from '../../transport/request';
import { InvalidCredential } from '../../validation/credential';
import { InvalidInput, requireText } from '../../validation/input';
import { callSettings } from '../common';
import { orderIdField, paymentIdField } from '../fields';
import { defineOperation } from '../operation';
import { outsideToolMode } from '../toolMode';

const properties: INodeProperties[] = [
	{
		displayName:
			"A valid signature proves only the orderId and paymentId: the customer's browser carries it, with any status or amount beside it. Act on the gateway's values (Confirm With Gateway). For notifications the gateway posts to n8n, the Payment Gateway Trigger does all this by itself.",
		name: 'verifyNotice',
		type: 'notice',
		default: '',
		displayOptions: outsideToolMode,
	},
	// Read from the incoming notification or status record unless told otherwise.
	{ ...orderIdField, default: '={{ $json.orderId }}', description: 'The orderId of the notification or status record' },
	{ ...paymentIdField, default: '={{ $json.paymentId }}', description: 'The paymentId of the notification or status record' },
	{
		displayName: 'Signature',
		name: 'signature',
		type: 'string',
		default: '={{ $json.signature }}',
		description: 'The signature to check: lowercase hex HMAC-SHA256 of "orderId|paymentId" keyed with the client secret',
	},
	{
		displayName: 'Confirm With Gateway',
		name: 'confirmWithGateway',
		type: 'boolean',
		default: true,
		description:
			"Whether to read the payment from the gateway when the signature is valid. A signature proves only the orderId and paymentId: with this on, status, amount, currency and receiptId are the gateway's, the record's own values stay under notifiedStatus, notifiedAmount, notifiedCurrency and notifiedReceiptId, and statusVerified says whether the gateway confirmed this payment. Off, nothing is sent and the record's values are unconfirmed claims.",
	},
];

/**
 * The incoming item's declared fields (a notification's, shared/answers.ts) with `signatureValid`; a missing or wrong
 * signature is data, not an error. The item comes from a customer's browser: it is bounded as a notification is and its
 * signature checked before anything else is done with it. Confirming, a valid signature's payment is read from the
 * gateway (nothing is sent for an invalid one) and the item holds the gateway's values where the record's claims were.
 * `repeat` says whether this workflow verified this payment in this confirmed state before.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number, gateway: Gateway) {
	const incoming = this.getInputData()[itemIndex].json;
	const oversize = oversizeOf(incoming);
	if (oversize) throw new InvalidInput('The incoming item', `is not read: ${oversize}, and a notification or status record is far smaller`);
	const orderId = requireText('Order ID (orderId)', this.getNodeParameter('orderId', itemIndex));
	const paymentId = requireText('Payment ID (paymentId)', this.getNodeParameter('paymentId', itemIndex));
	const signature = this.getNodeParameter('signature', itemIndex, '');
	if (!gateway.clientSecret) throw new InvalidCredential('Client Secret', 'is empty');
	const signatureValid = isAuthenticSignature(gateway.clientSecret, orderId, paymentId, signature);
	// The ids a valid signature covers are the record's, as checked; an invalid signature's are claims like the rest.
	const record = claimsOf(incoming, gateway.funnel, signatureValid ? { orderId, paymentId } : undefined);
	const confirm = this.getNodeParameter('confirmWithGateway', itemIndex, true) !== false;
	// Unconfirmed by choice, the record's values are where it put them, as claims; an invalid signature's are set aside.
	// Nothing confirmed is nothing to repeat: only a confirmed state is remembered.
	if (!confirm) return { ...record, signatureValid, statusVerified: false, repeat: false };
	if (!signatureValid) return { ...claimsSetAside(record), signatureValid, statusVerified: false, repeat: false };
	const read = async () => await confirmPayment(gateway, { orderId, paymentId }, callSettings(this, itemIndex));
	// A person's run in the editor reads the gateway each time: no flood to share, and a test must see it as it is.
	const confirmation = this.getMode() === 'manual' ? await read() : await sharedConfirmation(this, record, { orderId, paymentId }, read);
	const item: IDataObject = { ...confirmedItem({ ...record, orderId, paymentId }, confirmation), signatureValid };
	if (!confirmation.verified) return { ...item, confirmationError: { ...confirmation.failure }, repeat: false };
	return { ...item, repeat: verifiedBefore(this, paymentId, confirmation) };
}

const NOT_READ_AGAIN: Confirmation = {
	verified: false,
	failure: {
		message:
			'The gateway was not read for this record: this payment was read moments ago and is read again only after a pause, as replays of one record share its reads. Nothing is confirmed; check it again in a few seconds.',
		resCode: null,
		code: null,
	},
};

/** This node's scope for its reads in the process: the trigger's reads are kept apart. */
const scopeOf = (ctx: IExecuteFunctions) => `${ctx.getWorkflow().id ?? ''}\u0000${ctx.getNode().name}`;

/**
 * Replays of one record (a customer posting their own, a redirect delivered twice) share and space this node's reads
 * of the payment as the trigger's are (shared/rechecks.ts): the gateway's reads grow with the payments, not the records.
 */
async function sharedConfirmation(ctx: IExecuteFunctions, record: IDataObject, ids: SignedIds, read: () => Promise<Confirmation>): Promise<Confirmation> {
	const rechecks = new Rechecks(scopeOf(ctx), { explainedFor: 'gap', waitersPerRead: Infinity });
	const claim = claimOf(record);
	const shared = await rechecks.recheck(ids.paymentId, claim, read, true);
	if (shared.kind === 'dropped') return NOT_READ_AGAIN;
	const { confirmation } = shared;
	if (confirmation.verified) rechecks.learnt(ids.paymentId, confirmation, explainedClaim(confirmation.values.status, record.status, claim));
	return confirmation;
}

/**
 * Whether this workflow, through any of its Verify Signature nodes, verified this payment in this confirmed state
 * before, remembered in the workflow's global static data as the trigger remembers its notifications
 * (shared/repeats.ts). A manual run teaches nothing: n8n keeps no static data of it, and a test must not make the real
 * record a repeat.
 */
function verifiedBefore(ctx: IExecuteFunctions, paymentId: string, confirmation: Confirmation & { verified: true }): boolean {
	if (ctx.getMode() === 'manual') return false;
	let global: IDataObject;
	let node: IDataObject;
	try {
		global = ctx.getWorkflowStaticData('global');
		node = ctx.getWorkflowStaticData('node');
	} catch {
		return false;
	}
	const repeats = new Repeats(global, verifiedScope(ctx.getWorkflow().id ?? ''), VERIFIED_FIELDS);
	// What this node remembered when the memory was per node: read once, then left to the workflow's store.
	if (NODE_FIELDS.paid in node || NODE_FIELDS.unpaid in node) {
		repeats.learn(node, NODE_FIELDS);
		delete node[NODE_FIELDS.paid];
		delete node[NODE_FIELDS.unpaid];
	}
	const { status } = confirmation.values;
	const repeat = repeats.handledBefore(paymentId, status, confirmation.progress, repeatKindOf(status));
	repeats.save();
	return repeat;
}

export const operation = defineOperation({
	resource: 'status',
	value: 'verifySignature',
	name: 'Verify Signature',
	description: "Check a notification's or status record's signature, without sending anything",
	action: 'Verify a payment signature',
	sendsOnce: false,
	toolDescription:
		"Checks whether the signature of a payment notification or status record is authentic and, unless told otherwise, reads that payment's status, amount and currency from the gateway; changes nothing. Needs the record's orderId, paymentId and signature. Returns signatureValid, statusVerified, the gateway's status, amount, currency and receiptId, and repeat (true when this workflow verified this payment in this status before).",
	properties,
	// Its one request is the confirmation's read, with the defaults of the reads.
	options: false,
	advice: [UNKNOWN_ID],
	answer: PAYMENT_RECORD,
	execute,
});
