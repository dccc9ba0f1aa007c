// The one card-number rule, for what a user types and for what leaves the node: 12 to 19 digits passing the Luhn
// check, in any script's decimal digits, with any separators between them. Input checks and the output funnel both
// ask it, so that no number is taken as a card on the way in and let out as no card on the way back.

export const MIN_CARD_DIGITS = 12;
export const MAX_CARD_DIGITS = 19;

/** The value of a decimal digit of any script: every script's digits run 0 to 9 in ten consecutive code points. */
function digitValue(char: string): number {
	const code = char.codePointAt(0) ?? 0;
	let start = code;
	while (start > 0 && /\p{Nd}/u.test(String.fromCodePoint(start - 1))) start--;
	return (code - start) % 10;
}

/**
 * The text in compatibility form (fullwidth and mathematical letters and digits as ASCII ones), then every decimal
 * digit of another script as its ASCII digit.
 */
export function asciiDigits(text: string): string {
	const normal = text.normalize('NFKC');
	return /[^ -~\t\r\n]/.test(normal) ? normal.replace(/(?![0-9])\p{Nd}/gu, (digit) => String(digitValue(digit))) : normal;
}

function passesLuhn(digits: string): boolean {
	let sum = 0;
	for (let index = 0; index < digits.length; index++) {
		let digit = digits.charCodeAt(digits.length - 1 - index) - 48;
		if (index % 2 === 1) {
			digit *= 2;
			if (digit > 9) digit -= 9;
		}
		sum += digit;
	}
	return sum % 10 === 0;
}

/** ASCII digits alone that make a card number. */
export function isCardNumber(digits: string): boolean {
	return digits.length >= MIN_CARD_DIGITS && digits.length <= MAX_CARD_DIGITS && /^\d+$/.test(digits) && passesLuhn(digits);
}

/**
 * Whether digits and separators hold a card number: the whole run or consecutive groups of it (a card number followed
 * by an expiry, "4111 1111 1111 1111 12 30", or after a prefix). `run` is in ASCII digits (asciiDigits).
 */
export function holdsCardNumber(run: string): boolean {
	const groups = run.split(/\D+/).filter(Boolean);
	for (let first = 0; first < groups.length; first++) {
		let digits = '';
		for (let last = first; last < groups.length && digits.length < MAX_CARD_DIGITS; last++) {
			digits += groups[last];
			if (isCardNumber(digits)) return true;
		}
	}
	return false;
}

/**
 * The digits of a card number as a user may write it: any script's digits, any separators (spaces, dashes, dots…);
 * undefined when it holds a letter, a mark or a number sign that is no decimal digit (❶, a struck-through 4): what is
 * sent is every digit typed, nothing of it dropped as a separator.
 */
export function cardNumberOf(text: string): string | undefined {
	const normal = asciiDigits(text);
	if (/[\p{L}\p{M}]|(?!\p{Nd})\p{N}/u.test(normal)) return undefined;
	const digits = normal.replace(/\D/g, '');
	return isCardNumber(digits) ? digits : undefined;
}
