/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import fc from 'fast-check';

// Generated values for the fields of the operations, and exact decimal arithmetic to judge amounts by.

/** The seed of this run's generated input: FC_SEED when given, to replay a run; otherwise a new one, printed. */
export const GENERATION_SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;

/** Any UTF-16 unit, lone surrogates included: what an expression over arbitrary input can produce. */
const anyUnit = fc.nat(0xffff).map((code) => String.fromCharCode(code));

/** Digits and look-alikes people forget: Arabic-Indic, Eastern Arabic, Devanagari and fullwidth digits. */
const FOREIGN_DIGITS = ['٠١٢٣٤٥٦٧٨٩', '۰۱۲۳۴۵۶۷۸۹', '०१२३४५६७८९', '０１２３４５６７８９'];
/** Letters that look like digits: Latin, Cyrillic and Greek O, l and I, Cyrillic З, b for 6. */
const LOOK_ALIKES = ['O', 'o', 'О', 'о', 'Ο', 'ο', 'l', 'I', 'І', 'Ι', 'З', 'b', 'ᴏ'];

/** A digit string with some digits swapped for foreign digits or look-alikes. */
export function disguisedDigits(digits: string): fc.Arbitrary<string> {
	return fc
		.tuple(fc.nat(digits.length - 1), fc.boolean(), fc.nat(LOOK_ALIKES.length - 1), fc.nat(FOREIGN_DIGITS.length - 1))
		.map(([at, foreign, lookAlike, script]) => {
			const replacement = foreign ? FOREIGN_DIGITS[script][Number(digits[at])] : LOOK_ALIKES[lookAlike];
			return digits.slice(0, at) + replacement + digits.slice(at + 1);
		});
}

/** Every digit in another script: reads as the same number, is not ASCII. */
export function foreignDigits(digits: string): fc.Arbitrary<string> {
	return fc.nat(FOREIGN_DIGITS.length - 1).map((script) => digits.replace(/\d/g, (digit) => FOREIGN_DIGITS[script][Number(digit)]));
}

/** Text around a value as users paste it: stray spaces, tabs, no-break spaces, newlines. */
export function padded(value: string): fc.Arbitrary<string> {
	const space = fc.constantFrom('', ' ', '  ', '\t', '\u00a0', '\n', ' \u3000');
	return fc.tuple(space, space).map(([before, after]) => `${before}${value}${after}`);
}

/** Strings of every kind: printable, any code unit (lone surrogates too), long, and lengths around a limit. */
export function anyText(limit = 255): fc.Arbitrary<string> {
	return fc.oneof(
		fc.string(),
		fc.string({ unit: anyUnit, maxLength: 20 }),
		fc.string({ unit: 'grapheme', maxLength: 30 }),
		fc.string({ minLength: 200, maxLength: 5000 }),
		fc.integer({ min: -2, max: 2 }).map((offset) => 'x'.repeat(Math.max(1, limit + offset))),
		fc.constantFrom('', ' ', '\u00a0', '\ufeff', '\u200b', 'a\u0000b', '\ud800', 'x\udfff', 'null', 'undefined'),
	);
}

/** Anything an expression can yield besides text: numbers, booleans, null, undefined, objects, arrays. */
export const notText: fc.Arbitrary<unknown> = fc.oneof(
	fc.integer(),
	fc.double(),
	fc.constantFrom(true, false, null, undefined, -0, Number.NaN, Infinity, -Infinity),
	fc.object({ maxDepth: 1 }),
	fc.array(fc.integer(), { maxLength: 3 }),
);

/** A plain decimal: its digits and how many of them come after the point. */
export interface Decimal {
	digits: bigint;
	scale: number;
}

/** A JSON number's text or a plain decimal as an exact decimal; undefined when it is neither. */
export function exactDecimal(text: string): Decimal | undefined {
	const match = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(text);
	if (!match) return undefined;
	const [, whole, fraction = '', exponent = '0'] = match;
	let digits = BigInt(whole + fraction);
	let scale = fraction.length - Number(exponent);
	while (scale > 0 && digits % 10n === 0n) {
		digits /= 10n;
		scale -= 1;
	}
	if (scale < 0) {
		digits *= 10n ** BigInt(-scale);
		scale = 0;
	}
	return { digits, scale };
}

/** The decimal as plain text, e.g. "25.5", "0.007", "12". */
export function decimalText({ digits, scale }: Decimal): string {
	if (scale === 0) return digits.toString();
	const text = digits.toString().padStart(scale + 1, '0');
	return `${text.slice(0, -scale)}.${text.slice(-scale)}`;
}

/** Decimals a currency allows (ISO 4217), in the sandbox's own implementation rather than the node's. */
export { fractionDigits } from '../../sandbox/currency';

export const CURRENCIES = ['USD', 'EUR', 'OMR', 'KWD', 'BHD', 'JPY', 'KRW', 'CLF', 'IQD', 'IDR'];

/** Amounts as people and expressions give them: numbers, decimal strings, near the limit of exactness, and junk. */
export function amountValues(digits: number): fc.Arbitrary<unknown> {
	const limit = BigInt(Number.MAX_SAFE_INTEGER);
	const asText = (minor: bigint, scale: number) => decimalText({ digits: minor, scale });
	return fc.oneof(
		fc.integer({ min: 1, max: 10_000_000 }).map((minor) => minor / 10 ** digits),
		fc.double({ min: 0, max: 1e18, noNaN: true }),
		fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 18n }), fc.nat(5)).map(([minor, scale]) => asText(minor, scale)),
		// Around the largest amount whose minor units are still an exact integer, as text and as a number.
		fc.tuple(fc.bigInt({ min: -50n, max: 50n }), fc.boolean()).map(([offset, text]) => {
			const value = asText(limit + offset, digits);
			return text ? value : Number(value);
		}),
		fc.tuple(fc.integer({ min: 1, max: 99_999 }), fc.nat(4)).chain(([minor, scale]) => padded(asText(BigInt(minor), scale))),
		fc.integer({ min: 1, max: 9_999 }).chain((minor) => foreignDigits(String(minor))),
		fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e3', '1E-2', '2.5e1', '-0', '0', '0.00', '', ' ', '+25', '.5', '5.',
			'25,50', '2,5', '10,50', '1.234,56', '1,250', '25.5.5', '0x1A', '1_000', '99999999999.99', '100000000000', '9'.repeat(400), `1.${'0'.repeat(300)}1`),
		fc.constantFrom(-0, 0, -1, Number.MIN_VALUE, Number.EPSILON, 1e21, 1e-7, Number.MAX_VALUE, 0.1 + 0.2),
		notText,
	);
}

export function passesLuhn(digits: string): boolean {
	let sum = 0;
	[...digits].reverse().forEach((digit, index) => {
		const doubled = Number(digit) * (index % 2 === 1 ? 2 : 1);
		sum += doubled > 9 ? doubled - 9 : doubled;
	});
	return sum % 10 === 0;
}

/** The card number with a check digit appended. */
export function withCheckDigit(partial: string): string {
	for (let check = 0; check <= 9; check++) if (passesLuhn(partial + check)) return partial + check;
	throw new Error('unreachable');
}

const CARD_PREFIXES = ['4', '51', '55', '37', '6011', '35', '62', '9'];
const cardNumbers = fc
	.tuple(fc.constantFrom(...CARD_PREFIXES), fc.integer({ min: 12, max: 19 }), fc.infiniteStream(fc.nat(9)))
	.map(([prefix, length, digits]) => withCheckDigit(prefix + [...digits.take(length - prefix.length - 1)].join('')));
const grouped = (digits: string, separator: string) => digits.replace(/(\d{4})(?=\d)/g, `$1${separator}`);

/** Card numbers as pasted and as mistyped: grouped, padded, one digit off, disguised, as numbers, and junk. */
export const cardNumberValues = fc.oneof(
	cardNumbers,
	fc.tuple(cardNumbers, fc.constantFrom(' ', '-', '  ', '\u00a0', ' - ')).map(([digits, separator]) => grouped(digits, separator)),
	cardNumbers.chain(padded),
	cardNumbers.map((digits) => digits.slice(0, -1) + ((Number(digits.slice(-1)) + 1) % 10)),
	cardNumbers.chain(disguisedDigits),
	cardNumbers.chain(foreignDigits),
	cardNumbers.map(Number),
	fc.bigInt({ min: 10n ** 15n, max: 10n ** 19n }).map(Number),
	anyText(255),
	notText,
);

const thisYear = new Date().getUTCFullYear();
/** Expiry months and years around the valid ranges, as numbers and text, padded, in other scripts. */
export const monthValues = fc.oneof(
	fc.integer({ min: -1, max: 14 }),
	fc.integer({ min: -1, max: 14 }).map(String),
	fc.integer({ min: 1, max: 12 }).map((month) => String(month).padStart(2, '0')).chain(padded),
	fc.integer({ min: 1, max: 12 }).chain((month) => foreignDigits(String(month).padStart(2, '0'))),
	fc.constantFrom('007', '1.0', 7.5, '0x7', 'O7', '７', '12 ', ''),
	anyText(4),
	notText,
);
export const yearValues = fc.oneof(
	fc.integer({ min: thisYear - 3, max: thisYear + 55 }),
	fc.integer({ min: thisYear - 3, max: thisYear + 55 }).map(String),
	fc.integer({ min: thisYear - 3, max: thisYear + 55 }).map((year) => String(year % 100).padStart(2, '0')).chain(padded),
	fc.integer({ min: thisYear, max: thisYear + 5 }).chain((year) => foreignDigits(String(year))),
	fc.constantFrom('0030', '330', '2O30', String(thisYear % 100 + 1).padStart(3, '0'), 30.0, 2030.5, ''),
	anyText(4),
	notText,
);

export const cvvValues = fc.oneof(
	fc.integer({ min: 0, max: 99_999 }).map(String),
	fc.integer({ min: 0, max: 99_999 }),
	fc.integer({ min: 100, max: 9999 }).chain((cvv) => padded(String(cvv))),
	fc.integer({ min: 100, max: 9999 }).chain((cvv) => foreignDigits(String(cvv))),
	fc.integer({ min: 100, max: 9999 }).chain((cvv) => disguisedDigits(String(cvv))),
	anyText(8),
	notText,
);
/** Web addresses, well formed and not: no "//", backslashes, spaces, other schemes, relative. */
export const urlValues = fc.oneof(
	fc.webUrl({ withQueryParameters: true, withFragments: true }),
	fc.webUrl().chain(padded),
	fc.constantFrom('https:example.com', 'https:/example.com', 'https:\\\\example.com', 'http://a b.com', 'https://shop.example.com/a b',
		'ftp://example.com', 'javascript:alert(1)', '//example.com/x', 'example.com', 'HTTPS://EXAMPLE.COM/', 'https://', 'http://[::1]/x',
		'https://xn--bcher-kva.example/é'),
	anyText(2048),
	notText,
);
