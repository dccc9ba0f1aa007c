import type { INodeProperties } from 'n8n-workflow';

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
