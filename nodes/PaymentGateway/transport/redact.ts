import { asciiDigits, holdsCardNumber, isCardNumber } from '../helpers/cardNumber';
import { basicToken } from './crypto';

// The one funnel for text that a gateway, a proxy or a notification puts in front of the node: whatever of it reaches
// an item, an error, a hint or the credential Test's message went through here. It keeps what a short message of the
// gateway is made of, and nothing else:
//  - characters: ASCII letters, digits, spaces and common punctuation, after the compatibility form (fullwidth and
//    mathematical letters become ASCII ones); any other character (invisible ones, other scripts) ends its chunk;
//  - chunks (what lies between spaces): words cased as words are (lower, Capitalized, UPPER, camelCase) and at most
//    24 letters long, numbers of at most 11 digits, short codes where letters and digits meet (3DS, v1), up to 40
//    characters in all, and at most 4 numbers or codes in a message: a dump of bytes or digits is no sentence;
//  - length: 4,096 characters are read at most, 300 kept.
// A chunk that is not of these goes whole, as "…". Then what a chunk-by-chunk look cannot see: digits across chunks
// that hold a card number (the one card-number rule; its last four digits may stay), a CVV or an expiry named as such, and the credential's secrets
// in the forms a proxy may echo them (as written, hex, base64 at any offset, each also reversed, with anything
// between their letters): where any ten letters and digits of one still show, nothing of the text is kept.

/** What a text that still quotes a secret becomes: nothing of it is kept. */
export const WITHHELD = '[text withheld: it quoted the credential]';

/** A gateway's texts are sentences; longer ones are not read, and what is kept of one is cut at MAX_KEPT. */
export const MAX_READ = 4096;
const MAX_KEPT = 300;
const notRead = (length: number) => `[text of ${length} characters, not read]`;

const PUNCTUATION = `.,;:!?'"()[]/&%+#@=*_~’‘“”<>$-`;
const ALLOWED_CHUNK = new RegExp(`^[A-Za-z0-9${PUNCTUATION.replace(/[\]\\^-]/g, '\\$&')}]{1,40}$`);
const WORD = /^(?:[a-z]{1,24}|[A-Z][a-z]{0,23}|[A-Z]{1,24}|[a-z]+(?:[A-Z][a-z]+)+)$/;
const MAX_NUMBER_DIGITS = 11;
const MAX_CODE_CHARS = 8;
const MAX_NUMBERS = 4;
const LEFT_OUT = '…';

/** A chunk as it may stand in a message, or undefined; `numbers` counts the numbers and codes of the message so far. */
function keptChunk(chunk: string, numbers: { count: number }): string | undefined {
	if (!ALLOWED_CHUNK.test(chunk)) return undefined;
	let numeric = false;
	for (const part of chunk.match(/[A-Za-z0-9]+/g) ?? []) {
		if (/^\d+$/.test(part)) {
			if (part.length > MAX_NUMBER_DIGITS) return undefined;
			numeric = true;
		} else if (/\d/.test(part)) {
			if (part.length > MAX_CODE_CHARS) return undefined;
			numeric = true;
		} else if (!WORD.test(part)) return undefined;
	}
	if (numeric && ++numbers.count > MAX_NUMBERS) return undefined;
	return chunk;
}

// Digits with up to eight separators between them, not inside a word: where they hold a card number, they go.
const DIGIT_RUN = /(?<![A-Za-z0-9])\d(?:[^A-Za-z0-9]{0,8}\d)+(?![A-Za-z0-9])/g;
// A CVV or an expiry named as such, with up to twenty characters of words between the name and the digits.
const CVV = /\b(cvv2?|cvc2?|ccv|cvn|csc|cid|cav2?|security[ _-]?code|card[ _-]?(?:verification|security)(?:[ _-]?(?:value|code|number))?)(?![a-z])([^0-9]{0,20}?)\d{3,4}(?!\d)/gi;
const EXPIRY = /\b(exp|expiry|expiration|expires|exp[ _.-]?date|valid[ _-]?(?:thru|through|to|till|until)|good[ _-]?thru)(?![a-z])([^0-9]{0,20}?)(?:\d{1,2}\s{0,2}[/.-]\s{0,2}\d{2,4}|\d{4})(?!\d)/gi;

/** Digits that hold a card number go: to its last four digits when they are one card number alone. */
function cardsCut(run: string): string {
	if (!holdsCardNumber(run)) return run;
	const digits = run.replace(/\D/g, '');
	return isCardNumber(digits) ? `${LEFT_OUT}${digits.slice(-4)}` : LEFT_OUT;
}

/** A text as its letters and digits alone, lower case: how a secret shows whatever was put between its characters. */
const compact = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '');

/** Any run of this many letters and digits of a secret shows too much of it. */
const PART = 10;

/** The card data a request carries (encrypted), as the user gave it: its answer may show none of it. */
export interface CardData {
	number?: string;
	cvv?: string;
	month?: string;
	year?: string;
}

/** The credential values no text may show, as their owner holds them, and the card data of the request answered. */
export interface SecretValues {
	clientId?: string;
	clientSecret?: string;
	cardEncryptionKey?: string;
	card?: CardData;
}

/** Base64 of `bytes` wherever in a longer text they start: the characters that depend on them alone, per alignment. */
function base64Cores(bytes: Buffer): string[] {
	return [0, 1, 2].map((shift) => {
		const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64').replace(/=+$/, '');
		return encoded.slice(shift === 0 ? 0 : shift + 1, encoded.length - 1);
	});
}

/**
 * The forms of one secret a proxy may echo, letters and digits only: as written, hex, base64 and its bytes as decimal
 * numbers, each reversed too.
 */
function formsOf(bytes: Buffer[]): string[] {
	const forms = bytes.flatMap((value) => [value.toString('utf8'), value.toString('hex'), [...value].join(''), ...base64Cores(value)]).map(compact);
	return [...forms, ...forms.map((form) => [...form].reverse().join(''))];
}

/**
 * A CVV or an expiry is too short to be looked for in letters and digits run together: it is looked for as digits of
 * their own (any script's), either way round; an expiry as month and year with up to three characters between.
 */
function shortCardData(card: CardData): RegExp | undefined {
	const alone = (digits: string) => `(?<![0-9])(?:${digits})(?![0-9])`;
	const patterns: string[] = [];
	const cvv = asciiDigits(card.cvv ?? '');
	if (/^\d{3,4}$/.test(cvv)) patterns.push(alone(`${cvv}|${[...cvv].reverse().join('')}`));
	const [month, year] = [card.month ?? '', card.year ?? ''].map((part) => asciiDigits(part));
	if (/^\d{2}$/.test(month) && /^\d{2}$/.test(year)) {
		patterns.push(alone(`${month}\\D{0,3}(?:20)?${year}|(?:20)?${year}\\D{0,3}${month}`));
	}
	return patterns.length > 0 ? new RegExp(patterns.join('|')) : undefined;
}

export interface Funnel {
	/** A text as it may be shown, by the rules above; never longer than 300 characters. */
	text(value: string): string;
	/** Whether a value's text shows a secret, the request's card data or a card's ciphertext, in any of the forms above. */
	quotesSecret(value: string): boolean;
}

// `ivHex.cipherHex`: what this package sends as encryptedCardDetails. No answer of the gateway has a use for one.
const CIPHERTEXT = /[0-9a-f]{32}\.[0-9a-f]{32}/i;

export function funnelFor(secrets: SecretValues = {}): Funnel {
	const sources: Buffer[] = [];
	const secret = secrets.clientSecret ?? '';
	const key = (secrets.cardEncryptionKey ?? '').trim();
	if (secret.length >= 4) {
		sources.push(Buffer.from(secret, 'utf8'), Buffer.from(secret, 'utf16le'), Buffer.from(basicToken(secrets.clientId ?? '', secret), 'utf8'));
	}
	if (key.length >= 4) sources.push(Buffer.from(key, 'utf8'), ...(/^[0-9a-f]{64}$/i.test(key) ? [Buffer.from(key, 'hex')] : []));
	const card = secrets.card ?? {};
	for (const value of [card.number, card.cvv]) if (value) sources.push(Buffer.from(asciiDigits(value), 'utf8'), Buffer.from(asciiDigits(value), 'utf16le'));
	const short = shortCardData(card);
	const forms = formsOf(sources).filter((form) => form.length >= 6);
	// Every run of PART characters of every form; a shorter form is looked for whole.
	const parts = new Set<string>();
	const whole: string[] = [];
	for (const form of forms) {
		if (form.length < PART) whole.push(form);
		for (let at = 0; at + PART <= form.length; at++) parts.add(form.slice(at, at + PART));
	}

	function quotesSecret(value: string): boolean {
		if (CIPHERTEXT.test(value)) return true;
		const digits = asciiDigits(value);
		if (short?.test(digits)) return true;
		const view = compact(digits);
		if (whole.some((form) => view.includes(form))) return true;
		for (let at = 0; at + PART <= view.length; at++) if (parts.has(view.slice(at, at + PART))) return true;
		return false;
	}

	function text(value: string): string {
		if (value.length > MAX_READ) return notRead(value.length);
		if (quotesSecret(value)) return WITHHELD;
		const numbers = { count: 0 };
		const chunks = asciiDigits(value)
			.split(/[ \t\r\n]+/)
			.filter(Boolean)
			.map((chunk) => keptChunk(chunk, numbers) ?? LEFT_OUT);
		const kept = chunks
			.filter((chunk, index) => chunk !== LEFT_OUT || chunks[index - 1] !== LEFT_OUT)
			.join(' ')
			.replace(DIGIT_RUN, cardsCut)
			.replace(CVV, `$1$2${LEFT_OUT}`)
			.replace(EXPIRY, `$1$2${LEFT_OUT}`);
		return kept.length > MAX_KEPT ? `${kept.slice(0, MAX_KEPT)}${LEFT_OUT}` : kept;
	}

	return { text, quotesSecret };
}

/** For texts with no credential at hand (a notification before its credential is read): card data only. */
export const cardDataFunnel = funnelFor();
