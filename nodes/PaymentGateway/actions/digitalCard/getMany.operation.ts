import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callSettings, optionsCollection, readOptionsOf } from '../common';
import type { Gateway } from '../../transport/request';
import { toolDescriptionField } from '../toolMode';
import { cardTarget, customerIdField } from './fields';

const properties: INodeProperties[] = [
	toolDescriptionField(
		"Lists a customer's stored cards; changes nothing and moves no money. Needs the customerId. Returns one record per card (digitalCardId, network, cardType, panLastFour, status) with the customer's remainingLimit; no records when the customer has no stored card.",
	),
	customerIdField,
	optionsCollection('read', [
		{
			displayName: 'Output Summary When Empty',
			name: 'outputSummaryWhenEmpty',
			type: 'boolean',
			default: false,
			description:
				'Whether a customer without stored cards gives one item with customerId, remainingLimit and cardCount 0, instead of no item',
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['digitalCard'], operation: ['getMany'] } },
	properties,
);

/** One item per stored card, each carrying the customer and the remaining tokenization limit. */
export async function execute(this: IExecuteFunctions, itemIndex: number, gateway: Gateway): Promise<IDataObject[]> {
	const { customerId, path } = cardTarget(this, itemIndex, false);
	const data = await gateway.request(
		{ endpoint: 'listCards', method: 'GET', family: 'short', path },
		callSettings(this, itemIndex),
	);
	const cards = Array.isArray(data.digitalCards) ? (data.digitalCards as IDataObject[]) : [];
	const remainingLimit = data.remainingLimit;
	if (cards.length === 0) {
		return readOptionsOf(this, itemIndex).outputSummaryWhenEmpty === true
			? [{ customerId, remainingLimit, cardCount: 0 }]
			: [];
	}
	return cards.map((card) => ({ ...card, customerId, remainingLimit }));
}
