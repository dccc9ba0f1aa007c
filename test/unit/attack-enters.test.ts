import { oversizeOf } from '../../nodes/PaymentGateway/shared/confirm';
import { answerAmount, fieldAmount, readAmount } from '../../nodes/PaymentGateway/validation/amount';
import { baseAddresses, checkedCheckoutPageAddress } from '../../nodes/PaymentGateway/validation/credential';
import { InvalidInput, validateCardNumber } from '../../nodes/PaymentGateway/validation/input';

// The unit-level reproductions of test/engine/attack-enters.test.ts: each FINDING fails where the package lets wrong
// input through; each "holds" passes.

const credentials = (checkoutPageUrl: string) => ({
	clientId: 'client',
	clientSecret: 'secret',
	baseUrl: 'https://api.example.com/nac/api/v1/merchant-host',
	checkoutPageUrl,
});

describe('the Hosted Checkout Page URL and the Base URLs\' rules', () => {
	it('holds, was a finding: user info behind a backslash is refused as a Base URL and taken as the checkout page', () => {
		const address = 'https://evil.example\\@merchant.example.com/cpbs/pg';
		expect(() => baseAddresses({ ...credentials(''), baseUrl: address })).toThrow(/backslashes/);
		expect(new URL(address).host).toBe('evil.example');
		expect(() => checkedCheckoutPageAddress(credentials(address))).toThrow(/Hosted Checkout Page URL/);
	});

	it.each([
		['a quote and markup', 'https://merchant.example.com/cpbs/pg"><script>x</script>'],
		['a line break', 'https://merchant.example.com/cp\nbs/pg'],
		['a NUL', 'https://merchant.example.com/cpbs/pg\u0000'],
		['backslashes', 'https://\\\\evil.example/cpbs/pg'],
		['an IDN homograph', 'https://mеrchant.example.com/cpbs/pg'],
	])('holds, was a finding: a page with %s is taken as typed, not as a browser reads it', (_label, address) => {
		let page: string | undefined;
		try {
			page = checkedCheckoutPageAddress(credentials(address));
		} catch {
			return;
		}
		expect(page).toBe(new URL(address).href);
	});
});

describe('card numbers', () => {
	const accepted = (text: string) => {
		try {
			return validateCardNumber('Card Number (cardNumber)', text);
		} catch (error) {
			expect(error).toBeInstanceOf(InvalidInput);
			return undefined;
		}
	};

	it.each([['❶ (U+2776)'], ['௰ (U+0BF0)'], ['〡 (U+3021)'], ['𐄇 (U+10107)']])('holds, was a finding: a numeric character %s after a card number is dropped, not refused as ① is', (extra) => {
		expect(accepted('4111 1111 1111 1111①')).toBeUndefined();
		expect(accepted(`4111 1111 1111 1111 ${extra.split(' ')[0]}`)).toBeUndefined();
	});

	it('holds, was a finding: a digit struck out with a combining stroke (U+0336) counts as the digit', () => {
		expect(accepted(`4\u0336${'1'.repeat(15)}`)).toBeUndefined();
	});

	it('holds: other scripts\' digits and separators give the ASCII digits; letters are refused', () => {
		expect(accepted('٤١١١ ١١١١ ١١١١ ١١١١')).toBe('4111111111111111');
		expect(accepted('４１１１－１１１１－１１１１－１１１１')).toBe('4111111111111111');
		expect(accepted('4111 1111 1111 111l')).toBeUndefined();
		expect(accepted('4111 1111 1111 111Ⅰ')).toBeUndefined();
	});
});

describe('Verify Signature\'s 64 KiB bound', () => {
	const signed = { orderId: 'wb-1', paymentId: 'PAY1', signature: 'f'.repeat(64) };

	it('holds, was a finding: 60,000 "€" (180,000 bytes of UTF-8) pass the 64 KiB bound', () => {
		const record = { ...signed, note: '€'.repeat(60_000) };
		expect(Buffer.byteLength(JSON.stringify(record))).toBeGreaterThan(64 * 1024);
		expect(oversizeOf(record)).toMatch(/larger than 64 KiB/);
	});

	it('holds, was a finding: 1,990 numbers written with 24 characters and 26,000 ASCII characters (89 KiB of JSON) pass the bound', () => {
		const record: Record<string, unknown> = { note: 'x'.repeat(26_000) };
		for (let index = 0; index < 1_990; index++) record[`n${index}`] = -1.234567890123456e-300;
		expect(Buffer.byteLength(JSON.stringify(record))).toBeGreaterThan(85 * 1024);
		expect(oversizeOf(record)).toMatch(/larger than 64 KiB/);
	});

	it('holds: 65,537 ASCII characters are refused', () => {
		expect(oversizeOf({ ...signed, note: 'x'.repeat(65_537) })).toMatch(/larger than 64 KiB/);
	});
});

describe('the one amount rule', () => {
	it.each([['25.50', 25.5], ['0.221', 0.221], ['100', 100], [25.5, 25.5], ['\u00a025.50 ', 25.5], ['10.000', 10]])('holds: %j reads as %d', (value, read) => {
		expect(readAmount(value)).toEqual(expect.objectContaining({ value: read }));
	});

	it.each([['2,5'], ['1.234,56'], ['1 234,56'], ["1'234.56"], ['٢٫٥'], ['２．５'], ['+2.5'], ['.5'], ['5.'], ['0x10'], ['1e2'], ['Infinity'], ['2\u202f5'], ['25\u200b'], ['-0'], [0.1 + 0.2]])(
		'holds: %j is refused in USD',
		(value) => {
			expect(() => fieldAmount('Amount (amount)', value, 2, 'USD')).toThrow(/^Amount \(amount\)/);
		},
	);

	it.each([['1e1'], ['0x1'], [' '], ['-1'], ['٥'], ['10.0000001'], [10.000000000000002]])('holds: a gateway\'s %j is no amount, or not 10', (value) => {
		const amount = answerAmount(value);
		expect(amount === undefined || amount > 10 || amount < 10).toBe(true);
	});
});
