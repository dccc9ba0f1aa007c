import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { PaymentGatewayApi } from '../../credentials/PaymentGatewayApi.credentials';
import { testCredential } from '../support/engine';
import type { Sandbox } from '../support/fixtures';
import { sandboxCredentials, startSandbox } from '../support/fixtures';

// The credential test as n8n's credential dialog runs it, against the sandbox.

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox();
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.reset());

const REFUSED = /401|unauthori[sz]ed|authori[sz]ation|client id and client secret/i;

function hmac(secret: string, data: string): string {
	return createHmac('sha256', secret).update(data, 'utf8').digest('hex');
}

describe('testCredential(PaymentGatewayApi)', () => {
	it('is OK for the active client, with one signed request the sandbox accepted', async () => {
		const result = await testCredential(PaymentGatewayApi, sandboxCredentials(sandbox));
		expect(result.status).toBe('OK');

		expect(sandbox.requests).toHaveLength(1);
		const [request] = sandbox.requests;
		expect(request.method).toBe('GET');
		expect(request.status).toBe(200);
		expect(request.family).toBe('short');
		expect(request.clientId).toBe(sandbox.clients.active.clientId);
		expect(request.headers.authorization).toBe('Basic <redacted>');
		// Signed over the path after the base URL, with an empty payload, using the client secret.
		expect(request.apiPath).toMatch(/^\/customer\/[^/]+\/digitalCards$/);
		expect(request.headers['x-signature']).toBe(hmac(sandbox.clients.active.clientSecret, request.apiPath as string));
		expect(request.headers['x-merchant-domain']).toBe('https://shop.example.com');
		expect(request.headers['x-merchant-browser-fingerprint']).toBeTruthy();
		expect(request.headers['x-merchant-user-agent']).toBeTruthy();
		expect(request.headers['accept-language']).toBe('en-US');
	});

	it('is OK with a trailing slash on the base URL', async () => {
		const result = await testCredential(PaymentGatewayApi, sandboxCredentials(sandbox, { baseUrl: `${sandbox.baseUrl}/` }));
		expect(result.status).toBe('OK');
		expect(sandbox.requests[0].status).toBe(200);
	});

	it('is an Error naming the refusal for a wrong client secret', async () => {
		const ok = await testCredential(PaymentGatewayApi, sandboxCredentials(sandbox));
		sandbox.clearLog();
		const result = await testCredential(PaymentGatewayApi, sandboxCredentials(sandbox, { clientSecret: 'wrong-secret' }));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(REFUSED);
		expect(result.message).not.toBe(ok.message);

		// Exactly one request, and the sandbox refused it for the credentials.
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0]).toMatchObject({ status: 401, resCode: 401, clientId: sandbox.clients.active.clientId });
		expect(sandbox.requests[0].headers['x-signature']).toBe(hmac('wrong-secret', sandbox.requests[0].apiPath as string));
	});

	it('is an Error for an unknown client id', async () => {
		const result = await testCredential(PaymentGatewayApi, sandboxCredentials(sandbox, { clientId: 'nobody' }));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(REFUSED);
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0]).toMatchObject({ status: 401, clientId: 'nobody' });
	});

	it('is an Error for the inactive client', async () => {
		const { clientId, clientSecret } = sandbox.clients.inactive;
		const result = await testCredential(PaymentGatewayApi, sandboxCredentials(sandbox, { clientId, clientSecret }));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(REFUSED);
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0]).toMatchObject({ status: 401, clientId });
		expect(sandbox.requests[0].headers['x-signature']).toBe(hmac(clientSecret, sandbox.requests[0].apiPath as string));
	});

	it('is an Error when the gateway cannot be reached', async () => {
		const closed = await startSandbox();
		const url = closed.baseUrl;
		await closed.close();
		const result = await testCredential(PaymentGatewayApi, sandboxCredentials(sandbox, { baseUrl: url }));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/ECONNREFUSED|connect/i);
	});

	it('is an Error when the Base URL misses the API prefix, even though the gateway answered', async () => {
		const result = await testCredential(PaymentGatewayApi, sandboxCredentials(sandbox, { baseUrl: sandbox.url }));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/Base URL/);
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0].status).toBe(404);
	});

	it('is an Error when the Base URL answers with something other than the merchant API', async () => {
		const website = createServer((_request, response) => {
			response.writeHead(200, { 'Content-Type': 'text/html' });
			response.end('<html><body>Welcome to our shop</body></html>');
		});
		await new Promise<void>((resolve) => website.listen(0, '127.0.0.1', resolve));
		const { port } = website.address() as AddressInfo;
		try {
			const result = await testCredential(
				PaymentGatewayApi,
				sandboxCredentials(sandbox, { baseUrl: `http://127.0.0.1:${port}` }),
			);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/Base URL/);
		} finally {
			await new Promise((resolve) => website.close(resolve));
		}
	});

	it('is an Error naming the headers when the gateway refuses them (400)', async () => {
		const result = await testCredential(
			PaymentGatewayApi,
			sandboxCredentials(sandbox, { merchantDomain: '', acceptLanguage: '' }),
		);
		// The credential always sends Accept-Language; an empty merchant domain is the missing header.
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/400|Merchant Domain/);
	});

	it('never reveals the secret in its messages', async () => {
		const secret = 'wrong-secret-0d9f3b1a7c';
		const result = await testCredential(PaymentGatewayApi, sandboxCredentials(sandbox, { clientSecret: secret }));
		expect(result.message).not.toContain(secret);
		expect(result.message).not.toContain(Buffer.from(`${sandbox.clients.active.clientId}:${secret}`).toString('base64'));
	});
});
