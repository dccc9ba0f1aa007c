import { asciiDigits, cardNumberOf, MAX_CARD_DIGITS, MIN_CARD_DIGITS } from '../helpers/cardNumber';
import { scalarText } from '../helpers/text';

/**
 * Pure checks of operation inputs. Each failure names the parameter and never repeats the value it refused,
 * because the value may be card data.
 */
export class InvalidInput extends Error {
	constructor(
		readonly field: string,
		readonly problem: string,
	) {
		super(`${field}: ${problem}`);
	}
}

/** Longest text a field takes unless it says otherwise: the gateway documents no limits, this keeps junk out. */
const TEXT_LIMIT = 255;

function lengthChecked(field: string, text: string, maxLength: number): string {
	if (text.length > maxLength) throw new InvalidInput(field, `must be at most ${maxLength} characters (got ${text.length})`);
	return text;
}

/**
 * `{{ $json.orderId }}` typed into a field left in Fixed mode reaches the node as those very characters (n8n evaluates
 * only Expression mode): sent as an id, it would come back as "Order not found". Refused, saying which switch to flip.
 */
function notAFixedModeExpression(field: string, text: string): string {
	if (text.startsWith('{{') && text.endsWith('}}')) {
		throw new InvalidInput(
			field,
			'holds an expression ({{ … }}) typed in Fixed mode, so n8n passes it on as plain text: switch the field to Expression (hover over it and choose Expression above it), or drag the value in from the input',
		);
	}
	return text;
}

export function requireText(field: string, value: unknown, maxLength = TEXT_LIMIT): string {
	const result = scalarText(value) ?? '';
	if (!result) throw new InvalidInput(field, 'is required');
	return notAFixedModeExpression(field, lengthChecked(field, result, maxLength));
}

export function optionalText(field: string, value: unknown, maxLength = TEXT_LIMIT): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const result = scalarText(value);
	if (result === undefined) throw new InvalidInput(field, 'must be text');
	return notAFixedModeExpression(field, lengthChecked(field, result, maxLength)) || undefined;
}

/**
 * ISO 4217 minor units where ICU's CLDR data shows fewer digits than a payment may carry (CLDR rounds these for
 * display). Every other currency takes its digits from the platform.
 */
const MINOR_UNITS_ABOVE_DISPLAY: Record<string, number> = {
	IQD: 3,
	...Object.fromEntries(
		['AFN', 'ALL', 'COP', 'HUF', 'IDR', 'IRR', 'KPW', 'LAK', 'LBP', 'MGA', 'MMK', 'PKR', 'SLL', 'SOS', 'SYP', 'YER'].map(
			(code) => [code, 2],
		),
	),
};

/** Decimal places an amount may have in this currency: 3 for OMR or KWD, 0 for JPY, 2 for USD and unknown codes. */
export function currencyDigits(currency: string): number {
	const code = currency.trim().toUpperCase();
	const iso = MINOR_UNITS_ABOVE_DISPLAY[code];
	if (iso !== undefined) return iso;
	try {
		return new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
	} catch {
		return 2;
	}
}

/**
 * A currency code as typed, stated by a model or answered by the gateway: three ASCII letters, in upper case; undefined
 * for anything else. Checked before upper-casing: Unicode case mapping turns 'ſ' into 'S' and 'ß' into 'SS'.
 */
export function currencyCode(value: unknown): string | undefined {
	const code = typeof value === 'string' ? value.trim() : '';
	return /^[A-Za-z]{3}$/.test(code) ? code.toUpperCase() : undefined;
}

export function validateCurrency(field: string, value: unknown): string {
	const code = currencyCode(requireText(field, value));
	if (!code) throw new InvalidInput(field, 'must be a three-letter currency code, like USD or OMR');
	return code;
}

/** The longest time Node's timers hold: a longer one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Node's timers take whole milliseconds up to 2^31-1; anything else would end a request at once or not at all. */
export function validateTimeout(field: string, value: unknown): number | undefined {
	if (value === undefined) return undefined;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_TIMER_MS) {
		throw new InvalidInput(field, `must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS}`);
	}
	return value;
}

/** The most retries a Max Retries field takes, in the node and the trigger alike. */
export const MAX_RETRIES = 10;

/** A count of retries, as the Max Retries fields offer it; undefined is `fallback`. */
export function validateRetries(field: string, value: unknown, fallback: number): number {
	if (value === undefined) return fallback;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_RETRIES) {
		throw new InvalidInput(field, `must be a whole number from 0 to ${MAX_RETRIES}`);
	}
	return value;
}

/** The text without the characters `char` it ends with; a loop, where a pattern like /0+$/ is quadratic. */
export function withoutTrailing(text: string, char: string): string {
	let end = text.length;
	while (end > 0 && text[end - 1] === char) end--;
	return text.slice(0, end);
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export function validateEmail(field: string, value: unknown): string {
	const email = requireText(field, value, 254);
	if (!EMAIL_PATTERN.test(email)) throw new InvalidInput(field, 'must be a valid e-mail address, like name@example.com');
	return email;
}

function protocolOf(url: string): string {
	try {
		return new URL(url).protocol;
	} catch {
		return '';
	}
}

/** As sent: `https:host` or a space would reach the gateway written as given, which a browser reads otherwise. */
const PLAIN_WEB_ADDRESS = /^https?:\/\/[^\s\\/?#\p{Cc}][^\s\\\p{Cc}]*$/iu;

export function validateUrl(field: string, value: unknown): string {
	const url = requireText(field, value, 2048);
	if (!/^https?:$/.test(protocolOf(url)) || !PLAIN_WEB_ADDRESS.test(url))
		throw new InvalidInput(field, 'must be an absolute URL starting with https:// or http://, without spaces');
	return url;
}

/**
 * A card number as people copy it, by the one card-number rule (helpers/cardNumber.ts): 12 to 19 digits of any
 * script passing the Luhn check, with any separators; sent as ASCII digits alone.
 */
export function validateCardNumber(field: string, value: unknown): string {
	if (typeof value === 'number' && !Number.isSafeInteger(value)) {
		throw new InvalidInput(field, 'must be given as text: as a number it has lost digits');
	}
	const text = requireText(field, value);
	const digits = cardNumberOf(text);
	if (digits) return digits;
	const written = asciiDigits(text);
	const count = written.replace(/\D/g, '').length;
	if (/[\p{L}\p{M}]|(?!\p{Nd})\p{N}/u.test(written) || count < MIN_CARD_DIGITS || count > MAX_CARD_DIGITS) {
		throw new InvalidInput(field, `must be ${MIN_CARD_DIGITS} to ${MAX_CARD_DIGITS} digits, with nothing but spaces, dashes or dots between them`);
	}
	throw new InvalidInput(field, 'is not a valid card number (check digit mismatch)');
}

/** Returns the expiry as the two-digit strings the gateway expects. `now` is injectable for tests. */
export function validateExpiry(
	monthField: string,
	monthValue: unknown,
	yearField: string,
	yearValue: unknown,
	now = new Date(),
): { month: string; year: string } {
	const monthText = requireText(monthField, monthValue);
	if (!/^\d{1,2}$/.test(monthText) || Number(monthText) < 1 || Number(monthText) > 12)
		throw new InvalidInput(monthField, 'must be a month from 1 to 12');
	const yearText = requireText(yearField, yearValue);
	if (!/^(\d{2}|\d{4})$/.test(yearText)) throw new InvalidInput(yearField, 'must be a year of 2 or 4 digits, like 27 or 2027');
	const month = Number(monthText);
	const fullYear = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
	const currentYear = now.getUTCFullYear();
	if (fullYear < currentYear || (fullYear === currentYear && month < now.getUTCMonth() + 1))
		throw new InvalidInput(yearField, `and ${monthField} are in the past: the card has expired`);
	if (fullYear > currentYear + 50) throw new InvalidInput(yearField, 'is too far in the future');
	return { month: String(month).padStart(2, '0'), year: String(fullYear % 100).padStart(2, '0') };
}

export function validateCvv(field: string, value: unknown, required: boolean): string | undefined {
	const cvv = scalarText(value) ?? '';
	if (!cvv) {
		if (required) throw new InvalidInput(field, 'is required for this kind of customer authentication');
		return undefined;
	}
	if (!/^\d{3,4}$/.test(cvv)) throw new InvalidInput(field, 'must be 3 or 4 digits');
	return cvv;
}

/** Text that goes into a URL: a lone surrogate cannot be encoded and would be sent as another identifier. */
export function requireUrlText(field: string, value: unknown): string {
	const result = requireText(field, value);
	if (/\p{Cs}/u.test(result)) throw new InvalidInput(field, 'contains a broken character (a lone surrogate)');
	return result;
}

/**
 * Identifiers go into URL paths: they must be non-empty and are encoded so that they cannot change the path. Encoding
 * leaves `.` and `..` as they are, and n8n's HTTP layer would resolve them into another path (`DELETE …/customer/x/`).
 */
export function pathSegment(field: string, value: unknown): string {
	const text = requireUrlText(field, value);
	if (text === '.' || text === '..') throw new InvalidInput(field, 'must not be "." or "..": in a web address it would name another path');
	return encodeURIComponent(text);
}

/** HTTP header values are Latin-1 without line breaks or controls; anything else cannot be sent. */
export function validateHeaderValue(field: string, value: string): string {
	if (/[^\t\x20-\x7e\x80-\xff]/.test(value)) {
		throw new InvalidInput(field, 'contains characters a request header cannot carry (line breaks, controls or non-Latin-1)');
	}
	return value;
}
