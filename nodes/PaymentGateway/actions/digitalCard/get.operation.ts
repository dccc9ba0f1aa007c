import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { UNKNOWN_ID } from '../../transport/errors';
import type { Gateway } from '../../transport/request';
import { callSettings } from '../common';
import { customerIdField, digitalCardIdField } from '../fields';
import { defineOperation } from '../operation';
import { cardTarget } from './fields';
import { CARD } from '../../shared/answers';
import { droppedOf } from '../../shared/storedCards';

export async function execute(this: IExecuteFunctions, itemIndex: number, gateway: Gateway): Promise<IDataObject> {
	const { customerId, path } = cardTarget(this, itemIndex, true);
	const data = await gateway.request({ method: 'GET', family: 'short', path }, callSettings(this, itemIndex));
	const card = data.digitalCard !== null && typeof data.digitalCard === 'object' ? (data.digitalCard as IDataObject) : {};
	return { ...card, customerId, remainingLimit: data.remainingLimit, ...droppedOf(data) };
}

export const operation = defineOperation({
	resource: 'digitalCard',
	value: 'get',
	name: 'Get',
	description: 'Get one stored card of a customer',
	action: 'Get a stored card',
	sendsOnce: false,
	toolDescription:
		"Reads one of a customer's stored cards; changes nothing and moves no money. Needs the customerId and the card's digitalCardId. Returns the card (network, cardType, panLastFour, status) with the customer's remainingLimit.",
	properties: [
		customerIdField,
		digitalCardIdField,
	],
	advice: [UNKNOWN_ID],
	answer: CARD,
	execute,
});
