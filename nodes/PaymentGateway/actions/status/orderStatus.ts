import type { IDataObject } from 'n8n-workflow';

import { gatewayMessage } from '../../transport/errors';
import type { CallSettings, Gateway } from '../../transport/request';
import { requireUrlText } from '../../validation/input';

/** The order exists but nothing was paid yet: a state to report, not an error (an unknown order still is one). */
function isUnpaidOrder(body: IDataObject): boolean {
	return /not initiated/i.test(gatewayMessage(body, 0));
}

/** The status of one order as check-status tells it: what Status → Get by Order ID reads. */
export async function fetchOrderStatus(gateway: Gateway, orderIdValue: unknown, settings: CallSettings): Promise<IDataObject> {
	const orderId = requireUrlText('Order ID (orderId)', orderIdValue);
	const answer = await gateway.request(
		{
			method: 'GET',
			family: 'long',
			path: '/nac/api/v1/pg/orders/check-status',
			query: { orderId },
			failureIsData: isUnpaidOrder,
		},
		settings,
	);
	// An unpaid order's answer does not name the order: a reconciliation needs to know which one it was.
	return answer.orderId === undefined ? { orderId, ...answer } : answer;
}
