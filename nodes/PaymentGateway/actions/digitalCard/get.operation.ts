import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callSettings, optionsCollection } from '../common';
import type { Gateway } from '../../transport/request';
import { toolDescriptionField } from '../toolMode';
import { customerIdField, digitalCardIdField } from '../fields';
import { cardTarget } from './fields';

const properties: INodeProperties[] = [
	toolDescriptionField(
		"Reads one of a customer's stored cards; changes nothing and moves no money. Needs the customerId and the card's digitalCardId. Returns the card (network, cardType, panLastFour, status) with the customer's remainingLimit.",
	),
	customerIdField,
	digitalCardIdField,
	...optionsCollection('repeatable'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['digitalCard'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, gateway: Gateway): Promise<IDataObject> {
	const { customerId, path } = cardTarget(this, itemIndex, true);
	const data = await gateway.request(
		{ endpoint: 'getCard', method: 'GET', family: 'short', path },
		callSettings(this, itemIndex),
	);
	const card = data.digitalCard !== null && typeof data.digitalCard === 'object' ? (data.digitalCard as IDataObject) : {};
	return { ...card, customerId, remainingLimit: data.remainingLimit };
}
