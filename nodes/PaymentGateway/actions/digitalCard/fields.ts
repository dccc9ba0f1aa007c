import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { pathSegment, requireText } from '../../validation';

export const customerIdField: INodeProperties = {
	displayName: 'Customer ID',
	name: 'customerId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. {{ $json.securedCardDetails.customerId }}',
	description: 'The customerId the gateway returned in securedCardDetails when a card was stored',
};

export const digitalCardIdField: INodeProperties = {
	displayName: 'Digital Card ID',
	name: 'digitalCardId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. {{ $json.digitalCardId }}',
	description: 'ID of the stored card, from Get Many or from securedCardDetails',
};

/** One item's customer and, for a single card, its id; `path` is the endpoint path with both encoded. */
export function cardTarget(ctx: IExecuteFunctions, itemIndex: number, withCard: boolean) {
	const customerId = requireText('Customer ID (customerId)', ctx.getNodeParameter('customerId', itemIndex));
	let path = `/customer/${pathSegment('Customer ID (customerId)', customerId)}/digitalCards`;
	let digitalCardId: string | undefined;
	if (withCard) {
		digitalCardId = requireText('Digital Card ID (digitalCardId)', ctx.getNodeParameter('digitalCardId', itemIndex));
		path += `/${pathSegment('Digital Card ID (digitalCardId)', digitalCardId)}`;
	}
	return { customerId, digitalCardId, path };
}
