import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireText } from '../validation/input';

// The identifiers several operations ask for, each defined once; an operation changes only what differs for it.

export const orderIdField: INodeProperties = {
	displayName: 'Order ID',
	name: 'orderId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. {{ $json.orderId }}',
	description: 'The orderId the gateway gave the order when it was created (Order → Create or Create Checkout)',
};

export const paymentIdField: INodeProperties = {
	displayName: 'Payment ID',
	name: 'paymentId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. {{ $json.paymentId }}',
	description:
		'The paymentId of the payment: from Transaction → Initiate, the customer’s return from the checkout page, a notification or a status record',
};

export const customerIdField: INodeProperties = {
	displayName: 'Customer ID',
	name: 'customerId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. {{ $json.securedCardDetails.customerId }}',
	description: 'The customerId the gateway returned in securedCardDetails when a card of this customer was stored',
};

export const digitalCardIdField: INodeProperties = {
	displayName: 'Digital Card',
	name: 'digitalCardId',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'list', value: '' },
	description:
		'The stored card: pick it from the customer’s cards, or give its digitalCardId (from Digital Card → Get Many, or securedCardDetails of the payment that stored it)',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a stored card...',
			typeOptions: { searchListMethod: 'searchStoredCards' },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. dc_6429d92b7b0b3399',
		},
	],
};

/** The names of the money fields, whose expressions are read as written too (boundedParameters.ts). */
export const MONEY_FIELDS = new Set<string>();

/**
 * An amount or money limit: a text field, read by the one amount rule (validation/amount.ts) however it is given. n8n's
 * number input rewrote what was typed before the node saw it ("2,5" became 25, "10,50" 1050); a value saved as a
 * number still runs.
 */
export function moneyField(field: Pick<INodeProperties, 'displayName' | 'name' | 'description'> & Partial<INodeProperties>): INodeProperties {
	MONEY_FIELDS.add(field.name);
	return { type: 'string', default: '', placeholder: 'e.g. 10.50', hint: 'With a decimal point: 2.5, not 2,5', ...field };
}

/** The card's id from either shape: a resource locator, or the plain string workflows saved with 0.1 hold. */
export function digitalCardIdOf(ctx: IExecuteFunctions, itemIndex: number): string {
	return requireText('Digital Card (digitalCardId)', ctx.getNodeParameter('digitalCardId', itemIndex, '', { extractValue: true }));
}
