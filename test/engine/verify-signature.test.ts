/* eslint-disable @typescript-eslint/no-unused-vars -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox, StatusRecord } from '../support/fixtures';
import { runNode, settledPayment, startSandbox } from '../support/fixtures';
import { opensslHmacHex } from '../support/openssl';

// Status → Verify Signature through n8n's engine: a local check of a notification's or status record's
// `signature` (lowercase hex HMAC-SHA256 of "orderId|paymentId" keyed with the client secret). The check alone sends
// nothing; Confirm With Gateway, on by default, then reads the payment a valid signature names: its own tests are
// below.

let sandbox: Sandbox;
/** Signed by the sandbox gateway, an implementation of its own. */
let record: StatusRecord;
/** Signed by openssl, with ids of the shapes the live gateway uses. */
let handMade: IDataObject;

beforeAll(async () => {
	sandbox = await startSandbox();
	record = await settledPayment(sandbox, 'success');
	const orderId = 'wb-3f2c9a1e-7d4b-4c1a-9e0f-2b6d8a5c3e71';
	const paymentId = 'PAY0123456789abcdef0123456789abcdef';
	const signature = opensslHmacHex(sandbox.clients.active.clientSecret, `${orderId}|${paymentId}`);
	handMade = { eventType: null, orderId, paymentId, status: 'success', amount: '1.000', signature };
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.clearLog());

const VERIFY = { resource: 'status', operation: 'verifySignature' };
/** The check alone: Confirm With Gateway off. The record's values stay as they came, unconfirmed (statusVerified false). */
const CHECK_ALONE = { ...VERIFY, confirmWithGateway: false };

async function verify(items: IDataObject[], parameters: IDataObject = {}) {
	const result = await runNode(sandbox, { ...CHECK_ALONE, ...parameters }, items);
	expect(result.error).toBeUndefined();
	// Nothing leaves n8n: the check is local.
	expect(sandbox.requests).toHaveLength(0);
	return result.items;
}

const flip = (signature: string) => (signature[0] === 'a' ? 'b' : 'a') + signature.slice(1);

/** A record as it leaves with an invalid signature: a signature that is not the record's own is left out, named. */
function unsigned(record: IDataObject): IDataObject {
	if (!('signature' in record)) return record;
	const { signature: _signature, ...rest } = record;
	return { ...rest, droppedFields: ['signature'] };
}

describe('with its default parameters (the item’s own orderId, paymentId and signature), Confirm With Gateway off', () => {
	it('a status record signed by the gateway: the incoming fields, unchanged, plus signatureValid true', async () => {
		const [item] = await verify([{ ...record }]);
		expect(item.json).toEqual({ ...record, signatureValid: true, statusVerified: false, repeat: false });
	});

	it('a notification signed as openssl signs it: valid', async () => {
		const [item] = await verify([handMade]);
		expect(item.json).toEqual({ ...handMade, signatureValid: true, statusVerified: false, repeat: false });
	});

	it.each([
		['one character changed', (item: IDataObject) => ({ ...item, signature: flip(item.signature as string) })],
		['in upper case', (item: IDataObject) => ({ ...item, signature: (item.signature as string).toUpperCase() })],
		['over another paymentId', (item: IDataObject) => ({ ...item, paymentId: `${item.paymentId as string}0` })],
		[
			'made with another secret',
			(item: IDataObject) => ({
				...item,
				signature: opensslHmacHex('another-secret', `${item.orderId as string}|${item.paymentId as string}`),
			}),
		],
		['missing', ({ signature: _signature, ...item }: IDataObject) => item],
		['empty', (item: IDataObject) => ({ ...item, signature: '' })],
		['not a string', (item: IDataObject) => ({ ...item, signature: 12345 })],
	])('a signature %s: the incoming fields plus signatureValid false, not an error; confirming, nothing sent', async (_label, change) => {
		const changed: IDataObject = change({ ...handMade });
		const [item] = await verify([changed]);
		expect(item.json).toEqual({ ...unsigned(changed), signatureValid: false, statusVerified: false, repeat: false });

		// At the defaults (Confirm With Gateway on) an invalid signature is read nowhere: the claims set aside.
		const { status, amount, ...rest } = unsigned(changed);
		const confirming = await runNode(sandbox, VERIFY, [changed]);
		expect(confirming.error).toBeUndefined();
		expect(confirming.items.map((output) => output.json)).toEqual([
			{ ...rest, notifiedStatus: status, notifiedAmount: amount, signatureValid: false, statusVerified: false, repeat: false },
		]);
		expect(sandbox.requests).toHaveLength(0);
	});

	it('stray spaces around the values are trimmed for the check; the item holds the ids as checked', async () => {
		const spaced = {
			...handMade,
			orderId: ` ${handMade.orderId as string}  `,
			paymentId: `\t${handMade.paymentId as string}`,
			signature: `${handMade.signature as string} \n`,
		};
		const [item] = await verify([spaced]);
		expect(item.json).toEqual({ ...spaced, orderId: handMade.orderId, paymentId: handMade.paymentId, signatureValid: true, statusVerified: false, repeat: false });
	});

	it('several items: one result each, in order, paired to its input', async () => {
		const items = [
			{ ...record },
			{ ...handMade, signature: flip(handMade.signature as string) },
			handMade,
			{ orderId: handMade.orderId, paymentId: handMade.paymentId },
		];
		const results = await verify(items);
		expect(results.map((item) => item.json)).toEqual([
			{ ...record, signatureValid: true, statusVerified: false, repeat: false },
			{ ...unsigned(items[1]), signatureValid: false, statusVerified: false, repeat: false },
			{ ...handMade, signatureValid: true, statusVerified: false, repeat: false },
			{ ...items[3], signatureValid: false, statusVerified: false, repeat: false },
		]);
		expect(results.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((index) => ({ item: index })));
	});
});

it('takes the values from the parameters when they are set (e.g. a wrapped notification’s data), and reads the record flat', async () => {
	const wrapped = { eventType: 'TRANSACTION_COMPLETED', data: handMade };
	const [item] = await verify([wrapped], {
		orderId: '={{ $json.data.orderId }}',
		paymentId: '={{ $json.data.paymentId }}',
		signature: '={{ $json.data.signature }}',
	});
	// Read flat, as the trigger reads a wrapped notification: its data with its eventType.
	expect(item.json).toEqual({ eventType: wrapped.eventType, ...handMade, signatureValid: true, statusVerified: false, repeat: false });
});

it('an item without orderId is an error naming the field, or an error item with Continue On Fail', async () => {
	const { orderId: _orderId, ...withoutOrder } = handMade;
	const failed = await runNode(sandbox, VERIFY, [withoutOrder]);
	expect(failed.error?.message).toBe('Order ID (orderId) is required [item 0]');

	// The check alone: handMade's ids name no payment at the sandbox.
	const continued = await runNode(sandbox, CHECK_ALONE, [handMade, withoutOrder], { continueOnFail: true });
	expect(continued.items.map((item) => [item.json.signatureValid ?? item.json.error, item.pairedItem])).toEqual([
		[true, { item: 0 }],
		['Order ID (orderId) is required [item 1]', { item: 1 }],
	]);
	expect(sandbox.requests).toHaveLength(0);
});

it('no client secret, Basic header value or signing input in its output or errors', async () => {
	const { clientId, clientSecret } = sandbox.clients.active;
	const results = await Promise.all([
		runNode(sandbox, VERIFY, [{ ...record }, handMade, { ...handMade, signature: 'x' }]),
		runNode(sandbox, VERIFY, [{ paymentId: 'p' }]),
	]);
	const text = JSON.stringify(results.map(({ items, error, runData }) => ({ items, error, runData })));
	for (const secret of [
		clientSecret,
		Buffer.from(`${clientId}:${clientSecret}`).toString('base64'),
		`${record.orderId}|${record.paymentId}`,
		`${handMade.orderId as string}|${handMade.paymentId as string}`,
	]) {
		expect([secret, text.includes(secret)]).toEqual([secret, false]);
	}
});

// Confirm With Gateway (on by default). A valid signature proves two ids; the record's status, amount and receipt are
// claims. The payment the ids name is read from the gateway, as the trigger reads it.
describe('Confirm With Gateway', () => {
	const statusReads = () => sandbox.requests.filter((request) => request.path.includes('/transaction/status/'));

	async function confirmed(items: IDataObject[], parameters: IDataObject = {}) {
		const result = await runNode(sandbox, { ...VERIFY, ...parameters }, items);
		expect(result.error).toBeUndefined();
		return result.items.map((item) => item.json);
	}

	it('a declined payment rewritten as paid with another amount: the gateway’s failure and amount, the claims aside', async () => {
		const declined = await settledPayment(sandbox, 'failure');
		sandbox.clearLog();
		const [item] = await confirmed([{ ...declined, status: 'success', amount: 9999, receiptId: 'INV-VICTIM-9999' }]);
		const { status: _status, amount: _amount, receiptId: _receiptId, ...rest } = declined;
		expect(item).toEqual({
			...rest,
			status: 'failure',
			amount: 25.5,
			currency: 'USD',
			notifiedStatus: 'success',
			notifiedAmount: 9999,
			notifiedReceiptId: 'INV-VICTIM-9999',
			signatureValid: true,
			statusVerified: true,
			statusMismatch: true,
			repeat: false,
		});
		expect(statusReads().map((request) => request.path)).toEqual([
			expect.stringMatching(new RegExp(`/transaction/status/${declined.paymentId}$`)),
		]);
		expect(sandbox.requests).toHaveLength(1);
	});

	it('a paid record: the gateway’s values, confirmed', async () => {
		const [item] = await confirmed([{ ...record }]);
		expect(item).toMatchObject({ status: 'success', amount: 25.5, currency: 'USD', signatureValid: true, statusVerified: true });
		expect(item.statusMismatch).toBe(false);
	});

	it('an invalid signature sends nothing: signatureValid and statusVerified false, the claims aside', async () => {
		const forged = { ...record, signature: flip(record.signature), status: 'success', amount: 9999 };
		const [item] = await confirmed([forged]);
		expect(item).toMatchObject({ signatureValid: false, statusVerified: false, notifiedStatus: 'success', notifiedAmount: 9999 });
		for (const name of ['status', 'amount', 'currency', 'receiptId']) expect([name, item[name]]).toEqual([name, undefined]);
		expect(sandbox.requests).toHaveLength(0);
	});

	it('the gateway answering about another payment confirms nothing', async () => {
		sandbox.injectFault({
			match: '/transaction/status/',
			status: 200,
			body: { resCode: 200, status: 'success', data: { paymentId: 'PAYOTHER', orderId: record.orderId, paymentStatus: 'success' } },
		});
		const [item] = await confirmed([{ ...record }]);
		expect(item).toMatchObject({ signatureValid: true, statusVerified: false, notifiedStatus: 'success' });
		expect(item.status).toBeUndefined();
		expect(item.confirmationError).toMatchObject({ message: expect.stringMatching(/not about this payment/) });
	});

	it('the gateway failing is the item’s error (an error item with Continue On Fail), paired', async () => {
		sandbox.injectFault({ match: '/transaction/status/', status: 503, count: 4 });
		const result = await runNode(sandbox, VERIFY, [{ ...record }], { continueOnFail: true });
		expect(result.items.map((item) => [item.json.resCode, item.pairedItem])).toEqual([[503, { item: 0 }]]);
		sandbox.clearFaults();
	});

	it('turned off: nothing is sent, nothing confirmed, whatever the record says of itself', async () => {
		const forged = { ...record, status: 'success', statusVerified: true, statusMismatch: false, confirmationError: null };
		expect(await confirmed([forged], { confirmWithGateway: false })).toEqual([
			{ ...record, status: 'success', signatureValid: true, statusVerified: false, repeat: false },
		]);
		expect(sandbox.requests).toHaveLength(0);
	});

	it('what the record says of itself under the names the node or the gateway use never stays on top', async () => {
		const declined = await settledPayment(sandbox, 'failure');
		sandbox.clearLog();
		const forged = {
			...declined,
			status: 'success',
			paymentStatus: 'success',
			statusVerified: true,
			statusMismatch: false,
			signatureValid: true,
			confirmationError: null,
			recheckError: null,
		};
		const [item] = await confirmed([forged]);
		expect(item).toMatchObject({ status: 'failure', notifiedPaymentStatus: 'success', statusVerified: true, statusMismatch: true });
		for (const name of ['paymentStatus', 'confirmationError', 'recheckError']) expect([name, item[name]]).toEqual([name, undefined]);
		// An invalid signature: the record's own claims of being verified are dropped as well.
		const [invalid] = await confirmed([{ ...forged, signature: flip(declined.signature) }]);
		expect(invalid).toMatchObject({ signatureValid: false, statusVerified: false, notifiedPaymentStatus: 'success' });
		expect(invalid.statusMismatch).toBeUndefined();
	});

	it('the gateway giving two different statuses (status and paymentStatus) confirms nothing', async () => {
		sandbox.injectFault({
			match: '/transaction/status/',
			status: 200,
			body: {
				resCode: 200,
				status: 'success',
				data: { paymentId: record.paymentId, orderId: record.orderId, status: 'success', paymentStatus: 'failure', amount: 25.5 },
			},
		});
		const [item] = await confirmed([{ ...record }]);
		expect(item).toMatchObject({ signatureValid: true, statusVerified: false, notifiedStatus: 'success' });
		for (const name of ['status', 'amount']) expect([name, item[name]]).toEqual([name, undefined]);
		expect(item.confirmationError).toMatchObject({ message: expect.stringMatching(/two different statuses/) });
	});
});
