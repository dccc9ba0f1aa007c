// n8n's own credential test against the sandbox, through the REST API the editor uses.
//
// The credential is stored first (POST /rest/credentials), then POST /rest/credentials/test sends
// `{ credentials: { id, name, type, data } }` (n8n 2.41's TestCredentialRequestDto: `id` is required and must be a
// credential the user can read; the `data` sent is what gets tested) and answers `{ data: { status, message } }`.
// The stored credential is deleted afterwards, so that the editor starts without any.

export const CREDENTIAL_TYPE = 'paymentGatewayApi';
/** The path the credential's `test` request lists cards on (a customer no onboarding produces). */
export const CREDENTIAL_TEST_PATH = '/customer/n8n-credential-test/digitalCards';
export const WRONG_SECRET = 'wrong-secret-0123456789abcdef';

function cases(sandbox) {
	const { active, inactive } = sandbox.clients;
	return [
		{ label: 'active client', data: sandbox.credentialData(), status: 'OK', clientId: active.clientId, answer: 200 },
		{
			label: 'wrong client secret',
			data: sandbox.credentialData({ clientSecret: WRONG_SECRET }),
			status: 'Error',
			mentions: '401',
			clientId: active.clientId,
			answer: 401,
		},
		{
			label: 'inactive client',
			data: sandbox.credentialData({ clientId: inactive.clientId, clientSecret: inactive.clientSecret }),
			status: 'Error',
			mentions: '401',
			clientId: inactive.clientId,
			answer: 401,
		},
		{
			label: 'Base URL without the API prefix',
			data: sandbox.credentialData({ baseUrl: sandbox.url }),
			status: 'Error',
			mentions: 'Base URL',
			clientId: active.clientId,
			answer: 404,
			outsideApi: true,
		},
	];
}

/** Runs the four credential tests with `session` (a logged-in RestSession), reporting to `report`. */
export async function checkCredentialTests(session, sandbox, report) {
	const { check, must } = report;
	const name = 'Payment Gateway sandbox (REST credential test)';
	const created = await session.call('POST', '/rest/credentials', {
		name,
		type: CREDENTIAL_TYPE,
		data: sandbox.credentialData(),
	});
	const id = created.body?.data?.id;
	must(
		created.status === 200 && typeof id === 'string',
		'credential stored through POST /rest/credentials',
		`HTTP ${created.status}: ${created.text.slice(0, 300)}`,
	);
	try {
		for (const testCase of cases(sandbox)) {
			sandbox.clearLog();
			const from = Date.now();
			const res = await session.call('POST', '/rest/credentials/test', {
				credentials: { id, name, type: CREDENTIAL_TYPE, data: testCase.data },
			});
			const result = res.body?.data;
			const message = typeof result?.message === 'string' ? result.message : '';
			console.log(`  credential test, ${testCase.label}: ${result?.status} "${message}" (${((Date.now() - from) / 1000).toFixed(1)} s)`);
			const statusOk = check(
				res.status === 200 && result?.status === testCase.status,
				`credential test (REST), ${testCase.label}: status "${testCase.status}"`,
				`HTTP ${res.status}: ${res.text.slice(0, 300)}`,
			);
			if (statusOk && testCase.mentions) {
				check(
					message.includes(testCase.mentions),
					`credential test (REST), ${testCase.label}: the message mentions "${testCase.mentions}"`,
					`message "${message}"`,
				);
			}

			// The sandbox saw exactly the one signed request of the credential's `test` (no retry after a 401).
			const seen = [...sandbox.requests];
			const request = seen[0];
			const expectedPath = testCase.outsideApi
				? CREDENTIAL_TEST_PATH
				: `${new URL(sandbox.baseUrl).pathname}${CREDENTIAL_TEST_PATH}`;
			check(
				seen.length === 1 &&
					request.method === 'GET' &&
					request.path === expectedPath &&
					request.clientId === testCase.clientId &&
					/^Basic /.test(String(request.headers.authorization)) &&
					/^[0-9a-f]{64}$/.test(String(request.headers['x-signature'])) &&
					request.headers['x-merchant-domain'] === testCase.data.merchantDomain &&
					request.status === testCase.answer,
				`credential test (REST), ${testCase.label}: the sandbox got one signed GET ${expectedPath} as ` +
					`${testCase.clientId} and answered ${request?.status}`,
				seen
					.map((r) => `${r.method} ${r.path} as ${r.clientId} → ${r.status}, signature ${r.headers['x-signature'] ? 'set' : 'missing'}`)
					.join('; ') || 'no request',
			);
		}
	} finally {
		const removed = await session.call('DELETE', `/rest/credentials/${id}`);
		check(removed.status === 200, 'credential deleted through DELETE /rest/credentials/:id', `HTTP ${removed.status}`);
		sandbox.clearLog();
	}
}
