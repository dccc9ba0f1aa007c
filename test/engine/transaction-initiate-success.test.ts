import { createDecipheriv, createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { createOrder, customer, futureYear, initiateParameters, runNode, useSandbox } from '../support/fixtures';

// Transaction → Initiate through n8n's engine against the sandbox: what a successful payment outputs,
// and a card stored by one payment being used by the next one.

const sandbox = useSandbox();

const CARD = '4111111111111111';
const CVV = '123';

function initiateRequests() {
	return sandbox.requests.filter((request) => request.apiPath === '/transaction/initiate');
}

function decryptCardDetails(encrypted: string): IDataObject {
	const [ivHex, cipherHex] = encrypted.split('.');
	const decipher = createDecipheriv('aes-256-cbc', Buffer.from(sandbox.cardEncryptionKey, 'hex'), Buffer.from(ivHex, 'hex'));
	const plain = Buffer.concat([decipher.update(Buffer.from(cipherHex, 'hex')), decipher.final()]);
	return JSON.parse(plain.toString('utf8')) as IDataObject;
}

/** The form the sandbox sends for a payment; the node must hand it on byte for byte. */
function sandboxFormData(paymentId: string): string {
	return (
		`<form id="sandbox-auth" method="POST" action="${sandbox.url}/__sandbox/authenticate/${paymentId}">` +
		`<input type="hidden" name="paymentId" value="${paymentId}">` +
		'</form><script>document.forms[0].submit()</script>'
	);
}

/** A payment in USD waiting for the customer, as the node outputs it: the sandbox's form handed on byte for byte. */
const pendingPayment = (output: IDataObject, orderId: string, amount: number): IDataObject => ({
	paymentId: expect.stringMatching(/^PAY/),
	orderId,
	paymentStatus: 'pending',
	amount,
	currency: 'USD',
	redirectionData: { method: 'POST', formData: sandboxFormData(output.paymentId as string) },
});

/** The customerId the gateway derives from the order's e-mail and phone. */
function customerIdOf(email: string, phone: string): string {
	return 'cus_' + createHash('sha256').update(`${email.toLowerCase()}|${phone}`).digest('hex').slice(0, 16);
}

/**
 * Card data must never reach an output: the card number (plain or as typed) nowhere in the serialized data,
 * no value equal to the CVV or expiry, and no key that could carry them.
 */
function expectNoCardData(data: unknown, card: { number: string; typed?: string; cvv: string; month: string; year: string }) {
	const serialized = JSON.stringify(data);
	expect(serialized).not.toContain(card.number);
	if (card.typed) expect(serialized).not.toContain(card.typed);
	expect(serialized).not.toContain(card.number.slice(0, 12));
	const forbiddenValues = new Set([card.cvv, card.month, card.year, `${card.month}/${card.year}`]);
	const walk = (value: unknown, path: string) => {
		if (Array.isArray(value)) value.forEach((entry, index) => walk(entry, `${path}[${index}]`));
		else if (value !== null && typeof value === 'object') {
			for (const [key, entry] of Object.entries(value)) {
				expect(`${path}.${key}`).not.toMatch(/card(Number|CVV|Exp)|cvv|expiry|encryptedCardDetails/i);
				// n8n's own measure of how long the node ran: on a busy machine it is 12 or 28 ms as often as any other.
				if (key === 'executionTime') continue;
				walk(entry, `${path}.${key}`);
			}
		} else if (typeof value === 'string' || typeof value === 'number') {
			if (forbiddenValues.has(String(value))) throw new Error(`card data at ${path}: ${String(value)}`);
		}
	};
	walk(data, '$');
}

/** Stores the test card for the fixture customer with a first payment; returns that payment's output. */
async function storeCard(): Promise<IDataObject> {
	const orderId = await createOrder(sandbox);
	const result = await runNode(sandbox, initiateParameters(orderId, { secureCard: true }));
	expect(result.error).toBeUndefined();
	return result.items[0].json;
}

describe('transaction.initiate: successful payments', () => {
	it('card mode outputs the gateway data without the envelope, and no card data', async () => {
		const orderId = await createOrder(sandbox, { amount: 25.5, additionalFields: { receiptId: 'R-100' } });
		sandbox.clearLog();

		const result = await runNode(
			sandbox,
			initiateParameters(orderId, { cardNumber: CARD, cardCVV: CVV, cardExpMonth: '09', cardExpYear: futureYear }),
		);

		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		expect(result.items).toHaveLength(1);
		const output = result.items[0].json;
		const paymentId = output.paymentId as string;
		expect(paymentId).toMatch(/^PAY[0-9A-F]{32}$/);
		expect(output).toEqual({
			paymentId,
			orderId,
			receiptId: 'R-100',
			paymentStatus: 'pending',
			amount: 25.5,
			currency: 'USD',
			redirectionData: { method: 'POST', formData: sandboxFormData(paymentId) },
		});
		expect(output).not.toHaveProperty('resCode');
		expect(output).not.toHaveProperty('status');
		expect(output).not.toHaveProperty('data');
		expect(output).not.toHaveProperty('securedCardDetails');
		expect(result.items[0].pairedItem).toEqual({ item: 0 });

		expectNoCardData(result.runData, { number: CARD, cvv: CVV, month: '09', year: futureYear });

		const sent = initiateRequests();
		expect(sent).toHaveLength(1);
		expect(sent[0].status).toBe(200);
		// The payment exists at the gateway, waiting for the customer.
		expect(sandbox.completeAuthentication(paymentId, 'success')).toMatchObject({
			orderId,
			paymentId,
			status: 'success',
			paymentDetails: { paymentMethod: 'card', cardNetwork: 'visa', cardType: 'credit' },
		});
	});

	it('card mode with Secure Card passes securedCardDetails through', async () => {
		const typed = '5186 0017-0000 8785';
		const orderId = await createOrder(sandbox);
		const result = await runNode(
			sandbox,
			initiateParameters(orderId, { cardNumber: typed, cardCVV: '4321', cardExpMonth: '7', secureCard: true }),
		);

		expect(result.error).toBeUndefined();
		const output = result.items[0].json;
		const securedCardDetails = output.securedCardDetails as IDataObject;
		expect(securedCardDetails).toEqual({
			customerId: customerIdOf(customer.customerEmail, customer.customerPhone),
			digitalCardId: expect.stringMatching(/^dc_[0-9a-f]{16}$/),
		});
		expect(output).toEqual({ ...pendingPayment(output, orderId, 25.5), securedCardDetails });
		expectNoCardData(result.runData, { number: '5186001700008785', typed, cvv: '4321', month: '07', year: futureYear });

		// The identifiers are the stored card's, as the gateway's card list shows it.
		const cards = await runNode(sandbox, {
			resource: 'digitalCard',
			operation: 'getMany',
			customerId: securedCardDetails.customerId,
		});
		expect(cards.error).toBeUndefined();
		expect(cards.items.map((item) => item.json.digitalCardId)).toEqual([securedCardDetails.digitalCardId]);
		expect(cards.items[0].json).toMatchObject({ panLastFour: '8785', network: 'mastercard', status: 'ACTIVE' });
	});

	it('token mode outputs the gateway data and sends only the CVV and the digital card id', async () => {
		const stored = (await storeCard()).securedCardDetails as IDataObject;
		const orderId = await createOrder(sandbox, { amount: 12.34 });
		sandbox.clearLog();

		const result = await runNode(
			sandbox,
			initiateParameters(orderId, {
				paymentMode: 'token',
				digitalCardId: stored.digitalCardId,
				cardCVV: '987',
				// Hidden in token mode: whatever a saved workflow holds here must not be sent.
				cardNumber: '4393570006367857',
				secureCard: true,
			}),
		);

		expect(result.error).toBeUndefined();
		const output = result.items[0].json;
		expect(output).toEqual(pendingPayment(output, orderId, 12.34));
		expectNoCardData(result.runData, { number: CARD, cvv: '987', month: '12', year: futureYear });

		const sent = initiateRequests();
		expect(sent).toHaveLength(1);
		const body = JSON.parse(sent[0].body) as IDataObject;
		expect(body).toMatchObject({ paymentMode: 'token', secureCard: false });
		expect(decryptCardDetails(body.encryptedCardDetails as string)).toEqual({
			cardCVV: '987',
			digitalCardId: stored.digitalCardId,
		});
	});
});

describe('transaction.initiate: a stored card pays a later order', () => {
	it('stores the card, completes authentication, then pays a new order of the same customer in token mode', async () => {
		const firstOrderId = await createOrder(sandbox, { amount: 40 });
		const first = await runNode(sandbox, initiateParameters(firstOrderId, { secureCard: true }));
		expect(first.error).toBeUndefined();
		const firstPayment = first.items[0].json;
		const { customerId, digitalCardId } = firstPayment.securedCardDetails as IDataObject;
		expect(customerId).toBe(customerIdOf(customer.customerEmail, customer.customerPhone));

		expect(sandbox.completeAuthentication(firstPayment.paymentId as string, 'success')).toMatchObject({
			orderId: firstOrderId,
			status: 'success',
		});

		// The next workflow gets the stored card's identifiers from its input, as from a database.
		const secondOrderId = await createOrder(sandbox, { amount: 15.75 });
		sandbox.clearLog();
		const second = await runNode(
			sandbox,
			initiateParameters('={{ $json.orderId }}', {
				paymentMode: 'token',
				digitalCardId: '={{ $json.digitalCardId }}',
				cardCVV: '123',
			}),
			[{ orderId: secondOrderId, customerId, digitalCardId }],
		);

		expect(second.error).toBeUndefined();
		const secondPayment = second.items[0].json;
		expect(secondPayment).toMatchObject({ orderId: secondOrderId, paymentStatus: 'pending', amount: 15.75 });
		expect(secondPayment.paymentId).not.toBe(firstPayment.paymentId);
		expect(secondPayment).not.toHaveProperty('securedCardDetails');

		const sent = initiateRequests();
		expect(sent).toHaveLength(1);
		const body = JSON.parse(sent[0].body) as IDataObject;
		expect(body.paymentMode).toBe('token');
		expect(decryptCardDetails(body.encryptedCardDetails as string)).toEqual({ cardCVV: '123', digitalCardId });

		expect(sandbox.completeAuthentication(secondPayment.paymentId as string, 'success')).toMatchObject({
			orderId: secondOrderId,
			paymentId: secondPayment.paymentId,
			status: 'success',
			paymentDetails: { paymentMethod: 'card', cardNetwork: 'visa' },
		});

		// Still one stored card: paying with it stored nothing new.
		const cards = await runNode(sandbox, { resource: 'digitalCard', operation: 'getMany', customerId });
		expect(cards.items.map((item) => item.json.digitalCardId)).toEqual([digitalCardId]);
	});

	it('the stored card belongs to its customer: an order of another customer cannot use it', async () => {
		const stored = (await storeCard()).securedCardDetails as IDataObject;
		const otherOrderId = await createOrder(sandbox, { customerEmail: 'john@example.com', customerPhone: '98765432' });
		sandbox.clearLog();

		const result = await runNode(
			sandbox,
			initiateParameters(otherOrderId, { paymentMode: 'token', digitalCardId: stored.digitalCardId }),
		);

		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			message: `digitalCardId is not an active stored card of this customer (order ${otherOrderId}) [item 0]`,
			httpCode: '400',
		});
		expect(initiateRequests()).toHaveLength(1);
	});
});
