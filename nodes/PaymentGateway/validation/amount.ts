// The one amount rule, for every amount and money limit a user types (in the editor, in an expression, in a tool call)
// and for every amount a gateway answers: a plain decimal, ASCII digits with at most one point, no sign, no exponent,
// no separators. n8n's number input would rewrite what is typed before the node saw it ("2,5" became 25), so money
// fields are text fields and this rule is all that reads them; a value saved as a number is read as what it is.

import { InvalidInput, withoutTrailing } from './input';

/** No amount a gateway takes is written with more characters; longer text is refused before any pattern reads it. */
const MAX_AMOUNT_CHARS = 32;
/** Digits that still make an amount: a card number (12 digits or more) never does. */
const MAX_WHOLE_DIGITS = 11;

export interface Amount {
	value: number;
	/** Digits after the point, trailing zeros not counted. */
	decimals: number;
}

const TOO_LARGE = `has more than ${MAX_WHOLE_DIGITS} digits before the decimal point: no payment is that large`;

/** Why a value is not an amount, in words that complete "Amount (amount) …"; returned, for the caller to refuse in its way. */
export class NotAnAmount {
	constructor(readonly problem: string) {}
}

const withoutTrailingZeros = (fraction: string) => withoutTrailing(fraction, '0');

/** A comma where the point belongs, said with the amount as it should be written when that is plain. */
function commaProblem(text: string): string {
	const [whole, fraction] = text.split(',');
	const digits = text.replace(/\D/g, '').length;
	if (text.split(',').length === 2 && !text.includes('.') && digits <= MAX_WHOLE_DIGITS) {
		if (fraction === '') return `has a comma at its end: write ${whole}`;
		const written = `${whole || '0'}.${fraction}`;
		return fraction.length === 3
			? `has a comma: write ${written} if it is a decimal point, or ${whole}${fraction} if it separates thousands`
			: `has a comma: write ${written}, with a decimal point`;
	}
	return 'has a comma: write it with a decimal point and no thousands separator, like 1234.56';
}

/** The amount a value stands for, or NotAnAmount for empty, blank, negative or non-numeric values. */
export function readAmount(value: unknown): Amount | NotAnAmount {
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) return new NotAnAmount('must be a number, like 25.50');
		if (value < 0) return new NotAnAmount('must not be negative');
		const written = String(value);
		if (/e/i.test(written)) return new NotAnAmount('has more digits than can be sent exactly');
		if (value >= 10 ** MAX_WHOLE_DIGITS) return new NotAnAmount(TOO_LARGE);
		return { value, decimals: withoutTrailingZeros(written.split('.')[1] ?? '').length };
	}
	if (typeof value !== 'string') return new NotAnAmount('must be a number, like 25.50');
	const text = value.trim();
	if (text === '') return new NotAnAmount('is required');
	if (text.length > MAX_AMOUNT_CHARS) return new NotAnAmount(`must be a number, like 25.50, not a text of ${text.length} characters`);
	if (/^[\d.,]+$/.test(text) && text.includes(',') && /\d/.test(text)) return new NotAnAmount(commaProblem(text));
	if (text.startsWith('-')) return new NotAnAmount('must not be negative');
	const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
	if (!match) return new NotAnAmount('must be a number written with digits and a decimal point, like 25.50');
	const whole = match[1].replace(/^0+(?=\d)/, '');
	if (whole.length > MAX_WHOLE_DIGITS) return new NotAnAmount(TOO_LARGE);
	const fraction = withoutTrailingZeros(match[2] ?? '');
	const amount = Number(text);
	// More significant digits than a JSON number carries would send another amount than the one given.
	if (String(amount) !== (fraction ? `${whole}.${fraction}` : whole)) return new NotAnAmount('has more digits than can be sent exactly');
	return { value: amount, decimals: fraction.length };
}

/** Decimals a gateway's amount may have: its currencies have 3 at most; more is not one of its amounts. */
const MAX_ANSWER_DECIMALS = 6;

/** A gateway's answer's amount (0 included: a refunded total may be nothing yet), or undefined when it holds none. */
export function answerAmount(value: unknown): number | undefined {
	const amount = readAmount(value);
	return amount instanceof NotAnAmount || amount.decimals > MAX_ANSWER_DECIMALS ? undefined : amount.value;
}

export const isAnswerAmount = (value: unknown): boolean => answerAmount(value) !== undefined;

/** The gateway settles in currencies of up to three decimals, whatever ISO 4217 gives a currency. */
export const GATEWAY_DECIMALS = 3;

/** An amount in thousandths, exact for every amount of at most GATEWAY_DECIMALS decimals (the tool's budget counts so). */
export const inThousandths = (amount: number): number => Math.round(amount * 1000);

/**
 * An amount of 0 or more with at most `digits` decimals, small enough to be exact in minor units: a money limit, where
 * 0 refuses every call. `unit` names the currency in messages.
 */
export function amountWithin(value: unknown, digits: number, unit = ''): number | NotAnAmount {
	const amount = readAmount(value);
	if (amount instanceof NotAnAmount) return amount;
	const where = unit ? ` for ${unit}` : '';
	if (amount.decimals > digits) {
		return new NotAnAmount(
			digits === 0 ? `must be a whole number${where}, which has 0 decimal places` : `must have at most ${digits} decimal place${digits === 1 ? '' : 's'}${where}`,
		);
	}
	if (amount.value * 10 ** digits > Number.MAX_SAFE_INTEGER) return new NotAnAmount(`is too large to be exact${where}`);
	return amount.value;
}

/** An amount to send: greater than 0, as amountWithin. */
export function positiveAmount(value: unknown, digits: number, unit = ''): number | NotAnAmount {
	const amount = amountWithin(value, digits, unit);
	return typeof amount === 'number' && !(amount > 0) ? new NotAnAmount('must be greater than 0') : amount;
}

/**
 * The amount a field gives, refused as bad input naming the field, whose label the message completes: "Amount
 * (amount) has a comma: write 2.5, with a decimal point".
 */
export function fieldAmount(field: string, value: unknown, digits: number, unit = ''): number {
	const amount = positiveAmount(value, digits, unit);
	if (amount instanceof NotAnAmount) throw new InvalidInput(field, amount.problem);
	return amount;
}

/**
 * An expression that rewrites the digits written in it before the node sees its value: n8n runs `{{ }}` as JavaScript,
 * where `1,5` is the comma operator (5) and `025` an octal number (21). The amount rule only ever sees the result, so
 * the expression is read as the user wrote it; undefined when it has no such number.
 */
export function expressionProblem(raw: unknown): string | undefined {
	if (typeof raw !== 'string' || !raw.startsWith('=')) return undefined;
	for (const [, code] of raw.matchAll(/\{\{([\s\S]*?)\}\}/g)) {
		const outsideStrings = code.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
		if (/\d,\d/.test(outsideStrings)) {
			return 'is an expression with a comma between digits, which n8n reads as two numbers ({{ 1,5 }} gives 5): write 1.5, or a space after a comma between arguments';
		}
		if (/(?<![\w.$])0\d/.test(outsideStrings)) return 'is an expression with a number that starts with 0, which n8n reads as octal ({{ 025 }} gives 21): leave the 0 out';
	}
	return undefined;
}
