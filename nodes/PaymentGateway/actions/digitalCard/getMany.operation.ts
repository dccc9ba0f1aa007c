import type { IDataObject, IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import { storedCards } from '../../shared/storedCards';
import type { Gateway } from '../../transport/request';
import { callSettings, itemOptions } from '../common';
import { customerIdField } from '../fields';
import { defineOperation } from '../operation';
import { cardTarget } from './fields';
import { CARD_LIST } from '../../shared/answers';

/** One item per stored card, each carrying the customer and the remaining tokenization limit. */
export async function execute(this: IExecuteFunctions, itemIndex: number, gateway: Gateway): Promise<IDataObject[]> {
	const { customerId } = cardTarget(this, itemIndex, false);
	const { cards, remainingLimit, dropped } = await storedCards(gateway, customerId, callSettings(this, itemIndex));
	if (cards.length === 0) {
		return itemOptions(this, itemIndex).outputSummaryWhenEmpty === true
			? [{ customerId, remainingLimit, cardCount: 0, ...dropped }]
			: [];
	}
	return cards.map((card) => ({ ...card, customerId, remainingLimit, ...dropped }));
}

/** A customer without cards outputs nothing, which is easy to take for a failure. */
export function hints(this: IExecuteFunctions, outputs: Array<IDataObject[] | undefined>): NodeExecutionHint[] {
	const listed = outputs.filter((output) => output !== undefined);
	const without = listed.filter((output) => output.length === 0).length;
	if (without === 0) return [];
	return [
		{
			message: `${without} of ${listed.length} customer${listed.length === 1 ? '' : 's'} ${without === 1 ? 'has' : 'have'} no stored card, so no item is output for ${without === 1 ? 'it' : 'them'}. Turn on the option Output Summary When Empty to get one item per customer.`,
			type: 'info',
			location: 'outputPane',
		},
	];
}

export const operation = defineOperation({
	resource: 'digitalCard',
	value: 'getMany',
	name: 'Get Many',
	description: "List a customer's stored cards, one item per card",
	action: 'Get many stored cards',
	sendsOnce: false,
	toolDescription:
		"Lists a customer's stored cards; changes nothing and moves no money. Needs the customerId. Returns one record per card (digitalCardId, network, cardType, panLastFour, status) with the customer's remainingLimit; no records when the customer has no stored card.",
	properties: [
		{
			...customerIdField,
			hint: 'Each card comes with remainingLimit: how many more cards the gateway will store for this customer (0: delete one before storing another)',
		},
	],
	options: [
		{
			displayName: 'Output Summary When Empty',
			name: 'outputSummaryWhenEmpty',
			type: 'boolean',
			default: false,
			description:
				'Whether a customer without stored cards gives one item with customerId, remainingLimit and cardCount 0, instead of no item',
		},
	],
	answer: CARD_LIST,
	execute,
	hints,
});
