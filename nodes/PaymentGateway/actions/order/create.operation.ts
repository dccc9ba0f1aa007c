import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callSettings, optionsCollection } from '../common';
import type { Gateway } from '../../transport/request';
import { orderBody, orderFields } from './fields';

const properties: INodeProperties[] = [...orderFields(false), optionsCollection('write')];

export const description = updateDisplayOptions({ show: { resource: ['order'], operation: ['create'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number, gateway: Gateway) {
	return await gateway.request(
		{ endpoint: 'createOrder', method: 'POST', family: 'short', path: '/order', body: orderBody(this, itemIndex, false) },
		callSettings(this, itemIndex),
	);
}
