import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callSettings, optionsCollection } from '../common';
import { gatewayRequest } from '../../transport/request';
import { requireText } from '../../validation';

const properties: INodeProperties[] = [
	{
		displayName: 'Order ID',
		name: 'orderId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.orderId }}',
		description: 'The orderId returned when the order was created',
	},
	optionsCollection('read'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['status'], operation: ['getByOrderId'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const orderId = requireText('Order ID (orderId)', this.getNodeParameter('orderId', itemIndex));
	return await gatewayRequest.call(
		this,
		{
			endpoint: 'statusByOrderId',
			method: 'GET',
			family: 'long',
			path: '/nac/api/v1/pg/orders/check-status',
			query: { orderId },
		},
		callSettings(this, itemIndex),
	);
}
