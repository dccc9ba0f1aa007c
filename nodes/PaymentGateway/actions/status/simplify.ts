import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isPlainObject } from '../../helpers/json';
import { itemOptions } from '../common';
import { isToolMode } from '../toolMode';

export const simplifyOption: INodeProperties = {
	displayName: 'Simplify',
	name: 'simple',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

/**
 * Unless the option is set, an AI agent gets the simplified record (far fewer tokens, nothing it cannot use) and a
 * normal node the gateway's, so that saved workflows keep their output.
 */
export function wantsSimplified(ctx: IExecuteFunctions, itemIndex: number): boolean {
	const option = itemOptions(ctx, itemIndex).simple;
	return typeof option === 'boolean' ? option : isToolMode(ctx);
}

/**
 * What a person or an agent needs of a status record, the same for both status reads: the signature (a check for
 * Verify Signature, meaningless to read) and the nesting go. Keys the gateway did not give are left out.
 */
export function simplifiedStatus(record: IDataObject): IDataObject {
	const details = isPlainObject(record.paymentDetails) ? record.paymentDetails : {};
	const simplified: IDataObject = {
		orderId: record.orderId,
		paymentId: record.paymentId,
		receiptId: record.receiptId,
		status: record.status ?? record.paymentStatus,
		amount: record.amount,
		currency: record.currency,
		paymentMethod: details.paymentMethod ?? record.paymentMethod,
		cardNetwork: details.cardNetwork,
		cardType: details.cardType,
		time: record.completedAt ?? record.timestamp ?? record.initiatedAt,
		errMessage: record.errMessage,
	};
	return Object.fromEntries(Object.entries(simplified).filter(([, value]) => value !== undefined && value !== ''));
}
