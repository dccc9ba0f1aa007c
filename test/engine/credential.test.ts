/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { CredentialTestResult } from '../support/engine';
import { sandboxCredentials, startSandbox, testGatewayCredential, useSandbox } from '../support/fixtures';
import { findLeaks, sandboxSecrets } from '../support/leaks';

// The credential's Test as n8n's credential dialog (and POST /rest/credentials/test) runs it, against the sandbox:
// the form of the fields first, then one harmless read on each path family.

const sandbox = useSandbox();

const REFUSED = /^The gateway refused the credentials \(401, "Invalid or inactive client credentials"\): check Client ID \(clientId\) and Client Secret \(clientSecret\)/;
const SHORT_PROBE = '/customer/n8n-credential-test/digitalCards';
const LONG_PROBE = '/nac/api/v1/pg/orders/check-status';

/** Every message seen in this file, searched for secrets at the end. */
const messages: string[] = [];
async function credentialTest(overrides: ICredentialDataDecryptedObject = {}): Promise<CredentialTestResult> {
	const result = await testGatewayCredential(sandboxCredentials(sandbox, overrides));
	messages.push(result.message);
	return result;
}

function hmac(secret: string, data: string): string {
	return createHmac('sha256', secret).update(data, 'utf8').digest('hex');
}

const seen = () => sandbox.requests.map((request) => `${request.method} ${request.path} → ${request.status}`);

/** A server on a free port that answers every request as given; `url` is its address. */
async function startServer(status: number, type: string, body: string) {
	const server = createServer((_request, response) => {
		response.writeHead(status, { 'Content-Type': type });
		response.end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return { url, close: () => new Promise((resolve) => server.close(resolve)) };
}

async function closedPort(): Promise<string> {
	const closed = await startSandbox();
	await closed.close();
	return closed.url;
}

describe('a working credential', () => {
	it('is OK, after one signed read on each path family, both answered by the gateway itself', async () => {
		const result = await credentialTest();
		expect(result.status).toBe('OK');
		expect(seen()).toEqual([
			`GET ${new URL(sandbox.baseUrl).pathname}${SHORT_PROBE} → 200`,
			`GET ${LONG_PROBE}?orderId=n8n-credential-test → 404`,
		]);
		const [short, long] = sandbox.requests;
		expect([short.family, short.apiPath, long.family, long.apiPath]).toEqual(['short', SHORT_PROBE, 'long', LONG_PROBE]);
		// The long family's answer is the gateway's own "not found" for an order id it never gave out.
		expect(long.resCode).toBe(404);
		for (const request of sandbox.requests) {
			expect(request.clientId).toBe(sandbox.clients.active.clientId);
			expect(request.headers.authorization).toBe('Basic <redacted>');
			// Signed over the path after the base URL, with an empty payload, using the client secret.
			expect(request.headers['x-signature']).toBe(hmac(sandbox.clients.active.clientSecret, request.apiPath as string));
			expect(request.headers['x-merchant-domain']).toBe('https://shop.example.com');
			expect(request.headers['x-merchant-browser-fingerprint']).toBeTruthy();
			expect(request.headers['x-merchant-user-agent']).toBeTruthy();
			expect(request.headers['accept-language']).toBe('en-US');
		}
	});

	it('is OK with trailing slashes on the base URLs, and with a Hosted Checkout Page URL of the right form', async () => {
		for (const checkoutPageUrl of ['https://merchant.example.com/cpbs/pg', `${sandbox.url}/__sandbox/cpbs/pg`, 'http://localhost:8080/pay/']) {
			const result = await credentialTest({ baseUrl: `${sandbox.baseUrl}/`, checkoutBaseUrl: `${sandbox.checkoutBaseUrl}/`, checkoutPageUrl });
			expect([checkoutPageUrl, result.status]).toEqual([checkoutPageUrl, 'OK']);
		}
	});

	it('is OK with an empty Checkout Base URL where both path families sit under the Base URL', async () => {
		const atRoot = await startSandbox({ shortPrefix: '' });
		try {
			const result = await testGatewayCredential(sandboxCredentials(atRoot, { checkoutBaseUrl: '' }));
			expect(result.status).toBe('OK');
			expect(atRoot.requests.map((request) => `${request.path} → ${request.status}`)).toEqual([
				`${SHORT_PROBE} → 200`,
				`${LONG_PROBE}?orderId=n8n-credential-test → 404`,
			]);
		} finally {
			await atRoot.close();
		}
	});
});

describe('wrong client id or secret', () => {
	it('a wrong client secret: an Error naming both fields and the 401, after one request (no retry, no second probe)', async () => {
		const result = await credentialTest({ clientSecret: 'wrong-secret' });
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(REFUSED) });
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0]).toMatchObject({ status: 401, resCode: 401, clientId: sandbox.clients.active.clientId });
		expect(sandbox.requests[0].headers['x-signature']).toBe(hmac('wrong-secret', sandbox.requests[0].apiPath as string));
	});

	it('an unknown client id, and the inactive client: the same Error', async () => {
		const { clientId, clientSecret } = sandbox.clients.inactive;
		const wrong: ICredentialDataDecryptedObject[] = [{ clientId: 'nobody' }, { clientId, clientSecret }];
		for (const overrides of wrong) {
			sandbox.clearLog();
			expect(await credentialTest(overrides)).toEqual({ status: 'Error', message: expect.stringMatching(REFUSED) });
			expect(seen()).toEqual([`GET ${new URL(sandbox.baseUrl).pathname}${SHORT_PROBE} → 401`]);
		}
	});
});

describe('Base URL', () => {
	it('without the API prefix: the gateway has no such route, said with what the field should hold', async () => {
		const result = await credentialTest({ baseUrl: sandbox.url });
		expect(result.status).toBe('Error');
		expect(result.message).toBe(
			'Base URL (baseUrl) does not lead to the gateway\'s merchant API (HTTP 404, "No route found"). It should end where the endpoint paths (/order, /customer/…) begin, e.g. https://gateway.example.com/nac/api/v1/merchant-host.',
		);
		expect(seen()).toEqual([`GET ${SHORT_PROBE} → 404`]);
	});

	it('of a web site: not an answer of the gateway', async () => {
		const website = await startServer(200, 'text/html', '<html><body>Welcome to our shop</body></html>');
		try {
			const result = await credentialTest({ baseUrl: website.url });
			expect(result.message).toMatch(/^Base URL \(baseUrl\) does not lead to the gateway's merchant API \(HTTP 200, not an answer of the gateway\)/);
		} finally {
			await website.close();
		}
	});

	it('unreachable: names the field and what happened', async () => {
		const result = await credentialTest({ baseUrl: await closedPort() });
		expect(result).toEqual({ status: 'Error', message: 'Base URL (baseUrl) could not be reached (the connection was refused). Check the address, and that n8n can reach the gateway.' });
	});

	it('with a query string: refused by its form, nothing sent', async () => {
		const result = await credentialTest({ baseUrl: `${sandbox.baseUrl}?x=1` });
		expect(result.message).toBe('Base URL (baseUrl) must not contain a query string (?…) or a fragment (#…). Nothing was sent to the gateway.');
		expect(sandbox.requests).toEqual([]);
	});
});

describe('Checkout Base URL', () => {
	it('set to the Base URL (with its prefix): the long family has no route there; the short family was fine', async () => {
		const result = await credentialTest({ checkoutBaseUrl: sandbox.baseUrl });
		expect(result).toEqual({
			status: 'Error',
			message:
				'Checkout Base URL (checkoutBaseUrl) does not lead to the gateway\'s checkout endpoints (HTTP 404, "No route found"). It should be the address in front of /nac/api/v1/pg/orders/…, usually the host alone, e.g. https://gateway.example.com.',
		});
		const prefix = new URL(sandbox.baseUrl).pathname;
		expect(seen()).toEqual([`GET ${prefix}${SHORT_PROBE} → 200`, `GET ${prefix}${LONG_PROBE}?orderId=n8n-credential-test → 404`]);
	});

	it('empty while the Base URL has a prefix: says that the Base URL was used, and what to set', async () => {
		const result = await credentialTest({ checkoutBaseUrl: '' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^Checkout Base URL \(checkoutBaseUrl\) is empty, so \/nac\/api\/v1\/pg\/orders\/… went to the Base URL \(baseUrl\), which does not lead to the gateway's checkout endpoints \(HTTP 404, "No route found"\)\. Set Checkout Base URL \(checkoutBaseUrl\): it is the address in front of/,
		);
	});

	it('unreachable: names the field', async () => {
		const result = await credentialTest({ checkoutBaseUrl: await closedPort() });
		expect(result.message).toBe('Checkout Base URL (checkoutBaseUrl) could not be reached (the connection was refused). Check the address, and that n8n can reach the gateway.');
		expect(seen()).toHaveLength(1);
	});

	it('of another gateway that does not know the client: its 401 is told apart from wrong credentials', async () => {
		const other = await startSandbox({ clients: { active: { clientId: 'someone-else', clientSecret: 'another-secret-0123' } } });
		try {
			const result = await credentialTest({ checkoutBaseUrl: other.checkoutBaseUrl });
			expect(result.message).toMatch(
				/^The gateway at the Checkout Base URL \(checkoutBaseUrl\) refused the client \(401, "Invalid or inactive client credentials"\) that the Base URL \(baseUrl\) accepted/,
			);
			expect(other.requests.map((request) => request.status)).toEqual([401]);
		} finally {
			await other.close();
		}
	});

	it('of a JSON service answering 404 in its own shape: not the gateway', async () => {
		const service = await startServer(404, 'application/json', '{"timestamp":"2026-01-01T00:00:00Z","error":"Not Found"}');
		try {
			const result = await credentialTest({ checkoutBaseUrl: service.url });
			expect(result.message).toMatch(/^Checkout Base URL \(checkoutBaseUrl\) does not lead to the gateway's checkout endpoints \(HTTP 404, not an answer of the gateway\)/);
		} finally {
			await service.close();
		}
	});
});

describe('a server that wraps every error in the gateway\'s envelope ("Not found" on any unknown path)', () => {
	beforeEach(() => sandbox.setUnknownPathMessage('Not found'));

	it('a Base URL without its prefix: the card list is not a list (a 404), so the Base URL is named', async () => {
		const result = await credentialTest({ baseUrl: sandbox.url });
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/^Base URL \(baseUrl\) does not lead to the gateway's merchant API \(HTTP 404, "Not found": a stored-card list was expected/) });
		expect(seen()).toEqual([`GET ${SHORT_PROBE} → 404`]);
	});

	it('a Checkout Base URL pointing at the short family\'s base: check-status\'s "Not found" is not about the order read', async () => {
		const result = await credentialTest({ checkoutBaseUrl: sandbox.baseUrl });
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/^Checkout Base URL \(checkoutBaseUrl\) does not lead to the gateway's checkout endpoints \(HTTP 404, "Not found": an answer about the order read was expected/) });
	});

	it('the right addresses still pass: an empty card list, and the gateway\'s own answer about the unknown order', async () => {
		expect(await credentialTest()).toEqual({ status: 'OK', message: expect.stringMatching(/^Connection successful/) });
	});
});

describe('Hosted Checkout Page URL, when set: its form is checked before anything is sent', () => {
	const cases: Array<[string, () => string, RegExp]> = [
		['without a scheme', () => 'merchant.example.com/cpbs/pg', /must start with https:\/\/ or http:\/\//],
		['http:// on another machine', () => 'http://merchant.example.com/cpbs/pg', /must start with https:\/\//],
		['with a user and password', () => 'https://user:pw@merchant.example.com/cpbs/pg', /must not contain a user name or password/],
		['with a query string', () => 'https://merchant.example.com/cpbs/pg?actionType=checkout', /must not contain a query string/],
		['with a fragment', () => 'https://merchant.example.com/cpbs/pg#top', /must not contain a query string \(\?…\) or a fragment/],
		['without a path', () => 'https://merchant.example.com', /must include the page’s path/],
		['the Checkout Base URL', () => `${sandbox.checkoutBaseUrl}/`, /must include the page’s path/],
		['the Base URL', () => sandbox.baseUrl, /is an address of the merchant API/],
		['an endpoint of the long family', () => `${sandbox.checkoutBaseUrl}/nac/api/v1/pg/orders/create-checkout`, /is an address of the merchant API/],
	];
	for (const [name, value, problem] of cases) {
		it(name, async () => {
			const result = await credentialTest({ checkoutPageUrl: value() });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/^Hosted Checkout Page URL \(checkoutPageUrl\) /);
			expect(result.message).toMatch(problem);
			expect(result.message).toMatch(/Nothing was sent to the gateway\.$/);
			expect(sandbox.requests).toEqual([]);
		});
	}
});

describe('other fields', () => {
	it('a Card Encryption Key that is not 64 hexadecimal characters: named, nothing sent', async () => {
		const result = await credentialTest({ cardEncryptionKey: 'ab'.repeat(31) });
		expect(result.message).toMatch(/^Card Encryption Key \(cardEncryptionKey\) must be the 64 hexadecimal characters/);
		expect(sandbox.requests).toEqual([]);
	});

	it('an empty Merchant Domain: the gateway refuses the headers (400), and the message names the field', async () => {
		const result = await credentialTest({ merchantDomain: '' });
		expect(result.message).toMatch(/^The gateway refused the request \(400, "Missing required header: X-MERCHANT-DOMAIN"\): check Merchant Domain \(merchantDomain\)/);
	});
});

afterAll(() => {
	// Not one message of this file holds a secret of the sandbox, the wrong one tried, or a Basic header.
	const secrets = sandboxSecrets(sandbox, ['wrong-secret', 'another-secret-0123']);
	expect(messages.length).toBeGreaterThan(20);
	expect(findLeaks({ messages }, { secrets, cards: [], cvvs: [] })).toEqual([]);
});
