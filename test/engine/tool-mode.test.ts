import type { IDataObject } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { PaymentGatewayApi } from '../../credentials/PaymentGatewayApi.credentials';
import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import type { RunAsToolOptions } from '../support/agent';
import { runAsTool, toolVariantOf } from '../support/agent';
import type { Sandbox } from '../support/fixtures';
import {
	createOrder,
	futureYear,
	initiateParameters,
	runNode,
	sandboxCredentials,
	settledPayment,
	startSandbox,
} from '../support/fixtures';
import { findLeaks, sandboxSecrets } from '../support/leaks';

// The node as an AI agent's tool (n8n-nodes-payment-gateway.paymentGatewayTool), called through n8n-core's tool
// invocation as a model's tool calls would be: card details refused, money bounded by the author's limit, refusals
// sent nowhere and answered in words, reads as in a normal node.

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox();
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.reset());

const fromAI = (key: string, description: string, type = 'string') => `={{ $fromAI('${key}', '${description}', '${type}') }}`;

const refundTool = (extra: IDataObject = {}) => ({
	resource: 'transaction',
	operation: 'refund',
	paymentId: fromAI('paymentId', 'The paymentId of the payment to refund'),
	amount: fromAI('amount', 'How much to give back', 'number'),
	...extra,
});

async function asTool(parameters: IDataObject, calls: RunAsToolOptions['calls'], extra: Partial<RunAsToolOptions> = {}) {
	return await runAsTool({
		nodeType: PaymentGateway,
		credentialType: PaymentGatewayApi,
		credentials: sandboxCredentials(sandbox),
		parameters: parameters as RunAsToolOptions['parameters'],
		calls,
		...extra,
	});
}

/** A successful card payment of 25.50 USD made outside the agent; its paymentId. */
async function paidPayment(): Promise<string> {
	const record = await settledPayment(sandbox, 'success');
	sandbox.clearLog();
	return record.paymentId;
}

/** A card stored by a payment made outside the agent, and a new order to pay with it. */
async function storedCardAndOrder(): Promise<{ orderId: string; digitalCardId: string }> {
	const stored = await runNode(sandbox, initiateParameters(await createOrder(sandbox), { secureCard: true }));
	const { digitalCardId } = stored.items[0].json.securedCardDetails as IDataObject;
	const orderId = await createOrder(sandbox);
	sandbox.clearLog();
	return { orderId, digitalCardId: digitalCardId as string };
}

const sentTo = (path: string) => sandbox.requests.filter((request) => request.path.endsWith(path));

describe('the tool variant as the agent sees it', () => {
	const tool = toolVariantOf(PaymentGateway).description;
	const defaultsFor = (parameters: IDataObject) =>
		NodeHelpers.getNodeParameters(tool.properties, parameters as never, true, false, null, tool) as IDataObject;

	it.each([
		['transaction', 'refund', /moves money back to the customer/],
		['transaction', 'initiate', /moves money/],
		['order', 'create', /moves no money/],
		['status', 'getByOrderId', /moves no money/],
		['digitalCard', 'delete', /cannot be undone/],
	])('%s → %s: its default description says plainly whether it moves money', (resource, operation, says) => {
		expect(defaultsFor({ resource, operation }).toolDescription).toMatch(says);
	});

	it('offers only stored cards, and Maximum Amount per Call starts at 0', () => {
		const initiate = defaultsFor({ resource: 'transaction', operation: 'initiate' });
		expect(initiate.paymentMode).toBe('token');
		expect(initiate.toolMaxAmount).toBe(0);
		const choices = tool.properties
			.filter((property) => property.name === 'paymentMode')
			.filter((property) => NodeHelpers.displayParameter(initiate as never, property, null, tool))
			.flatMap((property) => property.options ?? []);
		expect(choices.map((choice) => (choice as { value: string }).value)).toEqual(['token']);
	});

	it('shows no notice that only applies outside tool mode, and the normal node keeps them', () => {
		const shown = (description: typeof tool, parameters: IDataObject) =>
			description.properties
				.filter((property) => property.type === 'notice')
				.filter((property) => NodeHelpers.displayParameter(parameters as never, property, null, description))
				.map((property) => property.name);
		const normal = new PaymentGateway().description;
		const initiate = { resource: 'transaction', operation: 'initiate', paymentMode: 'token' };
		expect(shown(normal, initiate)).toContain('redirectionNotice');
		expect(shown(tool, initiate)).not.toContain('redirectionNotice');
		expect(shown(tool, initiate)).toContain('toolMoneyNotice');
		expect(shown(tool, { resource: 'status', operation: 'verifySignature' })).not.toContain('verifyNotice');
		expect(shown(normal, { resource: 'transaction', operation: 'refund' })).not.toContain('toolMoneyNotice');
	});
});

describe('Transaction → Refund as a tool', () => {
	it('with the default limit 0, every refund is refused, nothing is sent, and the agent is told why', async () => {
		const paymentId = await paidPayment();
		const result = await asTool(refundTool(), [{ args: { paymentId, amount: 1 } }]);
		expect(result.answers).toHaveLength(1);
		expect(result.answers[0].error).toMatch(/^Refused: .*Maximum Amount per Call is 0/);
		expect(result.answers[0].error).toMatch(/Nothing was sent to the payment gateway\. Ask a person to make this refund\./);
		expect(sandbox.requests).toEqual([]);
	});

	it('above the limit: refused, nothing sent; under it: exactly one refund', async () => {
		const paymentId = await paidPayment();
		const result = await asTool(refundTool({ toolMaxAmount: 10 }), [
			{ args: { paymentId, amount: 10.5 } },
			{ args: { paymentId, amount: 10 } },
		]);
		expect(result.answers[0].error).toMatch(/a refund of 10\.5 is above this tool's Maximum Amount per Call of 10/);
		expect(result.answers[1].error).toBeUndefined();
		expect(JSON.parse(result.answers[1].answer!)).toEqual([expect.objectContaining({ paymentId, amount: 10, paymentStatus: 'partially_refunded' })]);
		expect(sentTo('/transaction/refund')).toHaveLength(1);
		expect(sandbox.requests).toHaveLength(1);
	});

	it('the whole payment: the limit applies to the amount read, and at 0 nothing is even read', async () => {
		const paymentId = await paidPayment();
		const whole = { resource: 'transaction', operation: 'refund', refundType: 'full', paymentId: fromAI('paymentId', 'The payment') };
		const atZero = await asTool(whole, [{ args: { paymentId } }]);
		expect(atZero.answers[0].error).toMatch(/Maximum Amount per Call is 0/);
		expect(sandbox.requests).toEqual([]);

		const below = await asTool({ ...whole, toolMaxAmount: 20 }, [{ args: { paymentId } }]);
		expect(below.answers[0].error).toMatch(/a refund of 25\.5 is above this tool's Maximum Amount per Call of 20\. No refund was sent; only the payment was read\./);
		expect(sentTo('/transaction/refund')).toEqual([]);

		const within = await asTool({ ...whole, toolMaxAmount: 30 }, [{ args: { paymentId } }]);
		expect(JSON.parse(within.answers[0].answer!)).toEqual([expect.objectContaining({ paymentId, amount: 25.5, paymentStatus: 'refunded' })]);
		expect(sentTo('/transaction/refund')).toHaveLength(1);
	});

	it('a limit the model fills in through $fromAI() is no limit: refused, nothing sent', async () => {
		const paymentId = await paidPayment();
		const result = await asTool(refundTool({ toolMaxAmount: fromAI('limit', 'Maximum', 'number') }), [
			{ args: { paymentId, amount: 1, limit: 1000 } },
		]);
		expect(result.answers[0].error).toMatch(/Maximum Amount per Call is left to the AI agent/);
		expect(sandbox.requests).toEqual([]);
	});

	it('with Continue On Fail, the refusal is the answer and nothing is sent', async () => {
		const paymentId = await paidPayment();
		const result = await asTool(refundTool({ toolMaxAmount: 5 }), [{ args: { paymentId, amount: 6 } }], {
			onError: 'continueRegularOutput',
		});
		expect(JSON.parse(result.answers[0].answer!)).toEqual([
			expect.objectContaining({ error: expect.stringMatching(/Maximum Amount per Call of 5/) }),
		]);
		expect(sandbox.requests).toEqual([]);
	});

	it('in a normal node, a Maximum Amount per Call left in the parameters changes nothing', async () => {
		const paymentId = await paidPayment();
		const result = await runNode(sandbox, { resource: 'transaction', operation: 'refund', paymentId, amount: 5, toolMaxAmount: 1 });
		expect(result.error).toBeUndefined();
		expect(sentTo('/transaction/refund')).toHaveLength(1);
	});
});

describe('Transaction → Initiate as a tool', () => {
	const cardNumber = '4111111111111111';

	it('card details are refused before anything is read or sent, and the card number never comes back', async () => {
		const orderId = await createOrder(sandbox);
		sandbox.clearLog();
		// A workflow file can carry card mode into the tool although the editor hides it there.
		const parameters = {
			...initiateParameters(orderId),
			paymentMode: 'card',
			cardNumber: fromAI('cardNumber', 'The card number'),
			cardCVV: fromAI('cvv', 'The CVV'),
			toolMaxAmount: 1000,
			amount: 25.5,
		};
		const result = await asTool(parameters, [{ args: { cardNumber, cvv: '123' } }]);
		expect(result.answers[0].error).toMatch(/^Refused: an AI agent's tool may not pay with card details/);
		expect(result.answers[0].error).toMatch(/card numbers must never pass through a language model/);
		expect(sandbox.requests).toEqual([]);
		expect(findLeaks(result.answers, { secrets: sandboxSecrets(sandbox), cards: [cardNumber], cvvs: [] })).toEqual([]);
	});

	it('with a card number typed into the parameters, it is refused the same and not echoed', async () => {
		const orderId = await createOrder(sandbox);
		sandbox.clearLog();
		const parameters = { ...initiateParameters(orderId), toolMaxAmount: 1000, amount: 25.5 };
		const result = await asTool(parameters, [{ args: {} }]);
		expect(result.answers[0].error).toMatch(/^Refused: an AI agent's tool may not pay with card details/);
		expect(sandbox.requests).toEqual([]);
		expect(JSON.stringify(result.answers)).not.toContain(cardNumber.slice(0, 6));
		expect(JSON.stringify(result.answers)).not.toContain(futureYear.padStart(3, '/'));
	});

	const tokenTool = (orderId: string, digitalCardId: string, extra: IDataObject = {}) => ({
		resource: 'transaction',
		operation: 'initiate',
		orderId,
		digitalCardId,
		amount: fromAI('amount', 'The amount of the order', 'number'),
		cardHolderName: 'Jane Doe',
		redirectionUrl: 'https://shop.example.com/payment/done',
		customerAuthentication: 'otpOnly',
		...extra,
	});

	it('a stored card with the default limit 0: refused, nothing sent', async () => {
		const { orderId, digitalCardId } = await storedCardAndOrder();
		const result = await asTool(tokenTool(orderId, digitalCardId), [{ args: { amount: 25.5 } }]);
		expect(result.answers[0].error).toMatch(/Maximum Amount per Call is 0 \(not set\), so it may not make any payment/);
		expect(sandbox.requests).toEqual([]);
	});

	it('a stored card above the limit: refused, nothing sent; under it: exactly one payment', async () => {
		const { orderId, digitalCardId } = await storedCardAndOrder();
		const tool = tokenTool(orderId, digitalCardId, { toolMaxAmount: 30 });
		const refused = await asTool(tool, [{ args: { amount: 30.01 } }]);
		expect(refused.answers[0].error).toMatch(/a payment of 30\.01 is above this tool's Maximum Amount per Call of 30/);
		expect(sandbox.requests).toEqual([]);

		const paid = await asTool(tool, [{ args: { amount: 25.5 } }]);
		expect(paid.answers[0].error).toBeUndefined();
		expect(JSON.parse(paid.answers[0].answer!)).toEqual([expect.objectContaining({ orderId, paymentStatus: 'pending' })]);
		expect(sentTo('/transaction/initiate')).toHaveLength(1);
	});

	it('a stored-card payment that states no amount cannot be checked against the limit: refused, nothing sent', async () => {
		const { orderId, digitalCardId } = await storedCardAndOrder();
		const result = await asTool(tokenTool(orderId, digitalCardId, { toolMaxAmount: 30, amount: '' }), [{ args: {} }]);
		expect(result.answers[0].error).toMatch(
			/^Refused: this tool checks every payment against its Maximum Amount per Call of 30, and this call states no amount\. Nothing was sent/,
		);
		expect(sandbox.requests).toEqual([]);
	});
});

describe('reads as a tool work as in a normal node, simplified by default', () => {
	it('Status → Get by Order ID: the record comes back to the agent without its signature', async () => {
		const record = await settledPayment(sandbox, 'success');
		const result = await asTool(
			{ resource: 'status', operation: 'getByOrderId', orderId: fromAI('orderId', 'The order') },
			[{ args: { orderId: record.orderId } }],
		);
		const [item] = JSON.parse(result.answers[0].answer!);
		expect(item).toEqual({
			orderId: record.orderId,
			paymentId: record.paymentId,
			receiptId: record.receiptId,
			status: 'success',
			amount: record.amount,
			paymentMethod: 'card',
			cardNetwork: 'visa',
			cardType: 'credit',
			time: record.timestamp,
		});
		expect(result.answers[0].answer).not.toContain(record.signature);
	});

	it('Simplify off gives the gateway record; a normal node gives it unless Simplify is on', async () => {
		const record = await settledPayment(sandbox, 'success');
		const read = { resource: 'status', operation: 'getByPaymentId', paymentId: record.paymentId };
		const raw = await asTool({ ...read, options: { simple: false } }, [{ args: {} }]);
		expect(JSON.parse(raw.answers[0].answer!)[0]).toMatchObject({ signature: expect.any(String), paymentDetails: expect.any(Object) });

		const normal = await runNode(sandbox, read);
		expect(normal.items[0].json).toMatchObject({ signature: expect.any(String), paymentStatus: 'success' });
		const simplified = await runNode(sandbox, { ...read, options: { simple: true } });
		expect(simplified.items[0].json).toEqual(expect.objectContaining({ status: 'success', paymentId: record.paymentId }));
		expect(simplified.items[0].json.signature).toBeUndefined();
		expect(Object.keys(simplified.items[0].json).length).toBeLessThanOrEqual(10);
	});

	it('an order nobody paid yet reads as data, simplified, with the gateway message', async () => {
		const orderId = await createOrder(sandbox);
		const result = await asTool({ resource: 'status', operation: 'getByOrderId', orderId }, [{ args: {} }]);
		expect(JSON.parse(result.answers[0].answer!)).toEqual([{ orderId, status: 'failure', errMessage: 'Transaction not initiated' }]);
	});

	it('Verify Signature checks what the agent gives it, and sends nothing', async () => {
		const record = await settledPayment(sandbox, 'success');
		sandbox.clearLog();
		const result = await asTool(
			{
				resource: 'status',
				operation: 'verifySignature',
				orderId: fromAI('orderId', 'Order'),
				paymentId: fromAI('paymentId', 'Payment'),
				signature: fromAI('signature', 'Signature'),
			},
			[
				{ args: { orderId: record.orderId, paymentId: record.paymentId, signature: record.signature } },
				{ args: { orderId: record.orderId, paymentId: record.paymentId, signature: 'f'.repeat(64) } },
			],
		);
		expect(JSON.parse(result.answers[0].answer!)[0].signatureValid).toBe(true);
		expect(JSON.parse(result.answers[1].answer!)[0].signatureValid).toBe(false);
		expect(sandbox.requests).toEqual([]);
	});
});
