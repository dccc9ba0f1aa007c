import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callSettings, optionsCollection } from '../common';
import type { Gateway } from '../../transport/request';
import { requireText, validateAmount } from '../../validation';
import { assertWithinToolLimit, toolDescriptionField, toolLimitFields } from '../toolMode';

/** The gateway settles in currencies of up to three decimals, and a refund names no currency of its own. */
const REFUND_DIGITS = 3;

const properties: INodeProperties[] = [
	toolDescriptionField(
		"Refunds a payment: this moves money back to the customer and cannot be undone. Needs the paymentId of a successful payment and the amount to give back (less than the payment for a partial refund). Refused, with nothing sent, when the amount is above this tool's Maximum Amount per Call. Returns the refund (refundId, amount, paymentStatus).",
	),
	{
		displayName:
			'A refund moves money back to the customer. It is sent once and never retried automatically: if it fails without a clear answer, check the payment with Status → Get by Payment ID before refunding again.',
		name: 'refundNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Payment ID',
		name: 'paymentId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.paymentId }}',
		description: 'The paymentId of the successful payment to refund',
	},
	{
		displayName: 'Amount',
		name: 'amount',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: REFUND_DIGITS },
		required: true,
		default: 0,
		placeholder: 'e.g. 10.50',
		description:
			"How much to give back, in the payment's currency. Less than the payment for a partial refund; all refunds of a payment add up to at most its amount.",
	},
	...toolLimitFields('refund'),
	optionsCollection('write'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['refund'] } },
	properties,
);

/** One public source spells two fields of the refund record wrongly; users get the right names either way. */
const MISSPELT: Record<string, string> = { compltedAt: 'completedAt', signarture: 'signature' };

function withFieldNamesFixed(record: IDataObject): IDataObject {
	const fixed: IDataObject = {};
	for (const [key, value] of Object.entries(record)) {
		const name = MISSPELT[key] ?? key;
		if (!(name in fixed) || name === key) fixed[name] = value;
	}
	return fixed;
}

export async function execute(this: IExecuteFunctions, itemIndex: number, gateway: Gateway) {
	const settings = callSettings(this, itemIndex);
	const body: IDataObject = {
		paymentId: requireText('Payment ID (paymentId)', this.getNodeParameter('paymentId', itemIndex)),
		amount: validateAmount('Amount (amount)', this.getNodeParameter('amount', itemIndex), REFUND_DIGITS),
	};
	assertWithinToolLimit(this, itemIndex, body.amount as number, 'refund');
	const refund = await gateway.request(
		{ endpoint: 'refund', method: 'POST', family: 'short', path: '/transaction/refund', body },
		settings,
	);
	return withFieldNamesFixed(refund);
}
