import { fractionDigits, presentAmount, toMinorUnits } from '../../sandbox/currency';

// The one rule for minor units, checked on its own; the HTTP tests check that orders and refunds use it.

describe('fractionDigits', () => {
	test.each([
		['USD', 2],
		['EUR', 2],
		['OMR', 3],
		['BHD', 3],
		['KWD', 3],
		['JOD', 3],
		['TND', 3],
		['LYD', 3],
		['JPY', 0],
		['KRW', 0],
		['CLF', 4],
		['IQD', 3],
	])('%s has %i', (currency, digits) => {
		expect(fractionDigits(currency)).toBe(digits);
	});

	test('ISO 4217 wins where CLDR rounds for display', () => {
		const cldrBelowIso = 'AFN ALL COP HUF IDR IRR KPW LAK LBP MGA MMK PKR SLL SOS SYP YER'.split(' ');
		for (const code of cldrBelowIso) {
			const cldr = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions();
			expect([code, cldr.maximumFractionDigits]).toEqual([code, 0]);
			expect([code, fractionDigits(code)]).toEqual([code, 2]);
		}
	});
});

describe('toMinorUnits is exact where float multiplication is not', () => {
	test.each([
		[1.119, 'OMR', 1119],
		[0.29, 'USD', 29],
		[1.005, 'KWD', 1005],
		[4.35, 'EUR', 435],
		[10, 'JPY', 10],
		[1e21, 'JPY', 'too large'],
		[1.5e-7, 'USD', 'decimal places'],
		[123456.78, 'USD', 12345678],
	])('%s %s → %s', (amount, currency, expected) => {
		if (typeof expected === 'number') expect(toMinorUnits(amount, currency)).toBe(expected);
		else expect(() => toMinorUnits(amount, currency)).toThrow(expected);
	});

	test('float products that would round wrongly', () => {
		expect(0.29 * 100).not.toBe(29);
		expect(4.35 * 100).not.toBe(435);
		expect(1.005 * 1000).not.toBe(1005);
	});
});

describe('presentAmount', () => {
	test('three-decimal currencies as strings, others as the number sent', () => {
		expect(presentAmount(1119, 'OMR')).toBe('1.119');
		expect(presentAmount(1000, 'KWD')).toBe('1.000');
		expect(presentAmount(5, 'BHD')).toBe('0.005');
		expect(presentAmount(29, 'USD')).toBe(0.29);
		expect(presentAmount(1050, 'USD')).toBe(10.5);
		expect(presentAmount(500, 'JPY')).toBe(500);
	});
});
