import fc from 'fast-check';

import type { HostRun } from '../support/execute-host';
import { runOnHost } from '../support/execute-host';
import type { FieldCase, InputBug } from '../support/input-cases';
import { FIELD_CASES, headerDefaults, INPUT_BUGS } from '../support/input-cases';
import { checkBatch, outputsByItem } from '../support/input-check';
import { GENERATION_SEED } from '../support/input-values';

// Generated input for every validated field of every operation, on the fast path: the node's router, operations,
// validation, encryption and transport run for real over a stand-in for n8n's context (test/support/execute-host.ts).
// Invalid values must give a NodeOperationError naming the field and the item, with nothing sent; valid ones must
// reach the request normalized (two-digit expiry, trimmed text, amounts as JSON numbers). Values that run into a
// known bug in nodes/ are set aside, counted, and pinned by the failing tests at the end.
// FC_SEED=<seed> replays a run (FC_RUNS=<n> runs more); the seed and the counts are printed at the end.

const seed = GENERATION_SEED;
fc.configureGlobal({ seed, numRuns: Number(process.env.FC_RUNS ?? 110) });

let checked = 0;
const setAside = new Map<InputBug, number>();

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
				fc.asyncProperty(fc.array(fieldCase.values, { minLength: 1, maxLength: 4 }), async (generated) => {
					const values = generated.filter((value) => {
						const bug = fieldCase.knownBug?.(value);
						if (bug) setAside.set(bug, (setAside.get(bug) ?? 0) + 1);
						return !bug;
					});
					if (values.length === 0) return;
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

/** One value of a field that runs into a known bug, checked as if the bug were fixed. */
const BUG_EXAMPLES: Array<[InputBug, string, string, unknown]> = [
	[INPUT_BUGS.inexactAmount, 'order.create', 'Amount (amount)', { currency: 'USD', amount: '90071992547409.91' }],
	[INPUT_BUGS.inexactAmount, 'order.create', 'Amount (amount)', { currency: 'OMR', amount: '9007199254740.991' }],
	[INPUT_BUGS.caseMappedCurrency, 'order.create (amount 25)', 'Currency (currency)', 'uſd'],
	[INPUT_BUGS.caseMappedCurrency, 'order.create (amount 25)', 'Currency (currency)', 'ßd'],
	// The 19-digit card 6200000000000000091 read from JSON as a number: the double is 6200000000000000000, which
	// passes Luhn too and is sent.
	[INPUT_BUGS.unsafeCardNumber, 'transaction.initiate', 'Card Number (cardNumber)', JSON.parse('6200000000000000091')],
	[INPUT_BUGS.urlNotAsWritten, 'transaction.initiate', 'Redirection URL (redirectionUrl)', 'https:\\\\shop.example.com\\done'],
	[INPUT_BUGS.urlNotAsWritten, 'transaction.initiate', 'Redirection URL (redirectionUrl)', 'https:shop.example.com/done'],
	[INPUT_BUGS.urlNotAsWritten, 'order.createCheckout', 'Redirect URL (additionalFields.redirectUrl)', 'https://shop.example.com/thank you'],
	[INPUT_BUGS.prototypeAuthentication, 'transaction.initiate', 'Customer Authentication (customerAuthentication)', 'constructor'],
	[INPUT_BUGS.prototypeAuthentication, 'transaction.initiate', 'Customer Authentication (customerAuthentication)', '__proto__'],
	[INPUT_BUGS.loneSurrogateInUrl, 'status.getByPaymentId', 'Payment ID (paymentId)', 'PAY\ud800'],
	[INPUT_BUGS.loneSurrogateInUrl, 'digitalCard.delete', 'Digital Card ID (digitalCardId)', 'dc_\udfff1'],
	[INPUT_BUGS.headerCharacters, 'order.create', 'User Agent (options.userAgent)', 'Shop → checkout'],
	[INPUT_BUGS.headerCharacters, 'status.getByOrderId', 'Accept-Language (options.acceptLanguage)', 'de-DE\n, en'],
	[INPUT_BUGS.timeoutRange, 'status.getByOrderId', 'Timeout (options.timeout)', 1500.5],
	[INPUT_BUGS.timeoutRange, 'order.create', 'Timeout (options.timeout)', 1e10],
];

const caseOf = (operation: string, field: string) =>
	FIELD_CASES.find((candidate) => candidate.operation === operation && candidate.field === field)!;

describe('known bugs in nodes/ (failing until fixed)', () => {
	it('each example below is one its bug sets aside', () => {
		for (const [bug, operation, field, value] of BUG_EXAMPLES) expect(caseOf(operation, field).knownBug?.(value)).toBe(bug);
	});

	for (const [bug, operation, field, value] of BUG_EXAMPLES) {
		it.failing(`${bug}: ${field} = ${JSON.stringify(value)}`, async () => {
			checkRun(caseOf(operation, field), [value], await runBatch(caseOf(operation, field), [value]));
		});
	}
});

afterAll(() => {
	const bugs = [...setAside].map(([bug, count]) => `  ${count} × ${bug}`).join('\n');
	console.log(
		`\nGenerated inputs checked on the fast path: ${checked}, seed ${seed} (FC_SEED=${seed} npm test replays them)\n` +
			`Set aside for the known-bug tests:\n${bugs || '  none'}\n`,
	);
});
