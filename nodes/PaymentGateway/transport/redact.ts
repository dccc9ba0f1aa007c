import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../helpers/json';

// The one funnel for text that a gateway, a proxy or a notification puts in front of the node. Whatever reaches an
// item, an error, a hint or the credential Test's message went through a Redactor first: it knows the credential's
// secrets in the encodings a proxy echoes them in, and card data however it is written. Every pattern here runs in
// time linear in its input (each repetition needs a character the one before cannot take), and texts are bounded
// before they come here (answers at 1 MiB, notifications and parameters far below).

/** What a text that still quotes a secret after the cuts below becomes: nothing of it is kept. */
export const WITHHELD = '[text withheld: it quoted the credential]';

/** Secrets shorter than this are not searched in encoded forms: their encodings would match ordinary text. */
const MIN_ENCODED = 6;

/**
 * The forms a byte string takes inside base64 text, wherever it starts: for each of the three alignments, the
 * characters that depend on these bytes alone, in the standard and the URL-safe alphabet. Padding or not, a base64
 * text that carries the secret contains one of them.
 */
function base64Cores(bytes: Buffer): string[] {
	const cores: string[] = [];
	for (let shift = 0; shift < 3; shift++) {
		const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64').replace(/=+$/, '');
		// The first characters mix in the zero bytes, the last one may hold the next byte of a longer text.
		const start = shift === 0 ? 0 : shift + 1;
		const core = encoded.slice(start, encoded.length - 1);
		if (core.length >= MIN_ENCODED) cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	return cores;
}

/** The literal forms of one secret: as written, form-encoded, in hex, and in base64 (whole, and at every alignment). */
function formsOf(bytes: Buffer): string[] {
	const text = bytes.toString('utf8');
	const whole = bytes.toString('base64');
	const forms = [text, text.replace(/ /g, '+'), whole, whole.replace(/=+$/, ''), bytes.toString('base64url')];
	if (bytes.length >= MIN_ENCODED / 2) forms.push(bytes.toString('hex'), bytes.toString('hex').toUpperCase());
	forms.push(...base64Cores(bytes));
	return forms.filter((form) => form.length > 0);
}

/**
 * `%2F` and `%2f` undone, twice (a proxy may encode what was already encoded); other text left as it is. A `+` for a
 * space is not undone here: the secrets' form-encoded spellings are among the literal forms instead.
 */
function percentDecoded(text: string): string {
	let decoded = text;
	for (let round = 0; round < 2 && decoded.includes('%'); round++) {
		decoded = decoded.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
			try {
				return decodeURIComponent(run);
			} catch {
				return Buffer.from(run.replace(/%/g, ''), 'hex').toString('latin1');
			}
		});
	}
	return decoded;
}

// A Basic credential in any spelling: the word, a space however encoded, the token however encoded.
const BASIC = /Basic(?:\s|%20|\+|&nbsp;|\\u0020){1,8}[A-Za-z0-9+/=_%-]{6,}/gi;

// In error texts: twelve digits or more with up to three separators of any kind between them.
const DIGIT_RUN = /\d(?:[^\p{L}\p{N}]{0,3}\d){11,}/gu;
// In answers: thirteen digits or more with the separators card numbers are written with (spaces, dots, dashes,
// repeated), not those of times and lists (a colon, a comma), so that "2026-11-27 22:02:10" stays a date.
// Not inside a word: the digits of an id like `wb-<uuid>` or `PAY<hex>` are no card number.
const CARD_RUN = /(?<![\p{L}\p{N}])\d(?:[\s._/-]{0,3}\d){12,}(?![\p{L}\p{N}])/gu;

// A CVV or an expiry named as such, with the digits after it ("cvv 123", "exp 12/30").
const CVV = /\b(cvv2?|cvc2?|cvn|csc|cid|security[ _-]?code)([^A-Za-z0-9]{0,3})\d{3,4}\b/gi;
const EXPIRY = /\b(exp|expiry|expiration|expires|valid[ _-]?(?:thru|until))([^A-Za-z0-9]{0,3})(?:\d{1,2}\s{0,2}[/.-]\s{0,2}\d{2,4}|\d{4})\b/gi;

function digitsOf(text: string): string {
	return text.replace(/\D/g, '');
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

/** A card network's first digit (2 to 6), 13 to 19 digits and a valid check digit. */
function isCardNumber(digits: string): boolean {
	return digits.length >= 13 && digits.length <= 19 && /^[2-6]/.test(digits) && passesLuhn(digits);
}

/**
 * Whether a run of digits holds a card number: the whole run, or whole groups of it (a card number followed by an
 * expiry, "4111 1111 1111 1111 12 30"). Order and receipt ids, dates and amounts rarely pass all three checks.
 */
export function holdsCardNumber(run: string): boolean {
	const groups = run.split(/\D+/).filter(Boolean);
	for (let first = 0; first < groups.length; first++) {
		let digits = '';
		for (let last = first; last < groups.length && digits.length < 19; last++) {
			digits += groups[last];
			if (isCardNumber(digits)) return true;
		}
	}
	return false;
}

/** Longer runs are not data anyone reads digit by digit; they go whole, unexamined. */
const MAX_EXAMINED_RUN = 256;

/** A run that holds a card number as it may be shown: the last four digits when the run is the card, else nothing. */
function maskedRun(run: string): string {
	if (run.length > MAX_EXAMINED_RUN) return '…';
	if (!holdsCardNumber(run)) return run;
	return isCardNumber(digitsOf(run)) ? lastFour(run) : '…';
}

/** The last four digits, the only part of a card number that may be shown. */
const lastFour = (run: string) => `…${digitsOf(run).slice(-4)}`;

/** Keys under which an answer carries card data: the value goes, whatever it is. */
const CARD_KEY =
	/^(?:card_?)?(?:number|num|no|pan)$|card_?number|^(?:masked_?)?pan$|primary_?account|^(?:card_?)?(?:cvv2?|cvc2?|cvn|csc|cid)$|security_?code|^(?:card_?)?(?:exp|expiry|expiration|expires?)(?:_?(?:date|month|year|mm|yy|yyyy))?$|^valid_?(?:thru|until)$|^track_?[12]?(?:_?data)?$|^encrypted_?card/i;

/** Identifiers, whose digits are parts of the id: a card number only when the whole value is one. */
const ID_KEY = /(?:id|Id|ID|_id|signature)$/;
/** A value that is digits and card separators only. */
const CARD_VALUE = /^\d[\d\s._/-]*$/;

/** Keys that look like card keys but hold what may be shown. */
const SHOWN_KEY = /^(?:pan_?last_?four|last_?(?:four|4)|card_?last_?(?:four|4))$/i;

export function isCardKey(key: string): boolean {
	return CARD_KEY.test(key) && !SHOWN_KEY.test(key);
}

export interface Redactor {
	/**
	 * A text from a gateway, a proxy or a notification as it may be shown: secrets in any of their forms, Basic
	 * credentials, card numbers, CVVs and expiries cut out. `strict` (error texts) cuts any run of twelve digits or
	 * more; otherwise only what can be a card number, down to its last four digits.
	 */
	text(value: string, strict?: boolean): string;
	/** A success answer or a notification: card fields removed under any key, every text as text() leaves it. */
	answer<T>(value: T): T;
}

/** The credential values no text may show, as their owner holds them. */
export interface SecretValues {
	clientId?: string;
	clientSecret?: string;
	cardEncryptionKey?: string;
}

export function redactorFor(secrets: SecretValues = {}): Redactor {
	const clientSecret = secrets.clientSecret ?? '';
	const key = (secrets.cardEncryptionKey ?? '').trim();
	const sources: Buffer[] = [];
	if (clientSecret.length >= 4) {
		sources.push(Buffer.from(clientSecret, 'utf8'), Buffer.from(`${secrets.clientId ?? ''}:${clientSecret}`, 'utf8'));
	}
	if (key.length >= 4) {
		sources.push(Buffer.from(key, 'utf8'));
		if (/^[0-9a-fA-F]{64}$/.test(key)) sources.push(Buffer.from(key, 'hex'), Buffer.from(key.toLowerCase(), 'utf8'));
	}
	// Longest first, so that a longer form is cut whole before a shorter one inside it.
	const forms = [...new Set(sources.flatMap(formsOf))].sort((a, b) => b.length - a.length);
	const raw = sources.map((bytes) => bytes.toString('utf8')).filter((text) => text.length >= 4);
	const shortest = Math.min(6, ...forms.map((form) => form.length));

	const quotesSecret = (text: string) => forms.some((form) => text.includes(form));

	/** `runs`: what goes of digit runs: every long one (error texts), card numbers (answers), none (ids, done whole). */
	function clean(value: string, runs: 'all' | 'cards' | 'none'): string {
		if (value.length < shortest) return value;
		let kept = value.replace(BASIC, 'Basic …');
		for (const form of forms) if (kept.includes(form)) kept = kept.split(form).join('…');
		if (runs !== 'none') {
			kept = runs === 'all' ? kept.replace(DIGIT_RUN, '…') : kept.replace(CARD_RUN, maskedRun);
			kept = kept.replace(CVV, '$1$2…').replace(EXPIRY, '$1$2…');
		}
		// Encoded so that no form above matches (percent-encoded, in part): nothing of it is kept.
		if (kept.includes('%')) {
			const decoded = percentDecoded(kept);
			if (quotesSecret(decoded) || raw.some((secret) => decoded.includes(secret)) || BASIC_QUOTED.test(decoded)) {
				return WITHHELD;
			}
		}
		return kept;
	}

	const text = (value: string, strict = false): string => clean(value, strict ? 'all' : 'cards');

	/** An answer's value under `key`: an id is masked only when it is a card number as a whole, never in part. */
	function answerValue(value: unknown, key: string): unknown {
		if (typeof value === 'string') {
			if (!ID_KEY.test(key)) return text(value);
			const kept = clean(value, 'none');
			const whole = kept.trim();
			return whole.length <= 64 && CARD_VALUE.test(whole) && isCardNumber(digitsOf(whole)) ? lastFour(whole) : kept;
		}
		if (typeof value === 'number') {
			return Number.isInteger(value) && isCardNumber(String(value)) ? lastFour(String(value)) : value;
		}
		if (Array.isArray(value)) return value.map((entry: unknown) => answerValue(entry, key));
		if (isPlainObject(value)) {
			const kept: IDataObject = {};
			for (const [name, entry] of Object.entries(value)) {
				if (!isCardKey(name)) kept[name] = answerValue(entry, name) as IDataObject[string];
			}
			return kept;
		}
		return value;
	}

	const answer = <T>(value: T): T => answerValue(value, '') as T;

	return { text, answer };
}

// A Basic credential still there once decoded: the cut above did not see it.
const BASIC_QUOTED = /Basic\s{1,8}[A-Za-z0-9+/=_-]{6,}/i;

/** For texts with no credential at hand (a notification before its credential is read): card data only. */
export const cardDataRedactor = redactorFor();
