import type { IDataObject, IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import type { Gateway } from '../../transport/request';
import { validateUrl } from '../../validation/input';
import { callSettings } from '../common';
import { defineOperation } from '../operation';
import { checkoutUrl, ORDER_CHECK_FIRST, orderBody, orderFields } from './fields';
import { CHECKOUT_ORDER } from '../../shared/answers';

const redirectUrlOf = (ctx: IExecuteFunctions, itemIndex: number) =>
	(ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject).redirectUrl;

export async function execute(this: IExecuteFunctions, itemIndex: number, gateway: Gateway) {
	const redirectUrl = redirectUrlOf(this, itemIndex);
	const returnTo = redirectUrl ? validateUrl('Redirect URL (additionalFields.redirectUrl)', redirectUrl) : undefined;
	// Customers are sent to it: checked before the order is made, as the credential's Test checks it.
	const page = gateway.checkoutPage();
	const order = await gateway.request(
		{
			method: 'POST',
			family: 'long',
			path: '/nac/api/v1/pg/orders/create-checkout',
			body: orderBody(this, itemIndex, true),
		},
		callSettings(this, itemIndex),
	);
	if (!page || !returnTo || typeof order.orderId !== 'string') return order;
	return { ...order, checkoutUrl: checkoutUrl(page, order.orderId, returnTo, gateway.clientId) };
}

/**
 * checkoutUrl is what a first workflow sends the customer to, and the last of a dozen fields: when it could not be
 * built, the run says which of its two inputs was missing and where to fill it in.
 */
export function hints(this: IExecuteFunctions, outputs: Array<IDataObject[] | undefined>, gateway?: Gateway): NodeExecutionHint[] {
	const orders = outputs.filter((output) => output !== undefined).length;
	const withoutLink = outputs.flatMap((output, itemIndex) =>
		output?.[0] && typeof output[0].orderId === 'string' && output[0].checkoutUrl === undefined ? [itemIndex] : [],
	);
	const noRedirect = withoutLink.filter((itemIndex) => !redirectUrlOf(this, itemIndex)).length;
	const reasons: string[] = [];
	// Every order made passed the page's check: it is set and sound here, or not set.
	if (withoutLink.length > 0 && !gateway?.checkoutPage()) {
		reasons.push(
			'the Payment Gateway API credential has no Hosted Checkout Page URL (checkoutPageUrl): set it there, e.g. https://merchant.example.com/cpbs/pg',
		);
	}
	if (noRedirect > 0) {
		const which = noRedirect === withoutLink.length ? (noRedirect === 1 ? 'the order' : 'the orders') : `${noRedirect} of them`;
		reasons.push(`${which} had no Redirect URL: add it under Additional Fields → Redirect URL (additionalFields.redirectUrl), where the customer returns after paying`);
	}
	if (reasons.length === 0) return [];
	const created = withoutLink.length === 1 ? 'That order was' : 'Those orders were';
	return [
		{
			message: `No checkoutUrl in ${withoutLink.length} of ${orders} order${orders === 1 ? '' : 's'}: ${reasons.join('; and ')}. ${created} created all the same.`,
			type: 'warning',
			location: 'outputPane',
		},
	];
}

export const operation = defineOperation({
	resource: 'order',
	value: 'createCheckout',
	name: 'Create Checkout',
	description: "Create an order for the gateway's hosted checkout page",
	action: 'Create an order for the hosted checkout page',
	sendsOnce: true,
	checkFirst: ORDER_CHECK_FIRST,
	toolDescription:
		"Creates an order that the customer pays on the gateway's hosted checkout page. It moves no money: the customer decides on that page. Needs the amount, the currency (a three-letter code such as OMR) and the customer's name, e-mail and phone. Returns the orderId and, when the checkout page is set up, the checkoutUrl to give the customer.",
	properties: [
		...orderFields(true),
	],
	advice: [
		{
			resCode: 400,
			description: 'The gateway could not create the order. Check the amount, currency, customer fields and redirect type.',
		},
	],
	answer: CHECKOUT_ORDER,
	execute,
	hints,
});
