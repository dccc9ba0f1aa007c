import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callSettings, optionsCollection } from '../common';
import { encryptCardDetails } from '../../transport/crypto';
import type { Gateway } from '../../transport/request';
import {
	InvalidInput,
	requireText,
	validateCardNumber,
	validateCvv,
	validateExpiry,
	validateUrl,
} from '../../validation/input';
import { digitalCardIdField, digitalCardIdOf, orderIdField } from '../fields';
import {
	assertWithinLimit,
	isToolMode,
	outsideToolMode,
	refuseCardDetails,
	statedAmount,
	toolDescriptionField,
	toolLimit,
	toolLimitFields,
} from '../toolMode';

const cardMode = { show: { paymentMode: ['card'] } };
const tokenMode = { show: { paymentMode: ['token'] } };

/** The gateway settles in currencies of up to three decimals; the order's currency is not known here. */
const AMOUNT_DIGITS = 3;

const storedCard = { name: 'Stored Card', value: 'token', description: 'Pay with a card stored earlier (a digital card)' };

const properties: INodeProperties[] = [
	toolDescriptionField(
		"Charges a customer's stored card for an order: this moves money. Needs the orderId, the digitalCardId of the stored card and the order's amount. Refused, with nothing sent, when the amount is above this tool's Maximum Amount per Call; card numbers are never accepted. Returns the payment (paymentId, paymentStatus) and, when the customer must confirm it, the page for that (redirectionData).",
	),
	{
		displayName:
			'The output holds redirectionData.formData: an HTML form that must reach the customer’s browser (e.g. through a Respond to Webhook node) so that they can confirm the payment',
		name: 'redirectionNotice',
		type: 'notice',
		default: '',
		displayOptions: outsideToolMode,
	},
	{ ...orderIdField, description: 'The orderId of the order to pay, from Order → Create' },
	{
		displayName: 'Payment Mode',
		name: 'paymentMode',
		type: 'options',
		options: [{ name: 'New Card', value: 'card', description: 'The customer typed in card details' }, storedCard],
		default: 'card',
		displayOptions: outsideToolMode,
	},
	{
		displayName: 'Payment Mode',
		name: 'paymentMode',
		type: 'options',
		options: [storedCard],
		default: 'token',
		description: "An AI agent's tool pays with stored cards only: card numbers must never pass through a language model",
		displayOptions: { show: { '@tool': [true] } },
	},
	{
		displayName: 'Amount',
		name: 'amount',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: AMOUNT_DIGITS },
		required: true,
		default: 0,
		placeholder: 'e.g. 10.50',
		description:
			"The amount of the order being paid, as the agent states it: the call is refused when it is above Maximum Amount per Call, and a human reviewer sees it. The gateway charges the order's own amount, which it does not tell before the payment.",
		displayOptions: { show: { '@tool': [true] } },
	},
	{
		displayName: 'Card Number',
		name: 'cardNumber',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		displayOptions: cardMode,
		description: 'The full card number; it is encrypted before it leaves n8n and never appears in the output',
	},
	{
		displayName: 'Expiry Month',
		name: 'cardExpMonth',
		type: 'string',
		required: true,
		default: '',
		placeholder: '07',
		displayOptions: cardMode,
		description: 'Month printed on the card, 1 to 12',
	},
	{
		displayName: 'Expiry Year',
		name: 'cardExpYear',
		type: 'string',
		required: true,
		default: '',
		placeholder: '28',
		displayOptions: cardMode,
		description: 'Year printed on the card, 2 or 4 digits',
	},
	{ ...digitalCardIdField, displayOptions: tokenMode },
	{
		displayName: 'CVV',
		name: 'cardCVV',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description: 'Security code on the back of the card, 3 or 4 digits. Required when the customer authenticates with CVV and OTP.',
	},
	{
		displayName: 'Card Holder Name',
		name: 'cardHolderName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'Jane Doe',
	},
	{
		displayName: 'Redirection URL',
		name: 'redirectionUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://shop.example.com/payment/done',
		description: 'Where the customer lands after authenticating the payment',
	},
	{
		displayName: 'Secure Card',
		name: 'secureCard',
		type: 'boolean',
		default: false,
		displayOptions: cardMode,
		description:
			'Whether to store the card for future payments; the output then carries securedCardDetails with customerId and digitalCardId',
	},
	{
		displayName: 'Customer Authentication',
		name: 'customerAuthentication',
		type: 'options',
		options: [
			{ name: 'CVV and OTP', value: 'cvvAndOtp', description: 'The customer confirms with CVV and a one-time password' },
			{ name: 'OTP Only', value: 'otpOnly', description: 'The customer confirms with a one-time password only' },
			{ name: 'None', value: 'none', description: 'No confirmation by the customer' },
		],
		default: 'cvvAndOtp',
		description: 'How the customer confirms the payment',
	},
	...toolLimitFields('payment'),
	...optionsCollection('sentOnce'),
];

/** A second one would make a second order, payment or refund. */
export const sendsOnce = true;

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['initiate'] } },
	properties,
);

/** The gateway's two flags; the combination with both true is not offered because the gateway refuses it. */
const AUTHENTICATION_FLAGS: Record<string, { skipCVVandOTP: boolean; skipCVVOnlyFlag: boolean }> = {
	cvvAndOtp: { skipCVVandOTP: false, skipCVVOnlyFlag: false },
	otpOnly: { skipCVVandOTP: false, skipCVVOnlyFlag: true },
	none: { skipCVVandOTP: true, skipCVVOnlyFlag: false },
};

export async function execute(this: IExecuteFunctions, itemIndex: number, gateway: Gateway) {
	const parameter = (name: string, fallback?: unknown) => this.getNodeParameter(name, itemIndex, fallback);
	const settings = callSettings(this, itemIndex);

	const orderId = requireText('Order ID (orderId)', parameter('orderId'));
	const paymentMode = parameter('paymentMode', 'card') as string;
	if (paymentMode !== 'card' && paymentMode !== 'token') {
		throw new InvalidInput('Payment Mode (paymentMode)', 'must be "card" or "token"');
	}
	if (isToolMode(this)) {
		// Before any card field is read: a workflow file can carry card mode and card details into the tool.
		if (paymentMode === 'card') refuseCardDetails();
		const limit = toolLimit(this, itemIndex, 'payment');
		assertWithinLimit(limit, statedAmount(parameter('amount'), AMOUNT_DIGITS, limit, 'payment'), 'payment');
	}
	const authentication = parameter('customerAuthentication', 'cvvAndOtp');
	// Only a string may be looked up: an object from an expression could not even be turned into a key.
	const flags =
		typeof authentication === 'string' && Object.hasOwn(AUTHENTICATION_FLAGS, authentication)
			? AUTHENTICATION_FLAGS[authentication]
			: undefined;
	if (!flags) throw new InvalidInput('Customer Authentication (customerAuthentication)', 'must be cvvAndOtp, otpOnly or none');
	const cvvRequired = !flags.skipCVVandOTP && !flags.skipCVVOnlyFlag;
	const cardCVV = validateCvv('CVV (cardCVV)', parameter('cardCVV', ''), cvvRequired);

	let cardDetails: Record<string, string>;
	if (paymentMode === 'card') {
		const cardNumber = validateCardNumber('Card Number (cardNumber)', parameter('cardNumber'));
		const expiry = validateExpiry(
			'Expiry Month (cardExpMonth)',
			parameter('cardExpMonth'),
			'Expiry Year (cardExpYear)',
			parameter('cardExpYear'),
		);
		cardDetails = { cardNumber, cardExpMonth: expiry.month, cardExpYear: expiry.year, cardCVV: cardCVV ?? '' };
	} else {
		const digitalCardId = digitalCardIdOf(this, itemIndex);
		// A stored card paid without CVV is sent as the id alone, as the gateway's own integrations do.
		cardDetails = cardCVV ? { cardCVV, digitalCardId } : { digitalCardId };
	}
	const cardHolderName = requireText('Card Holder Name (cardHolderName)', parameter('cardHolderName'));
	const redirectionUrl = validateUrl('Redirection URL (redirectionUrl)', parameter('redirectionUrl'));
	const secureCard = paymentMode === 'card' && parameter('secureCard', false) === true;

	const body: IDataObject = {
		orderId,
		encryptedCardDetails: encryptCardDetails(cardDetails, gateway.cardKey()),
		paymentMethod: 'card',
		cardHolderName,
		redirectionUrl,
		paymentMode,
		secureCard,
		skipCVVandOTP: flags.skipCVVandOTP,
		skipCVVOnlyFlag: flags.skipCVVOnlyFlag,
		apiType: 'hosted',
	};
	return await gateway.request(
		{ endpoint: 'initiate', method: 'POST', family: 'short', path: '/transaction/initiate', body },
		settings,
	);
}
