/* eslint-disable no-control-regex -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { createDecipheriv } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { decimalText, exactDecimal, passesLuhn } from './input-values';
import { DIGIT_VALUES } from './recover';

// What a careful user expects of each field, written from the README and the gateway's documents rather than from
// the node's validation: the value the request carries, or a refusal naming the field. Shared by the generated
// inputs on the fast path and through the engine.

export type Expected = { sent: unknown } | { refused: string };

export const refused = (field: string): Expected => ({ refused: field });

/** Text as the node takes it from an expression: strings trimmed, numbers written out; anything else is not text. */
export function textOf(value: unknown): string | undefined {
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number') return String(value);
	return undefined;
}

/** `{{ $json.x }}` typed into a field in Fixed mode: n8n hands the braces over as they are, and the README's hint says so. */
const typedInFixedMode = (text: string) => text.startsWith('{{') && text.endsWith('}}');

export function requiredText(field: string, max: number) {
	return (value: unknown): Expected => {
		const text = textOf(value);
		return !text || text.length > max || typedInFixedMode(text) ? refused(field) : { sent: text };
	};
}

export function optionalText(field: string, max: number) {
	return (value: unknown): Expected => {
		if (value === undefined || value === null || value === '') return { sent: undefined };
		const text = textOf(value);
		if (text === undefined || text.length > max || typedInFixedMode(text)) return refused(field);
		return { sent: text || undefined };
	};
}

/** Digits before the point an amount may have, as docs/operations.md says: no payment is larger. */
const MAX_WHOLE_DIGITS = 11;

/**
 * The amount, by the rules below but exactness: its decimal as text, or undefined when they refuse it. A text field
 * takes what was typed as it was typed: "2,5" is refused, never read as 25 or 2.5.
 */
function plainAmount(value: unknown, digits: number): string | undefined {
	let text: string;
	if (typeof value === 'number') {
		if (!Number.isFinite(value) || !(value > 0)) return undefined;
		text = String(value);
	} else if (typeof value === 'string') {
		text = value.trim();
		if (!/^[0-9]+(\.[0-9]+)?$/.test(text)) return undefined;
	} else {
		return undefined;
	}
	const decimal = exactDecimal(text);
	if (!decimal || decimal.digits === 0n || decimal.scale > digits) return undefined;
	if (decimal.digits / 10n ** BigInt(decimal.scale) >= 10n ** BigInt(MAX_WHOLE_DIGITS)) return undefined;
	if (decimal.digits * 10n ** BigInt(digits - decimal.scale) > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
	return decimalText(decimal);
}

/** A decimal string that no double holds exactly: as a JSON number it would be another amount. */
export function losesDigits(value: unknown, digits: number): boolean {
	const given = typeof value === 'string' ? plainAmount(value, digits) : undefined;
	if (given === undefined) return false;
	const sent = exactDecimal(String(Number(given)));
	return !sent || decimalText(sent) !== given;
}

/**
 * An amount: a JSON number or a plain decimal string (ASCII digits and at most one point: no comma, no sign, no
 * exponent), greater than 0, at most 11 digits before the point, with no more decimals than the currency has, and
 * exact: its minor units an exact integer, and the number sent the very decimal the user gave. `sent` is that decimal
 * as text.
 */
export function expectedAmount(field: string, value: unknown, digits: number): Expected {
	const given = plainAmount(value, digits);
	return given === undefined || losesDigits(value, digits) ? refused(field) : { sent: given };
}

/** The amount as the body carries it, which must be a JSON number literal: its decimal text. */
export function sentAmount(body: string | undefined): string | undefined {
	const literal = /"amount":(-?[0-9][0-9.eE+-]*)[,}]/.exec(body ?? '')?.[1];
	const decimal = literal === undefined ? undefined : exactDecimal(literal);
	return decimal && decimalText(decimal);
}

/**
 * Digits of a card number as pasted: 12 to 19 decimal digits of any script (fullwidth ones too) passing Luhn, with
 * anything but letters between them; sent as ASCII digits. A number whose digits cannot all be kept (beyond 2^53) is
 * not the user's card number.
 */
export function expectedCardNumber(field: string, value: unknown): Expected {
	if (typeof value === 'number' && !Number.isSafeInteger(value)) return refused(field);
	const text = textOf(value)?.normalize('NFKC');
	if (!text || text.length > 255 || /\p{L}/u.test(text)) return refused(field);
	const digits = [...text].map((char) => DIGIT_VALUES.get(char)).filter((digit) => digit !== undefined).join('');
	return digits.length >= 12 && digits.length <= 19 && passesLuhn(digits) ? { sent: digits } : refused(field);
}

export const MONTH_FIELD = 'Expiry Month (cardExpMonth)';
export const YEAR_FIELD = 'Expiry Year (cardExpYear)';

/** Month 1-12, year of 2 or 4 digits, the card valid to the end of its month, at most 50 years ahead; both sent as
 * two-digit strings. */
export function expectedExpiry(month: unknown, year: unknown, now = new Date()): Expected {
	const monthText = textOf(month);
	if (!monthText || monthText.length > 255 || !/^[0-9]{1,2}$/.test(monthText)) return refused(MONTH_FIELD);
	const monthNumber = Number(monthText);
	if (monthNumber < 1 || monthNumber > 12) return refused(MONTH_FIELD);
	const yearText = textOf(year);
	if (!yearText || !/^([0-9]{2}|[0-9]{4})$/.test(yearText)) return refused(YEAR_FIELD);
	const fullYear = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
	const thisYear = now.getUTCFullYear();
	if (fullYear < thisYear || (fullYear === thisYear && monthNumber < now.getUTCMonth() + 1)) return refused(YEAR_FIELD);
	if (fullYear > thisYear + 50) return refused(YEAR_FIELD);
	const two = (n: number) => String(n).padStart(2, '0');
	return { sent: { cardExpMonth: two(monthNumber), cardExpYear: two(fullYear % 100) } };
}

/** An absolute http(s) address as written: scheme, "//", a host, nothing a browser would have to repair (spaces,
 * control characters, backslashes). */
export function expectedUrl(field: string, value: unknown): Expected {
	const text = textOf(value);
	if (!text || text.length > 2048) return refused(field);
	const asWritten = /^https?:\/\/[^/?#\s\\]/i.test(text) && !/[\s\u0000-\u001f\u007f\\]/.test(text);
	return asWritten && URL.canParse(text) ? { sent: text } : refused(field);
}

/** Half of a surrogate pair without the other half: text no UTF-8 encoder can write. */
export function hasLoneSurrogate(text: string): boolean {
	return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

/** An identifier that goes into a URL path: required text, percent-encoded; text that cannot be encoded (a lone
 * surrogate) is refused. */
export function expectedPathSegment(field: string, value: unknown): Expected {
	const text = textOf(value);
	if (!text || text.length > 255 || hasLoneSurrogate(text) || typedInFixedMode(text)) return refused(field);
	return { sent: encodeURIComponent(text) };
}

/** Characters Node's HTTP client refuses in a header value. */
export const NOT_IN_A_HEADER = /[^\t\x20-\x7e\x80-\xff]/;

/** Reads the card details out of an initiate body, as the gateway decrypts them. */
export function decryptCardDetails(body: IDataObject, keyHex: string): IDataObject {
	const [iv, cipher] = String(body.encryptedCardDetails).split('.');
	const decipher = createDecipheriv('aes-256-cbc', Buffer.from(keyHex, 'hex'), Buffer.from(iv, 'hex'));
	const plain = Buffer.concat([decipher.update(Buffer.from(cipher, 'hex')), decipher.final()]);
	return JSON.parse(plain.toString('utf8')) as IDataObject;
}
