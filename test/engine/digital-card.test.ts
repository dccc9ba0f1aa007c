import type { IDataObject } from 'n8n-workflow';

import { createOrder, initiateParameters, runNode, useSandbox, withoutSubject } from '../support/fixtures';
import { storedVisa } from '../support/records';

// digitalCard.getMany / get / delete through n8n's engine against the sandbox.

const sandbox = useSandbox();

const VISA = '4111111111111111';
const MASTERCARD = '5186001700008785';

function cards(operation: 'getMany' | 'get' | 'delete', parameters: IDataObject): IDataObject {
	return { resource: 'digitalCard', operation, ...parameters };
}

function prefixed(path: string): string {
	return `${new URL(sandbox.baseUrl).pathname}${path}`;
}

/** Pays an order with secureCard on, which stores the card; returns the stored card's ids. */
async function storeCard(cardNumber: string): Promise<{ customerId: string; digitalCardId: string }> {
	const orderId = await createOrder(sandbox);
	const result = await runNode(sandbox, initiateParameters(orderId, { cardNumber, secureCard: true }));
	if (result.error) throw new Error(`initiate failed: ${result.error.message}`);
	const details = result.items[0].json.securedCardDetails as IDataObject;
	return { customerId: details.customerId as string, digitalCardId: details.digitalCardId as string };
}

describe('digitalCard.getMany', () => {
	it('gives one item per stored card, each with customerId and remainingLimit', async () => {
		const visa = await storeCard(VISA);
		const mastercard = await storeCard(MASTERCARD);
		expect(mastercard.customerId).toBe(visa.customerId);
		expect(mastercard.digitalCardId).not.toBe(visa.digitalCardId);
		const { customerId } = visa;
		sandbox.clearLog();

		const result = await runNode(sandbox, cards('getMany', { customerId }));
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
		result.items.forEach((item) => expect(item.pairedItem).toEqual({ item: 0 }));
		const byId = Object.fromEntries(result.items.map((item) => [item.json.digitalCardId, item.json]));
		expect(byId[visa.digitalCardId]).toEqual({ ...storedVisa(visa.digitalCardId), customerId, remainingLimit: 3 });
		expect(byId[mastercard.digitalCardId]).toMatchObject({
			network: 'mastercard',
			panLastFour: '8785',
			customerId,
			remainingLimit: 3,
		});

		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0]).toMatchObject({
			method: 'GET',
			path: prefixed(`/customer/${customerId}/digitalCards`),
			status: 200,
		});
	});

	it('a customer without cards gives no items', async () => {
		const result = await runNode(sandbox, cards('getMany', { customerId: 'cus_nobody' }));
		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		expect(result.items).toEqual([]);
		expect(sandbox.requests).toHaveLength(1);
	});

	it('with outputSummaryWhenEmpty, a customer without cards gives one summary item', async () => {
		const result = await runNode(
			sandbox,
			cards('getMany', { customerId: 'cus_nobody', options: { outputSummaryWhenEmpty: true } }),
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([
			{ json: { customerId: 'cus_nobody', remainingLimit: 5, cardCount: 0 }, pairedItem: { item: 0 } },
		]);
	});

	it('with outputSummaryWhenEmpty, a customer with cards still gives the cards only', async () => {
		const { customerId } = await storeCard(VISA);
		const result = await runNode(sandbox, cards('getMany', { customerId, options: { outputSummaryWhenEmpty: true } }));
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({ customerId, panLastFour: '1111', remainingLimit: 4 });
		expect(result.items[0].json.cardCount).toBeUndefined();
	});

	it('several input customers: every card paired to the item that asked for it', async () => {
		const visa = await storeCard(VISA);
		await storeCard(MASTERCARD);
		const result = await runNode(sandbox, cards('getMany', { customerId: '={{ $json.customer }}' }), [
			{ customer: 'cus_nobody' },
			{ customer: visa.customerId },
			{ customer: 'cus_other' },
		]);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 1 }]);
	});

	it('500 "Error while fetching digital cards" (cus_fail_list)', async () => {
		// Max Retries 0: the one answer, reported (retried: the next test).
		const result = await runNode(sandbox, cards('getMany', { customerId: 'cus_fail_list', options: { maxRetries: 0 } }));
		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeApiError');
		expect(withoutSubject(result.error?.message)).toBe('Error while fetching digital cards [item 0]');
		expect(result.error?.httpCode).toBe('500');
		expect(result.error?.context?.resCode).toBe(500);
		expect(sandbox.requests).toHaveLength(1);
	});

	it('a 500 is retried with maxRetries, then reported', async () => {
		const result = await runNode(sandbox, cards('getMany', { customerId: 'cus_fail_list', options: { maxRetries: 2 } }));
		expect(result.error?.context?.resCode).toBe(500);
		expect(sandbox.requests.map((request) => request.status)).toEqual([500, 500, 500]);
	});

	it('a 503 on the list is retried into success', async () => {
		const { customerId } = await storeCard(VISA);
		sandbox.clearLog();
		sandbox.injectFault({ match: '/digitalCards', status: 503, count: 1, retryAfter: 0 });
		const result = await runNode(sandbox, cards('getMany', { customerId, options: { maxRetries: 1 } }));
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(sandbox.requests.map((request) => request.status)).toEqual([503, 200]);
	});
});

describe('digitalCard.get', () => {
	it('gives the card with customerId and remainingLimit', async () => {
		const { customerId, digitalCardId } = await storeCard(MASTERCARD);
		sandbox.clearLog();
		const result = await runNode(sandbox, cards('get', { customerId, digitalCardId }));
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([
			{
				json: {
					digitalCardId,
					network: 'mastercard',
					cardType: 'credit',
					status: 'ACTIVE',
					panLastFour: '8785',
					createdAt: expect.any(String),
					updatedAt: expect.any(String),
					customerId,
					remainingLimit: 4,
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(sandbox.requests[0].path).toBe(prefixed(`/customer/${customerId}/digitalCards/${digitalCardId}`));
	});

	it('an unknown card → 404 error', async () => {
		const { customerId } = await storeCard(VISA);
		const result = await runNode(sandbox, cards('get', { customerId, digitalCardId: 'dc_unknown' }));
		expect(withoutSubject(result.error?.message)).toBe('Card not found [item 0]');
		expect(result.error?.context?.resCode).toBe(404);
	});

	it('500 "Error while fetching digital card" (dc_fail_fetch)', async () => {
		const result = await runNode(sandbox, cards('get', { customerId: 'cus_any', digitalCardId: 'dc_fail_fetch' }));
		expect(result.error?.name).toBe('NodeApiError');
		expect(withoutSubject(result.error?.message)).toBe('Error while fetching digital card [item 0]');
		expect(result.error?.httpCode).toBe('500');
		expect(result.error?.context?.resCode).toBe(500);
	});
});

describe('digitalCard.delete', () => {
	it('deletes the card: {customerId, digitalCardId, deleted: true}; a second delete → 404', async () => {
		const { customerId, digitalCardId } = await storeCard(VISA);
		await storeCard(MASTERCARD);
		sandbox.clearLog();

		const first = await runNode(sandbox, cards('delete', { customerId, digitalCardId }));
		expect(first.error).toBeUndefined();
		expect(first.items).toEqual([{ json: { customerId, digitalCardId, deleted: true }, pairedItem: { item: 0 } }]);
		expect(sandbox.requests[0]).toMatchObject({
			method: 'DELETE',
			path: prefixed(`/customer/${customerId}/digitalCards/${digitalCardId}`),
			status: 200,
		});

		const left = await runNode(sandbox, cards('getMany', { customerId }));
		expect(left.items.map((item) => item.json.panLastFour)).toEqual(['8785']);
		expect(left.items[0].json.remainingLimit).toBe(4);

		const second = await runNode(sandbox, cards('delete', { customerId, digitalCardId }));
		expect(second.status).toBe('error');
		expect(second.error?.name).toBe('NodeApiError');
		expect(withoutSubject(second.error?.message)).toBe('Card not found or already deleted [item 0]');
		expect(second.error?.httpCode).toBe('404');
		expect(second.error?.context?.resCode).toBe(404);
		expect(second.error?.description).toMatch(/Nothing was removed/);
	});

	it('500 "Error while removing digital card" (dc_fail_delete)', async () => {
		const result = await runNode(sandbox, cards('delete', { customerId: 'cus_any', digitalCardId: 'dc_fail_delete' }));
		expect(withoutSubject(result.error?.message)).toBe('Error while removing digital card [item 0]');
		expect(result.error?.httpCode).toBe('500');
		expect(result.error?.context?.resCode).toBe(500);
	});

	describe('three deletes, the middle card already deleted', () => {
		let customerId: string;
		let ids: string[];
		beforeEach(async () => {
			const visa = await storeCard(VISA);
			const mastercard = await storeCard(MASTERCARD);
			customerId = visa.customerId;
			const gone = await runNode(sandbox, cards('delete', { customerId, digitalCardId: mastercard.digitalCardId }));
			expect(gone.error).toBeUndefined();
			// A third card of the same customer, to delete last.
			const third = await storeCard('4012888888881881');
			ids = [visa.digitalCardId, mastercard.digitalCardId, third.digitalCardId];
			sandbox.clearLog();
		});

		const items = () => ids.map((digitalCardId) => ({ customerId, digitalCardId }));
		const parameters = cards('delete', { customerId: '={{ $json.customerId }}', digitalCardId: '={{ $json.digitalCardId }}' });

		it('with Continue On Fail: 3 paired items, the middle one an error with resCode 404', async () => {
			const result = await runNode(sandbox, parameters, items(), { continueOnFail: true });
			expect(result.error).toBeUndefined();
			expect(result.status).toBe('success');
			expect(result.items).toHaveLength(3);
			expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
			expect(result.items[0].json).toEqual({ customerId, digitalCardId: ids[0], deleted: true });
			expect(result.items[1].json).toEqual({
				error: `Card not found or already deleted (card ${ids[1]} of customer ${customerId}) [item 1]`,
				resCode: 404,
				description: expect.any(String),
			});
			expect(result.items[2].json).toEqual({ customerId, digitalCardId: ids[2], deleted: true });
			expect(sandbox.requests.map((request) => request.status)).toEqual([200, 404, 200]);
		});

		it('with "Continue (using error output)": the failure goes to the error output, paired', async () => {
			const result = await runNode(sandbox, parameters, items(), { onError: 'continueErrorOutput' });
			expect(result.error).toBeUndefined();
			const [success, failure] = result.outputs;
			expect(success.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 2 }]);
			expect(failure).toHaveLength(1);
			expect(failure[0].pairedItem).toEqual({ item: 1 });
			// Only `error` and `message`: n8n 1.x and 2.0 route nothing else to the error output.
			expect(failure[0].json).toEqual({
				...items()[1],
				error: `Card not found or already deleted (card ${ids[1]} of customer ${customerId}) [item 1]`,
				message: expect.stringMatching(/^Gateway resCode 404\. The card was not found/),
			});
		});

		it('without Continue On Fail, one at a time: the error names the item index and the third card is not touched', async () => {
			// Concurrency 1: untuned, the node sends the three deletes at once, and the third is gone
			// before the second's 404 stops the run.
			const result = await runNode(sandbox, { ...parameters, options: { concurrency: 1 } }, items());
			expect(result.status).toBe('error');
			expect(result.items).toEqual([]);
			expect(withoutSubject(result.error?.message)).toBe('Card not found or already deleted [item 1]');
			expect(result.error?.context?.itemIndex).toBe(1);
			expect(result.error?.context?.resCode).toBe(404);
			expect(sandbox.requests.map((request) => request.status)).toEqual([200, 404]);

			const left = await runNode(sandbox, cards('getMany', { customerId }));
			expect(left.items.map((item) => item.json.digitalCardId)).toEqual([ids[2]]);
		});
	});

	it('an empty digitalCardId from an expression is refused before sending', async () => {
		const result = await runNode(
			sandbox,
			cards('delete', { customerId: 'cus_any', digitalCardId: '={{ $json.id }}' }),
			[{ id: 'dc_1' }, { id: '' }],
			{ continueOnFail: true },
		);
		expect(result.items).toHaveLength(2);
		expect(result.items[0].json).toMatchObject({ resCode: 404 });
		expect(result.items[1].json).toMatchObject({ resCode: null, itemIndex: 1 });
		expect(result.items[1].json.error).toContain('digitalCardId');
		expect(result.items[1].json.error).toContain('[item 1]');
		expect(sandbox.requests).toHaveLength(1);
	});
});

describe('identifiers are URL-encoded into single path segments', () => {
	it.each([
		['getMany', { customerId: 'cus/../../order' }, '/customer/cus%2F..%2F..%2Forder/digitalCards'],
		['getMany', { customerId: 'cus 1?x=#' }, '/customer/cus%201%3Fx%3D%23/digitalCards'],
		['get', { customerId: 'cus/a', digitalCardId: 'dc?b' }, '/customer/cus%2Fa/digitalCards/dc%3Fb'],
		['delete', { customerId: 'cus#a', digitalCardId: 'dc/../b' }, '/customer/cus%23a/digitalCards/dc%2F..%2Fb'],
	] as Array<['getMany' | 'get' | 'delete', IDataObject, string]>)('%s %j → %s', async (operation, ids, path) => {
		const result = await runNode(sandbox, cards(operation, ids));
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0].path).toBe(prefixed(path));
		expect(sandbox.requests[0].apiPath).toBe(path);
		// Signed over the encoded path: the sandbox answered the route, not 401.
		expect(sandbox.requests[0].status).toBe(operation === 'getMany' ? 200 : 404);
		if (operation === 'getMany') expect(result.items).toEqual([]);
		else expect(result.error?.context?.resCode).toBe(404);
	});

	it('the customerId in the output is the one given, not its encoded form', async () => {
		const result = await runNode(
			sandbox,
			cards('getMany', { customerId: 'cus/a b', options: { outputSummaryWhenEmpty: true } }),
		);
		expect(result.items[0].json.customerId).toBe('cus/a b');
	});
});
