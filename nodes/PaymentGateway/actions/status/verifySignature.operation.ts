import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { isAuthenticSignature } from '../../transport/crypto';
import type { Gateway } from '../../transport/request';
import { InvalidCredential } from '../../validation/credential';
import { requireText } from '../../validation/input';
import { orderIdField, paymentIdField } from '../fields';
import { outsideToolMode, toolDescriptionField } from '../toolMode';

const properties: INodeProperties[] = [
	toolDescriptionField(
		"Checks whether the signature of a payment notification or status record is authentic; sends nothing and changes nothing. Needs the record's orderId, paymentId and signature. Returns the values given with signatureValid (true or false).",
	),
	{
		displayName:
			'Checks a payment notification or status record locally; nothing is sent. For notifications the gateway posts to n8n, the Payment Gateway Trigger does this by itself.',
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
];

export const description = updateDisplayOptions(
	{ show: { resource: ['status'], operation: ['verifySignature'] } },
	properties,
);

/** The incoming item, unchanged, with `signatureValid`; a missing or wrong signature is data, not an error. */
export async function execute(this: IExecuteFunctions, itemIndex: number, gateway: Gateway) {
	const orderId = requireText('Order ID (orderId)', this.getNodeParameter('orderId', itemIndex));
	const paymentId = requireText('Payment ID (paymentId)', this.getNodeParameter('paymentId', itemIndex));
	const signature = this.getNodeParameter('signature', itemIndex, '');
	if (!gateway.clientSecret) throw new InvalidCredential('Client Secret', 'is empty');
	return {
		...this.getInputData()[itemIndex].json,
		signatureValid: isAuthenticSignature(gateway.clientSecret, orderId, paymentId, signature),
	};
}
