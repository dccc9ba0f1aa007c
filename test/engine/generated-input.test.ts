/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import type { LoggedRequest } from '../../sandbox/gateway';
import type { SentRequest } from '../support/execute-host';
import { HOST_CREDENTIALS } from '../support/execute-host';
import type { Sandbox } from '../support/fixtures';
import { runNode, startSandbox } from '../support/fixtures';
import type { FieldCase } from '../support/input-cases';
import { FIELD_CASES, headerDefaults } from '../support/input-cases';
import { checkBatch, outputsByItem } from '../support/input-check';
import { GENERATION_SEED } from '../support/input-values';

// A sample of the generated input (test/unit/generated-input.test.ts) through n8n's engine against the sandbox:
// values come in as input items and reach the parameters through expressions, as in a workflow, so n8n's own
// handling of them (JSON items, expression results, option collections) is part of what is checked, and the
// requests are read from the sandbox's log. Same seed as the fast path: FC_SEED=<seed> replays both.

const seed = GENERATION_SEED;
const PER_FIELD = Number(process.env.FC_ENGINE_RUNS ?? 9);

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ cardEncryptionKey: String(HOST_CREDENTIALS.cardEncryptionKey) });
	// The headers the transport and the credential fill in when an item gives none.
	const baseline = await runNode(sandbox, { resource: 'digitalCard', operation: 'getMany', customerId: 'cus_baseline' });
	expect(baseline.error).toBeUndefined();
	for (const [name, value] of Object.entries(sandbox.requests[0].headers)) headerDefaults[canonicalHeader(name)] = String(value);
});
afterAll(async () => await sandbox.close());

const HEADER_NAMES = ['Accept-Language', 'X-MERCHANT-BROWSER-FINGERPRINT', 'X-MERCHANT-USER-AGENT', 'X-MERCHANT-IP', 'X-MERCHANT-DOMAIN'];
const canonicalHeader = (name: string) => HEADER_NAMES.find((known) => known.toLowerCase() === name) ?? name;

/** A request from the sandbox's log, in the shape the field cases read. */
function asSent(request: LoggedRequest): SentRequest {
	const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [canonicalHeader(name), String(value)]));
	return { method: request.method, url: request.path, path: request.path, headers, body: request.body || undefined };
}

const COLLECTIONS = new Set(['additionalFields', 'options']);

/** Every parameter of an item, by dotted path (inside the collections), but resource and operation. */
function leaves(parameters: IDataObject): Array<[string, unknown]> {
	return Object.entries(parameters).flatMap(([key, value]): Array<[string, unknown]> => {
		if (key === 'resource' || key === 'operation') return [];
		if (COLLECTIONS.has(key)) return Object.entries(value as IDataObject).map(([name, entry]) => [`${key}.${name}`, entry]);
		return [[key, value]];
	});
}

/** The node's parameters as expressions over the input items, and the items holding each item's values. */
function asWorkflow(parametersPerItem: IDataObject[]) {
	const parameters: IDataObject = { resource: parametersPerItem[0].resource, operation: parametersPerItem[0].operation };
	for (const [path] of leaves(parametersPerItem[0])) {
		const keys = path.split('.');
		let target = parameters;
		for (const key of keys.slice(0, -1)) target = (target[key] ??= {}) as IDataObject;
		target[keys[keys.length - 1]] = `={{ $json[${JSON.stringify(path)}] }}`;
	}
	return { parameters, items: parametersPerItem.map((item) => Object.fromEntries(leaves(item)) as IDataObject) };
}

/** What reaches the node of a value carried in an input item: n8n copies items as JSON. */
const asItemValue = (value: unknown) => (JSON.parse(JSON.stringify({ value })) as { value?: unknown }).value;

// The Timeout field is left to the fast path: a generated time-out of a few milliseconds may or may not let a
// request reach the sandbox, which the request log cannot then pair with its item.
const SAMPLED = FIELD_CASES.filter((fieldCase) => !fieldCase.field.startsWith('Timeout'));
let checked = 0;

describe('generated input through the engine, against the sandbox', () => {
	it.each(SAMPLED.map((fieldCase): [string, FieldCase] => [`${fieldCase.operation}: ${fieldCase.field}`, fieldCase]))(
		'%s',
		async (_name, fieldCase) => {
			const values = fc
				.sample(fieldCase.values, { seed, numRuns: PER_FIELD })
				.map(asItemValue);
			if (values.length === 0) return;
			const { parameters, items } = asWorkflow(values.map((value) => fieldCase.item(value)));
			sandbox.clearLog();
			const result = await runNode(sandbox, parameters, items, {
				continueOnFail: true,
				credentials: { checkoutPageUrl: HOST_CREDENTIALS.checkoutPageUrl },
			});
			expect(result.error).toBeUndefined();
			checkBatch(fieldCase, values, outputsByItem(result.items, values.length), sandbox.requests.map(asSent), true);
			checked += values.length;
		},
	);

	it('sent a few hundred generated inputs through the engine', () => {
		expect(checked).toBeGreaterThanOrEqual(300);
	});
});

describe('identifiers n8n would send altered', () => {
	// The fast path cannot show this one: the query string is encoded by n8n's HTTP client, after the node, which
	// would put U+FFFD in place of the lone surrogate and ask for another order: the node refuses it first.
	it('an Order ID with a lone surrogate is refused before check-status is asked', async () => {
		const fieldCase = FIELD_CASES.find((candidate) => candidate.operation === 'status.getByOrderId' && candidate.field === 'Order ID (orderId)')!;
		const values = ['wb-\ud800'];
		const { parameters, items } = asWorkflow(values.map((value) => fieldCase.item(value)));
		sandbox.clearLog();
		const result = await runNode(sandbox, parameters, items, { continueOnFail: true });
		checkBatch(fieldCase, values, outputsByItem(result.items, 1), sandbox.requests.map(asSent), true);
	});
});

afterAll(() => {
	console.log(`\nGenerated inputs checked through the engine: ${checked}, seed ${seed} (FC_SEED=${seed} replays them)\n`);
});
