import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../common';
import * as deleteCard from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';

export { deleteCard as delete, get, getMany };

export const description: INodeProperties[] = [
	operationSelector(
		'digitalCard',
		[
			{
				name: 'Delete',
				value: 'delete',
				description: "Remove a customer's stored card; this cannot be undone",
				action: 'Delete a stored card',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get one stored card of a customer',
				action: 'Get a stored card',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: "List a customer's stored cards, one item per card",
				action: 'Get many stored cards',
			},
		],
		'getMany',
	),
	...getMany.description,
	...get.description,
	...deleteCard.description,
];
