/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @typescript-eslint/no-unused-vars -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import type { IDataObject } from 'n8n-workflow';

import type { RunWorkflowResult } from '../support/engine';
import type { LeakSearchTerms } from '../support/leaks';
import { findLeaks as findLeaksOf, runMaterial, sandboxSecrets } from '../support/leaks';
import { createOrder, futureYear, orderParameters, runNode, startSandbox, useSandbox, withoutSubject } from '../support/fixtures';

// Runs a broad set of operations, successes and failures, and checks that nothing the node hands back to n8n
// (output items, error objects with description, context and stack, the node's run data) contains a secret:
// client secrets, the card encryption key, the Basic header value, card numbers or the CVV.
//
// Card data reaches the node through expressions over input items, as in a real checkout workflow. The input
// node's own run data (those items as given) is the user's input and is not part of what is checked.

const sandbox = useSandbox({ reset: false });
beforeEach(() => {
	sandbox.reset();
	sandbox.setLatency(0);
});

const NODE_NAME = 'Payment Gateway';
const CVV = '9731';
const CARDS = {
	visa: '4111111111111111',
	mastercard: '5186001700008785',
	declined: '4393570006367857',
	luhnFail: '4111111111111112',
};
const WRONG_SECRET = 'wrong-secret-5c1e0b7a93d2';
const WRONG_KEY = 'c0ffee'.repeat(10) + 'beef';
const MALFORMED_KEY = 'not-a-key-' + 'q'.repeat(54);

/** Everything collected from every run, for the final sweep. */
const collected: unknown[] = [];

const terms = (): LeakSearchTerms => ({
	secrets: [...sandboxSecrets(sandbox, [WRONG_SECRET, WRONG_KEY, MALFORMED_KEY]), '4111 1111 1111 1112'],
	cards: Object.values(CARDS),
	cvvs: [CVV],
});
const findLeaks = (value: unknown) => findLeaksOf(value, terms());

function check(result: RunWorkflowResult): RunWorkflowResult {
	const found = runMaterial(result, NODE_NAME);
	collected.push(found);
	expect(findLeaks(found)).toEqual([]);
	return result;
}

const initiateFromItems = (overrides: IDataObject = {}): IDataObject => ({
	resource: 'transaction',
	operation: 'initiate',
	orderId: '={{ $json.orderId }}',
	paymentMode: '={{ $json.mode ?? "card" }}',
	cardNumber: '={{ $json.card }}',
	cardExpMonth: '={{ $json.month }}',
	cardExpYear: '={{ $json.year }}',
	digitalCardId: '={{ $json.digitalCardId }}',
	cardCVV: '={{ $json.cvv }}',
	cardHolderName: 'Jane Doe',
	redirectionUrl: 'https://shop.example.com/payment/done',
	secureCard: '={{ $json.secure ?? false }}',
	customerAuthentication: '={{ $json.auth ?? "cvvAndOtp" }}',
	...overrides,
});

function cardItem(orderId: string, card: string, extra: IDataObject = {}): IDataObject {
	return { orderId, card, month: '12', year: futureYear, cvv: CVV, ...extra };
}

describe('the leak detector itself', () => {
	it.each([
		['a full card number', { message: `card ${CARDS.visa} refused` }],
		['a spaced card number', { message: 'card 5186 0017 0000 8785' }],
		['a card number as a number', { value: Number(CARDS.mastercard) }],
		['the first six and last four', { masked: '411111******1111' }],
		['the CVV', { body: '{"cardCVV":"9731"}' }],
		['the client secret', { header: `secret=${'sandbox-secret-f4910caa8879a0d4'}` }],
		['the Basic header', { Authorization: `Basic ${Buffer.from('sandbox-client:sandbox-secret-f4910caa8879a0d4').toString('base64')}` }],
		['the encryption key', { key: 'ae0a48d044fd61f653b82fe9234b6837db4d627b2568d014494eb048ccf595eb' }],
	])('finds %s', (_name, value) => {
		expect(findLeaks(value)).not.toEqual([]);
	});

	it('allows the last four digits, ids, signatures, timestamps and how long a node ran', () => {
		expect(
			findLeaks({
				panLastFour: '1111',
				masked: '************8785',
				signature: 'a3b9f1111111111111111111111111111111111111111111111111111111111e',
				orderId: 'ord_51860017c0ffee00',
				paymentId: 'wb-0b1c2d3e-9731-4abc-8def-a0b1c2d3e4f5',
				nodeId: 'c2d3e4f5-aaaa-4bbb-9731-0b1c2d3e4f5a',
				timestamp: '2026-11-22T05:04:02.123Z',
				startTime: 1795323497311,
				executionTime: Number(CVV),
				amount: 25.5,
			}),
		).toEqual([]);
	});
});

describe('nothing secret leaves the node', () => {
	it('successful payments: new cards, stored cards, status and card management', async () => {
		const orders = await Promise.all([createOrder(sandbox), createOrder(sandbox), createOrder(sandbox)]);
		const initiated = check(
			await runNode(sandbox, initiateFromItems(), [
				cardItem(orders[0], CARDS.visa, { secure: true }),
				cardItem(orders[1], CARDS.mastercard, { secure: true, auth: 'otpOnly' }),
				cardItem(orders[2], CARDS.declined, { secure: true, auth: 'none', cvv: '' }),
			]),
		);
		expect(initiated.error).toBeUndefined();
		expect(initiated.items).toHaveLength(3);
		const payments = initiated.items.map((item) => item.json);
		const { customerId } = payments[0].securedCardDetails as IDataObject;
		sandbox.completeAuthentication(payments[0].paymentId as string, 'success');
		sandbox.completeAuthentication(payments[1].paymentId as string, 'failure');

		check(await runNode(sandbox, { resource: 'status', operation: 'getByOrderId', orderId: '={{ $json.orderId }}' }, payments));
		check(await runNode(sandbox, { resource: 'status', operation: 'getByPaymentId', paymentId: '={{ $json.paymentId }}' }, payments));
		const listed = check(await runNode(sandbox, { resource: 'digitalCard', operation: 'getMany', customerId }));
		expect(listed.items.map((item) => item.json.panLastFour).sort()).toEqual(['1111', '7857', '8785']);
		const storedVisa = listed.items.find((item) => item.json.panLastFour === '1111')!.json;
		check(
			await runNode(sandbox, {
				resource: 'digitalCard',
				operation: 'get',
				customerId,
				digitalCardId: storedVisa.digitalCardId,
			}),
		);

		// Paying again with the stored card, CVV included.
		const tokenOrder = await createOrder(sandbox);
		const token = check(
			await runNode(sandbox, initiateFromItems(), [
				{ orderId: tokenOrder, mode: 'token', digitalCardId: storedVisa.digitalCardId, cvv: CVV },
			]),
		);
		expect(token.error).toBeUndefined();

		const deleted = check(
			await runNode(
				sandbox,
				{ resource: 'digitalCard', operation: 'delete', customerId: '={{ $json.customerId }}', digitalCardId: '={{ $json.digitalCardId }}' },
				listed.items.map((item) => item.json),
			),
		);
		expect(deleted.items).toHaveLength(3);
	});

	it('card field validation failures, with and without Continue On Fail', async () => {
		const orderId = await createOrder(sandbox);
		const bad = [
			cardItem(orderId, '4111 1111 1111 1112'),
			cardItem(orderId, '4111111111'),
			cardItem(orderId, '4111-1111-1111-111x'),
			cardItem(orderId, CARDS.mastercard, { year: '20' }),
			cardItem(orderId, CARDS.mastercard, { month: '13' }),
			cardItem(orderId, CARDS.visa, { cvv: `${CVV}0` }),
			cardItem(orderId, CARDS.visa, { cvv: '' }),
			{ orderId, mode: 'token', cvv: CVV },
			cardItem('', CARDS.declined),
		];
		sandbox.clearLog();

		const continued = check(await runNode(sandbox, initiateFromItems(), bad, { continueOnFail: true }));
		expect(continued.items).toHaveLength(bad.length);
		for (const item of continued.items) expect(item.json.error).toEqual(expect.any(String));

		for (const item of bad) {
			const stopped = check(await runNode(sandbox, initiateFromItems(), [item]));
			expect(stopped.error?.name).toBe('NodeOperationError');
		}

		const errorOutput = check(await runNode(sandbox, initiateFromItems(), bad, { onError: 'continueErrorOutput' }));
		expect(errorOutput.outputs[1]).toHaveLength(bad.length);
		expect(sandbox.requests).toEqual([]);
	});

	it('gateway errors on initiate, with and without Continue On Fail', async () => {
		const amounts = [404.01, 404.02, 404.03, 409.01, 422.01, 500.01];
		const orders: string[] = [];
		for (const amount of amounts) orders.push(await createOrder(sandbox, { amount }));
		const items = orders.map((orderId, index) => cardItem(orderId, index % 2 ? CARDS.mastercard : CARDS.visa));

		const continued = check(await runNode(sandbox, initiateFromItems(), items, { continueOnFail: true }));
		expect(continued.items.map((item) => item.json.resCode)).toEqual([404, 404, 404, 409, 422, 500]);

		for (const item of items) {
			const stopped = check(await runNode(sandbox, initiateFromItems(), [item]));
			expect(stopped.error?.name).toBe('NodeApiError');
		}

		// In progress: a second payment of a pending order.
		const orderId = await createOrder(sandbox);
		check(await runNode(sandbox, initiateFromItems(), [cardItem(orderId, CARDS.visa)]));
		const twice = check(await runNode(sandbox, initiateFromItems(), [cardItem(orderId, CARDS.visa)]));
		expect(twice.error?.context?.resCode).toBe(409);

		// Storing a declined card and paying with it as a token.
		const declinedOrder = await createOrder(sandbox);
		const stored = check(
			await runNode(sandbox, initiateFromItems(), [cardItem(declinedOrder, CARDS.declined, { secure: true })]),
		);
		const digitalCardId = (stored.items[0].json.securedCardDetails as IDataObject).digitalCardId;
		sandbox.completeAuthentication(stored.items[0].json.paymentId as string, 'success');
		const tokenOrder = await createOrder(sandbox);
		const token = check(
			await runNode(sandbox, initiateFromItems(), [{ orderId: tokenOrder, mode: 'token', digitalCardId, cvv: CVV }]),
		);
		sandbox.completeAuthentication(token.items[0].json.paymentId as string, 'success');
		const status = check(await runNode(sandbox, { resource: 'status', operation: 'getByOrderId', orderId: tokenOrder }));
		expect(status.items[0].json.status).toBe('failure');

		// The gateway cannot decrypt: a well-formed but wrong card encryption key.
		const wrongKey = check(
			await runNode(sandbox, initiateFromItems(), [cardItem(await createOrder(sandbox), CARDS.visa)], {
				credentials: { cardEncryptionKey: WRONG_KEY },
			}),
		);
		expect(wrongKey.error?.context?.resCode).toBe(400);

		// A malformed key is refused before anything is sent.
		const malformed = check(
			await runNode(sandbox, initiateFromItems(), [cardItem(orderId, CARDS.visa)], {
				credentials: { cardEncryptionKey: MALFORMED_KEY },
			}),
		);
		expect(malformed.error?.message).toMatch(/Card Encryption Key/);
	});

	it('refused credentials: wrong secret and inactive client, on every kind of operation', async () => {
		const orderId = await createOrder(sandbox);
		const wrong = { credentials: { clientSecret: WRONG_SECRET } };
		const inactive = {
			credentials: { clientId: sandbox.clients.inactive.clientId, clientSecret: sandbox.clients.inactive.clientSecret },
		};
		for (const extra of [wrong, inactive, { ...wrong, continueOnFail: true }]) {
			const runs = [
				await runNode(sandbox, initiateFromItems(), [cardItem(orderId, CARDS.visa)], extra),
				await runNode(sandbox, orderParameters(), [{}], extra),
				await runNode(sandbox, orderParameters({ operation: 'createCheckout', redirectType: 'post' }), [{}], extra),
				await runNode(sandbox, { resource: 'status', operation: 'getByOrderId', orderId }, [{}], extra),
				await runNode(sandbox, { resource: 'status', operation: 'getByPaymentId', paymentId: 'pay_1' }, [{}], extra),
				await runNode(sandbox, { resource: 'digitalCard', operation: 'getMany', customerId: 'cus_1' }, [{}], extra),
				await runNode(sandbox, { resource: 'digitalCard', operation: 'delete', customerId: 'cus_1', digitalCardId: 'dc_1' }, [{}], extra),
			];
			for (const result of runs) {
				check(result);
				expect(result.error?.context?.resCode ?? result.items[0]?.json.resCode).toBe(401);
			}
		}
	});

	it('order and card gateway errors', async () => {
		check(await runNode(sandbox, orderParameters({ amount: 401.01 })));
		check(await runNode(sandbox, orderParameters({ uiMode: '={{ "embedded" }}' })));
		check(await runNode(sandbox, orderParameters({ operation: 'createCheckout', redirectType: 'post', amount: 400.01 })));
		check(await runNode(sandbox, { resource: 'digitalCard', operation: 'getMany', customerId: 'cus_fail_list' }));
		check(await runNode(sandbox, { resource: 'digitalCard', operation: 'get', customerId: 'c', digitalCardId: 'dc_fail_fetch' }));
		check(
			await runNode(
				sandbox,
				{ resource: 'digitalCard', operation: 'delete', customerId: 'c', digitalCardId: 'dc_fail_delete' },
				[{}],
				{ continueOnFail: true },
			),
		);
		check(await runNode(sandbox, { resource: 'status', operation: 'getByOrderId', orderId: 'ord_missing', options: { maxRetries: 1 } }));
	});

	it('network failures: connection refused and timeout', async () => {
		const closed = await startSandbox();
		const closedUrl = closed.url;
		await closed.close();
		const orderId = await createOrder(sandbox);

		const refused = check(
			await runNode(sandbox, initiateFromItems(), [cardItem(orderId, CARDS.visa)], {
				credentials: { baseUrl: `${closedUrl}/nac/api/v1/merchant-host`, checkoutBaseUrl: closedUrl },
			}),
		);
		// Said in words: n8n would rewrite a message naming ECONNREFUSED into its own generic text.
		expect(withoutSubject(refused.error?.message)).toBe(
			'Transaction → Initiate: could not reach the payment gateway (the connection was refused) [item 0]',
		);

		sandbox.setLatency(1500);
		const timedOut = check(
			await runNode(sandbox, initiateFromItems({ options: { timeout: 1000 } }), [cardItem(orderId, CARDS.mastercard)]),
		);
		expect(timedOut.error?.name).toBe('NodeApiError');
		expect(timedOut.error?.description).toMatch(/may or may not have reached/);
	});

	it('card data typed straight into the parameters stays out of messages, context and outputs', async () => {
		const orderId = await createOrder(sandbox);
		const literal = {
			...initiateFromItems(),
			orderId,
			paymentMode: 'card',
			cardNumber: CARDS.luhnFail,
			cardExpMonth: '12',
			cardExpYear: futureYear,
			cardCVV: CVV,
			secureCard: false,
			customerAuthentication: 'cvvAndOtp',
		};
		const failed = await runNode(sandbox, literal);
		expect(failed.error?.message).toContain('cardNumber');
		// n8n copies the node as saved in the workflow (its parameters) onto each error as `node`; that copy is
		// the user's own workflow, not something the node produced, so it is left out here.
		const { node: _node, ...error } = failed.error!;
		expect(findLeaks({ items: failed.items, error, message: failed.error?.message, stack: failed.error?.stack })).toEqual([]);

		const passed = await runNode(sandbox, { ...literal, cardNumber: CARDS.visa });
		expect(passed.error).toBeUndefined();
		expect(findLeaks({ items: passed.items, outputs: passed.outputs })).toEqual([]);
	});

	it('the sweep covered outputs, error descriptions, contexts and stacks', () => {
		// Guard against a vacuous pass: the collected material really holds what was to be searched.
		const text = JSON.stringify(collected);
		expect(collected.length).toBeGreaterThan(40);
		expect(text).toContain('securedCardDetails');
		expect(text).toContain('redirectionData');
		expect(text).toContain('"stack":"NodeApiError');
		expect(text).toContain('"stack":"NodeOperationError');
		expect(text).toContain('"description":"');
		expect(text).toContain('"resCode":401');
		expect(text).toContain('Invalid or inactive client credentials');
		expect(text).toContain('ECONNREFUSED');
		expect(text).toContain('may or may not have reached the gateway');
		expect(findLeaks(collected)).toEqual([]);
	});
});
