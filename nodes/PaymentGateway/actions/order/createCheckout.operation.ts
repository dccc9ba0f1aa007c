import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callSettings, optionsCollection } from '../common';
import { gatewayRequest } from '../../transport/request';
import { orderBody, orderFields } from './fields';

const properties: INodeProperties[] = [...orderFields(true), optionsCollection('write')];

export const description = updateDisplayOptions(
	{ show: { resource: ['order'], operation: ['createCheckout'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	return await gatewayRequest.call(
		this,
		{
			endpoint: 'createCheckout',
			method: 'POST',
			family: 'long',
			path: '/nac/api/v1/pg/orders/create-checkout',
			body: orderBody(this, itemIndex, true),
		},
		callSettings(this, itemIndex),
	);
}
