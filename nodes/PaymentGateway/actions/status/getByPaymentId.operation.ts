import type { IExecuteFunctions } from 'n8n-workflow';

import { UNKNOWN_ID } from '../../transport/errors';
import type { Gateway } from '../../transport/request';
import { fetchPaymentStatus } from '../../shared/paymentStatus';
import { callSettings } from '../common';
import { paymentIdField } from '../fields';
import { defineOperation } from '../operation';
import { simplifiedStatus, simplifyOption, wantsSimplified } from './simplify';
import { PAYMENT_RECORD } from '../../shared/answers';

export async function execute(this: IExecuteFunctions, itemIndex: number, gateway: Gateway) {
	const record = await fetchPaymentStatus(gateway, this.getNodeParameter('paymentId', itemIndex), callSettings(this, itemIndex));
	return wantsSimplified(this, itemIndex) ? simplifiedStatus(record) : record;
}

export const operation = defineOperation({
	resource: 'status',
	value: 'getByPaymentId',
	name: 'Get by Payment ID',
	description: 'Get the status of one payment attempt',
	action: 'Get the status of a payment',
	sendsOnce: false,
	toolDescription:
		'Reads the status of one payment; changes nothing and moves no money. Needs the paymentId (from the payment, a refund or a notification). Returns the status (e.g. success, failure, pending or refunded), the amount and currency, the orderId, the card network and the time.',
	properties: [
		paymentIdField,
	],
	options: [simplifyOption],
	advice: [UNKNOWN_ID],
	answer: PAYMENT_RECORD,
	execute,
});
