import type { IDataObject, IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import { UNKNOWN_ID } from '../../transport/errors';
import type { Gateway } from '../../transport/request';
import { callSettings } from '../common';
import { orderIdField } from '../fields';
import { defineOperation } from '../operation';
import { fetchOrderStatus } from './orderStatus';
import { simplifiedStatus, simplifyOption, wantsSimplified } from './simplify';
import { ORDER_STATUS } from '../../shared/answers';

export async function execute(this: IExecuteFunctions, itemIndex: number, gateway: Gateway) {
	const record = await fetchOrderStatus(gateway, this.getNodeParameter('orderId', itemIndex), callSettings(this, itemIndex));
	return wantsSimplified(this, itemIndex) ? simplifiedStatus(record) : record;
}

/** A reconciliation's point: which orders are not paid, at a glance, whatever the number of items. */
export function hints(this: IExecuteFunctions, outputs: Array<IDataObject[] | undefined>): NodeExecutionHint[] {
	const records = outputs.flatMap((output) => output ?? []);
	const byStatus = new Map<string, number>();
	for (const { status } of records) {
		if (status !== 'success') byStatus.set(String(status ?? 'unknown'), (byStatus.get(String(status ?? 'unknown')) ?? 0) + 1);
	}
	const notPaid = [...byStatus.values()].reduce((sum, count) => sum + count, 0);
	if (notPaid === 0) return [];
	const counts = [...byStatus].map(([status, count]) => `${count} ${status}`).join(', ');
	return [
		{
			message: `${notPaid} of ${records.length} order${records.length === 1 ? ' is' : 's are'} not in status "success" (${counts}). An order nobody has paid yet reads failure, "Transaction not initiated".`,
			type: 'info',
			location: 'outputPane',
		},
	];
}

export const operation = defineOperation({
	resource: 'status',
	value: 'getByOrderId',
	name: 'Get by Order ID',
	description: 'Get the payment status of an order: pending, success or failure',
	action: 'Get the payment status of an order',
	sendsOnce: false,
	toolDescription:
		'Reads the payment status of an order; changes nothing and moves no money. Needs the orderId the order was created with. Returns the status (success, failure or pending; an order nobody has paid yet reads failure with "Transaction not initiated"), the amount, the paymentId and the time.',
	properties: [
		orderIdField,
	],
	options: [simplifyOption],
	advice: [UNKNOWN_ID],
	answer: ORDER_STATUS,
	execute,
	hints,
});
