import type { IDataObject } from 'n8n-workflow';

import type { CallSettings, Endpoint, Gateway } from '../transport/request';
import { pathSegment } from '../validation/input';

/**
 * The record of exactly one payment, by its id: Status → Get by Payment ID, the trigger's re-check and Verify
 * Signature's confirmation and a refund's read of its payment ask alike, each named as itself in messages (the
 * gateway's endpoint, or `endpoint`). check-status by order would answer for the order's latest payment only.
 */
export async function fetchPaymentStatus(
	gateway: Gateway,
	paymentIdValue: unknown,
	settings: CallSettings,
	endpoint?: Endpoint,
): Promise<IDataObject> {
	const paymentId = pathSegment('Payment ID (paymentId)', paymentIdValue);
	return await gateway.request({ endpoint, method: 'GET', family: 'short', path: `/transaction/status/${paymentId}` }, settings);
}
