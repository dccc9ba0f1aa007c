import type { IDataObject, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { PaymentGatewayApi } from '../../credentials/PaymentGatewayApi.credentials';
import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import type { RunAsToolOptions } from '../support/agent';
import { runAsTool, toolVariantOf } from '../support/agent';
import { createOrder, initiatePayment, orderParameters, runNode, sandboxCredentials, useSandbox } from '../support/fixtures';
import { sentAmount } from '../support/input-rules';
import { fromAI, paidPayment, runPaymentTool, storedCardAndOrder } from '../support/tool';

// Every amount and money limit of every operation, found in the node's own description (every parameter named `amount`
// or `toolMax…`), as the editor's node and as an AI agent's tool show them: a text field, read by one rule whether
// typed, given by an expression or by the agent. n8n's number input turned "2,5" into 25 before the node saw it; a text
// field keeps what was typed, and "2,5" is refused, saying how to write it, with nothing sent. An operation added later
// with a money field is covered here without a change.

const sandbox = useSandbox();

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const DESCRIPTIONS: Array<['node' | 'tool', INodeTypeDescription]> = [
	['node', new PaymentGateway().description],
	['tool', toolVariantOf(PaymentGateway).description],
];

const isMoneyField = (property: INodeProperties) => property.name === 'amount' || property.name.startsWith('toolMax');

/**
 * Valid values for the fields beside a money field, by parameter name (saved workflows and the contract share these
 * names across operations): with them, what is refused is the money field alone. Limits high enough for any value here.
 */
const VALID: IDataObject = {
	orderId: 'wb-00000000-0000-4000-8000-000000000000',
	paymentId: 'PAY0000000000000000000000000000000A',
	digitalCardId: { mode: 'id', value: 'dc_0000000000000000' },
	amount: '2.50',
	currency: 'USD',
	customerName: 'Jane Doe',
	customerEmail: 'jane@example.com',
	customerPhone: '91234567',
	cardHolderName: 'Jane Doe',
	redirectionUrl: 'https://shop.example.com/payment/done',
	toolMaxAmount: '100',
	toolLimitCurrency: 'USD',
	toolMaxTotal: '0',
	toolMaxDaily: '1000',
};

interface MoneyCase {
	mode: 'node' | 'tool';
	operation: string;
	field: INodeProperties;
	/** Valid parameters of the operation, this field included. */
	parameters: IDataObject;
}

/** Each money field each operation shows, in the node and in the tool, with valid parameters around it. */
function moneyCases(): MoneyCase[] {
	return DESCRIPTIONS.flatMap(([mode, description]) => {
		const shownIn = (parameters: IDataObject) => {
			const values = NodeHelpers.getNodeParameters(description.properties, parameters as never, true, false, null, description) as IDataObject;
			return description.properties.filter((property) => NodeHelpers.displayParameter(values as never, property, null, description));
		};
		const resources = (description.properties.find((property) => property.name === 'resource')?.options ?? []) as Array<{ value: string }>;
		return resources.flatMap(({ value: resource }) =>
			shownIn({ resource })
				.filter((property) => property.name === 'operation')
				.flatMap((property) => (property.options ?? []) as Array<{ value: string }>)
				.flatMap(({ value: operation }) => {
					const shown = shownIn({ resource, operation });
					const parameters: IDataObject = { resource, operation };
					for (const property of shown) if (property.name in VALID) parameters[property.name] = VALID[property.name];
					return shown.filter(isMoneyField).map((field) => ({ mode, operation: `${resource}.${operation}`, field, parameters }));
				}),
		);
	});
}

const CASES = moneyCases();
const named = (moneyCase: MoneyCase) => `${moneyCase.mode === 'tool' ? 'as a tool, ' : ''}${moneyCase.operation}: ${moneyCase.field.displayName} (${moneyCase.field.name})`;

/**
 * The value in each way it can reach the field: typed, from an expression, and (a tool's own fields) from the agent. A
 * limit takes no expression: n8n keeps `={{ … }}` there as the text it is, which is no amount at all.
 */
function ways(moneyCase: MoneyCase, text: string): Array<[string, unknown, IDataObject, string]> {
	const comma = `${fieldIn(moneyCase.field)} has a comma: write ${text.replace(',', '\\.')}, with a decimal point`;
	const expression = `={{ ${JSON.stringify(text)} }}`;
	if (moneyCase.field.noDataExpression) {
		return [
			['typed', text, {}, comma],
			['as an expression, kept as text', expression, {}, `${fieldIn(moneyCase.field)} must be a number written with digits and a decimal point`],
		];
	}
	const ways: Array<[string, unknown, IDataObject, string]> = [
		['typed', text, {}, comma],
		['from an expression', expression, {}, comma],
	];
	if (moneyCase.mode === 'tool') ways.push(['from the agent ($fromAI)', fromAI('value', 'The value'), { value: text }, comma]);
	return ways;
}

/** The error the run ends with (as the agent reads it, for a tool): undefined when it went through. */
async function errorOf(moneyCase: MoneyCase, value: unknown, args: IDataObject = {}): Promise<string | undefined> {
	const parameters = { ...moneyCase.parameters, [moneyCase.field.name]: value } as IDataObject;
	if (moneyCase.mode === 'node') return (await runNode(sandbox, parameters)).error?.message;
	const result = await runAsTool({
		nodeType: PaymentGateway,
		credentialType: PaymentGatewayApi,
		credentials: sandboxCredentials(sandbox),
		parameters: parameters as RunAsToolOptions['parameters'],
		calls: [{ args }],
	});
	return result.answers[0]?.error;
}

/**
 * The field as a message names it: "Amount (amount) …" for an item's input, "… Maximum Amount per Call …" for a limit,
 * 'Parameter "Amount" is required' where n8n itself refuses to run a node with a required field left empty.
 */
const fieldIn = (field: INodeProperties) => `"?${escaped(field.displayName)}"?(?: \\(${field.name}\\))?`;

describe('the money fields, as the description gives them', () => {
	it('are found in every operation that moves or states money, in the node and in the tool', () => {
		expect(CASES.map(named)).toEqual(
			expect.arrayContaining([
				'order.create: Amount (amount)',
				'order.createCheckout: Amount (amount)',
				'transaction.refund: Amount (amount)',
				'as a tool, order.create: Amount (amount)',
				'as a tool, transaction.refund: Maximum Amount per Call (toolMaxAmount)',
				'as a tool, transaction.initiate: Amount (amount)',
				'as a tool, transaction.initiate: Maximum Total per Execution (toolMaxTotal)',
				'as a tool, transaction.initiate: Maximum Total per Day (toolMaxDaily)',
			]),
		);
	});

	it.each(DESCRIPTIONS)('%s: every one is a text field; amounts start empty, the limits at 0', (_mode, description) => {
		const fields = description.properties.filter(isMoneyField);
		expect(fields.length).toBeGreaterThan(0);
		for (const field of fields) {
			expect({ name: field.name, type: field.type, default: field.default }).toEqual({
				name: field.name,
				type: 'string',
				default: field.name === 'amount' ? '' : '0',
			});
		}
	});
});

describe.each(CASES.map((moneyCase) => [named(moneyCase), moneyCase] as const))('%s', (_name, moneyCase) => {
	it.each(['2,5', '10,50'])('"%s" is refused in every way it can be given, saying to write it with a decimal point; nothing is sent', async (text) => {
		for (const [way, value, args, says] of ways(moneyCase, text)) {
			const error = await errorOf(moneyCase, value, args);
			expect({ way, error }).toEqual({ way, error: expect.stringMatching(new RegExp(says)) });
			expect({ way, sent: sandbox.requests }).toEqual({ way, sent: [] });
		}
	});

	it.each([
		['abc', 'must be a number written with digits and a decimal point', undefined],
		['1e3', 'must be a number written with digits and a decimal point', undefined],
		['-5', 'must not be negative', undefined],
		['1.0001', 'must have at most \\d decimal places', undefined],
		// A stated amount left empty is a call the limit cannot be checked for, which the tool refuses in those words.
		['', 'is required', 'this call states no amount'],
	])('"%s" is refused, naming the field; nothing is sent', async (text, problem, orElse) => {
		const error = await errorOf(moneyCase, text);
		expect(error).toMatch(new RegExp(`${fieldIn(moneyCase.field)} ${problem}${orElse ? `|${orElse}` : ''}`));
		expect(sandbox.requests).toEqual([]);
	});
});

describe('amounts written with a point run, and are sent as written', () => {
	const sentTo = (path: string) => sandbox.requests.filter((request) => request.path.endsWith(path));

	it.each(['create', 'createCheckout'])('order → %s: "2.5" is sent as 2.5; a number saved before (25.5) still runs', async (operation) => {
		const path = operation === 'create' ? '/order' : '/create-checkout';
		for (const [amount, sent] of [['2.5', '2.5'], [' 2.50 ', '2.5'], [25.5, '25.5'], ['={{ 7.25 }}', '7.25']] as const) {
			sandbox.clearLog();
			const result = await runNode(sandbox, orderParameters({ operation, amount, redirectType: 'redirect' }));
			expect({ amount, error: result.error?.message }).toEqual({ amount, error: undefined });
			expect({ amount, sent: sentAmount(sentTo(path)[0]?.body) }).toEqual({ amount, sent });
		}
	});

	it('too many decimals for the currency are refused, never rounded: "2.555" USD, "100.5" JPY; "2.555" OMR is sent', async () => {
		for (const [currency, amount] of [['USD', '2.555'], ['JPY', '100.5']]) {
			const refused = await runNode(sandbox, orderParameters({ amount, currency }));
			expect(refused.error?.message).toMatch(new RegExp(`^Amount \\(amount\\) must (?:have at most 2 decimal places|be a whole number) for ${currency}`));
		}
		expect(sandbox.requests).toEqual([]);
		const omr = await runNode(sandbox, orderParameters({ amount: '2.555', currency: 'OMR' }));
		expect(omr.error).toBeUndefined();
		expect(sentAmount(sentTo('/order')[0].body)).toBe('2.555');
	});

	it('transaction → refund: "2.5" is sent as 2.5, and a number still runs', async () => {
		const orderId = await createOrder(sandbox, { amount: '25.50' });
		const { paymentId } = await sandbox.completeAuthentication(await initiatePayment(sandbox, orderId), 'success');
		for (const [amount, sent] of [['2.5', '2.5'], [1.25, '1.25']] as const) {
			sandbox.clearLog();
			const result = await runNode(sandbox, { resource: 'transaction', operation: 'refund', paymentId, amount });
			expect(result.error).toBeUndefined();
			expect(sentAmount(sentTo('/transaction/refund')[0].body)).toBe(sent);
		}
	});

	it('as a tool, limits written as text hold: a refund of "2.5" under a Maximum Amount per Call of "2.5" is sent, "2.51" is refused', async () => {
		const paymentId = await paidPayment(sandbox, { amount: '25.50' });
		const result = await runPaymentTool(
			sandbox,
			{
				resource: 'transaction',
				operation: 'refund',
				paymentId,
				amount: fromAI('amount', 'How much to give back'),
				toolMaxAmount: '2.5',
				toolLimitCurrency: 'USD',
				toolMaxTotal: '5',
				toolMaxDaily: '10',
			},
			[{ args: { amount: '2.51' } }, { args: { amount: '2.5' } }],
		);
		expect(result.answers[0].error).toMatch(/a refund of 2\.51 USD is above this tool's Maximum Amount per Call of 2\.5 USD/);
		expect(result.answers[1].error).toBeUndefined();
		expect(sentTo('/transaction/refund').map((request) => sentAmount(request.body))).toEqual(['2.5']);
	});

	it('as a tool, a stored-card payment stated as "25.50" USD goes out once, its confirmation page to the agent', async () => {
		const { orderId, digitalCardId } = await storedCardAndOrder(sandbox, { amount: '25.50' });
		const result = await runPaymentTool(
			sandbox,
			{
				resource: 'transaction',
				operation: 'initiate',
				orderId,
				digitalCardId,
				amount: fromAI('amount', 'The amount of the order'),
				currency: 'USD',
				cardHolderName: 'Jane Doe',
				redirectionUrl: 'https://shop.example.com/payment/done',
				customerAuthentication: 'otpOnly',
				toolMaxAmount: '30',
				toolLimitCurrency: 'USD',
				toolMaxTotal: '0',
				toolMaxDaily: '100',
			},
			[{ args: { amount: '25.50' } }],
		);
		expect(result.answers[0].error).toBeUndefined();
		expect(JSON.parse(result.answers[0].answer!)).toEqual([expect.objectContaining({ orderId, redirectionData: expect.any(Object) })]);
		expect(sentTo('/transaction/initiate')).toHaveLength(1);
	});
});
