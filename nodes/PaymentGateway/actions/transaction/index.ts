import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../common';
import * as initiate from './initiate.operation';
import * as refund from './refund.operation';

export { initiate, refund };

export const description: INodeProperties[] = [
	operationSelector(
		'transaction',
		[
			{
				name: 'Initiate',
				value: 'initiate',
				description: 'Start paying an order with a new card or a stored card',
				action: 'Charge a card for an order',
			},
			{
				name: 'Refund',
				value: 'refund',
				description: 'Give back all or part of a successful payment',
				action: 'Refund a payment',
			},
		],
		'initiate',
	),
	...initiate.description,
	...refund.description,
];
