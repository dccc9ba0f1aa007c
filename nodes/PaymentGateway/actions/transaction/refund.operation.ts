import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fetchPaymentStatus } from '../../shared/paymentStatus';
import { UNKNOWN_ID } from '../../transport/errors';
import type { CallSettings, Endpoint, Gateway } from '../../transport/request';
import { fieldAmount, GATEWAY_DECIMALS, NotAnAmount, positiveAmount } from '../../validation/amount';
import { InvalidInput, requireText } from '../../validation/input';
import { callSettings } from '../common';
import { moneyField, paymentIdField } from '../fields';
import { defineOperation } from '../operation';
import { holdBudget, leftToday, refuseWhenSpent } from '../toolBudget';
import type { BudgetHold } from '../toolBudget';
import { assertLimitCurrency, assertWithinLimit, toolLimitFields, toolLimits } from '../toolMode';
import { PAYMENT_RECORD, REFUND } from '../../shared/answers';

const CHECK_FIRST = 'Check the payment with Status → Get by Payment ID before refunding again, so that the customer is not refunded twice.';

const properties: INodeProperties[] = [
	{
		displayName:
			'A refund moves money back to the customer. It is sent once and never retried automatically: if it fails without a clear answer, check the payment with Status → Get by Payment ID before refunding again.',
		name: 'refundNotice',
		type: 'notice',
		default: '',
	},
	{ ...paymentIdField, description: 'The paymentId of the successful payment to refund' },
	{
		displayName: 'Refund',
		name: 'refundType',
		type: 'options',
		options: [
			{
				name: 'An Amount',
				value: 'partial',
				description: 'Give back the Amount below: part of the payment, or all of it',
			},
			{
				name: 'The Whole Payment',
				value: 'full',
				description: "Give back the payment's whole amount, read from the gateway first; only for a payment not refunded yet",
			},
		],
		// An amount given decides, as it did before this choice existed: saved workflows refund what they always did.
		default: 'partial',
	},
	moneyField({
		displayName: 'Amount',
		name: 'amount',
		required: true,
		hint: 'With a decimal point: 10.50, not 10,50. For everything, choose Refund: The Whole Payment.',
		description:
			"How much to give back, in the payment's currency. All refunds of a payment add up to at most its amount.",
		displayOptions: { show: { refundType: ['partial'] } },
	}),
	...toolLimitFields('refund'),
];

/** One public source spells two fields of the refund record wrongly; users get the right names either way. */
const MISSPELT: Record<string, string> = { compltedAt: 'completedAt', signarture: 'signature' };

function withFieldNamesFixed(record: IDataObject): IDataObject {
	const fixed: IDataObject = {};
	for (const [key, value] of Object.entries(record)) {
		const name = MISSPELT[key] ?? key;
		if (!(name in fixed) || name === key) fixed[name] = value;
	}
	return fixed;
}

/** Reading the payment before its refund: a read, named as the refund's step, that offers no Max Retries of its own. */
const reading = (refund: Endpoint): Endpoint => ({
	label: `${refund.label} (reading the payment)`,
	answer: PAYMENT_RECORD,
	sendsOnce: false,
	offersRetries: false,
	advice: [
		UNKNOWN_ID,
		{ resCode: 500, description: 'The gateway had a temporary error while the payment was read. No refund was sent: run again later.' },
	],
});

/** The payment as the gateway holds it: its status, amount and currency. */
async function readPayment(gateway: Gateway, paymentId: string, settings: CallSettings): Promise<IDataObject> {
	return await fetchPaymentStatus(gateway, paymentId, settings, reading(gateway.endpoint));
}

/**
 * The payment's whole amount. The gateway tells no refunded or remaining amount, so a payment refunded in part already
 * is refused here rather than sent an amount the gateway would refuse, or take wrongly.
 */
function wholeAmount(ctx: IExecuteFunctions, payment: IDataObject, settings: CallSettings): number {
	const cannot = (why: string) =>
		new NodeOperationError(ctx.getNode(), `The whole payment cannot be refunded: ${why}`, {
			itemIndex: settings.itemIndex,
			description:
				'No refund was sent; the payment was only read. To give back part of a payment refunded before, choose Refund: An Amount, and check what is left with Status → Get by Payment ID.',
		});
	const status = String(payment.paymentStatus ?? payment.status ?? '');
	if (status !== 'success') {
		throw cannot(
			/refund/i.test(status)
				? `it is ${status.replace(/_/g, ' ')} already, and the gateway does not say how much is left`
				: `its status is "${status || 'unknown'}", and only a successful payment can be refunded`,
		);
	}
	// Read by the rule that reads the amounts users type: what is not an amount there is none here either.
	if (payment.amount === undefined) throw cannot('the gateway gave no amount for it');
	const amount = positiveAmount(payment.amount, GATEWAY_DECIMALS);
	if (amount instanceof NotAnAmount) throw cannot(`its amount, as the gateway gave it, ${amount.problem}`);
	return amount;
}

export async function execute(this: IExecuteFunctions, itemIndex: number, gateway: Gateway) {
	const settings = callSettings(this, itemIndex);
	const paymentId = requireText('Payment ID (paymentId)', this.getNodeParameter('paymentId', itemIndex));
	const refundType = this.getNodeParameter('refundType', itemIndex, 'partial');
	if (refundType !== 'partial' && refundType !== 'full') throw new InvalidInput('Refund (refundType)', 'must be "partial" or "full"');
	const limits = toolLimits(this, itemIndex, 'refund');
	let amount: number;
	let hold: BudgetHold;
	if (refundType === 'full') {
		// The amount is learnt by reading the payment: a spent budget refuses before that read.
		refuseWhenSpent(this, limits);
		const payment = await readPayment(gateway, paymentId, settings);
		amount = wholeAmount(this, payment, settings);
		assertLimitCurrency(limits, payment.currency, 'the payment', true);
		assertWithinLimit(limits, amount, true);
		hold = holdBudget(this, limits, amount, true);
	} else {
		// A refund names no currency of its own; a tool's is the Limit Currency, which its payment's must be.
		amount = fieldAmount('Amount (amount)', this.getNodeParameter('amount', itemIndex), limits?.digits ?? GATEWAY_DECIMALS, limits?.currency);
		assertWithinLimit(limits, amount);
		// Held before the read: calls made at the same time count it while this one learns the payment's currency.
		hold = holdBudget(this, limits, amount);
		if (limits) {
			const payment = await hold.before(async () => await readPayment(gateway, paymentId, settings));
			await hold.before(async () => assertLimitCurrency(limits, payment.currency, 'the payment', true));
		}
	}
	const body: IDataObject = { paymentId, amount };
	const refund = await hold.send(
		async () =>
			await gateway.request({ method: 'POST', family: 'short', path: '/transaction/refund', body }, settings),
	);
	const record = withFieldNamesFixed(refund);
	// As a tool, the answer says what is left of the day's budget (the agent and the person in the chat read it).
	return limits ? { ...record, toolBudgetLeftToday: leftToday(this, limits) } : record;
}

export const operation = defineOperation({
	resource: 'transaction',
	value: 'refund',
	name: 'Refund',
	description: 'Give back all or part of a successful payment',
	action: 'Refund a payment',
	sendsOnce: true,
	checkFirst: CHECK_FIRST,
	toolDescription:
		"Refunds a payment: this moves money back to the customer and cannot be undone. Needs the paymentId of a successful payment and, for part of it, the amount to give back. Refused, with no refund sent, when the amount is above this tool's Maximum Amount per Call, when the payment is in another currency than its Limit Currency, or when it would take the refunds of this run above its Maximum Total per Execution. Returns the refund (refundId, amount, paymentStatus).",
	properties,
	advice: [
		{ resCode: 500, description: `The gateway had an internal error. ${CHECK_FIRST}` },
		{
			resCode: 400,
			message: /exceed/i,
			description:
				'The amount is more than is left to refund on this payment: earlier refunds count against it. Check the payment with Status → Get by Payment ID.',
		},
		{
			resCode: 400,
			message: /success/i,
			description:
				'Only a successful payment can be refunded. Check the payment with Status → Get by Payment ID; a pending payment must complete first.',
		},
		{
			resCode: 404,
			description: 'The gateway does not know this payment. Check that the Payment ID comes from this credential’s merchant account.',
		},
	],
	answer: REFUND,
	execute,
});
