import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { PAYMENT_RECORD } from '../../shared/answers';
import { claimsOf, claimsSetAside, confirmedItem, confirmPayment, oversizeOf } from '../../shared/confirm';
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
	if (!confirm) return { ...record, signatureValid, statusVerified: false };
	if (!signatureValid) return { ...claimsSetAside(record), signatureValid, statusVerified: false };
	const confirmation = await confirmPayment(gateway, { orderId, paymentId }, callSettings(this, itemIndex));
	const item: IDataObject = { ...confirmedItem({ ...record, orderId, paymentId }, confirmation), signatureValid };
	if (!confirmation.verified) item.confirmationError = { ...confirmation.failure };
	return item;
}

export const operation = defineOperation({
	resource: 'status',
	value: 'verifySignature',
	name: 'Verify Signature',
	description: "Check a notification's or status record's signature, without sending anything",
	action: 'Verify a payment signature',
	sendsOnce: false,
	toolDescription:
		"Checks whether the signature of a payment notification or status record is authentic and, unless told otherwise, reads that payment's status, amount and currency from the gateway; changes nothing. Needs the record's orderId, paymentId and signature. Returns signatureValid, statusVerified and the gateway's status, amount, currency and receiptId.",
	properties,
	// Its one request is the confirmation's read, with the defaults of the reads.
	options: false,
	advice: [UNKNOWN_ID],
	answer: PAYMENT_RECORD,
	execute,
});

export const description = operation.fields;
