import type { IExecuteFunctions } from 'n8n-workflow';

import type { Gateway } from '../../transport/request';
import { callSettings } from '../common';
import { defineOperation } from '../operation';
import { ORDER_CHECK_FIRST, orderBody, orderFields } from './fields';
import { ORDER } from '../../shared/answers';

export async function execute(this: IExecuteFunctions, itemIndex: number, gateway: Gateway) {
	return await gateway.request(
		{ method: 'POST', family: 'short', path: '/order', body: orderBody(this, itemIndex, false) },
		callSettings(this, itemIndex),
	);
}

export const operation = defineOperation({
	resource: 'order',
	value: 'create',
	name: 'Create',
	description: 'Create an order to pay with Transaction → Initiate',
	action: 'Create an order',
	sendsOnce: true,
	checkFirst: ORDER_CHECK_FIRST,
	toolDescription:
		"Creates an order for a card payment. It moves no money: the order is paid afterwards by charging a card for it. Needs the amount, the currency (a three-letter code such as OMR) and the customer's name, e-mail and phone. Returns the order with its orderId.",
	properties: [
		...orderFields(false),
	],
	advice: [
		{ resCode: 401, message: /internal/i, description: 'The gateway had an internal error creating the order (it reports this as 401). Try again later.' },
		{ resCode: 422, description: 'The gateway refused the UI mode of the order; it accepts only "checkout".' },
	],
	answer: ORDER,
	execute,
});
