/* eslint-disable @n8n/community-nodes/require-node-api-error -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import {
	InvalidInput,
	optionalText,
	pathSegment,
	requireText,
	validateCardNumber,
	validateCvv,
	validateEmail,
	validateExpiry,
	validateUrl,
} from '../../nodes/PaymentGateway/validation/input';
import { fieldAmount } from '../../nodes/PaymentGateway/validation/amount';

function problemOf(run: () => unknown): InvalidInput {
	try {
		run();
	} catch (error) {
		if (error instanceof InvalidInput) return error;
		throw error;
	}
	throw new Error('expected an InvalidInput');
}

describe('validation', () => {
	it('amount: positive, at most 2 decimals, numeric strings accepted', () => {
		expect(fieldAmount('amount', 10, 2)).toBe(10);
		expect(fieldAmount('amount', 10.25, 2)).toBe(10.25);
		expect(fieldAmount('amount', '19.99', 2)).toBe(19.99);
		expect(fieldAmount('amount', 0.01, 2)).toBe(0.01);
		for (const bad of [0, -1, 1.234, 'abc', '', undefined, Number.NaN, Infinity, '2,5', '-5', '1e3']) {
			expect(problemOf(() => fieldAmount('amount', bad, 2)).field).toBe('amount');
		}
	});

	it('receipt id: at most 40 characters', () => {
		expect(optionalText('receiptId', 'x'.repeat(40), 40)).toHaveLength(40);
		expect(problemOf(() => optionalText('receiptId', 'x'.repeat(41), 40)).problem).toMatch(/40/);
		expect(optionalText('receiptId', '', 40)).toBeUndefined();
	});

	it('required text and e-mail', () => {
		expect(problemOf(() => requireText('Order ID (orderId)', '{{ $json.orderId }}')).problem).toMatch(/^holds an expression .* in Fixed mode.*switch the field to Expression/);
		expect(problemOf(() => optionalText('Receipt ID (receiptId)', ' {{$json.receiptId}} ')).problem).toMatch(/Fixed mode/);
		// Braces that are not an expression typed in Fixed mode stay text.
		expect(requireText('description', 'Order {{42}} of {{ today }')).toBe('Order {{42}} of {{ today }');
		expect(requireText('currency', ' USD ')).toBe('USD');
		expect(problemOf(() => requireText('currency', '  ')).problem).toBe('is required');
		expect(validateEmail('email', 'a.b@example.co.uk')).toBe('a.b@example.co.uk');
		for (const bad of ['a@b', 'plain', 'a b@example.com', '@example.com', 'a@.com']) {
			expect(problemOf(() => validateEmail('email', bad)).field).toBe('email');
		}
	});

	it('card number: 12-19 digits, Luhn, spaces and dashes stripped, value never echoed', () => {
		expect(validateCardNumber('cardNumber', '4111 1111-1111 1111')).toBe('4111111111111111');
		expect(validateCardNumber('cardNumber', '5186001700008785')).toBe('5186001700008785');
		const luhn = problemOf(() => validateCardNumber('cardNumber', '4111111111111112'));
		expect(luhn.message).not.toContain('4111111111111112');
		expect(problemOf(() => validateCardNumber('cardNumber', '41111111111')).problem).toMatch(/12 to 19/);
		expect(problemOf(() => validateCardNumber('cardNumber', '4111a11111111111')).field).toBe('cardNumber');
	});

	it('expiry: month 1-12, year 2 or 4 digits, not in the past, sent as two-digit strings', () => {
		const now = new Date(Date.UTC(2026, 10, 22));
		expect(validateExpiry('m', '2', 'y', '2030', now)).toEqual({ month: '02', year: '30' });
		expect(validateExpiry('m', 11, 'y', 26, now)).toEqual({ month: '11', year: '26' });
		expect(problemOf(() => validateExpiry('m', '10', 'y', '26', now)).field).toBe('y');
		expect(problemOf(() => validateExpiry('m', '13', 'y', '30', now)).field).toBe('m');
		expect(problemOf(() => validateExpiry('m', '0', 'y', '30', now)).field).toBe('m');
		expect(problemOf(() => validateExpiry('m', '1', 'y', '330', now)).field).toBe('y');
		expect(problemOf(() => validateExpiry('m', '1', 'y', '2025', now)).field).toBe('y');
	});

	it('cvv: 3-4 digits, required only when asked', () => {
		expect(validateCvv('cvv', '123', true)).toBe('123');
		expect(validateCvv('cvv', '0123', true)).toBe('0123');
		expect(validateCvv('cvv', '', false)).toBeUndefined();
		expect(problemOf(() => validateCvv('cvv', '', true)).field).toBe('cvv');
		expect(problemOf(() => validateCvv('cvv', '12', false)).problem).toMatch(/3 or 4/);
		expect(problemOf(() => validateCvv('cvv', '12345', true)).message).not.toContain('12345');
	});

	it('redirection url: absolute http(s) only', () => {
		expect(validateUrl('url', 'https://shop.example.com/done')).toBe('https://shop.example.com/done');
		for (const bad of ['/done', 'shop.example.com', 'ftp://x.example.com', 'javascript:alert(1)']) {
			expect(problemOf(() => validateUrl('url', bad)).field).toBe('url');
		}
	});

	it('path segments are non-empty and cannot change the path', () => {
		expect(pathSegment('id', 'a/b?c#d')).toBe('a%2Fb%3Fc%23d');
		expect(problemOf(() => pathSegment('id', '')).problem).toBe('is required');
	});
});
