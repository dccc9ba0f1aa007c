/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { execFileSync } from 'node:child_process';

import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../support/fixtures';
import { createOrder, initiateParameters, orderParameters, runNode, useSandbox } from '../support/fixtures';

// The live gateway's lifecycle beyond the spec: refunds, amounts in the currency's own decimals, the hosted
// checkout link, unpaid orders in a reconciliation, and a stored card paid without CVV.

const sandbox = useSandbox({ reset: false });
beforeEach(() => {
	sandbox.reset();
	sandbox.setLatency(0);
});

const requestsTo = (apiPath: string) => sandbox.requests.filter((request) => request.apiPath === apiPath);

/** A payment that succeeded at once (no customer authentication), of an order with these fields. */
async function paidPayment(order: IDataObject = {}): Promise<{ orderId: string; paymentId: string }> {
	const orderId = await createOrder(sandbox, order);
	const paid = await runNode(sandbox, initiateParameters(orderId, { customerAuthentication: 'none', cardCVV: '' }));
	expect(paid.error).toBeUndefined();
	return { orderId, paymentId: paid.items[0].json.paymentId as string };
}

const refund = (paymentId: string, amount: number | string, extra: IDataObject = {}) =>
	runNode(sandbox, { resource: 'transaction', operation: 'refund', paymentId, amount, ...extra });

describe('Transaction → Refund', () => {
	it('refunds part of a payment, then the rest, and the payment reads refunded', async () => {
		const { orderId, paymentId } = await paidPayment({ amount: 40 });

		const partial = await refund(paymentId, 15.5);
		expect(partial.error).toBeUndefined();
		expect(partial.items).toHaveLength(1);
		expect(partial.items[0].json).toMatchObject({
			refundId: expect.any(String),
			paymentId,
			orderId,
			paymentStatus: 'partially_refunded',
			amount: 15.5,
			currency: 'USD',
		});
		expect(JSON.parse(requestsTo('/transaction/refund')[0].body)).toEqual({ paymentId, amount: 15.5 });

		const rest = await refund(paymentId, 24.5);
		expect(rest.error).toBeUndefined();
		expect(rest.items[0].json).toMatchObject({ paymentId, paymentStatus: 'refunded', amount: 24.5 });

		const status = await runNode(sandbox, { resource: 'status', operation: 'getByOrderId', orderId });
		expect(status.items[0].json).toMatchObject({ orderId, paymentId, status: 'refunded' });
	});

	it('refunds a whole payment at once', async () => {
		const { paymentId } = await paidPayment({ amount: 12.34 });
		const whole = await refund(paymentId, '12.34');
		expect(whole.error).toBeUndefined();
		expect(whole.items[0].json).toMatchObject({ paymentId, paymentStatus: 'refunded', amount: 12.34 });
	});

	it('an over-refund fails with the gateway’s message and advice', async () => {
		const { paymentId } = await paidPayment({ amount: 10 });
		const over = await refund(paymentId, 10.01);
		expect(over.status).toBe('error');
		expect(over.error).toMatchObject({
			name: 'NodeApiError',
			message: `Refund amount exceeds the refundable amount (payment ${paymentId}) [item 0]`,
			context: expect.objectContaining({ resCode: 400 }),
		});
		expect(over.error?.description).toMatch(/left to refund/);
	});

	it.each([
		['a 503', (s: Sandbox) => s.injectFault({ match: '/transaction/refund', status: 503, count: 3 }), {}],
		['a time-out', (s: Sandbox) => s.setLatency(1500), { options: { timeout: 1000 } }],
	])('is sent once and never again after %s, and says to check the payment first', async (_, fault, extra) => {
		const { paymentId } = await paidPayment({ amount: 30 });
		sandbox.clearLog();
		fault(sandbox);
		// Max Retries is not offered for refunds; even when a saved workflow carries it, nothing is re-sent.
		const failed = await refund(paymentId, 5, { ...extra, options: { maxRetries: 3, ...(extra as IDataObject).options as IDataObject } });
		expect(failed.status).toBe('error');
		expect(failed.error?.description).toMatch(/Status → Get by Payment ID before refunding again/);
		await new Promise((resolve) => setTimeout(resolve, 700));
		expect(requestsTo('/transaction/refund')).toHaveLength(1);
	});

	it('refuses a refund amount with more than 3 decimals, or none, before sending', async () => {
		for (const amount of [1.2345, 0, -5, 'ten']) {
			sandbox.clearLog();
			const refused = await refund('PAY0', amount);
			expect(refused.error).toMatchObject({ name: 'NodeOperationError', message: expect.stringMatching(/^Amount \(amount\)/) });
			expect(sandbox.requests).toHaveLength(0);
		}
		const noPayment = await refund('={{ "" }}', 1);
		expect(noPayment.error?.message).toMatch(/^Payment ID \(paymentId\) is required \[item 0\]/);
	});
});

describe('amounts follow the currency', () => {
	it('OMR 1.119 is accepted and sent as the number 1.119', async () => {
		const created = await runNode(sandbox, orderParameters({ amount: 1.119, currency: 'OMR' }));
		expect(created.error).toBeUndefined();
		expect(requestsTo('/order')[0].body).toContain('"amount":1.119,');
		expect(JSON.parse(requestsTo('/order')[0].body).amount).toBe(1.119);
		// The gateway answers three-decimal currencies as strings; the node keeps them as given.
		expect(created.items[0].json.amount).toBe('1.119');
	});

	it.each([
		['USD', 10.123, /at most 2 decimal places for USD/],
		['JPY', 100.5, /whole number for JPY, which has 0 decimal places/],
		['KWD', 1.0001, /at most 3 decimal places for KWD/],
	])('%s %p is refused before sending, naming the currency', async (currency, amount, message) => {
		const refused = await runNode(sandbox, orderParameters({ amount, currency }));
		expect(refused.error).toMatchObject({ name: 'NodeOperationError' });
		expect(refused.error?.message).toMatch(message);
		expect(refused.error?.message).toMatch(/\[item 0\]$/);
		expect(sandbox.requests).toHaveLength(0);
	});

	it('JPY 100 and USD 10.12 go through', async () => {
		for (const [currency, amount] of [['JPY', 100], ['USD', 10.12]] as const) {
			const created = await runNode(sandbox, orderParameters({ amount, currency }));
			expect(created.error).toBeUndefined();
		}
	});
});

describe('the hosted checkout link', () => {
	const checkout = (credentials: ICredentialDataDecryptedObject, redirectUrl?: string) =>
		runNode(
			sandbox,
			orderParameters({
				operation: 'createCheckout',
				redirectType: 'redirect',
				additionalFields: redirectUrl ? { redirectUrl } : {},
			}),
			[{}],
			{ credentials },
		);

	it('is built from the credential’s page, the order and the return address, URL-encoded', async () => {
		const redirectUrl = 'https://shop.example.com/done?cart=7&lang=en';
		const created = await checkout({ checkoutPageUrl: 'https://merchant.example.com/cpbs/pg' }, redirectUrl);
		expect(created.error).toBeUndefined();
		const { orderId, checkoutUrl } = created.items[0].json as { orderId: string; checkoutUrl: string };
		expect(checkoutUrl).toBe(
			`https://merchant.example.com/cpbs/pg?actionType=checkout&orderId=${encodeURIComponent(orderId)}` +
				`&redirectUrl=https%3A%2F%2Fshop.example.com%2Fdone%3Fcart%3D7%26lang%3Den&clientId=sandbox-client`,
		);
		const parsed = new URL(checkoutUrl);
		expect(Object.fromEntries(parsed.searchParams)).toEqual({
			actionType: 'checkout',
			orderId,
			redirectUrl,
			clientId: sandbox.clients.active.clientId,
		});
		// The return address is for the page, not the API: the order request does not carry it.
		expect(JSON.parse(requestsTo('/nac/api/v1/pg/orders/create-checkout')[0].body)).not.toHaveProperty('redirectUrl');
	});

	it('is absent without the credential field, or without a return address', async () => {
		const withoutPage = await checkout({}, 'https://shop.example.com/done');
		expect(withoutPage.items[0].json).not.toHaveProperty('checkoutUrl');
		const withoutReturn = await checkout({ checkoutPageUrl: 'https://merchant.example.com/cpbs/pg' });
		expect(withoutReturn.items[0].json).not.toHaveProperty('checkoutUrl');
	});

	it.each([
		['on plain http:// to another machine', 'http://pay.example.com/cpbs/pg', /must start with https:\/\//],
		['with a user name and password', 'https://shop:secret@pay.example.com/cpbs/pg', /must not contain a user name or password/],
		['with a query string', 'https://pay.example.com/cpbs/pg?actionType=checkout', /must not contain a query string/],
	])('a Hosted Checkout Page URL %s is refused when the node would use it, before the order is made', async (_label, checkoutPageUrl, problem) => {
		const refused = await checkout({ checkoutPageUrl }, 'https://shop.example.com/done');
		expect(refused.error).toMatchObject({ name: 'NodeOperationError' });
		expect(refused.error?.message).toMatch(/^The credential's Hosted Checkout Page URL /);
		expect(refused.error?.message).toMatch(problem);
		expect(refused.error?.message).not.toContain('secret');
		expect(sandbox.requests).toEqual([]);
	});

	it('refuses a return address that is not a web address', async () => {
		const refused = await checkout({ checkoutPageUrl: 'https://merchant.example.com/cpbs/pg' }, 'shop/done');
		expect(refused.error?.message).toMatch(/^Redirect URL \(additionalFields\.redirectUrl\)/);
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('a reconciliation of paid, unpaid and unknown orders', () => {
	it('gives the paid status, the unpaid order as data and the unknown one as an error in its place', async () => {
		const paid = await paidPayment();
		const unpaidOrderId = await createOrder(sandbox);
		const result = await runNode(
			sandbox,
			{ resource: 'status', operation: 'getByOrderId', orderId: '={{ $json.orderId }}' },
			[{ orderId: paid.orderId }, { orderId: unpaidOrderId }, { orderId: 'wb-00000000-0000-4000-8000-000000000000' }],
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(result.items[0].json).toMatchObject({ orderId: paid.orderId, paymentId: paid.paymentId, status: 'success' });
		expect(result.items[1].json).toEqual({
			orderId: unpaidOrderId,
			status: 'failure',
			resCode: 400,
			errMessage: 'Transaction not initiated',
		});
		// The error names the order, not only its place among the items.
		expect(result.items[2].json).toMatchObject({ error: 'Order not found (order wb-00000000-0000-4000-8000-000000000000) [item 2]', resCode: 404 });
	});

	it('stops at the unknown order without Continue On Fail', async () => {
		const unknown = await runNode(sandbox, { resource: 'status', operation: 'getByOrderId', orderId: 'wb-unknown' });
		expect(unknown.error).toMatchObject({ name: 'NodeApiError', message: 'Order not found (order wb-unknown) [item 0]' });
	});
});

describe('a stored card paid without CVV', () => {
	it('sends the plaintext { digitalCardId } alone (decrypted with openssl)', async () => {
		const stored = await runNode(sandbox, initiateParameters(await createOrder(sandbox), { secureCard: true }));
		const { digitalCardId } = stored.items[0].json.securedCardDetails as { digitalCardId: string };
		sandbox.clearLog();

		const paid = await runNode(
			sandbox,
			initiateParameters(await createOrder(sandbox), {
				paymentMode: 'token',
				digitalCardId,
				customerAuthentication: 'otpOnly',
				cardCVV: '',
			}),
		);
		expect(paid.error).toBeUndefined();
		const { encryptedCardDetails } = JSON.parse(requestsTo('/transaction/initiate')[0].body) as { encryptedCardDetails: string };
		const [iv, cipherHex] = encryptedCardDetails.split('.');
		const plain = execFileSync('openssl', ['enc', '-d', '-aes-256-cbc', '-K', sandbox.cardEncryptionKey, '-iv', iv], {
			input: Buffer.from(cipherHex, 'hex'),
		}).toString('utf8');
		expect(plain).toBe(JSON.stringify({ digitalCardId }));
	});
});
