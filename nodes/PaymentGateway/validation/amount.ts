// The one amount rule, for every amount and money limit a user types (in the editor, in an expression, in a tool call)
// and for every amount a gateway answers: a plain decimal, ASCII digits with at most one point, no sign, no exponent,
// no separators. n8n's number input would rewrite what is typed before the node saw it ("2,5" became 25), so money
// fields are text fields and this rule is all that reads them; a value saved as a number is read as what it is.

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

/** Why a value is not an amount, in words that complete "Amount (amount) …". */
export class NotAnAmount extends Error {}

const withoutTrailingZeros = (fraction: string) => fraction.replace(/0+$/, '');

/** A comma where the point belongs, said with the amount as it should be written when that is plain. */
function commaProblem(text: string): string {
	const [whole, fraction] = text.split(',');
	const digits = text.replace(/\D/g, '').length;
	if (text.split(',').length === 2 && !text.includes('.') && digits <= MAX_WHOLE_DIGITS) {
		const written = `${whole}.${fraction}`;
		return fraction.length === 3
			? `has a comma: write ${written} if it is a decimal point, or ${whole}${fraction} if it separates thousands`
			: `has a comma: write ${written}, with a decimal point`;
	}
	return 'has a comma: write it with a decimal point and no thousands separator, like 1234.56';
}

/** The amount a value stands for; throws NotAnAmount for empty, blank, negative or non-numeric values. */
export function readAmount(value: unknown): Amount {
	if (typeof value === 'number') {
		if (!Number.isFinite(value) || value < 0) throw new NotAnAmount('must be a number of 0 or more');
		const written = String(value);
		if (/e/i.test(written)) throw new NotAnAmount('has more digits than can be sent exactly');
		if (value >= 10 ** MAX_WHOLE_DIGITS) throw new NotAnAmount(TOO_LARGE);
		return { value, decimals: withoutTrailingZeros(written.split('.')[1] ?? '').length };
	}
	if (typeof value !== 'string') throw new NotAnAmount('must be a number, like 25.50');
	const text = value.trim();
	if (text === '') throw new NotAnAmount('is required');
	if (text.length > MAX_AMOUNT_CHARS) throw new NotAnAmount(`must be a number, like 25.50, not a text of ${text.length} characters`);
	if (/^[\d.,]+$/.test(text) && text.includes(',') && /\d/.test(text)) throw new NotAnAmount(commaProblem(text));
	if (text.startsWith('-')) throw new NotAnAmount('must not be negative');
	const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
	if (!match) throw new NotAnAmount('must be a number written with digits and a decimal point, like 25.50');
	const whole = match[1].replace(/^0+(?=\d)/, '');
	if (whole.length > MAX_WHOLE_DIGITS) throw new NotAnAmount(TOO_LARGE);
	const fraction = withoutTrailingZeros(match[2] ?? '');
	const amount = Number(text);
	// More significant digits than a JSON number carries would send another amount than the one given.
	if (String(amount) !== (fraction ? `${whole}.${fraction}` : whole)) throw new NotAnAmount('has more digits than can be sent exactly');
	return { value: amount, decimals: fraction.length };
}

/** Decimals a gateway's amount may have: its currencies have 3 at most; more is not one of its amounts. */
const MAX_ANSWER_DECIMALS = 6;

/** Whether a gateway's answer holds an amount here (0 included: a refunded total may be nothing yet). */
export function isAnswerAmount(value: unknown): boolean {
	try {
		return readAmount(value).decimals <= MAX_ANSWER_DECIMALS;
	} catch {
		return false;
	}
}

/**
 * An amount to send or a limit to hold: greater than 0, with at most `digits` decimals, small enough to be exact in
 * minor units. `unit` names the currency in messages.
 */
export function positiveAmount(value: unknown, digits: number, unit = ''): number {
	const { value: amount, decimals } = readAmount(value);
	const where = unit ? ` for ${unit}` : '';
	if (!(amount > 0)) throw new NotAnAmount('must be greater than 0');
	if (decimals > digits) {
		throw new NotAnAmount(
			digits === 0 ? `must be a whole number${where}, which has 0 decimal places` : `must have at most ${digits} decimal place${digits === 1 ? '' : 's'}${where}`,
		);
	}
	if (amount * 10 ** digits > Number.MAX_SAFE_INTEGER) throw new NotAnAmount(`is too large to be exact${where}`);
	return amount;
}
