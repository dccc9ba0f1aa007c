/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import fc from 'fast-check';

import type { HostRun } from '../support/execute-host';
import { runOnHost } from '../support/execute-host';
import type { FieldCase } from '../support/input-cases';
import { FIELD_CASES, headerDefaults } from '../support/input-cases';
import { checkBatch, outputsByItem } from '../support/input-check';
import { GENERATION_SEED } from '../support/input-values';

// Generated input for every validated field of every operation, on the fast path: the node's router, operations,
// validation, encryption and transport run for real over a stand-in for n8n's context (test/support/execute-host.ts).
// Invalid values must give a NodeOperationError naming the field and the item, with nothing sent; valid ones must
// reach the request normalized (two-digit expiry, trimmed text, amounts as JSON numbers). Edges generation seldom
// reaches are checked once each at the end.
// FC_SEED=<seed> replays a run (FC_RUNS=<n> runs more); the seed and the counts are printed at the end.

const seed = GENERATION_SEED;
fc.configureGlobal({ seed, numRuns: Number(process.env.FC_RUNS ?? 110) });

let checked = 0;

/** Checks one batch run on the fast path, where every request sent gets the gateway's success. */
function checkRun(fieldCase: FieldCase, values: unknown[], run: HostRun) {
	expect(run.error).toBeUndefined();
	checkBatch(fieldCase, values, outputsByItem(run.items, values.length), run.sent);
}

const runBatch = async (fieldCase: FieldCase, values: unknown[]) =>
	await runOnHost(values.map((value) => fieldCase.item(value)));

beforeAll(async () => {
	// The headers of a request without overrides are what the credential fills in.
	const headerCase = FIELD_CASES.find((fieldCase) => fieldCase.field.startsWith('Accept-Language'))!;
	const baseline = await runOnHost([headerCase.item('')]);
	expect(baseline.sent).toHaveLength(1);
	Object.assign(headerDefaults, baseline.sent[0].headers);
});

describe('generated input on the fast path', () => {
	for (const fieldCase of FIELD_CASES) {
		it(`${fieldCase.operation}: ${fieldCase.field}`, async () => {
			await fc.assert(
				fc.asyncProperty(fc.array(fieldCase.values, { minLength: 1, maxLength: 4 }), async (values) => {
					checkRun(fieldCase, values, await runBatch(fieldCase, values));
					checked += values.length;
				}),
			);
		});
	}

	it('checked at least 10,000 generated inputs', () => {
		expect(checked).toBeGreaterThanOrEqual(10_000);
	});
});

/** Edges generation seldom reaches, each once refused or sent wrongly: now refused before sending, naming the field. */
const EDGES: Array<[string, string, unknown]> = [
	['order.create', 'Amount (amount)', { currency: 'USD', amount: '90071992547409.91' }],
	['order.create', 'Amount (amount)', { currency: 'OMR', amount: '9007199254740.991' }],
	['order.create (amount 25)', 'Currency (currency)', 'uſd'],
	['order.create (amount 25)', 'Currency (currency)', 'ßd'],
	// The 19-digit card 6200000000000000091 read from JSON as a number: the double 6200000000000000000 passes Luhn too.
	['transaction.initiate', 'Card Number (cardNumber)', JSON.parse('6200000000000000091')],
	['transaction.initiate', 'Redirection URL (redirectionUrl)', 'https:\\\\shop.example.com\\done'],
	['transaction.initiate', 'Redirection URL (redirectionUrl)', 'https:shop.example.com/done'],
	['order.createCheckout', 'Redirect URL (additionalFields.redirectUrl)', 'https://shop.example.com/thank you'],
	['transaction.initiate', 'Customer Authentication (customerAuthentication)', 'constructor'],
	['transaction.initiate', 'Customer Authentication (customerAuthentication)', '__proto__'],
	['status.getByPaymentId', 'Payment ID (paymentId)', 'PAY\ud800'],
	['digitalCard.delete', 'Digital Card (digitalCardId)', 'dc_\udfff1'],
	['order.create', 'User Agent (options.userAgent)', 'Shop → checkout'],
	['status.getByOrderId', 'Accept-Language (options.acceptLanguage)', 'de-DE\n, en'],
	['status.getByOrderId', 'Timeout (options.timeout)', 1500.5],
	['order.create', 'Timeout (options.timeout)', 1e10],
];

const caseOf = (operation: string, field: string) =>
	FIELD_CASES.find((candidate) => candidate.operation === operation && candidate.field === field)!;

describe('edges of every validated field', () => {
	for (const [operation, field, value] of EDGES) {
		it(`${operation}: ${field} = ${JSON.stringify(value)}`, async () => {
			checkRun(caseOf(operation, field), [value], await runBatch(caseOf(operation, field), [value]));
		});
	}
});

afterAll(() => {
	console.log(`\nGenerated inputs checked on the fast path: ${checked}, seed ${seed} (FC_SEED=${seed} npm test replays them)\n`);
});
