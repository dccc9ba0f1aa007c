import type { IDataObject } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import type { RunAsToolOptions } from '../support/agent';
import { toolVariantOf } from '../support/agent';
import { createOrder, futureYear, initiateParameters, runNode, settledPayment, useSandbox } from '../support/fixtures';
import { decryptCardDetails } from '../support/input-rules';
import { findLeaks, sandboxSecrets } from '../support/leaks';
import { fromAI, paidPayment as paidPaymentOf, refundTool, runPaymentTool, storedCardAndOrder as storedCardOf } from '../support/tool';

// The node as an AI agent's tool (n8n-nodes-payment-gateway.paymentGatewayTool), called through n8n-core's tool
// invocation as a model's tool calls would be: card details refused, money bounded by the author's limit, refusals
// sent nowhere and answered in words, reads as in a normal node.

const sandbox = useSandbox();



const asTool = (parameters: IDataObject, calls: RunAsToolOptions['calls'], extra: Partial<RunAsToolOptions> = {}) => runPaymentTool(sandbox, parameters, calls, extra);

const paidPayment = (order: IDataObject = {}) => paidPaymentOf(sandbox, order);

const storedCardAndOrder = (order: IDataObject = {}) => storedCardOf(sandbox, order);

/**
 * The author's limits: per call, in USD, and (0: the same as per call) per execution; and the Maximum Total per Day
 * required beside a Maximum Amount per Call, set far above what any test here moves so that it never is the limit that
 * refuses (test/engine/tool-daily.test.ts is about it).
 */
const DAILY = 1000;
const limits = (perCall: number, total = 0, currency = 'USD') => ({
	toolMaxAmount: perCall,
	toolMaxTotal: total,
	toolLimitCurrency: currency,
	toolMaxDaily: DAILY,
});

const tokenTool = (orderId: string, digitalCardId: string, extra: IDataObject = {}) => ({
	resource: 'transaction',
	operation: 'initiate',
	orderId,
	digitalCardId,
	amount: fromAI('amount', 'The amount of the order', 'number'),
	currency: fromAI('currency', 'The currency of the order'),
	cardHolderName: 'Jane Doe',
	redirectionUrl: 'https://shop.example.com/payment/done',
	customerAuthentication: 'otpOnly',
	...extra,
});

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
		expect(initiate.toolMaxAmount).toBe('0');
		const choices = tool.properties
			.filter((property) => property.name === 'paymentMode')
			.filter((property) => NodeHelpers.displayParameter(initiate as never, property, null, tool))
			.flatMap((property) => property.options ?? []);
		expect(choices.map((choice) => (choice as { value: string }).value)).toEqual(['token']);
	});

	it.each(['initiate', 'refund'])('transaction → %s asks for every limit, Maximum Total per Day included, in tool mode only', (operation) => {
		const parameters = { resource: 'transaction', operation };
		expect(defaultsFor(parameters)).toMatchObject({ toolMaxAmount: '0', toolLimitCurrency: '', toolMaxTotal: '0', toolMaxDaily: '0' });
		const normal = new PaymentGateway().description;
		const outside = NodeHelpers.getNodeParameters(normal.properties, parameters as never, true, false, null, normal) as IDataObject;
		for (const name of ['toolMaxAmount', 'toolLimitCurrency', 'toolMaxTotal', 'toolMaxDaily']) expect(outside).not.toHaveProperty(name);
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
		const result = await asTool(refundTool(limits(10)), [
			{ args: { paymentId, amount: 10.5 } },
			{ args: { paymentId, amount: 10 } },
		]);
		expect(result.answers[0].error).toMatch(/a refund of 10\.5 USD is above this tool's Maximum Amount per Call of 10 USD/);
		expect(result.answers[1].error).toBeUndefined();
		expect(JSON.parse(result.answers[1].answer!)).toEqual([expect.objectContaining({ paymentId, amount: 10, paymentStatus: 'partially_refunded' })]);
		// The payment is read for its currency, then refunded: the refused call sent nothing at all.
		expect(sandbox.requests.map((request) => request.apiPath)).toEqual([`/transaction/status/${paymentId}`, '/transaction/refund']);
	});

	it('the whole payment: the limit applies to the amount read, and at 0 nothing is even read', async () => {
		const paymentId = await paidPayment();
		const whole = { resource: 'transaction', operation: 'refund', refundType: 'full', paymentId: fromAI('paymentId', 'The payment') };
		const atZero = await asTool(whole, [{ args: { paymentId } }]);
		expect(atZero.answers[0].error).toMatch(/Maximum Amount per Call is 0/);
		expect(sandbox.requests).toEqual([]);

		const below = await asTool({ ...whole, ...limits(20) }, [{ args: { paymentId } }]);
		expect(below.answers[0].error).toMatch(/a refund of 25\.5 USD is above this tool's Maximum Amount per Call of 20 USD\. No refund was sent; only the payment was read\./);
		expect(sentTo('/transaction/refund')).toEqual([]);

		const within = await asTool({ ...whole, ...limits(30) }, [{ args: { paymentId } }]);
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
		const result = await asTool(refundTool(limits(5)), [{ args: { paymentId, amount: 6 } }], {
			onError: 'continueRegularOutput',
		});
		expect(JSON.parse(result.answers[0].answer!)).toEqual([
			expect.objectContaining({ error: expect.stringMatching(/Maximum Amount per Call of 5 USD/) }),
		]);
		expect(sandbox.requests).toEqual([]);
	});

	it('in a normal node, a Maximum Amount per Call left in the parameters changes nothing', async () => {
		const paymentId = await paidPayment();
		const result = await runNode(sandbox, { resource: 'transaction', operation: 'refund', paymentId, amount: 5, ...limits(1, 1, 'EUR') });
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


	it('a stored card with the default limit 0: refused, nothing sent', async () => {
		const { orderId, digitalCardId } = await storedCardAndOrder();
		const result = await asTool(tokenTool(orderId, digitalCardId), [{ args: { amount: 25.5, currency: 'USD' } }]);
		expect(result.answers[0].error).toMatch(/Maximum Amount per Call is 0 \(not set\), so it may not make any payment/);
		expect(sandbox.requests).toEqual([]);
	});

	it('a stored card above the limit: refused, nothing sent; under it: exactly one payment', async () => {
		const { orderId, digitalCardId } = await storedCardAndOrder();
		const tool = tokenTool(orderId, digitalCardId, limits(30));
		const refused = await asTool(tool, [{ args: { amount: 30.01, currency: 'USD' } }]);
		expect(refused.answers[0].error).toMatch(/a payment of 30\.01 USD is above this tool's Maximum Amount per Call of 30 USD/);
		expect(sandbox.requests).toEqual([]);

		const paid = await asTool(tool, [{ args: { amount: 25.5, currency: 'USD' } }]);
		expect(paid.answers[0].error).toBeUndefined();
		expect(JSON.parse(paid.answers[0].answer!)).toEqual([expect.objectContaining({ orderId, paymentStatus: 'pending' })]);
		expect(sentTo('/transaction/initiate')).toHaveLength(1);
	});

	it('a stored-card payment that states no amount cannot be checked against the limit: refused, nothing sent', async () => {
		const { orderId, digitalCardId } = await storedCardAndOrder();
		const result = await asTool(tokenTool(orderId, digitalCardId, { ...limits(30), amount: '' }), [{ args: { currency: 'USD' } }]);
		expect(result.answers[0].error).toMatch(
			/^Refused: this tool checks every payment against its Maximum Amount per Call of 30 USD, and this call states no amount\. Nothing was sent/,
		);
		expect(sandbox.requests).toEqual([]);
	});
});

describe('a stored card needs the customer’s own confirmation, and no CVV', () => {
	const tool = toolVariantOf(PaymentGateway).description;
	const initiate = { resource: 'transaction', operation: 'initiate', paymentMode: 'token' };
	const shownFields = (description: typeof tool) =>
		description.properties.filter((property) => NodeHelpers.displayParameter(initiate as never, property, null, description));

	it('the tool variant offers only OTP Only and shows no CVV; the normal node keeps both', () => {
		const authentication = shownFields(tool).filter((property) => property.name === 'customerAuthentication');
		expect(authentication.flatMap((property) => (property.options ?? []).map((option) => (option as { value: string }).value))).toEqual(['otpOnly']);
		expect(authentication[0].default).toBe('otpOnly');
		expect(shownFields(tool).map((property) => property.name)).not.toContain('cardCVV');
		expect(shownFields(tool).map((property) => property.name)).toEqual(expect.arrayContaining(['toolMaxAmount', 'toolLimitCurrency', 'toolMaxTotal', 'currency']));
		const normal = new PaymentGateway().description;
		const names = shownFields(normal).map((property) => property.name);
		expect(names).toContain('cardCVV');
		expect(names).not.toEqual(expect.arrayContaining(['toolLimitCurrency']));
		expect(names).not.toContain('toolMaxTotal');
		expect(shownFields(normal).find((property) => property.name === 'customerAuthentication')?.options).toHaveLength(3);
	});

	const tokenCall = (orderId: string, digitalCardId: string, extra: IDataObject = {}) => ({
		resource: 'transaction',
		operation: 'initiate',
		orderId,
		digitalCardId,
		amount: 25.5,
		currency: 'USD',
		cardHolderName: 'Jane Doe',
		redirectionUrl: 'https://shop.example.com/payment/done',
		...limits(30),
		...extra,
	});

	it.each([
		['none', /without it the customer does not confirm the amount the gateway charges/],
		['cvvAndOtp', /CVV and OTP needs the card's security code, which an AI agent's tool never takes/],
	])('Customer Authentication "%s": refused, nothing sent', async (customerAuthentication, why) => {
		const { orderId, digitalCardId } = await storedCardAndOrder();
		const result = await asTool(tokenCall(orderId, digitalCardId, { customerAuthentication }), [{ args: {} }]);
		expect(result.answers[0].error).toMatch(/^Refused: an AI agent's tool pays with a stored card only when the customer confirms the payment with a one-time password \(Customer Authentication "OTP Only"\)/);
		expect(result.answers[0].error).toMatch(why);
		expect(sandbox.requests).toEqual([]);
	});

	/** The node as an n8n that does not apply '@tool' display options would load it: the hidden CVV is kept. */
	const withCvvShown = () => {
		const node = new PaymentGateway();
		const properties = node.description.properties.map((property) =>
			property.name === 'cardCVV' ? { ...property, displayOptions: { show: { resource: ['transaction'], operation: ['initiate'] } } } : property,
		);
		return { description: { ...node.description, properties }, execute: node.execute, methods: node.methods };
	};

	it.each([
		['from the model ($fromAI)', fromAI('cvv', 'The CVV'), { cvv: '987' }],
		['carried by the workflow file', '987', {}],
	])('a CVV %s that reaches the tool: refused with OTP Only too, nothing sent, and not echoed', async (_label, cardCVV, args) => {
		const { orderId, digitalCardId } = await storedCardAndOrder();
		const parameters = tokenCall(orderId, digitalCardId, { customerAuthentication: 'otpOnly', cardCVV });
		const result = await asTool(parameters, [{ args }], { nodeType: withCvvShown() as never });
		expect(result.answers[0].error).toMatch(/^Refused: an AI agent's tool takes no CVV/);
		expect(sandbox.requests).toEqual([]);
		expect(JSON.stringify(result.answers)).not.toContain('987');
	});

	it('a CVV in the workflow file of the tool is dropped when n8n loads it (the field is hidden there): never sent', async () => {
		const { orderId, digitalCardId } = await storedCardAndOrder();
		const result = await asTool(tokenCall(orderId, digitalCardId, { customerAuthentication: 'otpOnly', cardCVV: '987' }), [{ args: {} }]);
		expect(result.answers[0].error).toBeUndefined();
		const sent = sentTo('/transaction/initiate');
		expect(sent).toHaveLength(1);
		expect(decryptCardDetails(JSON.parse(sent[0].body), sandbox.cardEncryptionKey)).toEqual({ digitalCardId });
	});

	it('with OTP Only and no CVV, the payment goes out once, asking the customer to confirm', async () => {
		const { orderId, digitalCardId } = await storedCardAndOrder();
		const result = await asTool(tokenCall(orderId, digitalCardId, { customerAuthentication: 'otpOnly' }), [{ args: {} }]);
		expect(JSON.parse(result.answers[0].answer!)).toEqual([expect.objectContaining({ orderId, paymentStatus: 'pending', redirectionData: expect.any(Object) })]);
		const [sent] = sentTo('/transaction/initiate');
		expect(JSON.parse(sent.body)).toMatchObject({ paymentMode: 'token', skipCVVandOTP: false, skipCVVOnlyFlag: true });
		expect(sandbox.requests).toHaveLength(1);
	});
});

describe('the limits are in one currency (Limit Currency)', () => {
	it.each([
		['not set', { toolMaxAmount: 10, toolMaxDaily: DAILY }, /Limit Currency is not set/],
		['left to the model', { ...limits(10), toolLimitCurrency: fromAI('currency', 'Currency') }, /Limit Currency is left to the AI agent/],
		['not a currency code', limits(10, 0, 'dollars'), /Limit Currency is not a three-letter currency code/],
	])('a refund with Limit Currency %s: refused, nothing sent', async (_label, extra, says) => {
		const paymentId = await paidPayment();
		const result = await asTool(refundTool(extra), [{ args: { paymentId, amount: 1, currency: 'USD' } }]);
		expect(result.answers[0].error).toMatch(says);
		expect(result.answers[0].error).toMatch(/Nothing was sent to the payment gateway/);
		expect(sandbox.requests).toEqual([]);
	});

	it('a refund of a payment in another currency: refused after reading the payment, no refund sent', async () => {
		const paymentId = await paidPayment({ currency: 'EUR' });
		const result = await asTool(refundTool(limits(10)), [{ args: { paymentId, amount: 5 } }]);
		expect(result.answers[0].error).toMatch(
			/^Refused: the payment is in EUR, and this tool's limits are in USD \(Limit Currency\)\. No refund was sent; only the payment was read\. Ask a person/,
		);
		expect(sandbox.requests.map((request) => request.apiPath)).toEqual([`/transaction/status/${paymentId}`]);
	});

	it('the whole of a payment in another currency: refused after the read, no refund sent', async () => {
		const paymentId = await paidPayment({ currency: 'JPY', amount: 20 });
		const whole = { resource: 'transaction', operation: 'refund', refundType: 'full', paymentId, ...limits(30) };
		const result = await asTool(whole, [{ args: {} }]);
		expect(result.answers[0].error).toMatch(/the payment is in JPY, and this tool's limits are in USD/);
		expect(sentTo('/transaction/refund')).toEqual([]);
		expect(sandbox.requests).toHaveLength(1);
	});

	it('a stored-card payment the call states in another currency, or in none: refused, nothing sent', async () => {
		const { orderId, digitalCardId } = await storedCardAndOrder({ currency: 'EUR' });
		const tool = tokenTool(orderId, digitalCardId, limits(30));
		const result = await asTool(tool, [{ args: { amount: 20, currency: 'EUR' } }, { args: { amount: 20, currency: ' ' } }]);
		expect(result.answers[0].error).toMatch(/^Refused: the order \(as this call states it\) is in EUR, and this tool's limits are in USD \(Limit Currency\)\. Nothing was sent/);
		expect(result.answers[1].error).toMatch(/^Refused: this tool's limits are in USD, and this call states no currency for the order\. Nothing was sent/);
		expect(sandbox.requests).toEqual([]);
	});

	it.each([
		['in another currency than it states', { currency: 'KWD', amount: 20 }, 20, /started payment \S+ for 20(\.000)? KWD, not the 20 USD this call stated/],
		['for more than it states', { currency: 'USD', amount: 4999 }, 25, /started payment \S+ for 4999(\.00)? USD, not the 25 USD this call stated/],
	])('an order %s: the gateway’s answer gives it away, and the confirmation page is withheld from the agent', async (_label, order, amount, says) => {
		const { orderId, digitalCardId } = await storedCardAndOrder(order);
		const result = await asTool(tokenTool(orderId, digitalCardId, limits(30)), [{ args: { amount, currency: 'USD' } }]);
		expect(result.answers[0].error).toMatch(/^Refused after the gateway answered: /);
		expect(result.answers[0].error).toMatch(says);
		expect(result.answers[0].error).toMatch(/Its confirmation page is withheld, so the customer is not asked to confirm it and no money moves/);
		expect(JSON.stringify(result.answers)).not.toMatch(/formData|redirectionData/);
		expect(sentTo('/transaction/initiate')).toHaveLength(1);
	});

	it.each([
		['an amount that is no plain number', { amount: '4,999.000', currency: 'USD' }],
		// Number() reads each of these as 0 or less, "no larger than stated": the one amount rule reads none as an amount.
		['an empty amount', { amount: '', currency: 'USD' }],
		['a blank amount', { amount: ' ', currency: 'USD' }],
		['a negative amount', { amount: '-500', currency: 'USD' }],
		['no amount', { currency: 'USD' }],
		['no currency', { amount: 20 }],
	])('an answer with %s proves nothing: the confirmation page is withheld', async (_label, shown) => {
		const { orderId, digitalCardId } = await storedCardAndOrder({ amount: 20 });
		const data = { paymentId: 'PAY0000000000000000000000000000000A', orderId, ...shown, redirectionData: { url: 'https://bank.example.com/otp' } };
		sandbox.injectFault({ match: '/transaction/initiate', status: 200, body: { resCode: 200, status: 'success', data } });
		const result = await asTool(tokenTool(orderId, digitalCardId, limits(30)), [{ args: { amount: 20, currency: 'USD' } }]);
		expect(result.answers[0].error).toMatch(/^Refused after the gateway answered: .*Its confirmation page is withheld/);
		expect(JSON.stringify(result.answers)).not.toMatch(/bank\.example\.com|redirectionData/);
	});
});

describe('a budget per execution (Maximum Total per Execution)', () => {
	const refundsAt = () => sentTo('/transaction/refund').map((request) => JSON.parse(request.body).amount as number);

	it('by default the same as Maximum Amount per Call: three refunds of 8.50 under a limit of 10 give back 8.50', async () => {
		const paymentId = await paidPayment();
		const result = await asTool(refundTool(limits(10)), [1, 2, 3].map(() => ({ args: { paymentId, amount: 8.5 } })));
		expect(result.answers[0].error).toBeUndefined();
		for (const answer of result.answers.slice(1)) {
			expect(answer.error).toMatch(
				/^Refused: a refund of 8\.5 USD would take this tool above its Maximum Total per Execution of 10 USD: it has moved 8\.5 USD in this execution\. Nothing was sent to the payment gateway\. Ask a person/,
			);
		}
		expect(refundsAt()).toEqual([8.5]);
		// One read for the one refund sent: the refused calls cost nothing.
		expect(sandbox.requests).toHaveLength(2);
	});

	it('set to 20: two refunds go, the third is refused; a new execution starts with the whole budget again', async () => {
		const paymentId = await paidPayment();
		const tool = refundTool(limits(10, 20));
		const first = await asTool(tool, [1, 2, 3].map(() => ({ args: { paymentId, amount: 8.5 } })));
		expect(first.answers.map((answer) => answer.error === undefined)).toEqual([true, true, false]);
		expect(first.answers[2].error).toMatch(/it has moved 17 USD in this execution/);
		expect(refundsAt()).toEqual([8.5, 8.5]);
		const next = await asTool(tool, [{ args: { paymentId, amount: 8.5 } }]);
		expect(next.answers[0].error).toBeUndefined();
		expect(refundsAt()).toEqual([8.5, 8.5, 8.5]);
	});

	it('calls made at once count each other in flight: of three refunds of 8.50 under 20, exactly two are sent', async () => {
		const paymentId = await paidPayment();
		const result = await asTool(refundTool(limits(10, 20)), [1, 2, 3].map(() => ({ args: { paymentId, amount: 8.5 } })), { parallel: true });
		const refused = result.answers.filter((answer) => answer.error !== undefined);
		expect(refused).toHaveLength(1);
		expect(refused[0].error).toMatch(/it has moved 0 USD in this execution, and 17 USD in calls still under way/);
		expect(refundsAt()).toEqual([8.5, 8.5]);
		expect(sentTo(`/transaction/status/${paymentId}`)).toHaveLength(2);
	});

	it('ten refunds of 1 at once under a total of 4: exactly four are sent', async () => {
		const paymentId = await paidPayment();
		const result = await asTool(refundTool(limits(1, 4)), Array.from({ length: 10 }, () => ({ args: { paymentId, amount: 1 } })), { parallel: true });
		expect(result.answers.filter((answer) => answer.error === undefined)).toHaveLength(4);
		expect(refundsAt()).toEqual([1, 1, 1, 1]);
		expect(sandbox.requests).toHaveLength(8);
	});

	it('a refund the gateway refuses gives its amount back; one without an answer keeps it counted', async () => {
		const paymentId = await paidPayment();
		sandbox.injectFault({ match: '/transaction/refund', method: 'POST', status: 422 });
		const refusedByGateway = await asTool(refundTool(limits(10)), [{ args: { paymentId, amount: 8 } }, { args: { paymentId, amount: 8 } }]);
		expect(refusedByGateway.answers[0].error).not.toMatch(/^Refused/);
		expect(refusedByGateway.answers[1].error).toBeUndefined();
		expect(sentTo('/transaction/refund').map((request) => request.status)).toEqual([422, 200]);

		sandbox.clearLog();
		sandbox.injectFault({ match: '/transaction/refund', method: 'POST', kind: 'reset-before-body' });
		const noAnswer = await asTool(refundTool(limits(10)), [{ args: { paymentId, amount: 8 } }, { args: { paymentId, amount: 2.5 } }]);
		expect(noAnswer.answers[0].error).toMatch(/could not reach the payment gateway|did not answer/);
		expect(noAnswer.answers[1].error).toMatch(/would take this tool above its Maximum Total per Execution of 10 USD: it has moved 8 USD/);
		expect(sentTo('/transaction/refund')).toHaveLength(1);
	});

	it.each([
		['a 5xx under HTTP 200', { status: 200, body: { resCode: 500, status: 'failure', errMessage: 'Internal error' } }],
		['a proxy page of 408', { kind: 'html', status: 408 }],
		['a proxy page of 400', { kind: 'html', status: 400 }],
	] as Array<[string, object]>)('a refund answered with %s may have moved money: its amount stays counted', async (_label, fault) => {
		const paymentId = await paidPayment();
		sandbox.injectFault({ match: '/transaction/refund', method: 'POST', ...fault });
		const result = await asTool(refundTool(limits(10)), [{ args: { paymentId, amount: 8 } }, { args: { paymentId, amount: 8 } }]);
		expect(result.answers[1].error).toMatch(/would take this tool above its Maximum Total per Execution of 10 USD: it has moved 8 USD/);
		expect(sentTo('/transaction/refund')).toHaveLength(1);
	});

	it('with the budget spent, a refund of the whole payment is refused before its payment is read', async () => {
		const paymentId = await paidPayment();
		const both = await asTool(
			{ ...refundTool(limits(10)), refundType: '={{ $fromAI("kind", "partial or full") }}' },
			[{ args: { paymentId, amount: 10, kind: 'partial' } }, { args: { paymentId, amount: 1, kind: 'full' } }],
		);
		expect(both.answers[0].error).toBeUndefined();
		expect(both.answers[1].error).toMatch(/^Refused: this tool has used its Maximum Total per Execution of 10 USD in this execution.*Nothing was sent/);
		// The one read is the first refund's, of its payment's currency: the refused call read nothing.
		expect(sentTo(`/transaction/status/${paymentId}`)).toHaveLength(1);
	});

	it('a Maximum Total left to the model is refused, nothing sent', async () => {
		const paymentId = await paidPayment();
		const result = await asTool(refundTool({ ...limits(10), toolMaxTotal: fromAI('total', 'Total', 'number') }), [{ args: { paymentId, amount: 1, total: 1000 } }]);
		expect(result.answers[0].error).toMatch(/Maximum Total per Execution is left to the AI agent/);
		expect(sandbox.requests).toEqual([]);
	});

	it('two stored-card payments at once under a total of 30: one is sent, the other refused unsent', async () => {
		const first = await storedCardAndOrder({ amount: 20 });
		const second = await createOrder(sandbox, { amount: 20 });
		sandbox.clearLog();
		const tool = { ...tokenTool('', first.digitalCardId, limits(30)), orderId: fromAI('orderId', 'The order') };
		const result = await asTool(
			tool,
			[first.orderId, second].map((orderId) => ({ args: { orderId, amount: 20, currency: 'USD' } })),
			{ parallel: true },
		);
		expect(result.answers.filter((answer) => answer.error === undefined)).toHaveLength(1);
		expect(result.answers.find((answer) => answer.error)?.error).toMatch(/a payment of 20 USD would take this tool above its Maximum Total per Execution of 30 USD/);
		expect(sandbox.requests).toHaveLength(1);
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

	it('Verify Signature checks what the agent gives it: a valid signature’s payment is confirmed by the gateway, an invalid one sends nothing', async () => {
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
		expect(JSON.parse(result.answers[0].answer!)[0]).toMatchObject({ signatureValid: true, statusVerified: true, status: 'success' });
		expect(JSON.parse(result.answers[1].answer!)[0]).toMatchObject({ signatureValid: false, statusVerified: false });
		// Confirm With Gateway, on by default: one read, of the payment the valid signature names.
		expect(sandbox.requests.map((request) => request.apiPath)).toEqual([`/transaction/status/${record.paymentId}`]);
	});
});
