import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callSettings, optionsCollection } from '../common';
import type { Gateway } from '../../transport/request';
import { toolDescriptionField } from '../toolMode';
import { customerIdField, digitalCardIdField } from '../fields';
import { cardTarget } from './fields';

const properties: INodeProperties[] = [
	toolDescriptionField(
		"Deletes one of a customer's stored cards. It moves no money but cannot be undone: the customer must store the card again to pay with it. Needs the customerId and the card's digitalCardId. Returns the customerId, the digitalCardId and deleted: true.",
	),
	{
		displayName:
			'Deleting a stored card cannot be undone: the customer must pay with the card again, with Secure Card on, to store it anew.',
		name: 'deleteNotice',
		type: 'notice',
		default: '',
	},
	customerIdField,
	digitalCardIdField,
	...optionsCollection('repeatable'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['digitalCard'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, gateway: Gateway): Promise<IDataObject> {
	const { customerId, digitalCardId, path } = cardTarget(this, itemIndex, true);
	const data = await gateway.request(
		{ endpoint: 'deleteCard', method: 'DELETE', family: 'short', path },
		callSettings(this, itemIndex),
	);
	return {
		customerId: typeof data.customerId === 'string' ? data.customerId : customerId,
		digitalCardId: typeof data.digitalCardId === 'string' ? data.digitalCardId : digitalCardId,
		deleted: true,
	};
}
