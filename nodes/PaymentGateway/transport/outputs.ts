import type { IDataObject } from 'n8n-workflow';

import { asciiDigits, cardNumberOf, holdsCardNumber } from '../helpers/cardNumber';
import { isPlainObject } from '../helpers/json';
import { isAnswerAmount } from '../validation/amount';
import type { Funnel } from './redact';

// What leaves the node of a gateway's answer (or a notification) is what its operation declares: each field by name,
// with the kind of value it may hold. A value leaves only when it is of its kind; anything else, and every field not
// declared, is left out, and only its name is listed in `droppedFields`. So no form of a secret or of card data that
// a gateway or a proxy may invent has a way out, and an item costs memory by what it outputs.

/**
 * - id: letters, digits and `. _ : / # @ + -`, at most 100 characters, each part in one case, not a card number;
 * - word: a status or a name (`success`, `partially_refunded`, `visa`, `POST`), letters, `_`, `-` and spaces;
 * - amount: a plain decimal of at most 11 digits before the point and 6 after, as the gateway gave it (text or number);
 * - currency: three letters; time: an ISO 8601 date or time; lastFour: four digits (a card number becomes its last four);
 * - message: a short text, through the one text funnel (redact.ts); count: a whole number; code: an HTTP-style code;
 * - url: an http(s) address; form: an auto-submitting HTML form, rebuilt from its action, method and hidden fields.
 */
export type Kind = 'id' | 'word' | 'amount' | 'currency' | 'time' | 'lastFour' | 'message' | 'count' | 'code' | 'url' | 'form';

/** A declared list of records, and the most entries kept. */
export interface ListOf {
	readonly listOf: Shape;
	readonly max: number;
}

/** The fields of a record that may leave, each with its kind, a record of its own or a list of records. */
export interface Shape {
	readonly [field: string]: Kind | Shape | ListOf;
}

export const MAX_DROPPED_NAMES = 20;

/** Kinds whose empty text is no value of theirs: an empty amount is not 0. */
const NUMBERS = new Set<Kind>(['amount', 'count', 'code', 'lastFour']);

const ID = /^[A-Za-z0-9][A-Za-z0-9._:/#@+-]{0,99}$/;
const WORD = /^[A-Za-z][A-Za-z_ -]{0,39}$/;
// Between their separators, ids and words change case once at most (PAY + hex in either case, Capitalized) or, words, in
// camel case; base64 and other encodings of bytes mix the cases at random, so that no encoded secret passes for one.
const ID_PART = { test: (part: string) => /^(?:[a-z]*[A-Z]*|[A-Z]*[a-z]*)$/.test(part.replace(/[0-9]/g, '')) };
const WORD_PART = /^(?:[a-z]+|[A-Z]+|(?:[A-Z][a-z]+)+|[a-z]+(?:[A-Z][a-z]+)+)$/;
const partsAre = (text: string, separators: RegExp, part: { test(piece: string): boolean }) => text.split(separators).every((piece) => piece === '' || part.test(piece));
const TIME = /^2\d{3}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?:[T ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const PRINTABLE = /^[\x21-\x7e]+$/;

/** Digits and separators alone, no letter: where such a text holds a card number, it is one. */
const isCardLike = (text: string) => !/[A-Za-z]/.test(text) && holdsCardNumber(text);

const asText = (value: unknown): string | undefined =>
	typeof value === 'string' ? value.trim() : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;

function urlOf(value: unknown, funnel: Funnel): string | undefined {
	if (typeof value !== 'string' || value.length > 2048 || !PRINTABLE.test(value) || /["'<>\\`]/.test(value)) return undefined;
	if (!URL.canParse(value)) return undefined;
	const url = new URL(value);
	if (!/^https?:$/.test(url.protocol) || url.username || url.password) return undefined;
	const segments = value.split(/[/?&=#;]/).map((segment) => {
		try {
			return decodeURIComponent(segment);
		} catch {
			return segment;
		}
	});
	return segments.some(isCardLike) || funnel.quotesSecret(segments.join('/')) ? undefined : value;
}

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };
const unescapeHtml = (text: string) =>
	text.replace(/&(?:#(\d{1,6})|#x([0-9a-f]{1,5})|([a-z]{2,4}));/gi, (all, decimal?: string, hex?: string, name?: string) =>
		decimal ? String.fromCodePoint(Number(decimal) % 0x110000) : hex ? String.fromCodePoint(parseInt(hex, 16) % 0x110000) : (ENTITIES[(name ?? '').toLowerCase()] ?? all),
	);
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
const attributeOf = (tag: string, name: string) => {
	const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(tag);
	return match ? unescapeHtml(match[1] ?? match[2] ?? match[3]) : undefined;
};
const FORM_VALUE = /^[\x20-\x7e]{0,16384}$/;

/**
 * The gateway's auto-submitting form, as this node writes it: the first form's action (an address) and method, and its
 * fields by name and value; no other markup or script of the answer. A field that cannot be kept voids the form.
 */
function formOf(value: unknown, funnel: Funnel): string | undefined {
	if (typeof value !== 'string' || value.length > 65536) return undefined;
	const tag = /<form\b[^>]{0,4096}>/i.exec(value)?.[0];
	const action = tag ? urlOf(attributeOf(tag, 'action'), funnel) : undefined;
	const method = (tag && attributeOf(tag, 'method')?.toUpperCase()) || 'POST';
	if (!action || !/^(?:GET|POST)$/.test(method)) return undefined;
	const fields: string[] = [];
	for (const input of value.match(/<input\b[^>]{0,20000}>/gi) ?? []) {
		const name = attributeOf(input, 'name');
		const text = attributeOf(input, 'value') ?? '';
		if (!name || !NAME.test(name) || !FORM_VALUE.test(text) || isCardLike(text) || funnel.quotesSecret(text) || fields.length >= 20) return undefined;
		fields.push(`<input type="hidden" name="${name}" value="${escapeHtml(text)}">`);
	}
	const id = attributeOf(tag ?? '', 'id');
	const named = id && /^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(id) ? ` id="${id}"` : '';
	return `<form${named} method="${method}" action="${escapeHtml(action)}">${fields.join('')}</form><script>document.forms[0].submit()</script>`;
}

/** The value as it may leave under a field of `kind`, or undefined when it is not of that kind. */
function ofKind(kind: Kind, value: unknown, funnel: Funnel): unknown {
	const text = asText(value);
	switch (kind) {
		case 'id':
			return text !== undefined && ID.test(text) && partsAre(text, /[._:/#@+-]/, ID_PART) && !isCardLike(text) && !funnel.quotesSecret(text) ? value : undefined;
		case 'word':
			return text !== undefined && typeof value === 'string' && WORD.test(text) && partsAre(text, /[_ -]/, WORD_PART) && !funnel.quotesSecret(text) ? value : undefined;
		case 'amount':
			return isAnswerAmount(value) ? value : undefined;
		case 'currency':
			return typeof value === 'string' && /^[A-Za-z]{3}$/.test(value.trim()) ? value : undefined;
		case 'time':
			return typeof value === 'string' && TIME.test(value.trim()) ? value : undefined;
		case 'lastFour': {
			const digits = text === undefined ? '' : asciiDigits(text);
			return /^\d{4}$/.test(digits) ? digits : cardNumberOf(digits)?.slice(-4);
		}
		case 'message':
			return typeof value === 'string' ? funnel.text(value) : undefined;
		case 'count':
			return text !== undefined && /^\d{1,7}$/.test(text) ? value : undefined;
		case 'code':
			return text !== undefined && /^[1-9]\d{2}$/.test(text) ? value : undefined;
		case 'url':
			return urlOf(value, funnel);
		case 'form':
			return formOf(value, funnel);
	}
}

/**
 * The value as it may leave under a field of `kind`, or undefined when it is not of that kind; whatever the kind, a
 * value that shows a secret or the request's card data does not leave (a message and a form look at their parts).
 */
export function asKind(kind: Kind, value: unknown, funnel: Funnel): unknown {
	const kept = ofKind(kind, value, funnel);
	if (kept === undefined || kind === 'message' || kind === 'form') return kept;
	return funnel.quotesSecret(String(kept)) ? undefined : kept;
}

/** A field's name as `droppedFields` may list it: a name, not a value in disguise. */
const listable = (name: string, funnel: Funnel) => NAME.test(name) && !funnel.quotesSecret(name);

/** What of a record leaves: its declared fields of their kind, and the names of the others. */
export function shapeRecord(shape: Shape, record: unknown, funnel: Funnel, dropped: string[] = [], path = ''): IDataObject {
	const kept: IDataObject = {};
	if (!isPlainObject(record)) return kept;
	for (const [name, value] of Object.entries(record)) {
		const declared = Object.hasOwn(shape, name) ? shape[name] : undefined;
		// null, and an empty text where a text may stand, carry nothing: they stay as the gateway gave them.
		const empty = value === null || (value === '' && typeof declared === 'string' && !NUMBERS.has(declared));
		const shown = declared === undefined ? undefined : empty ? value : shapeValue(declared, value, funnel, dropped, `${path}${name}.`);
		if (shown !== undefined) kept[name] = shown as IDataObject[string];
		else if (dropped.length < MAX_DROPPED_NAMES && listable(name, funnel)) dropped.push(`${path}${name}`);
	}
	return kept;
}

function shapeValue(declared: Kind | Shape | ListOf, value: unknown, funnel: Funnel, dropped: string[], path: string): unknown {
	if (typeof declared === 'string') return asKind(declared, value, funnel);
	if (isListOf(declared)) {
		if (!Array.isArray(value)) return undefined;
		return value.slice(0, declared.max).filter(isPlainObject).map((entry) => shapeRecord(declared.listOf, entry, funnel, dropped, path));
	}
	return isPlainObject(value) ? shapeRecord(declared, value, funnel, dropped, path) : undefined;
}

const isListOf = (declared: Shape | ListOf): declared is ListOf => typeof declared.listOf === 'object' && typeof declared.max === 'number';

/** The record as it leaves, `droppedFields` added when anything was left out. */
export function declaredOutput(shape: Shape, record: unknown, funnel: Funnel): IDataObject {
	const dropped: string[] = [];
	const kept = shapeRecord(shape, record, funnel, dropped);
	return dropped.length > 0 ? { ...kept, droppedFields: [...new Set(dropped)] } : kept;
}
