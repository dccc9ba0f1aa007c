import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../support/fixtures';
import { customer, orderParameters, runNode, startSandbox, useSandbox } from '../support/fixtures';

// order.create (short path) and order.createCheckout (long path) through n8n's engine against the sandbox.

const sandbox = useSandbox();

const CHECKOUT_PATH = '/nac/api/v1/pg/orders/create-checkout';

function checkoutParameters(overrides: IDataObject = {}): IDataObject {
	return orderParameters({ operation: 'createCheckout', redirectType: 'post', ...overrides });
}

describe('order.create: input validation happens before anything is sent', () => {
	// Values come in through expressions, as they do in real workflows; an empty required field typed
	// into the UI would already be refused by n8n before the node runs.
	const cases: Array<{ name: string; field: string; parameters: IDataObject; item: IDataObject }> = [
		{ name: 'amount 0', field: 'amount', parameters: { amount: '={{ $json.amount }}' }, item: { amount: 0 } },
		{ name: 'a negative amount', field: 'amount', parameters: { amount: '={{ $json.amount }}' }, item: { amount: -5 } },
		{ name: 'an amount with 3 decimals', field: 'amount', parameters: { amount: '={{ $json.amount }}' }, item: { amount: 10.005 } },
		{ name: 'a non-numeric amount', field: 'amount', parameters: { amount: '={{ $json.amount }}' }, item: { amount: 'ten' } },
		{
			name: 'a receiptId of 41 characters',
			field: 'receiptId',
			parameters: { additionalFields: { receiptId: '={{ $json.receipt }}' } },
			item: { receipt: 'R'.repeat(41) },
		},
		{ name: 'a missing currency', field: 'currency', parameters: { currency: '={{ $json.currency }}' }, item: {} },
		{ name: 'a missing customer name', field: 'customerName', parameters: { customerName: '={{ $json.name }}' }, item: {} },
		{ name: 'a blank customer name', field: 'customerName', parameters: { customerName: '={{ $json.name }}' }, item: { name: '   ' } },
		{ name: 'a missing customer phone', field: 'customerPhone', parameters: { customerPhone: '={{ $json.phone }}' }, item: {} },
		{ name: 'a missing customer e-mail', field: 'customerEmail', parameters: { customerEmail: '={{ $json.email }}' }, item: {} },
		{ name: 'a malformed e-mail', field: 'customerEmail', parameters: { customerEmail: '={{ $json.email }}' }, item: { email: 'jane.example.com' } },
		{ name: 'an e-mail without a domain dot', field: 'customerEmail', parameters: { customerEmail: '={{ $json.email }}' }, item: { email: 'jane@example' } },
	];

	it.each(cases)('$name → NodeOperationError naming $field and the item, no request', async ({ field, parameters, item }) => {
		const result = await runNode(sandbox, orderParameters(parameters), [item]);

		expect(result.status).toBe('error');
		expect(result.items).toEqual([]);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toContain(field);
		expect(result.error?.message).toContain('[item 0]');
		expect(sandbox.requests).toEqual([]);
	});

	it('names the failing item index and sends nothing for it', async () => {
		const result = await runNode(sandbox, orderParameters({ amount: '={{ $json.amount }}' }), [
			{ amount: 10 },
			{ amount: 10.999 },
		]);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toContain('amount');
		expect(result.error?.message).toContain('[item 1]');
		// Item 0 was valid and went out; item 1 never did.
		expect(sandbox.requests).toHaveLength(1);
		expect(JSON.parse(sandbox.requests[0].body).amount).toBe(10);
	});

	it('accepts exactly 40 characters of receiptId and 2 decimals', async () => {
		const receiptId = 'R'.repeat(40);
		const result = await runNode(sandbox, orderParameters({ amount: 0.01, additionalFields: { receiptId } }));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ receiptId, amount: 0.01 });
		expect(sandbox.requests).toHaveLength(1);
	});
});

describe('order.create: gateway errors', () => {
	it('401 "Internal server error" (amount 401.01) is an error with httpCode 401', async () => {
		const result = await runNode(sandbox, orderParameters({ amount: 401.01 }));
		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe('Internal server error [item 0]');
		expect(result.error?.httpCode).toBe('401');
		expect(result.error?.context?.resCode).toBe(401);
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0]).toMatchObject({ apiPath: '/order', status: 401, resCode: 401 });
	});

	it('401 for a wrong client secret', async () => {
		const result = await runNode(sandbox, orderParameters(), [{}], {
			credentials: { clientSecret: 'not-the-secret' },
		});
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe('Invalid or inactive client credentials [item 0]');
		expect(result.error?.httpCode).toBe('401');
		expect(result.error?.description).toMatch(/Client ID and Client Secret/);
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0].clientId).toBe(sandbox.clients.active.clientId);
	});

	it('401 for the inactive client', async () => {
		const result = await runNode(sandbox, orderParameters(), [{}], {
			credentials: { clientId: sandbox.clients.inactive.clientId, clientSecret: sandbox.clients.inactive.clientSecret },
		});
		expect(result.error?.message).toBe('Invalid or inactive client credentials [item 0]');
		expect(result.error?.httpCode).toBe('401');
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0].clientId).toBe(sandbox.clients.inactive.clientId);
	});

	it('422 "Incorrect UI mode" when an expression sets another uiMode', async () => {
		const result = await runNode(sandbox, orderParameters({ uiMode: '={{ "embedded" }}' }));
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe('Incorrect UI mode [item 0]');
		expect(result.error?.httpCode).toBe('422');
		expect(result.error?.description).toMatch(/checkout/);
		expect(sandbox.requests).toHaveLength(1);
		expect(JSON.parse(sandbox.requests[0].body).uiMode).toBe('embedded');
	});

	it('Continue On Fail turns a gateway error into a paired error item and keeps going', async () => {
		const result = await runNode(sandbox, orderParameters({ amount: '={{ $json.amount }}' }), [
			{ amount: 10 },
			{ amount: 401.01 },
			{ amount: 12 },
		], { continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(3);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(result.items[0].json.orderId).toMatch(/^wb-/);
		expect(result.items[1].json).toMatchObject({ error: 'Internal server error [item 1]', resCode: 401 });
		expect(result.items[1].json.orderId).toBeUndefined();
		expect(result.items[2].json).toMatchObject({ amount: 12, orderId: expect.stringMatching(/^wb-/) });
	});
});

describe('order.create: amounts', () => {
	it('a three-decimal currency amount comes back as the gateway\'s string, unchanged', async () => {
		const result = await runNode(sandbox, orderParameters({ amount: '={{ $json.amount }}', currency: 'kwd' }), [
			{ amount: 1 },
			{ amount: 12.5 },
		]);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.amount)).toEqual(['1.000', '12.500']);
		expect(result.items.map((item) => item.json.currency)).toEqual(['KWD', 'KWD']);
		// What went out was a number; the string is the gateway's.
		expect(JSON.parse(sandbox.requests[0].body)).toMatchObject({ amount: 1, currency: 'KWD' });
	});

	it('a numeric string from an expression is sent as a JSON number', async () => {
		const result = await runNode(sandbox, orderParameters({ amount: '={{ $json.amount }}' }), [{ amount: '19.90' }]);
		expect(result.error).toBeUndefined();
		expect(JSON.parse(sandbox.requests[0].body).amount).toBe(19.9);
		expect(result.items[0].json.amount).toBe(19.9);
	});
});

describe('order.createCheckout (long path, checkout base URL)', () => {
	it('returns the flat answer and sends redirectType and curn', async () => {
		const result = await runNode(
			sandbox,
			checkoutParameters({
				amount: 42.1,
				redirectType: 'redirect',
				additionalFields: { receiptId: 'CO-1', curn: 'curn-77', description: 'Checkout test' },
			}),
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		expect(result.items[0].json).toEqual({
			orderId: expect.stringMatching(/^wb-/),
			amount: 42.1,
			receiptId: 'CO-1',
			status: 'success',
			resCode: 200,
			errMessage: '',
		});

		expect(sandbox.requests).toHaveLength(1);
		const [request] = sandbox.requests;
		expect(request).toMatchObject({ method: 'POST', path: CHECKOUT_PATH, apiPath: CHECKOUT_PATH, family: 'long', status: 200 });
		expect(JSON.parse(request.body)).toEqual({
			amount: 42.1,
			currency: 'USD',
			uiMode: 'checkout',
			receiptId: 'CO-1',
			description: 'Checkout test',
			curn: 'curn-77',
			redirectType: 'redirect',
			customerFields: { name: customer.customerName, email: customer.customerEmail, phone: customer.customerPhone },
		});
	});

	it.each(['post', 'redirect'])('redirectType %s goes into the body', async (redirectType) => {
		const result = await runNode(sandbox, checkoutParameters({ redirectType }));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.status).toBe('success');
		expect(JSON.parse(sandbox.requests[0].body).redirectType).toBe(redirectType);
		expect(JSON.parse(sandbox.requests[0].body).curn).toBeUndefined();
	});

	it('an invalid redirectType from an expression is refused before sending', async () => {
		const result = await runNode(sandbox, checkoutParameters({ redirectType: '={{ "iframe" }}' }));
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toContain('redirectType');
		expect(result.error?.message).toContain('[item 0]');
		expect(sandbox.requests).toEqual([]);
	});

	it('400 "Order failed" (amount 400.01) is an error with httpCode 400', async () => {
		const result = await runNode(sandbox, checkoutParameters({ amount: 400.01, additionalFields: { receiptId: 'CO-FAIL' } }));
		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe('Order failed [item 0]');
		expect(result.error?.httpCode).toBe('400');
		expect(result.error?.context?.resCode).toBe(400);
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0]).toMatchObject({ path: CHECKOUT_PATH, status: 400, resCode: 400 });
	});

	it('400 "Order failed" under Continue On Fail is a paired error item', async () => {
		const result = await runNode(sandbox, checkoutParameters({ amount: 400.01 }), [{}], { continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([
			{ json: expect.objectContaining({ error: 'Order failed [item 0]', resCode: 400 }), pairedItem: { item: 0 } },
		]);
	});

	it('goes to the checkout base URL, not the base URL', async () => {
		// The default sandbox serves the short family under a prefix: only the host root knows the long path.
		expect(sandbox.baseUrl).not.toBe(sandbox.checkoutBaseUrl);
		const result = await runNode(sandbox, checkoutParameters());
		expect(result.error).toBeUndefined();
		expect(sandbox.requests[0].path).toBe(CHECKOUT_PATH);
	});

	describe('with an empty checkout base URL', () => {
		let rootSandbox: Sandbox;
		beforeAll(async () => {
			rootSandbox = await startSandbox({ shortPrefix: '' });
		});
		afterAll(async () => await rootSandbox.close());
		beforeEach(() => rootSandbox.reset());

		it('sends create-checkout to the base URL', async () => {
			const result = await runNode(rootSandbox, checkoutParameters({ additionalFields: { receiptId: 'ROOT-1' } }), [{}], {
				credentials: { baseUrl: rootSandbox.url, checkoutBaseUrl: '' },
			});
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toMatchObject({ status: 'success', receiptId: 'ROOT-1', resCode: 200 });
			expect(rootSandbox.requests).toHaveLength(1);
			expect(rootSandbox.requests[0]).toMatchObject({ path: CHECKOUT_PATH, family: 'long', status: 200 });
			expect(sandbox.requests).toEqual([]);
		});

		it('with the short family under a prefix, an empty checkout base URL lands under that prefix', async () => {
			// Proves "empty means baseUrl": the long path is appended to the prefixed base URL, where no route exists.
			const result = await runNode(sandbox, checkoutParameters(), [{}], { credentials: { checkoutBaseUrl: '' } });
			expect(result.error?.httpCode).toBe('404');
			expect(sandbox.requests).toHaveLength(1);
			expect(sandbox.requests[0].path).toBe(new URL(sandbox.baseUrl).pathname + CHECKOUT_PATH);
			expect(rootSandbox.requests).toEqual([]);
		});
	});
});
