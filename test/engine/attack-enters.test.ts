/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import type { IDataObject } from 'n8n-workflow';

import type { RunAsToolOptions } from '../support/agent';
import { createOrder, initiateParameters, orderParameters, runNode, useSandbox } from '../support/fixtures';
import { decryptCardDetails, sentAmount } from '../support/input-rules';
import { fromAI, paidPayment as paidPaymentOf, runPaymentTool, storedCardAndOrder as storedCardOf } from '../support/tool';

// Adversarial tests of "What enters (turn 6)": what a user types, an expression gives, a model passes, a gateway
// answers, a customer's browser brings back, and what the credential names as the hosted checkout page. A test that
// fails here shows a way through (wrong input taken, something other than typed sent, legitimate input refused); a
// test that passes shows an attack that held.

const sandbox = useSandbox();

const sentTo = (suffix: string) => sandbox.requests.filter((request) => request.path.endsWith(suffix));

const paidPayment = (order: IDataObject = {}) => paidPaymentOf(sandbox, order);

const storedCardAndOrder = (order: IDataObject = {}) => storedCardOf(sandbox, order);

const asTool = (parameters: IDataObject, calls: RunAsToolOptions['calls'], extra: Partial<RunAsToolOptions> = {}) => runPaymentTool(sandbox, parameters, calls, extra);

const limits = (perCall: string, currency = 'USD', total = '0', daily = '1000') => ({
	toolMaxAmount: perCall,
	toolLimitCurrency: currency,
	toolMaxTotal: total,
	toolMaxDaily: daily,
});

const tokenTool = (orderId: string, digitalCardId: string, extra: IDataObject = {}) => ({
	resource: 'transaction',
	operation: 'initiate',
	orderId,
	digitalCardId,
	amount: fromAI('amount', 'The amount of the order'),
	currency: fromAI('currency', 'The currency of the order'),
	cardHolderName: 'Jane Doe',
	redirectionUrl: 'https://shop.example.com/payment/done',
	customerAuthentication: 'otpOnly',
	...extra,
});

describe('"2,5" in an expression: n8n evaluates it as JavaScript before the one amount rule sees it', () => {
	// The contract: `2,5` is refused "in the editor, in an expression and in a tool call alike". In an expression the
	// comma is JavaScript's comma operator: {{ 1,5 }} is 5, {{ 1.234,56 }} is 56; a leading 0 makes a legacy octal
	// literal ({{ 025 }} is 21). The node reads only the evaluated number, which passes the rule.

	it('holds, was a finding: a Refund whose Amount is the expression {{ 1,5 }} gives back 5, not 1.5: it should be refused, nothing sent', async () => {
		const paymentId = await paidPayment({ amount: '25.50' });
		const result = await runNode(sandbox, { resource: 'transaction', operation: 'refund', paymentId, amount: '={{ 1,5 }}' });
		expect(sentTo('/transaction/refund').map((request) => sentAmount(request.body))).toEqual([]);
		expect(result.error?.message).toMatch(/^Amount \(amount\) is an expression with a comma between digits/);
	});

	it('holds, was a finding: an Order whose Amount is the expression {{ 1.234,56 }} is created for 56', async () => {
		const result = await runNode(sandbox, orderParameters({ amount: '={{ 1.234,56 }}' }));
		expect(sentTo('/order').map((request) => sentAmount(request.body))).toEqual([]);
		expect(result.error?.message).toMatch(/^Amount \(amount\) is an expression with a comma between digits/);
	});

	it('holds, was a finding: an Order whose Amount is {{ $json.quantity * 2,5 }} is created for 5, whatever the quantity', async () => {
		const result = await runNode(sandbox, orderParameters({ amount: '={{ $json.quantity * 2,5 }}' }), [{ quantity: 3 }]);
		expect(sentTo('/order').map((request) => sentAmount(request.body))).toEqual([]);
		expect(result.error?.message).toMatch(/Amount \(amount\)/);
	});

	it('holds, was a finding: an Order whose Amount is the expression {{ 025 }} is created for 21 (typed as text, "025" is 25)', async () => {
		const result = await runNode(sandbox, orderParameters({ amount: '={{ 025 }}' }));
		expect(sentTo('/order')).toEqual([]);
		expect(result.error?.message).toMatch(/^Amount \(amount\) is an expression with a number that starts with 0/);
	});

	it('holds: an expression giving the text "2,5", or a float artefact (0.1 + 0.2), is refused; nothing sent', async () => {
		for (const [amount, says] of [
			['={{ "2,5" }}', /has a comma: write 2\.5/],
			['={{ 0.1 + 0.2 }}', /must have at most 2 decimal places for USD/],
			['={{ 1.1 * 3 }}', /must have at most 2 decimal places for USD/],
		] as const) {
			const result = await runNode(sandbox, orderParameters({ amount }));
			expect({ amount, error: result.error?.message }).toEqual({ amount, error: expect.stringMatching(says) });
		}
		expect(sandbox.requests).toEqual([]);
	});
});

describe('legitimate amounts run, sent as typed', () => {
	it.each([
		['25.50', 'USD', '25.5'],
		['0.221', 'OMR', '0.221'],
		['100', 'JPY', '100'],
		[25.5, 'USD', '25.5'],
		['\u00a025.50\u2009', 'USD', '25.5'],
		['00025.50', 'USD', '25.5'],
		['99999999999.99', 'USD', '99999999999.99'],
	])('holds: %j %s is sent as %s', async (amount, currency, sent) => {
		const result = await runNode(sandbox, orderParameters({ amount, currency }));
		expect(result.error).toBeUndefined();
		expect(sentAmount(sentTo('/order')[0].body)).toBe(sent);
	});

	it.each([['1.234,56'], ['1 234,56'], ["1'234.56"], ['٢٫٥'], ['２．５'], ['+2.5'], ['0x10'], ['1e2'], ['Infinity'], ['2\u00a05'], ['25\u200b'], ['-0'], ['999999999999']])(
		'holds: %j is refused naming the field, nothing sent',
		async (amount) => {
			const result = await runNode(sandbox, orderParameters({ amount }));
			expect(result.error?.message).toMatch(/^Amount \(amount\) /);
			expect(sandbox.requests).toEqual([]);
		},
	);
});

describe('as a tool: the currency the model states', () => {
	it('holds, was a finding: "uſd" (long s, U+017F) is taken for USD: upper-cased without the three-ASCII-letters check validateCurrency makes', async () => {
		const { orderId, digitalCardId } = await storedCardAndOrder({ amount: '20', currency: 'USD' });
		const result = await asTool(tokenTool(orderId, digitalCardId, limits('30')), [{ args: { amount: '20', currency: 'uſd' } }]);
		expect(result.answers[0].error).toMatch(/^Refused: /);
		expect(sentTo('/transaction/initiate')).toEqual([]);
	});

	it('holds: "U\u200bSD" (zero-width space) and "ＵＳＤ" (fullwidth) are refused, nothing sent', async () => {
		const { orderId, digitalCardId } = await storedCardAndOrder({ amount: '20', currency: 'USD' });
		const result = await asTool(tokenTool(orderId, digitalCardId, limits('30')), [
			{ args: { amount: '20', currency: 'U\u200bSD' } },
			{ args: { amount: '20', currency: 'ＵＳＤ' } },
		]);
		for (const answer of result.answers) expect(answer.error).toMatch(/^Refused: the currency of the order \(as this call states it\) is not known, or is no three-letter code/);
		expect(sandbox.requests).toEqual([]);
	});

	it('holds: "usd " (lower case, a trailing space) states USD, and the payment goes out once', async () => {
		const { orderId, digitalCardId } = await storedCardAndOrder({ amount: '20', currency: 'USD' });
		const result = await asTool(tokenTool(orderId, digitalCardId, limits('30')), [{ args: { amount: '20', currency: 'usd ' } }]);
		expect(result.answers[0].error).toBeUndefined();
		expect(sentTo('/transaction/initiate')).toHaveLength(1);
	});
});

describe('as a tool: amounts and limits in other shapes', () => {
	it('holds: OMR 0.221 under an OMR limit of 0.221 is refunded; 0.2215 is refused naming the decimals', async () => {
		const paymentId = await paidPayment({ amount: '1.000', currency: 'OMR' });
		const tool = { resource: 'transaction', operation: 'refund', paymentId, amount: fromAI('amount', 'How much'), ...limits('0.221', 'OMR', '0.5') };
		const result = await asTool(tool, [{ args: { amount: '0.2215' } }, { args: { amount: '0.221' } }]);
		expect(result.answers[0].error).toMatch(/must have at most 3 decimal places for OMR/);
		expect(result.answers[1].error).toBeUndefined();
		expect(sentTo('/transaction/refund').map((request) => sentAmount(request.body))).toEqual(['0.221']);
	});

	it('holds: limits "10" and "10.00" (text), amounts "5.00" and "5": both go, then 0.01 more is refused (a limit equal to the sum holds)', async () => {
		const paymentId = await paidPayment({ amount: '25.50' });
		const tool = { resource: 'transaction', operation: 'refund', paymentId, amount: fromAI('amount', 'How much'), ...limits('10', 'USD', '10.00') };
		const result = await asTool(tool, [{ args: { amount: '5.00' } }, { args: { amount: '5' } }, { args: { amount: '0.01' } }]);
		expect(result.answers.map((answer) => answer.error === undefined)).toEqual([true, true, false]);
		expect(sentTo('/transaction/refund').map((request) => sentAmount(request.body))).toEqual(['5', '5']);
	});

	it('holds: the model\'s amount "2,5", "٢٫٥", "1e1", "0x1" or " 5 5 " is refused, nothing sent', async () => {
		const paymentId = await paidPayment({ amount: '25.50' });
		const tool = { resource: 'transaction', operation: 'refund', paymentId, amount: fromAI('amount', 'How much'), ...limits('10', 'USD', '100') };
		const result = await asTool(tool, ['2,5', '٢٫٥', '1e1', '0x1', ' 5 5 '].map((amount) => ({ args: { amount } })));
		for (const answer of result.answers) expect(answer.error).toBeDefined();
		expect(sentTo('/transaction/refund')).toEqual([]);
	});
});

describe('as a tool: the stored-card payment\'s answer in other shapes', () => {
	async function answered(shown: IDataObject, stated = '10') {
		const { orderId, digitalCardId } = await storedCardAndOrder({ amount: '10' });
		const data = { paymentId: 'PAY0000000000000000000000000000000A', orderId, paymentStatus: 'pending', ...shown, redirectionData: { url: 'https://bank.example.com/otp' } };
		sandbox.injectFault({ match: '/transaction/initiate', status: 200, body: { resCode: 200, status: 'success', data } });
		return (await asTool(tokenTool(orderId, digitalCardId, limits('30')), [{ args: { amount: stated, currency: 'USD' } }])).answers[0];
	}

	it.each([
		['"1e1"', { amount: '1e1', currency: 'USD' }],
		['"0x1"', { amount: '0x1', currency: 'USD' }],
		['"٥"', { amount: '٥', currency: 'USD' }],
		['"1,000.00"', { amount: '1,000.00', currency: 'USD' }],
		['10.000001 (a tiny fraction above)', { amount: '10.000001', currency: 'USD' }],
		['10.000000000000002 as a number', { amount: 10.000000000000002, currency: 'USD' }],
		['currency "uſd"', { amount: '10', currency: 'uſd' }],
		['currency "U\u200bSD"', { amount: '10', currency: 'U\u200bSD' }],
		['no currency', { amount: '10' }],
	])('holds: an answer with amount/currency %s: the confirmation page is withheld', async (_label, shown) => {
		const answer = await answered(shown);
		expect(answer.error).toMatch(/^Refused after the gateway answered: .*Its confirmation page is withheld/);
		expect(JSON.stringify(answer)).not.toMatch(/bank\.example\.com/);
	});

	it.each([
		['" 10 "', { amount: ' 10 ', currency: 'USD' }],
		['"10.000"', { amount: '10.000', currency: 'USD' }],
		['currency "usd"', { amount: 10, currency: 'usd' }],
	])('holds: an answer with amount/currency %s against a stated 10 USD passes the confirmation page on', async (_label, shown) => {
		const answer = await answered(shown);
		expect(answer.error).toBeUndefined();
		expect(answer.answer).toMatch(/bank\.example\.com/);
	});
});

describe('card numbers as typed', () => {
	async function sentCard(cardNumber: string) {
		const orderId = await createOrder(sandbox);
		sandbox.clearLog();
		const result = await runNode(sandbox, initiateParameters(orderId, { cardNumber }));
		const request = sentTo('/transaction/initiate')[0];
		const card = request ? (decryptCardDetails(JSON.parse(request.body) as IDataObject, sandbox.cardEncryptionKey).cardNumber as string) : undefined;
		return { error: result.error?.message, card };
	}

	it('holds, was a finding: "4111 1111 1111 1111 ❶" (U+2776, a digit one) is charged as 4111111111111111, while "…1111①" (U+2460, the same digit) is refused', async () => {
		expect((await sentCard('4111 1111 1111 1111①')).error).toMatch(/^Card Number \(cardNumber\) /);
		const dingbat = await sentCard('4111 1111 1111 1111 ❶');
		expect(dingbat).toEqual({ error: expect.stringMatching(/^Card Number \(cardNumber\) /), card: undefined });
	});

	it('holds, was a finding: numeric characters that are not decimal digits (Tamil ten ௰, Hangzhou one 〡, Aegean one 𐄇) are dropped as separators, not refused', async () => {
		for (const extra of ['௰', '〡', '𐄇']) {
			const sent = await sentCard(`4111 1111 1111 1111 ${extra}`);
			expect({ extra, ...sent }).toEqual({ extra, error: expect.stringMatching(/^Card Number \(cardNumber\) /), card: undefined });
		}
	});

	it('holds, was a finding: a struck-through digit ("4\u0336" + 15 ones, combining long stroke) is sent as the digit it strikes out', async () => {
		const sent = await sentCard(`4\u0336${'1'.repeat(15)}`);
		expect(sent.card).toBeUndefined();
		expect(sent.error).toMatch(/^Card Number \(cardNumber\) /);
	});

	it.each([
		['٤١١١١١١١١١١١١١١١', '4111111111111111'],
		['４１１１-１１１１-１１１１-１１１１', '4111111111111111'],
		['𝟓𝟏𝟖𝟔 𝟎𝟎𝟏𝟕 𝟎𝟎𝟎𝟎 𝟖𝟕𝟖𝟓', '5186001700008785'],
		['4111.1111.1111.1111', '4111111111111111'],
	])('holds: %s is sent as the ASCII digits %s', async (typed, digits) => {
		expect(await sentCard(typed)).toEqual({ error: undefined, card: digits });
	});

	it.each([['4111 1111 1111 111l'], ['4111 1111 1111 111I'], ['4O00 0000 0000 0002'], ['4111 1111 1111 111Ⅰ'], ['4111111111111111 12 30']])(
		'holds: %s (letters and look-alikes that are letters, or an expiry after it) is refused, nothing sent',
		async (typed) => {
			const sent = await sentCard(typed);
			expect(sent).toEqual({ error: expect.stringMatching(/^Card Number \(cardNumber\) /), card: undefined });
		},
	);
});

describe('Status → Verify Signature: the 64 KiB bound of a record from the customer\'s browser', () => {
	const signed = { orderId: 'wb-3f2c9a1e-7d4b-4c1a-9e0f-2b6d8a5c3e71', paymentId: 'PAY0123456789ABCDEF0123456789ABCDEF', signature: 'f'.repeat(64) };
	const VERIFY = { resource: 'status', operation: 'verifySignature', confirmWithGateway: false };

	it('holds, was a finding: a record of 176 KiB in UTF-8 (60,000 "€") is read: the bound counts UTF-16 code units, not bytes as the trigger does', async () => {
		const record = { ...signed, description: '€'.repeat(60_000) };
		expect(Buffer.byteLength(JSON.stringify(record))).toBeGreaterThan(3 * 60_000);
		const result = await runNode(sandbox, VERIFY, [record]);
		expect(result.error?.message).toMatch(/^The incoming item is not read: it is larger than 64 KiB/);
	});

	it('holds, was a finding: a record of 352 KiB as JSON text (60,000 control characters, each written \\u0001) is read', async () => {
		const record = { ...signed, description: '\u0001'.repeat(60_000) };
		expect(Buffer.byteLength(JSON.stringify(record))).toBeGreaterThan(6 * 60_000);
		const result = await runNode(sandbox, VERIFY, [record]);
		expect(result.error?.message).toMatch(/^The incoming item is not read: it is larger than 64 KiB/);
	});

	it('holds: 2,001 values, or 17 levels, are refused naming the bound; nothing sent', async () => {
		const many: IDataObject = { ...signed };
		for (let index = 0; index < 2001; index++) many[`f${index}`] = 1;
		let deep: IDataObject = { leaf: 1 };
		for (let level = 0; level < 17; level++) deep = { deep };
		const result = await runNode(sandbox, { ...VERIFY, confirmWithGateway: true }, [many, { ...signed, deep }], { continueOnFail: true });
		expect(result.items.map((item) => item.json.error)).toEqual([
			expect.stringMatching(/it has more than 2000 values/),
			expect.stringMatching(/it nests deeper than 16 levels/),
		]);
		expect(sandbox.requests).toEqual([]);
	});
});

describe('the Hosted Checkout Page URL, where it is used', () => {
	const checkout = (checkoutPageUrl: string) =>
		runNode(
			sandbox,
			orderParameters({ operation: 'createCheckout', redirectType: 'redirect', additionalFields: { redirectUrl: 'https://shop.example.com/done' } }),
			[{}],
			{ credentials: { checkoutPageUrl } },
		);

	it('holds, was a finding: "https://evil.example\\@merchant.example.com/cpbs/pg" (user info behind a backslash, refused as a Base URL) is used: the customer\'s browser opens evil.example', async () => {
		const page = 'https://evil.example\\@merchant.example.com/cpbs/pg';
		const result = await checkout(page);
		const link = result.items[0]?.json.checkoutUrl as string | undefined;
		if (link) process.stdout.write(`checkoutUrl ${link} opens host ${new URL(link).host}\n`);
		expect(result.error?.message).toMatch(/Hosted Checkout Page URL/);
		expect(sentTo('/create-checkout')).toEqual([]);
	});

	it.each([
		['a quote and markup', 'https://merchant.example.com/cpbs/pg"><img src=x onerror=alert(1)>'],
		['a line break', 'https://merchant.example.com/cp\nbs/pg'],
		['backslashes for slashes', 'https://\\\\evil.example/cpbs/pg'],
		['a space', 'https://merchant.example.com/cp bs/pg'],
		['an IDN homograph (Cyrillic е), output unencoded', 'https://mеrchant.example.com/cpbs/pg'],
	])('holds, was a finding: a page with %s is refused, or output as a browser reads it (checkoutUrl === new URL(checkoutUrl).href)', async (_label, page) => {
		const result = await checkout(page);
		const link = result.items[0]?.json.checkoutUrl as string | undefined;
		if (result.error === undefined) expect(link).toBe(link === undefined ? undefined : new URL(link).href);
		else expect(result.error.message).toMatch(/Hosted Checkout Page URL/);
	});

	it.each([
		['http to another host', 'http://example.com/cpbs/pg'],
		['user info', 'https://user:pass@merchant.example.com/cpbs/pg'],
		['javascript:', 'javascript:alert(1)//cpbs/pg'],
		['https:/ (one slash)', 'https:/merchant.example.com/cpbs/pg'],
		['%40 in the host', 'https://merchant.example.com%40evil.example/cpbs/pg'],
		['3,000 characters', `https://merchant.example.com/${'a'.repeat(3000)}`],
		['an API address', 'https://merchant.example.com/nac/api/v1/pg'],
	])(
		'holds: a page with %s is refused naming the field, no order made',
		async (_label, page) => {
			const result = await checkout(page);
			expect(result.error?.message).toMatch(/Hosted Checkout Page URL/);
			expect(sentTo('/create-checkout')).toEqual([]);
		},
	);
});
