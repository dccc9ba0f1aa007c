import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { CallSettings, Gateway } from '../../transport/request';
import { pathSegment, requireText } from '../../validation/input';
import { digitalCardIdOf } from '../fields';

const cardsPath = (customerId: string) => `/customer/${pathSegment('Customer ID (customerId)', customerId)}/digitalCards`;

/** One item's customer and, for a single card, its id; `path` is the endpoint path with both encoded. */
export function cardTarget(ctx: IExecuteFunctions, itemIndex: number, withCard: boolean) {
	const customerId = requireText('Customer ID (customerId)', ctx.getNodeParameter('customerId', itemIndex));
	let path = cardsPath(customerId);
	let digitalCardId: string | undefined;
	if (withCard) {
		digitalCardId = digitalCardIdOf(ctx, itemIndex);
		path += `/${pathSegment('Digital Card (digitalCardId)', digitalCardId)}`;
	}
	return { customerId, digitalCardId, path };
}

/** A customer's stored cards and how many more may be stored, as Get Many and the editor's card list read them. */
export async function storedCards(gateway: Gateway, customerId: string, settings: CallSettings) {
	const data = await gateway.request({ endpoint: 'listCards', method: 'GET', family: 'short', path: cardsPath(customerId) }, settings);
	const cards = Array.isArray(data.digitalCards) ? (data.digitalCards as IDataObject[]) : [];
	return { cards, remainingLimit: data.remainingLimit };
}
