import type { IDataObject } from 'n8n-workflow';

import { PaymentGatewayApi } from '../../credentials/PaymentGatewayApi.credentials';
import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import { runListSearch } from '../support/engine';
import { createOrder, initiateParameters, runNode, sandboxCredentials, useSandbox } from '../support/fixtures';

// Digital Card, wherever it is asked, is a resource locator: "From list" shows the customer's stored cards as a person
// recognises them (through the editor's list search, in n8n-core's LoadOptionsContext), "By ID" takes the id. A list
// that cannot be shown says why. Workflows saved with 0.1's plain-string digitalCardId run unchanged.

const sandbox = useSandbox();

async function storeCard(cardNumber: string): Promise<{ customerId: string; digitalCardId: string }> {
	const result = await runNode(sandbox, initiateParameters(await createOrder(sandbox), { cardNumber, secureCard: true }));
	const details = result.items[0].json.securedCardDetails as IDataObject;
	return { customerId: details.customerId as string, digitalCardId: details.digitalCardId as string };
}

const list = (parameters: IDataObject, credentials = sandboxCredentials(sandbox)) =>
	runListSearch({ nodeType: PaymentGateway, credentialType: PaymentGatewayApi, credentials, method: 'searchStoredCards', parameters: parameters as never });

describe('From list', () => {
	it("lists the customer's stored cards as a person recognises them", async () => {
		const visa = await storeCard('4111111111111111');
		const mastercard = await storeCard('5186001700008785');
		sandbox.clearLog();
		const { results, error } = await list({ resource: 'digitalCard', operation: 'get', customerId: visa.customerId });
		expect(error).toBeUndefined();
		const today = new Date().toISOString().slice(0, 10);
		expect(results).toEqual([
			{ name: `Visa credit •••• 1111, stored ${today}`, value: visa.digitalCardId },
			{ name: `Mastercard credit •••• 8785, stored ${today}`, value: mastercard.digitalCardId },
		]);
		expect(sandbox.requests.map((request) => `${request.method} ${request.apiPath}`)).toEqual([
			`GET /customer/${visa.customerId}/digitalCards`,
		]);
	});

	it('a customer without cards gives an empty list', async () => {
		const { results, error } = await list({ resource: 'digitalCard', operation: 'delete', customerId: 'cus_nobody' });
		expect(error).toBeUndefined();
		expect(results).toEqual([]);
	});

	it.each([
		['no Customer ID yet', { customerId: '' }, /^Enter the Customer ID above first/],
		['a Customer ID that is an expression', { customerId: '={{ $json.customerId }}' }, /is an expression, which the list cannot evaluate here/],
	])('%s: a clear message, nothing sent', async (_case, parameters, message) => {
		const { error } = await list({ resource: 'digitalCard', operation: 'get', ...parameters });
		expect(error?.message).toMatch(message);
		// The editor's list shows only the message: it must say what to do.
		expect(error?.message).toMatch(/Choose "By ID" and give the digitalCardId/);
		expect(sandbox.requests).toEqual([]);
	});

	it('in Transaction → Initiate, which has no Customer ID, it says where to find the card', async () => {
		const { error } = await list({ resource: 'transaction', operation: 'initiate', paymentMode: 'token' });
		expect(error?.message).toMatch(/listed per customer, and this operation has no Customer ID/);
		expect(error?.message).toMatch(/securedCardDetails of the payment that stored the card/);
		expect(sandbox.requests).toEqual([]);
	});

	it('a refused credential or an unreachable gateway is said in the list, never a blank list', async () => {
		const wrongSecret = await list(
			{ resource: 'digitalCard', operation: 'get', customerId: 'cus_1' },
			sandboxCredentials(sandbox, { clientSecret: 'not-the-secret' }),
		);
		expect(wrongSecret.error?.message).toMatch(/signature|credentials/i);
		expect(wrongSecret.error?.description).toMatch(/Client Secret|Client ID/);

		const unreachable = await list(
			{ resource: 'digitalCard', operation: 'get', customerId: 'cus_1' },
			sandboxCredentials(sandbox, { baseUrl: 'http://127.0.0.1:1/prefix' }),
		);
		expect(unreachable.error?.message).toMatch(/could not reach the payment gateway/);

		const badKey = await list(
			{ resource: 'digitalCard', operation: 'get', customerId: 'cus_1' },
			sandboxCredentials(sandbox, { baseUrl: 'gateway.example.com' }),
		);
		expect(badKey.error?.message).toBe("The credential's Base URL must start with https:// or http://");
	});
});

describe('every shape a Digital Card can have reaches the same card', () => {
	const shapes = (digitalCardId: string): Array<[string, unknown]> => [
		['From list', { __rl: true, mode: 'list', value: digitalCardId, cachedResultName: 'Visa credit •••• 1111' }],
		['By ID', { __rl: true, mode: 'id', value: digitalCardId }],
		['By ID, an expression', { __rl: true, mode: 'id', value: '={{ $json.card }}' }],
		['a plain string, as 0.1 saved it', digitalCardId],
		['a plain expression, as 0.1 saved it', '={{ $json.card }}'],
	];

	it('Digital Card → Get and Delete', async () => {
		const { customerId, digitalCardId } = await storeCard('4111111111111111');
		for (const [, shape] of shapes(digitalCardId)) {
			const result = await runNode(sandbox, { resource: 'digitalCard', operation: 'get', customerId, digitalCardId: shape as never }, [{ card: digitalCardId }]);
			expect(result.error).toBeUndefined();
			expect(result.items[0].json.digitalCardId).toBe(digitalCardId);
		}
		const deleted = await runNode(sandbox, { resource: 'digitalCard', operation: 'delete', customerId, digitalCardId: shapes(digitalCardId)[0][1] as never });
		expect(deleted.items[0].json).toEqual({ customerId, digitalCardId, deleted: true });
	});

	it('Transaction → Initiate with a stored card', async () => {
		const { digitalCardId } = await storeCard('4111111111111111');
		for (const [label, shape] of shapes(digitalCardId)) {
			const orderId = await createOrder(sandbox);
			const result = await runNode(
				sandbox,
				initiateParameters(orderId, { paymentMode: 'token', digitalCardId: shape as IDataObject, customerAuthentication: 'otpOnly', cardCVV: '' }),
				[{ card: digitalCardId }],
			);
			expect({ label, error: result.error?.message }).toEqual({ label, error: undefined });
			expect(result.items[0].json.paymentStatus).toBe('pending');
		}
	});
});
