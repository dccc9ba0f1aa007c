import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callSettings, optionsCollection } from '../common';
import { gatewayRequest } from '../../transport/request';
import { pathSegment, requireText } from '../../validation';
import { customerIdField, digitalCardIdField } from './fields';

const properties: INodeProperties[] = [customerIdField, digitalCardIdField, optionsCollection('read')];

export const description = updateDisplayOptions(
	{ show: { resource: ['digitalCard'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const customerId = requireText('Customer ID (customerId)', this.getNodeParameter('customerId', itemIndex));
	const digitalCardId = requireText('Digital Card ID (digitalCardId)', this.getNodeParameter('digitalCardId', itemIndex));
	const data = await gatewayRequest.call(
		this,
		{
			endpoint: 'deleteCard',
			method: 'DELETE',
			family: 'short',
			path: `/customer/${pathSegment('Customer ID (customerId)', customerId)}/digitalCards/${pathSegment('Digital Card ID (digitalCardId)', digitalCardId)}`,
		},
		callSettings(this, itemIndex),
	);
	return {
		customerId: typeof data.customerId === 'string' ? data.customerId : customerId,
		digitalCardId: typeof data.digitalCardId === 'string' ? data.digitalCardId : digitalCardId,
		deleted: true,
	};
}
