import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callSettings, optionsCollection } from '../common';
import type { Gateway } from '../../transport/request';
import { toolDescriptionField } from '../toolMode';
import { orderBody, orderFields } from './fields';

const properties: INodeProperties[] = [
	toolDescriptionField(
		"Creates an order for a card payment. It moves no money: the order is paid afterwards by charging a card for it. Needs the amount, the currency (a three-letter code such as OMR) and the customer's name, e-mail and phone. Returns the order with its orderId.",
	),
	...orderFields(false),
	...optionsCollection('sentOnce'),
];

/** A second one would make a second order, payment or refund. */
export const sendsOnce = true;

export const description = updateDisplayOptions({ show: { resource: ['order'], operation: ['create'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number, gateway: Gateway) {
	return await gateway.request(
		{ endpoint: 'createOrder', method: 'POST', family: 'short', path: '/order', body: orderBody(this, itemIndex, false) },
		callSettings(this, itemIndex),
	);
}
