import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callSettings, optionsCollection } from '../common';
import type { Gateway } from '../../transport/request';
import { validateUrl } from '../../validation/input';
import { toolDescriptionField } from '../toolMode';
import { checkoutUrl, orderBody, orderFields } from './fields';

const properties: INodeProperties[] = [
	toolDescriptionField(
		"Creates an order that the customer pays on the gateway's hosted checkout page. It moves no money: the customer decides on that page. Needs the amount, the currency (a three-letter code such as OMR) and the customer's name, e-mail and phone. Returns the orderId and, when the checkout page is set up, the checkoutUrl to give the customer.",
	),
	...orderFields(true),
	...optionsCollection('sentOnce'),
];

/** A second one would make a second order, payment or refund. */
export const sendsOnce = true;

export const description = updateDisplayOptions(
	{ show: { resource: ['order'], operation: ['createCheckout'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, gateway: Gateway) {
	const { redirectUrl } = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const returnTo = redirectUrl ? validateUrl('Redirect URL (additionalFields.redirectUrl)', redirectUrl) : undefined;
	const order = await gateway.request(
		{
			endpoint: 'createCheckout',
			method: 'POST',
			family: 'long',
			path: '/nac/api/v1/pg/orders/create-checkout',
			body: orderBody(this, itemIndex, true),
		},
		callSettings(this, itemIndex),
	);
	if (!gateway.checkoutPageUrl || !returnTo || typeof order.orderId !== 'string') return order;
	return { ...order, checkoutUrl: checkoutUrl(gateway.checkoutPageUrl, order.orderId, returnTo, gateway.clientId) };
}
