import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { callSettings } from '../common';
import { defineOperation } from '../operation';
import { encryptCardDetails } from '../../transport/crypto';
import type { Gateway } from '../../transport/request';
import { InvalidInput, requireText, validateCardNumber, validateCvv, validateExpiry, validateUrl } from '../../validation/input';
import { digitalCardIdField, digitalCardIdOf, moneyField, orderIdField } from '../fields';
import { holdBudget, leftToday } from '../toolBudget';
import { assertAnswerMatches, inToolMode, isToolMode, outsideToolMode, storedCardCall, toolLimitFields } from '../toolMode';
import { PAYMENT } from '../../shared/answers';
import { listField } from '../../shared/options';

const CHECK_FIRST = 'Check the order with Status → Get by Order ID before initiating again, so that the customer is not charged twice.';

const cardMode = { show: { paymentMode: ['card'] } };
const tokenMode = { show: { paymentMode: ['token'] } };

const storedCard = { name: 'Stored Card', value: 'token', description: 'Pay with a card stored earlier (a digital card)' };

const properties: INodeProperties[] = [
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
		displayOptions: inToolMode,
	},
	moneyField({
		displayName: 'Amount',
		name: 'amount',
		required: true,
		description:
			"The amount of the order being paid, as the agent states it, in the Limit Currency: the call is refused when it is above Maximum Amount per Call, and a human reviewer sees it. The gateway charges the order's own amount, which it does not tell before the payment.",
		displayOptions: inToolMode,
	}),
	{
		displayName: 'Currency',
		name: 'currency',
		type: 'string',
		// Not marked required: n8n would refuse to publish a whole workflow saved before this field existed. Running
		// refuses a call that states none.
		default: '',
		placeholder: 'e.g. USD',
		description:
			"The currency of the order being paid, as the agent states it (a call that states none is refused): the call is refused unless it is this tool's Limit Currency, and the payment is withheld when the gateway's answer shows another",
		displayOptions: inToolMode,
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
	// By ID first: here there is no Customer ID whose cards a list could show.
	{ ...digitalCardIdField, default: { mode: 'id', value: '' }, displayOptions: tokenMode },
	{
		displayName: 'CVV',
		name: 'cardCVV',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description: 'Security code on the back of the card, 3 or 4 digits. Required when the customer authenticates with CVV and OTP.',
		displayOptions: outsideToolMode,
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
	listField(
		{ displayName: 'Customer Authentication', name: 'customerAuthentication', default: 'cvvAndOtp', description: 'How the customer confirms the payment', displayOptions: outsideToolMode },
		[
			['CVV and OTP', 'cvvAndOtp', 'The customer confirms with CVV and a one-time password'],
			['OTP Only', 'otpOnly', 'The customer confirms with a one-time password only'],
			['None', 'none', 'No confirmation by the customer'],
		],
	),
	listField(
		{
			displayName: 'Customer Authentication',
			name: 'customerAuthentication',
			default: 'otpOnly',
			description: "An AI agent's tool pays only with the customer's own confirmation: the limits see the amount the agent states, the customer sees the one charged",
			displayOptions: inToolMode,
		},
		[['OTP Only', 'otpOnly', 'The customer confirms the real amount with a one-time password']],
	),
	...toolLimitFields('payment'),
];

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
	const tool = isToolMode(this) ? storedCardCall(this, itemIndex, paymentMode) : undefined;
	const authentication = parameter('customerAuthentication', 'cvvAndOtp');
	// Only a string may be looked up: an object from an expression could not even be turned into a key.
	const flags =
		typeof authentication === 'string' && Object.hasOwn(AUTHENTICATION_FLAGS, authentication)
			? AUTHENTICATION_FLAGS[authentication]
			: undefined;
	if (!flags) throw new InvalidInput('Customer Authentication (customerAuthentication)', 'must be cvvAndOtp, otpOnly or none');
	const cvvRequired = !flags.skipCVVandOTP && !flags.skipCVVOnlyFlag;
	const cardCVV = tool ? undefined : validateCvv('CVV (cardCVV)', parameter('cardCVV', ''), cvvRequired);

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
	const cardData = { number: cardDetails.cardNumber, cvv: cardDetails.cardCVV, month: cardDetails.cardExpMonth, year: cardDetails.cardExpYear, ciphertext: body.encryptedCardDetails as string };
	const send = async () =>
		await gateway.request({ method: 'POST', family: 'short', path: '/transaction/initiate', body, cardData }, settings);
	if (!tool) return await send();
	// Held and sent with no await between: calls the agent makes at once see each other's amounts.
	const payment = await holdBudget(this, tool.limits, tool.amount).send(send);
	assertAnswerMatches(payment, tool.limits, tool.amount);
	return { ...payment, toolBudgetLeftToday: leftToday(this, tool.limits) };
}

export const operation = defineOperation({
	resource: 'transaction',
	value: 'initiate',
	name: 'Initiate',
	description: 'Start paying an order with a new card or a stored card',
	action: 'Charge a card for an order',
	sendsOnce: true,
	checkFirst: CHECK_FIRST,
	toolDescription:
		"Charges a customer's stored card for an order once the customer confirms it with a one-time password: this moves money. Needs the orderId, the digitalCardId of the stored card, and the order's amount and currency. Refused, with nothing sent, when the amount is above this tool's Maximum Amount per Call, in another currency than its Limit Currency, or would take the payments of this run above its Maximum Total per Execution; card numbers and CVVs are never accepted. Returns the payment (paymentId, paymentStatus) and the page where the customer confirms it (redirectionData).",
	properties,
	advice: [
		{
			resCode: 422,
			message: /limit/i,
			description:
				'This customer has no room left for another stored card. Delete one with Digital Card → Delete, or pay without Secure Card.',
		},
		{
			resCode: 422,
			description:
				"The gateway's fraud rules refused this payment. Do not retry it with the same details; ask the customer for another payment method.",
		},
		{
			resCode: 404,
			message: /another card/i,
			description: 'No payment route exists for this card. Ask the customer to pay with another card.',
		},
		{
			resCode: 404,
			message: /alternative/i,
			description: 'No payment route exists for this card. Offer the customer another payment method.',
		},
		{
			resCode: 404,
			message: /merchant/i,
			description: "No payment route is set up for this merchant account. Contact the gateway's support.",
		},
		{
			resCode: 404,
			description:
				'The gateway does not know this order. Check that the Order ID comes from Order → Create with the same credential.',
		},
		{
			resCode: 409,
			message: /in progress/i,
			description: `A transaction for this order is already in progress. ${CHECK_FIRST}`,
		},
		{
			resCode: 409,
			description: "This merchant account may not take sales transactions. Contact the gateway's support.",
		},
		{ resCode: 500, description: `The gateway had an internal error. ${CHECK_FIRST}` },
	],
	answer: PAYMENT,
	execute,
});
