import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Gateway } from '../../transport/request';
import { callSettings } from '../common';
import { customerIdField, digitalCardIdField } from '../fields';
import { defineOperation } from '../operation';
import { cardTarget } from './fields';
import { CARD_DELETED } from '../../shared/answers';

export async function execute(this: IExecuteFunctions, itemIndex: number, gateway: Gateway): Promise<IDataObject> {
	const { customerId, digitalCardId, path } = cardTarget(this, itemIndex, true);
	const data = await gateway.request({ method: 'DELETE', family: 'short', path }, callSettings(this, itemIndex));
	return {
		customerId: typeof data.customerId === 'string' ? data.customerId : customerId,
		digitalCardId: typeof data.digitalCardId === 'string' ? data.digitalCardId : digitalCardId,
		deleted: true,
	};
}

// Not sent once: a second attempt that finds the card gone after a lost answer is reported as such, not as a deletion.
export const operation = defineOperation({
	resource: 'digitalCard',
	value: 'delete',
	name: 'Delete',
	description: "Remove a customer's stored card; this cannot be undone",
	action: 'Delete a stored card',
	sendsOnce: false,
	toolDescription:
		"Deletes one of a customer's stored cards. It moves no money but cannot be undone: the customer must store the card again to pay with it. Needs the customerId and the card's digitalCardId. Returns the customerId, the digitalCardId and deleted: true.",
	properties: [
		{
			displayName:
				'Deleting a stored card cannot be undone: the customer must pay with the card again, with Secure Card on, to store it anew.',
			name: 'deleteNotice',
			type: 'notice',
			default: '',
		},
		customerIdField,
		digitalCardIdField,
	],
	advice: [
		{
			resCode: 404,
			description: 'The card was not found: it was already deleted or belongs to another customer. Nothing was removed.',
		},
	],
	answer: CARD_DELETED,
	execute,
});
