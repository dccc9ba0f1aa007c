import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../common';
import * as getByOrderId from './getByOrderId.operation';
import * as getByPaymentId from './getByPaymentId.operation';
import * as verifySignature from './verifySignature.operation';

export { getByOrderId, getByPaymentId, verifySignature };

export const description: INodeProperties[] = [
	operationSelector(
		'status',
		[
			{
				name: 'Get by Order ID',
				value: 'getByOrderId',
				description: 'Get the payment status of an order: pending, success or failure',
				action: 'Get the payment status of an order',
			},
			{
				name: 'Get by Payment ID',
				value: 'getByPaymentId',
				description: 'Get the status of one payment attempt',
				action: 'Get the status of a payment',
			},
			{
				name: 'Verify Signature',
				value: 'verifySignature',
				description: "Check a notification's or status record's signature, without sending anything",
				action: 'Verify a payment signature',
			},
		],
		'getByOrderId',
	),
	...getByOrderId.description,
	...getByPaymentId.description,
	...verifySignature.description,
];
