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

export function requireText(field: string, value: unknown): string {
	const result = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	if (!result) throw new InvalidInput(field, 'is required');
	return result;
}

export function optionalText(field: string, value: unknown, maxLength?: number): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const result = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : undefined;
	if (result === undefined) throw new InvalidInput(field, 'must be text');
	if (maxLength !== undefined && result.length > maxLength)
		throw new InvalidInput(field, `must be at most ${maxLength} characters (got ${result.length})`);
	return result || undefined;
}

/** Amounts travel as JSON numbers with at most two decimals; a string from an expression is accepted if it is one. */
export function validateAmount(field: string, value: unknown): number {
	const raw = typeof value === 'string' ? value.trim() : value;
	const amount = typeof raw === 'string' && raw !== '' ? Number(raw) : raw;
	if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0)
		throw new InvalidInput(field, 'must be a number greater than 0');
	if (Math.abs(Math.round(amount * 100) - amount * 100) > 1e-6)
		throw new InvalidInput(field, 'must have at most 2 decimal places');
	return amount;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export function validateEmail(field: string, value: unknown): string {
	const email = requireText(field, value);
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

export function validateUrl(field: string, value: unknown): string {
	const url = requireText(field, value);
	if (!/^https?:$/.test(protocolOf(url)))
		throw new InvalidInput(field, 'must be an absolute URL starting with https:// or http://');
	return url;
}

function passesLuhn(digits: string): boolean {
	let sum = 0;
	for (let index = 0; index < digits.length; index++) {
		let digit = Number(digits[digits.length - 1 - index]);
		if (index % 2 === 1) {
			digit *= 2;
			if (digit > 9) digit -= 9;
		}
		sum += digit;
	}
	return sum % 10 === 0;
}

/** Spaces and dashes are how people copy card numbers; anything else is refused. */
export function validateCardNumber(field: string, value: unknown): string {
	const digits = requireText(field, value).replace(/[\s-]/g, '');
	if (!/^\d{12,19}$/.test(digits)) throw new InvalidInput(field, 'must be 12 to 19 digits');
	if (!passesLuhn(digits)) throw new InvalidInput(field, 'is not a valid card number (check digit mismatch)');
	return digits;
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
		throw new InvalidInput(yearField, 'the card has expired (expiry month and year are in the past)');
	if (fullYear > currentYear + 50) throw new InvalidInput(yearField, 'is too far in the future');
	return { month: String(month).padStart(2, '0'), year: String(fullYear % 100).padStart(2, '0') };
}

export function validateCvv(field: string, value: unknown, required: boolean): string | undefined {
	const cvv = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	if (!cvv) {
		if (required) throw new InvalidInput(field, 'is required for this kind of customer authentication');
		return undefined;
	}
	if (!/^\d{3,4}$/.test(cvv)) throw new InvalidInput(field, 'must be 3 or 4 digits');
	return cvv;
}

/** Identifiers go into URL paths: they must be non-empty and are encoded so that they cannot change the path. */
export function pathSegment(field: string, value: unknown): string {
	return encodeURIComponent(requireText(field, value));
}
