'use strict';

// Judging one workflow run of the workflow check (e2e/run.js): the checks every workflow gets, then its own entry in
// e2e/check.js, called with the context `t` described there. Prints PASS or FAIL.

const crypto = require('node:crypto');
const http = require('node:http');

const { TEST_CARD_NUMBERS } = require('./lib/leaks');

/** A request to the sandbox signed as the active client, the way the node signs (for checks that ask it directly). */
function signedRequest(sandbox, method, apiPath) {
	const { clientId, clientSecret } = sandbox.clients.active;
	return new Promise((resolve, reject) => {
		const request = http.request(
			new URL(`${sandbox.baseUrl}${apiPath}`),
			{
				method,
				headers: {
					Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
					'X-Signature': crypto.createHmac('sha256', clientSecret).update(apiPath).digest('hex'),
					'X-MERCHANT-BROWSER-FINGERPRINT': 'e2e-runner',
					'X-MERCHANT-USER-AGENT': 'e2e-runner',
					'X-MERCHANT-DOMAIN': 'https://shop.example.com',
					'Accept-Language': 'en-US',
				},
			},
			(response) => {
				let body = '';
				response.on('data', (chunk) => (body += chunk));
				response.on('end', () => {
					try {
						resolve({ status: response.statusCode, body: JSON.parse(body) });
					} catch (error) {
						reject(error);
					}
				});
			},
		);
		request.on('error', reject);
		request.end();
	});
}

/** What a check function gets: the run's outputs, this workflow's requests, and helpers (see e2e/check.js). */
function testContext(runData, requests, sandbox, extra) {
	const out = (node, output = 0) => {
		const runs = runData[node];
		if (!runs || runs.length === 0) throw new Error(`node "${node}" did not run`);
		const task = runs[runs.length - 1];
		if (task.error) throw new Error(`node "${node}" failed: ${task.error.message}`);
		return (task.data?.main?.[output] ?? []).map((item) => item.json);
	};
	return {
		...extra,
		out,
		one(node) {
			const items = out(node);
			if (items.length !== 1) throw new Error(`node "${node}" output ${items.length} items, expected 1`);
			return items[0];
		},
		ran: (node) => Boolean(runData[node]?.length),
		requests,
		sandbox,
		signatureFor: (orderId, paymentId) =>
			crypto.createHmac('sha256', sandbox.clients.active.clientSecret).update(`${orderId}|${paymentId}`).digest('hex'),
		async sandboxCards(customerId) {
			const apiPath = `/customer/${encodeURIComponent(customerId)}/digitalCards`;
			const { status, body } = await signedRequest(sandbox, 'GET', apiPath);
			if (status !== 200) throw new Error(`listing the cards of ${customerId} directly answered ${status}`);
			return body.data.digitalCards;
		},
	};
}

/** No node output may hold card data or secrets, whatever the operation. */
function assertNothingSensitive(runData, workflow, sandbox) {
	const forbiddenValues = new Set([sandbox.clients.active.clientSecret, sandbox.cardEncryptionKey, ...TEST_CARD_NUMBERS]);
	for (const node of workflow.nodes) {
		if (typeof node.parameters?.cardNumber === 'string') forbiddenValues.add(node.parameters.cardNumber);
	}
	const forbiddenKeys = ['cardNumber', 'cardCVV', 'cardExpMonth', 'cardExpYear', 'clientSecret', 'cardEncryptionKey'];
	for (const [node, runs] of Object.entries(runData)) {
		const text = JSON.stringify(runs.map((task) => task.data ?? null));
		if ([...forbiddenValues].some((value) => text.includes(value))) {
			throw new Error(`output of "${node}" contains a card number or secret`);
		}
		for (const key of forbiddenKeys) {
			if (text.includes(`"${key}"`)) throw new Error(`output of "${node}" contains the key "${key}"`);
		}
	}
}

/**
 * Checks one run and prints PASS or FAIL. `runData(extra)` resolves with the run's runData (and may add to `extra`,
 * e.g. the webhook's response); `output` says where the full output is kept. Resolves with { name, ok }.
 */
async function checkRun({ name, file, workflow, expectation, sandbox, took, output, runData: readRunData }) {
	console.log(`\n${name} (${file}): ${expectation.runs}`);
	const requests = [...sandbox.requests];
	try {
		const extra = {};
		const runData = await readRunData(extra);
		if (!runData) throw new Error('the output holds no resultData.runData');
		for (const [node, runs] of Object.entries(runData)) {
			const failed = runs.find((task) => task.error);
			if (failed) throw new Error(`node "${node}" failed: ${failed.error.message}`);
		}
		const unexpected = requests.filter((r) => (r.status ?? 0) >= 400 && !expectation.expectedFailures.includes(r.status));
		if (unexpected.length) {
			throw new Error(`unexpected gateway failures: ${unexpected.map((r) => `${r.method} ${r.path} → ${r.status}`).join('; ')}`);
		}
		assertNothingSensitive(runData, workflow, sandbox);
		await expectation.check(testContext(runData, requests, sandbox, extra));
		console.log(`  PASS ${name}: ${Object.keys(runData).length} nodes ran, ${requests.length} gateway requests (${took})`);
		return { name, ok: true };
	} catch (error) {
		console.log(`  FAIL ${name} (${took}): ${error.message}`);
		console.log(`       full output: ${output}`);
		return { name, ok: false };
	}
}

module.exports = { checkRun };
