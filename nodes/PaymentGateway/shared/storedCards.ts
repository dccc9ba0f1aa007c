import type { IDataObject } from 'n8n-workflow';

import type { CallSettings, Gateway } from '../transport/request';
import { pathSegment } from '../validation/input';

/** The names the transport left out of an answer, for each item made of it. */
export const droppedOf = (data: IDataObject): IDataObject => (data.droppedFields ? { droppedFields: data.droppedFields } : {});

/** The path of a customer's stored cards, the customer's id checked and encoded. */
export const cardsPath = (customerId: string) => `/customer/${pathSegment('Customer ID (customerId)', customerId)}/digitalCards`;

/** A customer's stored cards and how many more may be stored, as Get Many and the editor's card list read them. */
export async function storedCards(gateway: Gateway, customerId: string, settings: CallSettings) {
	const data = await gateway.request({ method: 'GET', family: 'short', path: cardsPath(customerId) }, settings);
	const cards = Array.isArray(data.digitalCards) ? (data.digitalCards as IDataObject[]) : [];
	return { cards, remainingLimit: data.remainingLimit, dropped: droppedOf(data) };
}
