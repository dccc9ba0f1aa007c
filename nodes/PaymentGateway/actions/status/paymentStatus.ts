import type { IDataObject } from 'n8n-workflow';

import type { CallSettings, Gateway } from '../../transport/request';
import { pathSegment } from '../../validation/input';

/**
 * The record of exactly one payment, by its id: Status → Get by Payment ID, the trigger's re-check and Verify
 * Signature's confirmation ask alike. check-status by order would answer for the order's latest payment only.
 */
export async function fetchPaymentStatus(gateway: Gateway, paymentIdValue: unknown, settings: CallSettings): Promise<IDataObject> {
	const paymentId = pathSegment('Payment ID (paymentId)', paymentIdValue);
	return await gateway.request(
		{ endpoint: 'statusByPaymentId', method: 'GET', family: 'short', path: `/transaction/status/${paymentId}` },
		settings,
	);
}
