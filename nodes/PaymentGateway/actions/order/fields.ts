import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fieldAmount } from '../../validation/amount';
import { currencyDigits, InvalidInput, optionalText, requireText, validateCurrency, validateEmail } from '../../validation/input';
import { listField } from '../../shared/options';
import { moneyField } from '../fields';

/** What to check before creating an order again whose outcome is unknown, either way of creating it. */
export const ORDER_CHECK_FIRST =
	'The gateway may have created the order without answering. Before creating it again, check the status of any order already made for this purchase (Status → Get by Order ID), so that it is not paid twice.';

/** Fields shared by both ways of creating an order; `checkout` adds what only the long-path endpoint takes. */
export function orderFields(checkout: boolean): INodeProperties[] {
	const fields: INodeProperties[] = [
		moneyField({
			displayName: 'Amount',
			name: 'amount',
			required: true,
			placeholder: 'e.g. 25.50',
			description:
				'Total to charge, in the currency below, written with a decimal point and as many decimals as the currency has (USD 2, OMR 3, JPY 0)',
		}),
		{
			displayName: 'Currency',
			name: 'currency',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. USD',
			description: 'Three-letter ISO 4217 code your merchant account accepts, e.g. USD, EUR or OMR',
		},
		{
			displayName: 'UI Mode',
			name: 'uiMode',
			type: 'options',
			options: [{ name: 'Checkout', value: 'checkout', description: "The gateway's hosted checkout" }],
			default: 'checkout',
			description: 'How the customer pays; the gateway only offers its checkout',
		},
		{
			displayName: 'Customer Name',
			name: 'customerName',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'Jane Doe',
			description: 'Name of the paying customer (Latin letters)',
		},
		{
			displayName: 'Customer Email',
			name: 'customerEmail',
			type: 'string',
			placeholder: 'name@email.com',
			required: true,
			default: '',
			description: "Customer's e-mail; with the phone it identifies the customer whose cards can be stored",
		},
		{
			displayName: 'Customer Phone',
			name: 'customerPhone',
			type: 'string',
			required: true,
			default: '',
			placeholder: '91234567',
			description: "Customer's phone number as the gateway expects it (for many merchants the local number)",
		},
	];
	if (checkout) {
		fields.push(
			listField(
				// Redirect by default, as the live gateway's public clients send it.
				{ displayName: 'Redirect Type', name: 'redirectType', default: 'redirect', description: 'How the customer comes back to you after paying' },
				[
					['Post', 'post', 'The gateway posts the result to your page'],
					['Redirect', 'redirect', 'The customer is sent back with a plain redirect'],
				],
			),
		);
	}
	const additional: INodeProperties[] = [
		{
			displayName: 'Receipt ID',
			name: 'receiptId',
			type: 'string',
			default: '',
			placeholder: 'INV-2024-0001',
			description: 'Your own unique reference for this payment (at most 40 characters); the gateway echoes it back',
		},
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			default: '',
			description: 'Free-text note about the payment',
		},
	];
	if (checkout) {
		additional.push(
			{
				displayName: 'CURN',
				name: 'curn',
				type: 'string',
				default: '',
				description: 'Custom reference or metadata to attach to the order',
			},
			{
				displayName: 'Redirect URL',
				name: 'redirectUrl',
				type: 'string',
				default: '',
				placeholder: 'e.g. https://shop.example.com/payment/done',
				description:
					"Where the customer returns from the gateway's hosted checkout page (the gateway adds ?paymentId=…). With the credential's Hosted Checkout Page URL, the output gets a ready checkoutUrl.",
			},
		);
	}
	fields.push({
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: additional,
	});
	return fields;
}

/** Reads and validates one item's order fields into the request body, keys in the order the gateway documents. */
export function orderBody(ctx: IExecuteFunctions, itemIndex: number, checkout: boolean): IDataObject {
	const additional = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const uiMode = requireText('UI Mode (uiMode)', ctx.getNodeParameter('uiMode', itemIndex, 'checkout'));
	const currency = validateCurrency('Currency (currency)', ctx.getNodeParameter('currency', itemIndex));
	const body: IDataObject = {
		amount: fieldAmount('Amount (amount)', ctx.getNodeParameter('amount', itemIndex), currencyDigits(currency), currency),
		currency,
		uiMode,
	};
	const receiptId = optionalText('Receipt ID (additionalFields.receiptId)', additional.receiptId, 40);
	if (receiptId) body.receiptId = receiptId;
	const description = optionalText('Description (additionalFields.description)', additional.description, 1000);
	if (description) body.description = description;
	if (checkout) {
		const curn = optionalText('CURN (additionalFields.curn)', additional.curn);
		if (curn) body.curn = curn;
		const redirectType = requireText('Redirect Type (redirectType)', ctx.getNodeParameter('redirectType', itemIndex));
		if (redirectType !== 'post' && redirectType !== 'redirect') {
			throw new InvalidInput('Redirect Type (redirectType)', 'must be "post" or "redirect"');
		}
		body.redirectType = redirectType;
	}
	body.customerFields = {
		name: requireText('Customer Name (customerName)', ctx.getNodeParameter('customerName', itemIndex)),
		email: validateEmail('Customer Email (customerEmail)', ctx.getNodeParameter('customerEmail', itemIndex)),
		phone: requireText('Customer Phone (customerPhone)', ctx.getNodeParameter('customerPhone', itemIndex), 32),
	};
	return body;
}

/** The hosted checkout page's address for an order, as the gateway's own plugins build it. */
export function checkoutUrl(pageUrl: string, orderId: string, redirectUrl: string, clientId: string): string {
	const query = [
		['actionType', 'checkout'],
		['orderId', orderId],
		['redirectUrl', redirectUrl],
		['clientId', clientId],
	]
		.map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
		.join('&');
	return `${pageUrl}?${query}`;
}
