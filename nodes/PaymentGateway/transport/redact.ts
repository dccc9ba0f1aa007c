import { asciiDigits, holdsCardNumber, isCardNumber } from '../helpers/cardNumber';
import { basicToken, isAuthenticSignature } from './crypto';

// The one funnel for text that a gateway, a proxy or a notification puts in front of the node: whatever of it reaches
// an item, an error, a hint or the credential Test's message went through here. It keeps what a short message is made
// of, and nothing else:
//  - characters: letters, digits, spaces and common punctuation, after the compatibility form (fullwidth and
//    mathematical letters and digits become ASCII ones); any other character (invisible ones, controls, symbols) ends
//    its chunk;
//  - chunks (what lies between spaces): words of one script cased as words are (Latin ones lower, Capitalized, UPPER,
//    camel or Pascal case) and at most 24 letters long, numbers of at most 11 digits, short codes where letters and
//    digits meet (3DS, v1), up to 40 characters in all, and at most 4 numbers or codes in a message: a dump of bytes
//    or digits is no sentence;
//  - length: 4,096 characters are read at most, 300 kept.
// A chunk that is not of these goes whole, as "…". Then what a chunk-by-chunk look cannot see: digits across chunks
// that hold a card number (the one card-number rule; its last four digits may stay), and a CVV or an expiry named as
// such or sent with the request. Beside these rules, which decide, the credential's secrets and the request's card
// data are looked for in the forms a proxy echoes them in (as written, hex, base32, base64 at any offset, decimal
// bytes, UTF-16, ROT13, each reversed too, with anything between their characters): where any ten letters and
// digits of one show, nothing of the text is kept.

/** What a text that still quotes a secret becomes: nothing of it is kept. */
export const WITHHELD = '[text withheld: it quoted the credential]';

/** A gateway's texts are sentences; longer ones are not read, and what is kept of one is cut at MAX_KEPT. */
export const MAX_READ = 4096;
const MAX_KEPT = 300;
const notRead = (length: number) => `[text of ${length} characters, not read]`;

const CHUNK = /^[\p{L}\p{M}0-9.,;:!?'"()[\]/&%+#@=*_~’‘“”<>$-]{1,40}$/u;
const LATIN_WORD = /^(?:[a-z]{1,24}|[A-Z]{1,24}|(?:[A-Z][a-z]+){1,4}|[a-z]+(?:[A-Z][a-z]+){1,3})$/;
// A word of another script is one script from its first letter to its last: no Latin or Cyrillic look-alikes mixed.
const SCRIPTS = ['Latin', 'Greek', 'Cyrillic', 'Armenian', 'Hebrew', 'Arabic', 'Devanagari', 'Bengali', 'Thai', 'Georgian', 'Hangul', 'Hiragana', 'Katakana', 'Han'];
const OTHER_WORD = new RegExp(`^(?:${SCRIPTS.map((script) => `(?:\\p{Script=${script}}\\p{M}*){1,24}`).join('|')})$`, 'u');
const MAX_NUMBER_DIGITS = 11;
const MAX_CODE_CHARS = 8;
const MAX_NUMBERS = 4;
const LEFT_OUT = '…';

/** A chunk as it may stand in a message, or undefined; `numbers` counts the numbers and codes of the message so far. */
function keptChunk(chunk: string, numbers: { count: number }): string | undefined {
	if (!CHUNK.test(chunk)) return undefined;
	let numeric = false;
	for (const part of chunk.match(/[\p{L}\p{M}0-9]+/gu) ?? []) {
		if (/^\d+$/.test(part)) {
			if (part.length > MAX_NUMBER_DIGITS) return undefined;
			numeric = true;
		} else if (/\d/.test(part)) {
			if (part.length > MAX_CODE_CHARS || /[^A-Za-z0-9]/.test(part)) return undefined;
			numeric = true;
		} else if (!(/^[A-Za-z]+$/.test(part) ? LATIN_WORD : OTHER_WORD).test(part)) return undefined;
	}
	if (numeric && ++numbers.count > MAX_NUMBERS) return undefined;
	return chunk;
}

// Digits with up to eight separators between them, not inside a word: where they hold a card number, they go.
const DIGIT_RUN = /(?<![\p{L}0-9])\d(?:[^\p{L}0-9]{0,8}\d)+(?![\p{L}0-9])/gu;
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

/** The card data a request carries (encrypted), as the user gave it, and its ciphertext: its answer shows none of it. */
export interface CardData {
	number?: string;
	cvv?: string;
	month?: string;
	year?: string;
	ciphertext?: string;
}

/** The credential values no text may show, as their owner holds them, and the card data of the request answered. */
export interface SecretValues {
	clientId?: string;
	clientSecret?: string;
	cardEncryptionKey?: string;
	card?: CardData;
}

/** Characters of an encoding of `bytes` wherever in a longer text they start: per alignment, those that depend on them alone. */
function cores(bytes: Buffer, groupBytes: number, encode: (value: Buffer) => string, charsPerGroup: number): string[] {
	return Array.from({ length: groupBytes }, (_, shift) => {
		const encoded = encode(Buffer.concat([Buffer.alloc(shift), bytes])).replace(/=+$/, '');
		return encoded.slice(Math.ceil((shift * charsPerGroup) / groupBytes), encoded.length - 1);
	});
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
function base32(bytes: Buffer): string {
	let text = '';
	let value = 0;
	let bits = 0;
	for (const byte of bytes) {
		value = ((value << 8) | byte) & 0xffff;
		bits += 8;
		for (; bits >= 5; bits -= 5) text += BASE32[(value >>> (bits - 5)) & 31];
	}
	return bits > 0 ? text + BASE32[(value << (5 - bits)) & 31] : text;
}

const rot13 = (text: string) => text.replace(/[a-z]/g, (char) => String.fromCharCode(((char.charCodeAt(0) - 97 + 13) % 26) + 97));

/** The forms of one secret a proxy may echo, letters and digits only, each reversed too. */
function formsOf(bytes: Buffer[]): string[] {
	const forms = bytes
		.flatMap((value) => [
			value.toString('utf8'),
			rot13(compact(value.toString('utf8'))),
			value.toString('hex'),
			[...value].join(''),
			...cores(value, 3, (piece) => piece.toString('base64'), 4),
			...cores(value, 5, base32, 8),
		])
		.map(compact);
	return [...forms, ...forms.map((form) => [...form].reverse().join(''))];
}

/**
 * A CVV or an expiry sent is too short to be looked for in letters and digits run together, or in a value of any kind
 * (an amount of 1.230 holds 123): in texts only, as digits of their own (any script's), either way round; an expiry as
 * month and year with up to three characters between.
 */
function shortCardData(card: CardData): RegExp | undefined {
	const alone = (digits: string) => `(?<![0-9])(?:${digits})(?![0-9])`;
	const patterns: string[] = [];
	const cvv = asciiDigits(card.cvv ?? '');
	if (/^\d{3,4}$/.test(cvv)) patterns.push(alone(`${cvv}|${[...cvv].reverse().join('')}`));
	const [month, year] = [card.month ?? '', card.year ?? ''].map((part) => asciiDigits(part));
	if (/^\d{2}$/.test(month) && /^\d{2}$/.test(year)) {
		const [htnom, raey] = [month, year].map((part) => [...part].reverse().join(''));
		patterns.push(alone(`${month}\\D{0,3}(?:20)?${year}|(?:20)?${year}\\D{0,3}${month}|${raey}(?:02)?\\D{0,3}${htnom}`));
	}
	return patterns.length > 0 ? new RegExp(patterns.join('|')) : undefined;
}

export interface Funnel {
	/** A text as it may be shown, by the rules above; never longer than 300 characters. */
	text(value: string): string;
	/** Whether a value's text shows a secret, the request's card data or a card's ciphertext, in any of the forms above. */
	quotesSecret(value: string): boolean;
	/** Whether `signature` is the record's own: the client secret's HMAC over its orderId and paymentId. */
	signs(orderId: unknown, paymentId: unknown, signature: unknown): boolean;
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
	if (card.ciphertext) sources.push(Buffer.from(card.ciphertext, 'utf8'));
	const short = shortCardData(card);
	const forms = formsOf(sources).filter((form) => form.length >= 6);
	// Every run of PART characters of every form; a shorter form is looked for whole.
	const parts = new Set<string>();
	const whole: string[] = [];
	for (const form of forms) {
		if (form.length < PART) whole.push(form);
		for (let at = 0; at + PART <= form.length; at++) parts.add(form.slice(at, at + PART));
	}
	// The secret's letters alone and the card number's digits alone, each way round: what shows when digits were put
	// between a secret's letters, or letters between a card number's digits. Only these: an encoding's letters alone
	// (hex has six) would be found in random ids.
	const projected = new Set<string>();
	for (const text of [compact(secret).replace(/[0-9]/g, ''), asciiDigits(card.number ?? '').replace(/\D/g, '')]) {
		for (const view of [text, [...text].reverse().join('')]) for (let at = 0; at + PART <= view.length; at++) projected.add(view.slice(at, at + PART));
	}
	const shows = (view: string, set: Set<string>) => {
		for (let at = 0; at + PART <= view.length; at++) if (set.has(view.slice(at, at + PART))) return true;
		return false;
	};

	function quotesSecret(value: string): boolean {
		if (CIPHERTEXT.test(value)) return true;
		const view = compact(asciiDigits(value));
		return whole.some((form) => view.includes(form)) || shows(view, parts) || shows(view.replace(/[0-9]/g, ''), projected) || shows(view.replace(/[a-z]/g, ''), projected);
	}

	function text(value: string): string {
		if (value.length > MAX_READ) return notRead(value.length);
		if (quotesSecret(value) || short?.test(asciiDigits(value))) return WITHHELD;
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

	const signs = (orderId: unknown, paymentId: unknown, signature: unknown) =>
		secret !== '' && typeof orderId === 'string' && typeof paymentId === 'string' && isAuthenticSignature(secret, orderId, paymentId, signature);

	return { text, quotesSecret, signs };
}

/** For texts with no credential at hand (a notification before its credential is read): card data only. */
export const cardDataFunnel = funnelFor();
