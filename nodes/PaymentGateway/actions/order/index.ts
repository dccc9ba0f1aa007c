import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../common';
import * as create from './create.operation';
import * as createCheckout from './createCheckout.operation';

export { create, createCheckout };

export const description: INodeProperties[] = [
	operationSelector(
		'order',
		[
			{
				name: 'Create',
				value: 'create',
				description: 'Create an order to pay with Transaction → Initiate',
				action: 'Create an order',
			},
			{
				name: 'Create Checkout',
				value: 'createCheckout',
				description: "Create an order for the gateway's hosted checkout page",
				action: 'Create an order for the hosted checkout page',
			},
		],
		'create',
	),
	...create.description,
	...createCheckout.description,
];
