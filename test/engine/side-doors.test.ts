/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject } from 'n8n-workflow';

import { PaymentGatewayApi } from '../../credentials/PaymentGatewayApi.credentials';
import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import { WITHHELD } from '../../nodes/PaymentGateway/transport/redact';
import { runListSearch } from '../support/engine';
import type { Sandbox } from '../support/fixtures';
import { createOrder, orderParameters, runNode, sandboxCredentials, settledPayment, startSandbox, testGatewayCredential, withoutSubject } from '../support/fixtures';

// The side doors an attacker tried (issue "No side doors"), each through n8n's engine against the sandbox: a redirect
// is never followed, a failure answer cannot carry a secret in any encoding, a success answer cannot carry card data,
// and an Amount of any length cannot stall the node. The trigger's doors (replays, floods) are in
// trigger-replays.test.ts.

let sandbox: Sandbox;
let elsewhere: Capture;
beforeAll(async () => {
	sandbox = await startSandbox();
	elsewhere = await startCapture();
});
afterAll(async () => {
	await elsewhere.close();
	await sandbox.close();
});
beforeEach(() => {
	sandbox.reset();
	elsewhere.requests.length = 0;
});

/** Another origin: records what reaches it and answers like a gateway would, so that a followed redirect shows. */
interface Capture {
	url: string;
	requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders }>;
	close(): Promise<void>;
}

async function startCapture(): Promise<Capture> {
	const requests: Capture['requests'] = [];
	const server = http.createServer((req, res) => {
		requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
		req.resume();
		res.setHeader('Content-Type', 'application/json');
		res.end(JSON.stringify({ resCode: 200, status: 'success', orderId: 'wb-elsewhere', data: { orderId: 'wb-elsewhere', paymentId: 'PAYELSEWHERE', status: 'success' } }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		requests,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

describe('door 1: a redirect is never followed', () => {
	it('a read answered 302 to another origin: nothing reaches it, the error names the Base URL and the redirect', async () => {
		const { paymentId } = await settledPayment(sandbox, 'success');
		sandbox.injectFault({ match: '/transaction/status/', kind: 'redirect', status: 302, location: `${elsewhere.url}/steal`, count: 10 });
		const parameters = { resource: 'status', operation: 'getByPaymentId', paymentId };
		const stopped = await runNode(sandbox, parameters);
		const continued = await runNode(sandbox, parameters, [{}], { continueOnFail: true });
		expect(elsewhere.requests).toEqual([]);
		expect(withoutSubject(stopped.error?.message)).toMatch(/answered with a redirect \(HTTP 302\) to another address, which was not followed \[item 0\]$/);
		expect(stopped.error?.description).toContain('Base URL');
		expect(continued.items.map((item) => [item.json.error, item.json.code])).toEqual([[expect.stringContaining('redirect'), 'EREDIRECT']]);
		// Retries are on by default: a redirect is not one to retry.
		expect(sandbox.requests.filter((request) => request.fault === 'redirect')).toHaveLength(2);
	});

	it('a write answered 301 to plain http elsewhere: the Basic header never leaves, the order is not output as made', async () => {
		sandbox.injectFault({ match: '/order', kind: 'redirect', status: 301, location: `${elsewhere.url}/order` });
		const result = await runNode(sandbox, orderParameters(), [{}], { continueOnFail: true });
		expect(elsewhere.requests).toEqual([]);
		expect(result.items[0].json.orderId).toBeUndefined();
		expect(result.items[0].json.description).toMatch(/Base URL.*may have acted/s);
	});

	it('a refund answered 307 to its own address: one refund item sends one POST, not 22', async () => {
		const { paymentId } = await settledPayment(sandbox, 'success');
		sandbox.clearLog();
		sandbox.injectFault({ match: '/transaction/refund', kind: 'redirect', status: 307, count: 50 });
		const result = await runNode(sandbox, { resource: 'transaction', operation: 'refund', paymentId, amount: 1 });
		expect(result.error?.message).toContain('redirect (HTTP 307)');
		expect(sandbox.requests.filter((request) => request.path.endsWith('/transaction/refund'))).toHaveLength(1);
	});

	it('the long family (check-status) names the Checkout Base URL when it is set', async () => {
		const orderId = await createOrder(sandbox);
		sandbox.injectFault({ match: 'check-status', kind: 'redirect', status: 308, location: `${elsewhere.url}/x` });
		const result = await runNode(sandbox, { resource: 'status', operation: 'getByOrderId', orderId }, [{}], { credentials: { checkoutBaseUrl: sandbox.url } });
		expect(elsewhere.requests).toEqual([]);
		expect(result.error?.description).toContain('Checkout Base URL');
	});

	it('Verify Signature’s confirmation answered with a redirect: nothing confirmed, nothing sent elsewhere', async () => {
		const record = await settledPayment(sandbox, 'success');
		sandbox.injectFault({ match: '/transaction/status/', kind: 'redirect', status: 302, location: `${elsewhere.url}/status`, count: 10 });
		const result = await runNode(sandbox, { resource: 'status', operation: 'verifySignature' }, [record as unknown as IDataObject]);
		expect(elsewhere.requests).toEqual([]);
		expect(result.error?.message).toMatch(/^Status → Verify Signature: the gateway answered with a redirect \(HTTP 302\)/);
		expect(result.items).toEqual([]);
	});

	it('the stored-card list in the editor answered with a redirect: its message says so, nothing sent elsewhere', async () => {
		sandbox.injectFault({ match: '/digitalCards', kind: 'redirect', status: 302, location: `${elsewhere.url}/cards` });
		const listed = await runListSearch({
			nodeType: PaymentGateway,
			credentialType: PaymentGatewayApi,
			credentials: sandboxCredentials(sandbox),
			method: 'searchStoredCards',
			parameters: { resource: 'digitalCard', operation: 'get', customerId: 'cus_1' } as never,
		});
		expect(elsewhere.requests).toEqual([]);
		expect(listed.error?.message).toContain('redirect (HTTP 302)');
	});

	it('the credential’s Test answered with a redirect: an error naming the Base URL, nothing sent elsewhere', async () => {
		sandbox.injectFault({ match: '/digitalCards', kind: 'redirect', status: 302, location: `${elsewhere.url}/cards` });
		const result = await testGatewayCredential(sandboxCredentials(sandbox));
		expect(elsewhere.requests).toEqual([]);
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/^Base URL \(baseUrl\) answered with a redirect \(HTTP 302\)/) });
	});
});

/** The Basic value and the secret in each encoding a proxy may echo them in, computed here independently. */
function encodedSecrets(): Array<[string, string]> {
	const { clientId, clientSecret } = sandbox.clients.active;
	const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
	const forms: Array<[string, string]> = [
		['percent-encoded Basic value', `authorization=Basic%20${encodeURIComponent(basic)}`],
		['lower-case percent-encoded Basic value', `authorization=Basic%20${encodeURIComponent(basic).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())}`],
		['form-encoded Basic value', `authorization=Basic+${encodeURIComponent(basic).replace(/%20/g, '+')}`],
		['base64url Basic value without padding', `token ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64url')}`],
		['base64 of the secret inside a longer text', `blob ${Buffer.from(`{"clientSecret":"${clientSecret}"}`).toString('base64')}`],
		['percent-encoded secret', `secret=${encodeURIComponent(clientSecret)}`],
		['base64 of the card encryption key', `key ${Buffer.from(sandbox.cardEncryptionKey, 'hex').toString('base64')}`],
	];
	return forms;
}

/** What a leak of `text` would show: the secret, the Basic value, or their decoded forms. */
function leaked(output: string): string[] {
	const { clientId, clientSecret } = sandbox.clients.active;
	const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
	const needles = [clientSecret, basic, basic.replace(/=+$/, ''), Buffer.from(`${clientId}:${clientSecret}`).toString('base64url'), sandbox.cardEncryptionKey];
	const views = [output, decodeURIComponent(output.replace(/\+/g, ' ').replace(/%(?![0-9A-Fa-f]{2})/g, '%25'))];
	for (const token of output.match(/[A-Za-z0-9+/_-]{16,}={0,2}/g) ?? []) views.push(Buffer.from(token, 'base64').toString('latin1'));
	return needles.filter((needle) => views.some((view) => view.includes(needle) || view.includes(encodeURIComponent(needle))));
}

describe('door 4: a failure answer cannot carry a secret in any encoding, nor card data with any separators', () => {
	const labels = ['percent-encoded Basic value', 'lower-case percent-encoded Basic value', 'form-encoded Basic value', 'base64url Basic value without padding', 'base64 of the secret inside a longer text', 'percent-encoded secret', 'base64 of the card encryption key'];
	it.each(labels)('%s: not in the error, the Continue On Fail item or the credential Test', async (label) => {
		const message = `Upstream refused: ${Object.fromEntries(encodedSecrets())[label]}`;
		for (const continueOnFail of [false, true]) {
			sandbox.injectFault({ match: '/order', status: 502, body: { resCode: 502, status: 'failure', message } });
			const result = await runNode(sandbox, orderParameters(), [{}], { continueOnFail });
			const shown = continueOnFail ? JSON.stringify(result.items) : JSON.stringify([result.error?.message, result.error?.description]);
			// A message that quotes the credential in any form is not kept at all.
			expect(shown).toContain(WITHHELD);
			expect(leaked(shown)).toEqual([]);
		}
		sandbox.injectFault({ match: '/digitalCards', status: 401, body: { resCode: 401, status: 'failure', errMessage: message } });
		const tested = await testGatewayCredential(sandboxCredentials(sandbox));
		expect(tested.status).toBe('Error');
		expect(leaked(tested.message)).toEqual([]);
	});

	it.each([
		['dots', '4111.1111.1111.1111'],
		['double spaces', '4111  1111  1111  1111'],
		['dashes', '4111-1111-1111-1111'],
		['slashes and underscores', '4111/1111_1111/1111'],
	])('a card number with %s beside a CVV and an expiry: none of them kept', async (_label, card) => {
		const message = `Declined card ${card} cvv 123 exp 12/30`;
		sandbox.injectFault({ match: '/order', status: 400, body: { resCode: 400, status: 'failure', errMessage: message } });
		const result = await runNode(sandbox, orderParameters(), [{}], { continueOnFail: true });
		const shown = JSON.stringify(result.items);
		expect(shown).toContain('Declined card');
		expect(shown.replace(/\D/g, '')).not.toContain('41111111');
		expect(shown).not.toMatch(/123|12\/30/);
	});
});

describe('door 4: a success answer cannot carry card data', () => {
	it('Digital Card → Get Many: card number, CVV and expiry under any key are gone; the last four stay', async () => {
		const card = {
			digitalCardId: 'dc_1',
			network: 'visa',
			cardType: 'credit',
			status: 'ACTIVE',
			panLastFour: '1111',
			cardNumber: '4111111111111111',
			pan: '5186 0017 0000 8785',
			cvv: '123',
			expiryMonth: '12',
			expiryYear: '30',
			card: { number: '4111-1111-1111-1111', exp: '12/30', cvc: '999' },
			note: 'charged card 4111 1111 1111 1111 exp 12/30',
		};
		const body = { resCode: 200, status: 'success', data: { digitalCards: [card], remainingLimit: 4 } };
		sandbox.injectFault({ match: '/digitalCards', status: 200, body });
		const result = await runNode(sandbox, { resource: 'digitalCard', operation: 'getMany', customerId: 'cus_1' });
		expect(result.error).toBeUndefined();
		const [item] = result.items.map((output) => output.json);
		// A card's declared fields stay; the others go, only their names listed.
		expect(item).toEqual({
			digitalCardId: 'dc_1',
			network: 'visa',
			cardType: 'credit',
			status: 'ACTIVE',
			panLastFour: '1111',
			customerId: 'cus_1',
			remainingLimit: 4,
			droppedFields: ['digitalCards.cardNumber', 'digitalCards.pan', 'digitalCards.cvv', 'digitalCards.expiryMonth', 'digitalCards.expiryYear', 'digitalCards.card', 'digitalCards.note'],
		});
		const values = JSON.stringify(result.items.map((output) => ({ ...output.json, droppedFields: undefined })));
		expect(values).not.toMatch(/41111111|5186|8785"|"123"|"999"|12\/30/i);
	});

	it('ids keep every digit: a card-like run inside the gateway’s order id is part of the id; a receipt that holds a card number is left out', async () => {
		const orderId = 'wb-41111111-1111-1111-1111-111111111111';
		sandbox.injectFault({ match: '/order', status: 200, body: { resCode: 200, status: 'success', data: { orderId, receiptId: '4111111111111111x', amount: 25.5, currency: 'USD' } } });
		const result = await runNode(sandbox, orderParameters());
		expect(result.items[0].json).toEqual({ orderId, amount: 25.5, currency: 'USD', droppedFields: ['receiptId'] });
	});
});

describe('door 5: a text of any length in a field is refused by length before any pattern reads it', () => {
	const adversarial = '1,'.repeat(100_000) + 'x';

	it.each([
		['Order → Create', () => orderParameters({ amount: '={{ $json.amount }}' })],
		['Transaction → Refund', () => ({ resource: 'transaction', operation: 'refund', paymentId: 'PAY1', amount: '={{ $json.amount }}' })],
	])('%s: Amount of 200 KiB ("1," repeated) is refused naming Amount, nothing sent', async (_label, parametersFor) => {
		// The pattern it met before took 13-16 s of CPU on this input; the time itself is measured in a child process
		// (test/unit/linear-inputs.test.ts), where nothing else runs.
		const result = await runNode(sandbox, parametersFor(), [{ amount: adversarial }]);
		expect(result.error?.message).toBe('Amount (amount) is longer than 4096 characters [item 0]');
		expect(sandbox.requests).toEqual([]);
	});
});
