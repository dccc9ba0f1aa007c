import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../helpers/json';
import { basicToken, basicUserPass } from './crypto';

// The one funnel for text that a gateway, a proxy or a notification puts in front of the node. Whatever reaches an
// item, an error, a hint or the credential Test's message went through a Redactor first.
//
// Secrets: the credential's client secret, its Basic value and its card encryption key are cut out where they stand
// as written. Then the text is looked at the ways a proxy may have encoded what it echoes (percent, JSON and HTML
// escapes, line-wrapped or separated, hex, base64 or base64url at any offset, base64 of any of these, twice): where
// any of them, or any ten characters of one in a row, still shows, nothing of the text is kept.
//
// Card data: digits are read in any script's digits; a run of them with any separators holding a card number keeps
// only its last four digits (error texts lose every long run); a CVV or an expiry named as such goes; in answers,
// card fields go under any key, a card number as a number, an array or a key too.
//
// Every pattern here runs in time linear in its input, and a text is bounded before any of them reads it.

/** What a text that still quotes a secret becomes: nothing of it is kept. */
export const WITHHELD = '[text withheld: it quoted the credential]';

/** A gateway's texts are sentences and short records; a longer one is not read, and not kept either. */
export const MAX_FUNNEL_TEXT = 64 * 1024;
const tooLong = (length: number) => `[text of ${length} characters, not kept]`;

/** Any run of this many characters of a secret shows too much of it. */
const PART = 10;

/** Digits of any script read as the ASCII ones: fullwidth, Arabic-Indic, Devanagari, Bengali and the like. */
const DIGIT_ZEROS = [0x30, 0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xe50, 0xed0, 0xf20, 0x1040, 0x17e0, 0x1810, 0xff10];
const OTHER_DIGIT = new RegExp(`[${DIGIT_ZEROS.slice(1).map((zero) => `\\u${zero.toString(16).padStart(4, '0')}-\\u${(zero + 9).toString(16).padStart(4, '0')}`).join('')}]`, 'g');

/** The same text, one character for one, with every digit an ASCII one: positions stay where they were. */
function asciiDigits(text: string): string {
	return text.replace(OTHER_DIGIT, (digit) => {
		const code = digit.charCodeAt(0);
		const zero = DIGIT_ZEROS.find((start) => code >= start && code <= start + 9) ?? code;
		return String(code - zero);
	});
}

/**
 * The forms a byte string takes inside base64 text, wherever it starts: for each of the three alignments, the
 * characters that depend on these bytes alone, in the standard and the URL-safe alphabet.
 */
function base64Cores(bytes: Buffer): string[] {
	const cores: string[] = [];
	for (let shift = 0; shift < 3; shift++) {
		const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64').replace(/=+$/, '');
		const start = shift === 0 ? 0 : shift + 1;
		const core = encoded.slice(start, encoded.length - 1);
		if (core.length >= 6) cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	return cores;
}

/** The literal forms of one secret: as written, in hex, and in base64 (whole, and at every alignment). */
function formsOf(bytes: Buffer): string[] {
	const text = bytes.toString('utf8');
	const whole = bytes.toString('base64');
	const forms = [text, whole, whole.replace(/=+$/, ''), bytes.toString('base64url'), bytes.toString('hex'), bytes.toString('hex').toUpperCase()];
	return [...forms, ...base64Cores(bytes)].filter((form) => form.length >= 4);
}

const HTML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', sol: '/', colon: ':', plus: '+', equals: '=' };

/** What a proxy's escaping hides: percent (twice), JSON and JavaScript, HTML. */
function unescaped(text: string): string {
	let view = text;
	for (let round = 0; round < 3 && /%[0-9A-Fa-f]{2}/.test(view); round++) {
		view = view.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
			try {
				return decodeURIComponent(run);
			} catch {
				return Buffer.from(run.replace(/%/g, ''), 'hex').toString('latin1');
			}
		});
	}
	if (view.includes('\\')) {
		view = view
			.replace(/\\u([0-9A-Fa-f]{4})/g, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16)))
			.replace(/\\x([0-9A-Fa-f]{2})/g, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16)))
			.replace(/\\(.)/g, '$1');
	}
	if (view.includes('&')) {
		view = view.replace(/&(?:#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6})|([A-Za-z]{2,8}));?/g, (all, decimal?: string, hex?: string, name?: string) => {
			const code = decimal !== undefined ? Number(decimal) : hex !== undefined ? parseInt(hex, 16) : undefined;
			if (code !== undefined) return code <= 0x10ffff ? String.fromCodePoint(code) : all;
			return HTML_ENTITIES[(name ?? '').toLowerCase()] ?? all;
		});
	}
	return view;
}

/** The text with line breaks, spaces and the separators of hex dumps taken out: wrapped base64, `73:65:63`. */
const compact = (text: string) => text.replace(/[\s:.-]+/g, '');

/**
 * Runs that may be base64, decoded; at each of the offsets they may start at where `offsets` (a run fused to the word
 * before it). At most 256 decodings a text.
 */
function base64Decodings(text: string, offsets: number): string[] {
	const decoded: string[] = [];
	// A secret's own base64 forms are looked for as they are (formsOf); decoding is for what holds one encoded again
	// (a request dump in base64), at least as long as the shortest such dump. Hex (a signature, an id) is no base64.
	for (const run of text.match(/[A-Za-z0-9+/_-]{40,}/g) ?? []) {
		if (/^[0-9a-fA-F]+$/.test(run)) continue;
		for (let offset = 0; offset < offsets && run.length - offset >= 40; offset++) decoded.push(Buffer.from(run.slice(offset), 'base64').toString('latin1'));
		if (decoded.length > 256) break;
	}
	return decoded;
}

const digitsOf = (text: string) => text.replace(/\D/g, '');

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

/** The last four digits, the only part of a card number that may be shown. */
const lastFour = (digits: string) => `…${digits.slice(-4)}`;

/** Longer runs are not data anyone reads digit by digit; they go whole, unexamined. */
const MAX_EXAMINED_RUN = 256;

// In error texts: twelve digits or more, with up to eight separators of any kind between them.
const DIGIT_RUN = /\d(?:[^\p{L}\p{N}]{0,8}\d){11,}/gu;
// In answers: thirteen or more, not inside a word (the digits of `wb-<uuid>` or `PAY<hex>` are no card number); any
// separators but those of times (a colon), up to eight.
const CARD_RUN = /(?<![\p{L}\p{N}])\d(?:[^\p{L}\p{N}:]{0,8}\d){12,}(?![\p{L}\p{N}])/gu;
// In ids: a card number written as one, whole (no separators, or groups of four), not part of a longer id.
const ID_CARD_RUN = /(?<![\p{L}\p{N}_-])(?:\d{13,19}|\d{4}(?:[ -]\d{4}){3}(?:[ -]\d{1,3})?)(?![\p{L}\p{N}_-])/gu;

// A CVV or an expiry named as such, with up to twenty characters of words between the name and the digits.
const CVV = /\b(cvv2?|cvc2?|ccv|cvn|csc|cid|cav2?|security[ _-]?code|card[ _-]?(?:verification|security)(?:[ _-]?(?:value|code|number))?)(?![a-z])([^0-9]{0,20}?)\d{3,4}(?!\d)/gi;
const EXPIRY = /\b(exp|expiry|expiration|expires|exp[ _.-]?date|valid[ _-]?(?:thru|through|to|till|until)|good[ _-]?thru)(?![a-z])([^0-9]{0,20}?)(?:\d{1,2}\s{0,2}[/.-]\s{0,2}\d{2,4}|\d{4})(?!\d)/gi;

/** Keys under which an answer carries card data: the value goes, whatever it is. */
const CARD_KEY =
	/^cc_?(?:num|number|no|exp|expiry|cvv|cvc|code|month|year)|card_?(?:number|num|no)\b|card_?number|^(?:card_?)?(?:number|num|no|pan)$|^(?:masked_?)?pan(?:_?(?:number|value))?$|primary_?account|cvv|cvc|ccv|cvn|^csc|^cid$|^cav2?$|security_?code|verification_?(?:value|code|number)|^(?:card_?)?exp(?:iry|iration|ires)?(?:_?(?:date|month|year|mm|yy|yyyy|text|month_?year|date_?text))*$|^exp_?(?:month|year|date)|^valid_?(?:thru|through|to|until)$|^track_?[12]?(?:_?data)?$|^encrypted_?card/i;

/** Keys that look like card keys but hold what may be shown. */
const SHOWN_KEY = /^(?:pan_?last_?(?:four|4)|last_?(?:four|4)|card_?last_?(?:four|4)|masked_?last_?four)$/i;

/** Inside a card's own object (`card: { number, month, year, code }`), these name its data too. */
const CARD_PART_KEY = /^(?:number|num|no|month|year|mm|yy|yyyy|code|expiry|exp|security)$/i;
const CARD_CONTAINER = /card(?!_?(?:type|network|holder|brand|usage|scheme|id|last))/i;

export function isCardKey(key: string): boolean {
	return CARD_KEY.test(key) && !SHOWN_KEY.test(key);
}

/** Identifiers, whose digits are parts of the id: only a card number written as one is masked in them. */
const ID_KEY = /^(?:id|signature)$|Id$|ID$|_id$|-id$/;

export interface Redactor {
	/**
	 * A text from a gateway, a proxy or a notification as it may be shown: secrets in any of their forms, Basic
	 * credentials, card numbers, CVVs and expiries cut out. `strict` (error texts) cuts any run of twelve digits or
	 * more; otherwise only what can be a card number, down to its last four digits.
	 */
	text(value: string, strict?: boolean): string;
	/** A success answer or a notification: card fields removed under any key, every text and key as text() leaves it. */
	answer<T>(value: T): T;
}

/** The credential values no text may show, as their owner holds them. */
export interface SecretValues {
	clientId?: string;
	clientSecret?: string;
	cardEncryptionKey?: string;
}

// A Basic credential in any spelling of its space, with its token however encoded.
const BASIC = /Basic(?:\s|%20|\+|&nbsp;|&#32;|&#x20;|\\u0020){1,8}[A-Za-z0-9+/=_%-]{6,}/gi;

export function redactorFor(secrets: SecretValues = {}): Redactor {
	const clientSecret = secrets.clientSecret ?? '';
	const key = (secrets.cardEncryptionKey ?? '').trim();
	const sources: Buffer[] = [];
	if (clientSecret.length >= 4) {
		sources.push(Buffer.from(clientSecret, 'utf8'), Buffer.from(basicUserPass(secrets.clientId ?? '', clientSecret), 'utf8'));
	}
	if (key.length >= 4) {
		sources.push(Buffer.from(key, 'utf8'));
		if (/^[0-9a-fA-F]{64}$/.test(key)) sources.push(Buffer.from(key, 'hex'), Buffer.from(key.toLowerCase(), 'utf8'));
	}
	// Longest first, so that a longer form is cut whole before a shorter one inside it.
	const forms = [...new Set(sources.flatMap(formsOf))].sort((a, b) => b.length - a.length);
	// Every run of PART characters of the secrets as written and of the Basic value: a part shows too much.
	const partTexts: string[] = [];
	if (clientSecret.length >= 4) partTexts.push(clientSecret, basicToken(secrets.clientId ?? '', clientSecret));
	if (key.length >= 4) partTexts.push(key, key.toLowerCase());
	const parts = new Set<string>();
	for (const text of partTexts) for (let at = 0; at + PART <= text.length; at++) parts.add(text.slice(at, at + PART));
	const partStarts = new Set([...parts].map((part) => part[0]));

	function holdsPart(view: string): boolean {
		if (parts.size === 0) return false;
		for (let at = 0; at + PART <= view.length; at++) {
			if (partStarts.has(view[at]) && parts.has(view.slice(at, at + PART))) return true;
		}
		return false;
	}

	const shows = (view: string) => forms.some((form) => view.includes(form)) || holdsPart(view);

	/** Whether any view of the text, down to base64 of base64, shows a secret or a part of one. */
	function quotesSecret(text: string, depth = 0): boolean {
		const plain = unescaped(text);
		const views = [...new Set([text, plain, compact(plain)])];
		if (views.some(shows)) return true;
		if (depth >= 2) return false;
		// Base64 inside base64 (a request dump encoded whole) starts where its text starts.
		const offsets = depth === 0 ? 4 : 1;
		return views.slice(1).concat(views.length === 1 ? views : []).some((view) =>
			base64Decodings(view, offsets).some((decoded) => quotesSecret(decoded, depth + 1)),
		);
	}

	/** `runs`: what goes of digit runs: every long one (errors), card numbers (texts), card numbers as written (ids). */
	function clean(value: string, runs: 'all' | 'cards' | 'id'): string {
		if (value.length > MAX_FUNNEL_TEXT) return tooLong(value.length);
		if (value.length < 4) return value;
		let kept = value.replace(BASIC, 'Basic …');
		for (const form of forms) if (kept.includes(form)) kept = kept.split(form).join('…');
		if ((forms.length > 0 || parts.size > 0) && quotesSecret(kept)) return WITHHELD;
		// Found in a copy whose digits are all ASCII ones, cut from the text as it came: one character for one.
		const digits = asciiDigits(kept);
		const pattern = runs === 'all' ? DIGIT_RUN : runs === 'cards' ? CARD_RUN : ID_CARD_RUN;
		let shown = '';
		let from = 0;
		for (const match of digits.matchAll(pattern)) {
			const run = match[0];
			const start = match.index ?? 0;
			const masked = runs === 'all' || run.length > MAX_EXAMINED_RUN ? '…' : holdsCardNumber(run) ? (isCardNumber(digitsOf(run)) ? lastFour(digitsOf(run)) : '…') : undefined;
			if (masked === undefined) continue;
			shown += kept.slice(from, start) + masked;
			from = start + run.length;
		}
		shown += kept.slice(from);
		if (runs === 'id') return shown;
		return asciiDigits(shown) === shown ? shown.replace(CVV, '$1$2…').replace(EXPIRY, '$1$2…') : asciiDigits(shown).replace(CVV, '$1$2…').replace(EXPIRY, '$1$2…');
	}

	const text = (value: string, strict = false): string => clean(value, strict ? 'all' : 'cards');

	// The keys of answers repeat from one answer to the next: each is cleaned once.
	const keys = new Map<string, string>();
	function cleanKey(name: string): string {
		let shown = keys.get(name);
		if (shown === undefined) {
			shown = clean(name, 'cards');
			if (keys.size < 1000) keys.set(name, shown);
		}
		return shown;
	}

	/** A number that may be a card number: one passing the card checks, or an integer too large to be exact at all. */
	function answerNumber(value: number): unknown {
		if (!Number.isInteger(value) || Math.abs(value) < 1e12) return value;
		const written = BigInt(value).toString();
		return !Number.isSafeInteger(value) || isCardNumber(written) ? lastFour(written) : value;
	}

	/** An answer's value under `key`; `inCard`: inside an object a card key names (`card: { number, month }`). */
	function answerValue(value: unknown, key: string, inCard: boolean): unknown {
		if (typeof value === 'string') return clean(value, ID_KEY.test(key) && !/\s/.test(value) ? 'id' : 'cards');
		if (typeof value === 'number') return answerNumber(value);
		if (Array.isArray(value)) {
			// A card number split into numbers or digit strings, [4111, 1111, 1111, 1111].
			const pieces = value.every((entry) => (typeof entry === 'number' && Number.isInteger(entry)) || (typeof entry === 'string' && /^\d{1,19}$/.test(entry)));
			if (pieces && value.length > 1 && value.length <= 8 && holdsCardNumber(value.join(' '))) return '…';
			return value.map((entry: unknown) => answerValue(entry, key, inCard));
		}
		if (isPlainObject(value)) {
			const kept: IDataObject = {};
			const container = inCard || CARD_CONTAINER.test(key);
			for (const [name, entry] of Object.entries(value)) {
				if (isCardKey(name) || (container && CARD_PART_KEY.test(name))) continue;
				const shownName = cleanKey(name);
				kept[shownName === name ? name : `[key ${Object.keys(kept).length}]`] = answerValue(entry, name, container) as IDataObject[string];
			}
			return kept;
		}
		return value;
	}

	const answer = <T>(value: T): T => answerValue(value, '', false) as T;

	return { text, answer };
}

/** For texts with no credential at hand (a notification before its credential is read): card data only. */
export const cardDataRedactor = redactorFor();
