import type { IExecuteFunctions } from 'n8n-workflow';

import { cardsPath } from '../../shared/storedCards';
import { pathSegment, requireText } from '../../validation/input';
import { digitalCardIdOf } from '../fields';

/** One item's customer and, for a single card, its id; `path` is the endpoint path with both encoded. */
export function cardTarget(ctx: IExecuteFunctions, itemIndex: number, withCard: boolean) {
	const customerId = requireText('Customer ID (customerId)', ctx.getNodeParameter('customerId', itemIndex));
	let path = cardsPath(customerId);
	let digitalCardId: string | undefined;
	if (withCard) {
		digitalCardId = digitalCardIdOf(ctx, itemIndex);
		path += `/${pathSegment('Digital Card (digitalCardId)', digitalCardId)}`;
	}
	return { customerId, digitalCardId, path };
}
