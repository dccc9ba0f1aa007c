/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// The leak search of the end-to-end checks (e2e/lib/leaks.js) on stored data made up here: what it must find, what
// it must leave alone, and that it never prints a value it found.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { secretsToFind, findLeaks, printLeaks } = require('../e2e/lib/leaks');

const CLIENT = { clientId: 'client-a', clientSecret: 'secret-0123456789abcdef' };
const KEY = 'ae0a48d044fd61f653b82fe9234b6837db4d627b2568d014494eb048ccf595eb';
const BASIC = Buffer.from('client-a:secret-0123456789abcdef').toString('base64');

const initiate = (name: string, cardNumber: string, cardCVV: string) => ({
	name,
	type: 'n8n-nodes-payment-gateway.paymentGateway',
	parameters: { resource: 'transaction', cardNumber, cardExpMonth: '12', cardExpYear: '30', cardCVV },
});
const WORKFLOW = { id: 'wfLeakSearch0001', name: 'Pay', nodes: [initiate('Initiate', '5186001700008785', '123')] };
const secrets = secretsToFind({ clients: [CLIENT], cardEncryptionKey: KEY, workflows: [WORKFLOW] });

type Secret = { what: string; pattern: RegExp };
const found = (text: string) => (secrets as Secret[]).filter((s) => s.pattern.test(text)).map((s) => s.what);

describe('what the leak search looks for', () => {
	it('names every secret without its value (cards by their last four digits)', () => {
		const whats = (secrets as Secret[]).map((s) => s.what).join('\n');
		for (const value of [CLIENT.clientSecret, KEY, BASIC, '5186001700008785', '4111111111111111', '"123"']) {
			expect(whats).not.toContain(value);
		}
		expect(whats).toContain('card number ending 8785');
		expect(whats).toContain('card number ending 7857');
	});

	it.each([
		['the client secret', `{"password":"${CLIENT.clientSecret}"}`, 'client secret of client-a'],
		['the Basic header value', `authorization: Basic ${BASIC}`, 'Basic header value of client-a'],
		['the key in capitals', KEY.toUpperCase(), 'card encryption key'],
		['a card number', 'pan 4111111111111111', 'card number ending 1111'],
		['a card number in groups', '5186 0017 0000 8785', 'card number ending 8785'],
		['a CVV next to its name', '{"cardCVV":"123"}', 'CVV given in "Pay" → "Initiate"'],
		['a CVV in an escaped body', '"body":"{\\"cvv\\": \\"123\\"}"', 'CVV given in "Pay" → "Initiate"'],
		['an expiry with a slash', 'expires 12/30', 'expiry given in "Pay" → "Initiate"'],
		['an expiry with the long year', 'valid thru 12/2030', 'expiry given in "Pay" → "Initiate"'],
		['expiry fields', '{"cardExpMonth":"12","cardExpYear":"30"}', 'expiry given in "Pay" → "Initiate"'],
		['expiry fields year first', '{"expYear":"2030","expMonth":"12"}', 'expiry given in "Pay" → "Initiate"'],
		['an expiry field', '{"expiry":"1230"}', 'expiry given in "Pay" → "Initiate"'],
	])('finds %s', (_label, text, what) => {
		expect(found(text)).toEqual([what]);
	});

	it('looks for card data that reached n8n outside workflow parameters, named by where it came from', () => {
		const fromRequest = secretsToFind({
			clients: [CLIENT],
			cardEncryptionKey: KEY,
			cards: [{ given: 'in the request of "Pay by card"', cardNumber: '4000000000000002', cardCVV: '737', cardExpMonth: '10', cardExpYear: '31' }],
		}) as Secret[];
		const whats = (text: string) => fromRequest.filter((s) => s.pattern.test(text)).map((s) => s.what);
		expect(whats('cardNumber=4000000000000002&cardExpMonth=10&cardExpYear=31&cardCVV=737')).toEqual([
			'CVV in the request of "Pay by card"',
			'expiry in the request of "Pay by card"',
			'card number ending 0002',
		]);
		expect(fromRequest.map((s) => s.what).join('\n')).not.toMatch(/4000000000000002|737/);
	});

	it.each([
		['the last four digits', '{"panLastFour":"8785","network":"MASTERCARD"}'],
		['digits 123 that are not a CVV', '{"amount":123,"id":"ord_1234","executionIndex":123}'],
		['a longer number after "cvv"', 'cvv=1234'],
		['dates', '"startedAt":"2030-12-01T12:30:00Z","stoppedAt":"2026-12-30"'],
		['month and year of another card', '{"cardExpMonth":"11","cardExpYear":"29"}'],
	])('leaves alone %s', (_label, text) => {
		expect(found(text)).toEqual([]);
	});
});

describe('findLeaks', () => {
	let userFolder: string;
	beforeEach(() => {
		userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'leak-search-'));
		fs.mkdirSync(path.join(userFolder, '.n8n'));
		fs.mkdirSync(path.join(userFolder, 'logs'));
		fs.writeFileSync(path.join(userFolder, 'logs', 'n8n-main.log'), '{"message":"started"}\n');
	});
	afterEach(() => fs.rmSync(userFolder, { recursive: true, force: true }));

	/** n8n as findLeaks sees it: its tables, its log files and its user folder. */
	const storedBy = (tables: unknown[]) => ({
		userFolder,
		logDir: path.join(userFolder, 'logs'),
		readTables: async () => tables,
		logFiles: () => [path.join(userFolder, 'logs', 'n8n-main.log')],
	});
	const definitionTable = (nodes: unknown[]) => ({
		table: 'workflow_entity',
		primaryKey: ['id'],
		rows: [{ id: WORKFLOW.id, nodes: JSON.stringify(nodes), pinData: '{}' }],
	});
	const credentials = { table: 'credentials_entity', primaryKey: ['id'], rows: [{ id: 'c1', data: 'U2FsdGVkX19abc' }] };
	const executions = (data: string) => ({ table: 'execution_data', primaryKey: ['executionId'], rows: [{ executionId: 7, data }] });

	it('allows card data at the node parameter where the workflow put it, and nowhere else', async () => {
		const moved = { name: 'Set', type: 'n8n-nodes-base.set', parameters: { value: '5186001700008785' } };
		const result = await findLeaks(storedBy([definitionTable([...WORKFLOW.nodes, moved]), credentials, executions('[]')]), {
			secrets,
			workflows: [WORKFLOW],
		});
		expect(result.hits).toEqual([{ where: 'workflow_entity.nodes', row: `id=${WORKFLOW.id}`, what: 'card number ending 8785' }]);
		// The CVV and the expiry were only where the workflow put them; the card number is also somewhere else.
		expect(result.allowed).toBe(2);
		expect(result.problems).toEqual([]);
	});

	it('finds card data in execution data stored as flatted, where the value sits apart from its name', async () => {
		const flatted = JSON.stringify([{ resultData: '1' }, { cardCVV: '2' }, '123']);
		const result = await findLeaks(storedBy([definitionTable(WORKFLOW.nodes), credentials, executions(flatted)]), {
			secrets,
			workflows: [WORKFLOW],
		});
		expect(result.hits).toEqual([{ where: 'execution_data.data', row: 'executionId=7', what: 'CVV given in "Pay" → "Initiate"' }]);
	});

	it('finds a secret in a log line and an unencrypted credential, and prints neither value', async () => {
		fs.appendFileSync(path.join(userFolder, 'logs', 'n8n-main.log'), `{"message":"sending Basic ${BASIC}"}\n`);
		fs.writeFileSync(path.join(userFolder, '.n8n', 'n8nEventLog.log'), `{"key":"${KEY}"}\n`);
		const plain = { ...credentials, rows: [{ id: 'c1', data: JSON.stringify({ clientSecret: CLIENT.clientSecret }) }] };
		const result = await findLeaks(storedBy([definitionTable(WORKFLOW.nodes), plain, executions('[]')]), {
			secrets,
			workflows: [WORKFLOW],
		});
		expect(result.hits).toEqual([
			{ where: 'credentials_entity.data', row: 'id=c1', what: 'client secret of client-a' },
			{ where: 'credentials_entity.data', row: 'id=c1', what: 'credential data stored unencrypted' },
			{ where: path.join('logs', 'n8n-main.log'), row: 'line 2', what: 'Basic header value of client-a' },
			{ where: path.join('.n8n', 'n8nEventLog.log'), row: 'line 1', what: 'card encryption key' },
		]);

		const printed: string[] = [];
		const log = jest.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
		try {
			expect(printLeaks(result)).toBe(false);
		} finally {
			log.mockRestore();
		}
		expect(printed).toContainEqual('  leaks found: 4');
		for (const value of [CLIENT.clientSecret, KEY, BASIC]) expect(printed.join('\n')).not.toContain(value);
	});

	it('does not ask for card data in the definitions of a workflow that only refers to it with expressions', async () => {
		const fromBody = (field: string) => `={{ $json.body.${field} }}`;
		const node = initiate('Initiate', fromBody('cardNumber'), fromBody('cardCVV'));
		node.parameters = { ...node.parameters, cardExpMonth: fromBody('cardExpMonth'), cardExpYear: fromBody('cardExpYear') };
		const byExpression = { ...WORKFLOW, nodes: [node] };
		const result = await findLeaks(storedBy([definitionTable(byExpression.nodes), credentials, executions('[]')]), {
			secrets,
			workflows: [byExpression],
		});
		expect([result.hits, result.problems]).toEqual([[], []]);
	});

	it('fails a search that had nothing to search', async () => {
		fs.writeFileSync(path.join(userFolder, 'logs', 'n8n-main.log'), '');
		const result = await findLeaks(storedBy([]), { secrets, workflows: [WORKFLOW] });
		expect(result.problems).toEqual([
			'n8n stored no credential',
			'n8n stored no execution data',
			`n8n wrote no log into ${path.join(userFolder, 'logs')}`,
			'the card data the workflows give was not found even in their stored definitions',
		]);
		expect(printLeaksQuietly(result)).toBe(false);
	});
});

function printLeaksQuietly(result: unknown): boolean {
	const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
	try {
		return printLeaks(result);
	} finally {
		log.mockRestore();
	}
}
