import type { INodeProperties } from 'n8n-workflow';

import * as initiate from './initiate.operation';

export { initiate };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['transaction'] } },
		options: [
			{
				name: 'Initiate',
				value: 'initiate',
				description: 'Start paying an order with a new card or a stored card',
				action: 'Initiate a transaction',
			},
		],
		default: 'initiate',
	},
	...initiate.description,
];
