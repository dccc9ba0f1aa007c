import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CARD_LIST } from '../shared/answers';
import { toNodeError } from '../shared/nodeError';
import { storedCards } from '../shared/storedCards';
import type { Endpoint } from '../transport/request';
import { openGateway } from '../transport/request';

/** The editor's read of a customer's cards, named in its failures as the list it fills. */
const CARD_LIST_READ: Endpoint = { label: 'Digital Card list', answer: CARD_LIST, sendsOnce: false, offersRetries: false };

const BY_ID =
	'Choose "By ID" and give the digitalCardId: it is in securedCardDetails of the payment that stored the card, and Digital Card → Get Many lists a customer’s cards.';

function capitalized(text: unknown): string {
	return typeof text === 'string' && text ? text.charAt(0).toUpperCase() + text.slice(1) : '';
}

/** A stored card as a person recognises it, e.g. "Visa credit •••• 1111, stored 2026-11-23". */
function cardLabel(card: IDataObject): string {
	const kind = [capitalized(card.network), card.cardType].filter(Boolean).join(' ') || 'Card';
	const stored = typeof card.createdAt === 'string' ? `, stored ${card.createdAt.slice(0, 10)}` : '';
	const status = typeof card.status === 'string' && card.status !== 'ACTIVE' ? ` (${card.status.toLowerCase()})` : '';
	return `${kind} •••• ${String(card.panLastFour ?? '????')}${stored}${status}`;
}

/** The stored cards of the customer entered above, for the Digital Card list; a clear message when it cannot list. */
export async function searchStoredCards(this: ILoadOptionsFunctions): Promise<INodeListSearchResult> {
	// n8n's list shows the message of such an error, not its description: the way out goes into the message.
	const cannotList = (problem: string) => new NodeOperationError(this.getNode(), `${problem} ${BY_ID}`, { description: BY_ID });
	if (this.getCurrentNodeParameter('resource') !== 'digitalCard') {
		throw cannotList('Stored cards are listed per customer, and this operation has no Customer ID.');
	}
	const customerId = this.getCurrentNodeParameter('customerId');
	if (typeof customerId !== 'string' || !customerId.trim()) {
		throw cannotList('Enter the Customer ID above first: the list shows that customer’s stored cards.');
	}
	if (customerId.startsWith('=')) {
		throw cannotList('The Customer ID above is an expression, which the list cannot evaluate here: enter a customer’s ID to pick one of their cards.');
	}
	try {
		const { cards } = await storedCards(await openGateway(this, CARD_LIST_READ), customerId.trim(), { itemIndex: 0 });
		return { results: cards.map((card) => ({ name: cardLabel(card), value: String(card.digitalCardId) })) };
	} catch (error) {
		throw toNodeError(this.getNode(), error);
	}
}
