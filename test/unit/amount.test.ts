import type { IDataObject } from 'n8n-workflow';

import { assertAnswerMatches } from '../../nodes/PaymentGateway/actions/toolMode';
import type { ToolLimits } from '../../nodes/PaymentGateway/actions/toolMode';
import { fieldAmount } from '../../nodes/PaymentGateway/validation/amount';

// The one amount rule as users meet it: what it says about an amount written with a comma, and how the stored-card
// answer check reads the gateway's amount by it. The engine tests (test/engine/money-fields.test.ts) run every money
// field; the generated inputs judge it against test/support/input-rules.ts.

const problemOf = (value: unknown, digits = 2): string => {
	try {
		fieldAmount('Amount (amount)', value, digits, 'USD');
	} catch (error) {
		return (error as Error).message;
	}
	return 'accepted';
};

describe('an amount written with a comma says how to write it', () => {
	it.each([
		['2,5', 'Amount (amount): has a comma: write 2.5, with a decimal point'],
		['10,50', 'Amount (amount): has a comma: write 10.50, with a decimal point'],
		[',5', 'Amount (amount): has a comma: write 0.5, with a decimal point'],
		['5,', 'Amount (amount): has a comma at its end: write 5'],
		['1,250', 'Amount (amount): has a comma: write 1.250 if it is a decimal point, or 1250 if it separates thousands'],
		['1.234,56', 'Amount (amount): has a comma: write it with a decimal point and no thousands separator, like 1234.56'],
		['1,234,567', 'Amount (amount): has a comma: write it with a decimal point and no thousands separator, like 1234.56'],
	])('"%s"', (value, message) => {
		expect(problemOf(value)).toBe(message);
	});

	it('a number saved before, and the amount written with a point, are read as they are', () => {
		expect(fieldAmount('Amount (amount)', 25.5, 2)).toBe(25.5);
		expect(fieldAmount('Amount (amount)', ' 2.50 ', 2)).toBe(2.5);
		expect(problemOf('2.555')).toBe('Amount (amount): must have at most 2 decimal places for USD');
	});
});

describe("the stored-card answer check reads the gateway's amount by the same rule", () => {
	const limits: ToolLimits = { perCall: 30, currency: 'USD', total: 30, daily: 100, digits: 2, what: 'payment' };
	const answer = (amount: unknown) => ({ paymentId: 'PAY1', amount, currency: 'USD' }) as IDataObject;

	it.each(['', ' ', '-500', -500, '2,5', '1e1', 'NaN', null, undefined, true, [20]])('an answer amount of %p proves nothing: withheld', (amount) => {
		expect(() => assertAnswerMatches(answer(amount), limits, 25)).toThrow(/^Refused after the gateway answered: .*Its confirmation page is withheld/);
	});

	it.each([25, '25', '25.000', '0.5', 24.99])('an answer amount of %p, no larger than stated: the page goes to the customer', (amount) => {
		expect(() => assertAnswerMatches(answer(amount), limits, 25)).not.toThrow();
	});

	it('a larger amount, or another currency, is withheld', () => {
		expect(() => assertAnswerMatches(answer('25.01'), limits, 25)).toThrow(/for 25\.01 USD, not the 25 USD this call stated/);
		expect(() => assertAnswerMatches({ ...answer(25), currency: 'KWD' }, limits, 25)).toThrow(/withheld/);
	});
});
