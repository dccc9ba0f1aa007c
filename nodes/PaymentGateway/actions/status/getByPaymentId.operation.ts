import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callSettings, optionsCollection } from '../common';
import type { Gateway } from '../../transport/request';
import { pathSegment } from '../../validation';

const properties: INodeProperties[] = [
	{
		displayName: 'Payment ID',
		name: 'paymentId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.paymentId }}',
		description: 'The paymentId returned by Transaction → Initiate',
	},
	optionsCollection('read'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['status'], operation: ['getByPaymentId'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, gateway: Gateway) {
	const paymentId = pathSegment('Payment ID (paymentId)', this.getNodeParameter('paymentId', itemIndex));
	return await gateway.request(
		{ endpoint: 'statusByPaymentId', method: 'GET', family: 'short', path: `/transaction/status/${paymentId}` },
		callSettings(this, itemIndex),
	);
}
