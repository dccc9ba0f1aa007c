/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { OPERATIONS } from '../../nodes/PaymentGateway/actions/description';
import { NOTIFICATION, PAYMENT, PAYMENT_RECORD } from '../../nodes/PaymentGateway/shared/answers';
import type { Shape } from '../../nodes/PaymentGateway/transport/outputs';
import { asKind, declaredOutput, MAX_DROPPED_NAMES } from '../../nodes/PaymentGateway/transport/outputs';
import { funnelFor } from '../../nodes/PaymentGateway/transport/redact';

// What leaves of an answer: its declared fields, each only when of its kind, and the names of the rest.

const clientSecret = 'Zq9+/sEcret_value-with=padding';
const funnel = funnelFor({ clientId: 'merchant-client-01', clientSecret, cardEncryptionKey: 'ab'.repeat(32) });
const card = '4111111111111111';

describe('each kind keeps what is of it and nothing else', () => {
	const cases: Array<[Parameters<typeof asKind>[0], unknown[], unknown[]]> = [
		['id', ['wb-3f2c9a1e-7d4b-4c1a-9e0f-2b6d8a5c3e71', 'PAY8F3A0C2B9D4E1F7A6B5C4D3E2F1A0B9C', 'PAY0123456789abcdef0123456789abcdef', 'dc_6429d92b7b0b3399', 'cus_1', 12345], ['', ' ', 'INV-2026/0001', 'sandbox-secret', '41111111111111111230', 'QWxhZGRpbjpvcGVuIHNlc2FtZQ', 'H4sIAAAAAAAAA6tWSs7PS0lNLkpNUbIy0FEqSsxLSVOyUipOzi9ITC7JzM8zVKoFAM1Ul1M2AAAA', card, '4111 1111 1111 1111', '٤١١١١١١١١١١١١١١١', '501800000009', 'x'.repeat(101), 'a b', 'Ｗｂ', clientSecret, `${'ab'.repeat(16)}.${'cd'.repeat(32)}`, [1, 2], { id: 1 }, true]],
		['receipt', ['INV-2026/0001', 'Receipt-7', 'R-100', 12345], ['', 'x'.repeat(41), 'INV-4111111111111111', 'PAN4111111111111111', 'QWxhZGRpbjpvcGVuIHNlc2FtZQ', 'a b', clientSecret]],
		['word', ['success', 'partially_refunded', 'ACTIVE', 'POST', 'TRANSACTION_COMPLETED'], ['', 'succ3ss', 'x'.repeat(41), '<b>', 7]],
		['amount', ['1.000', '0.221', 25, '25.50', 0, '0'], ['', ' ', '-500', -5, '1e3', '2,5', 'NaN', Infinity, '123456789012', card, 1e21, '0.1234567']],
		['currency', ['OMR', 'usd'], ['', 'OMRX', 'O1R', 968]],
		['time', ['2026-11-28T10:30:00.000Z', '2026-11-28', '2026-11-28 10:30:00+04:00'], ['', 'yesterday', '4111-11-11T11:11:11Z', '2026-13-01', 1764325800000]],
		['lastFour', ['1111', 1111, '١١١١'], ['', '111', 'abcd', '41111']],
		['count', [0, 4, '4'], ['', -1, 1.5, '12345678']],
		['code', [200, '404'], ['', 99, 1000, '2000']],
		['url', ['https://acs.bank.example/3ds?txn=ab12', 'http://127.0.0.1:8787/__sandbox/authenticate/PAY1'], ['', 'javascript:alert(1)', 'https://user:pw@bank.example/', `https://bank.example/pay/${card}`, `https://bank.example/?pan=4111-1111-1111-1111`, 'https://bank.example/a b', `https://bank.example/?s=${encodeURIComponent(clientSecret)}`]],
	];
	it.each(cases)('%s', (kind, kept, refused) => {
		for (const value of kept) expect([value, asKind(kind, value, funnel)]).toEqual([value, kind === 'lastFour' ? expect.stringMatching(/^\d{4}$/) : value]);
		for (const value of refused) expect([value, asKind(kind, value, funnel)]).toEqual([value, undefined]);
	});

	it('a last-four field holding a whole card number keeps its last four digits', () => {
		expect(asKind('lastFour', card, funnel)).toBe('1111');
		expect(asKind('lastFour', '4111 1111 1111 1111', funnel)).toBe('1111');
	});

	it('a message goes through the text funnel', () => {
		expect(asKind('message', `declined ${card}`, funnel)).toBe('declined …');
		expect(asKind('message', [card], funnel)).toBeUndefined();
	});

	it('a form is rebuilt from its action, method and fields; scripts, other markup and card data do not pass', () => {
		const form =
			'<form id="x" method="post" action="https://acs.bank.example/3ds?a=1&amp;b=2"><input type="hidden" name="PaReq" value="eJzLSM3JyVcozy/KSQEAGgQEXQ=="><input name="TermUrl" value="https://shop.example/done"></form><script>steal()</script><img src=x onerror=alert(1)>';
		expect(asKind('form', form, funnel)).toBe(
			'<form id="x" method="POST" action="https://acs.bank.example/3ds?a=1&#38;b=2"><input type="hidden" name="PaReq" value="eJzLSM3JyVcozy/KSQEAGgQEXQ=="><input type="hidden" name="TermUrl" value="https://shop.example/done"></form><script>document.forms[0].submit()</script>',
		);
		expect(asKind('form', '<form action="https://a.example/"><input name="pan" value="4111 1111 1111 1111"></form>', funnel)).toBeUndefined();
		expect(asKind('form', `<form action="https://a.example/"><input name="t" value="${clientSecret}"></form>`, funnel)).toBeUndefined();
		expect(asKind('form', '<div>no form</div>', funnel)).toBeUndefined();
	});
});

describe('a record leaves as its shape declares it', () => {
	it('undeclared fields and values not of their kind are left out, their names listed', () => {
		const answer = {
			paymentId: 'PAY1',
			amount: '',
			currency: 'OMR',
			cardNumber: card,
			cvv: '123',
			encryptedCardDetails: `${'ab'.repeat(16)}.${'cd'.repeat(48)}`,
			echo: [...Buffer.from(`Basic ${clientSecret}`)],
			redirectionData: { method: 'POST', formData: '<p>no form</p>', pan: card },
			securedCardDetails: { customerId: 'cus_1', digitalCardId: card.split('') },
			[card]: 'x',
			'Basic Wnk=': 1,
		};
		expect(declaredOutput(PAYMENT, answer, funnel)).toEqual({
			paymentId: 'PAY1',
			currency: 'OMR',
			redirectionData: { method: 'POST' },
			securedCardDetails: { customerId: 'cus_1' },
			droppedFields: ['amount', 'cardNumber', 'cvv', 'encryptedCardDetails', 'echo', 'redirectionData.formData', 'redirectionData.pan', 'securedCardDetails.digitalCardId'],
		});
	});

	it(`lists at most ${MAX_DROPPED_NAMES} names`, () => {
		const many = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`field${index}`, index]));
		expect((declaredOutput(NOTIFICATION, many, funnel)?.droppedFields as string[]).length).toBe(MAX_DROPPED_NAMES);
	});

	it('null stays (the field is absent); a declared list keeps its records', () => {
		expect(declaredOutput(PAYMENT_RECORD, { receiptId: null, refunds: [{ refundId: 'R1', amount: '1.000', note: 'x' }, 'junk'] }, funnel)).toEqual({
			receiptId: null,
			refunds: [{ refundId: 'R1', amount: '1.000' }],
			droppedFields: ['refunds.note'],
		});
	});

	it('every operation declares the fields of its answer', () => {
		for (const operation of OPERATIONS) expect([operation.value, Object.keys(operation.answer as Shape).length > 0]).toEqual([operation.value, true]);
	});
});
