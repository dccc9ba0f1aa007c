import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callSettings, optionsCollection } from '../common';
import type { Gateway } from '../../transport/request';
import { paymentIdField } from '../fields';
import { toolDescriptionField } from '../toolMode';
import { fetchPaymentStatus } from './paymentStatus';
import { simplifiedStatus, simplifyOption, wantsSimplified } from './simplify';

const properties: INodeProperties[] = [
	toolDescriptionField(
		'Reads the status of one payment; changes nothing and moves no money. Needs the paymentId (from the payment, a refund or a notification). Returns the status (e.g. success, failure, pending or refunded), the amount and currency, the orderId, the card network and the time.',
	),
	paymentIdField,
	...optionsCollection('repeatable', [simplifyOption]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['status'], operation: ['getByPaymentId'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, gateway: Gateway) {
	const record = await fetchPaymentStatus(gateway, this.getNodeParameter('paymentId', itemIndex), callSettings(this, itemIndex));
	return wantsSimplified(this, itemIndex) ? simplifiedStatus(record) : record;
}
