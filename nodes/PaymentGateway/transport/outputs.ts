import type { IDataObject } from 'n8n-workflow';

import { asciiDigits, cardNumberOf, holdsCardNumber } from '../helpers/cardNumber';
import { isPlainObject } from '../helpers/json';
import { isAnswerAmount } from '../validation/amount';
import { currencyCode } from '../validation/input';
import type { Funnel } from './redact';

// What leaves the node of a gateway's answer (or a notification) is what its operation declares: each field by name,
// with the kind of value it may hold, each kind as narrow as the gateway's documents allow. A value leaves only when it
// is of its kind; anything else, and every field not declared, is left out, and only its name is listed in
// `droppedFields`. An item costs memory by what it outputs, and a secret or card data has no field to leave through:
// what a kind allows is a value of that field, not any text with the bad parts cut out.

/**
 * - id: the gateway's own ids: a short prefix (`wb-`, `PAY`, `dc_`), then a UUID, hex or digits; not a card number;
 * - receipt: the merchant's own reference (at most 40 characters, as the gateway documents);
 * - signature: the record's HMAC, 64 hex characters, kept only when it is the record's own (the client secret over
 *   its orderId and paymentId): any other is a text nobody can use;
 * - word: a status or a name (`success`, `partially_refunded`, `visa`, `POST`), letters, `_`, `-` and spaces;
 * - amount: a plain decimal (validation/amount.ts), as the gateway gave it, text or number, that holds no card number;
 * - currency: three letters; time: an ISO 8601 date or time; lastFour: four digits (a card number becomes its last four);
 * - message: a short text, through the one text funnel (redact.ts); count: a whole number; code: an HTTP-style code;
 * - url: an http(s) address; form: an auto-submitting HTML form, rebuilt from its action, method and fields.
 */
export type Kind = 'id' | 'receipt' | 'signature' | 'word' | 'amount' | 'currency' | 'time' | 'lastFour' | 'message' | 'count' | 'code' | 'url' | 'form';

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
const NUMBERS = new Set<Kind>(['amount', 'count', 'code', 'lastFour', 'signature']);

// A prefix of letters, then a UUID, hex or digits, in one case: the body of the id is its first group.
const GATEWAY_ID =
	/^(?:[A-Za-z]{1,8}[-_:.]?)??([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}|[0-9a-f]{1,64}|[0-9A-F]{1,64})$/;
const RECEIPT = /^[A-Za-z0-9][A-Za-z0-9._/#:@+-]{0,39}$/;
const WORD = /^[A-Za-z][A-Za-z_ -]{0,39}$/;
// Between their separators, receipts and words change case once at most (Capitalized, INV-0001) or, words, in camel or
// Pascal case; base64 and other encodings of bytes mix the cases at random, so that no encoded secret passes for one.
const ONE_CASE = { test: (part: string) => /^(?:[a-z]*[A-Z]*|[A-Z]*[a-z]*)$/.test(part.replace(/[0-9]/g, '')) };
const WORD_PART = /^(?:[a-z]+|[A-Z]+|(?:[A-Z][a-z]+)+|[a-z]+(?:[A-Z][a-z]+)+)$/;
const partsAre = (text: string, separators: RegExp, part: { test(piece: string): boolean }) => text.split(separators).every((piece) => piece === '' || part.test(piece));
const TIME = /^2\d{3}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?:[T ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?$/;
const PRINTABLE = /^[\x21-\x7e]+$/;

/** Whether any stretch without letters holds a card number (digits of any script, any separators between them). */
const holdsCard = (text: string) => asciiDigits(text).split(/\p{L}+/u).some(holdsCardNumber);

// Digits with separators that touch no letter: in a field that holds random hex ids (a form's values, an address), the
// digits between an id's letters are no card number, and would be taken for one now and then.
const DIGITS_APART = /(?<![\p{L}\d])\d(?:[^\p{L}\d]{0,8}\d)*(?![\p{L}\d])/gu;
const holdsCardApart = (text: string) => [...asciiDigits(text).matchAll(DIGITS_APART)].some(([run]) => holdsCardNumber(run));

const asText = (value: unknown): string | undefined =>
	typeof value === 'string' ? value.trim() : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;

/**
 * The gateway's id. One of digits alone, without a prefix, has no more than 11 of them: 12 or more could be a card
 * number, or one followed by an expiry. Behind a prefix (`dc_`, `PAY`), digits alone are the id's random hex by chance
 * now and then; the card data the request sent is looked for there too (redact.ts).
 */
function gatewayIdOf(text: string): boolean {
	const body = GATEWAY_ID.exec(text)?.[1];
	return body !== undefined && !(body === text && /^[\d-]+$/.test(body) && body.replace(/-/g, '').length > 11);
}

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
	return segments.some(holdsCardApart) || funnel.quotesSecret(segments.join('/')) ? undefined : value;
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
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;
// A tag from `<` to the next `>`, with no `<` inside: found in one pass, whatever the text between tags.
const TAG = /<(\/?)([A-Za-z]+)\b([^<>]*)>/g;

/**
 * The gateway's auto-submitting form, as this node writes it: the first form's action (an address), method and id, and
 * the fields inside it by name and value; no other markup or script of the answer. A field that cannot be kept voids
 * the form.
 */
function formOf(value: unknown, funnel: Funnel): string | undefined {
	if (typeof value !== 'string' || value.length > 65536) return undefined;
	let form: string | undefined;
	const fields: string[] = [];
	for (const [, closing, name, attributes] of value.matchAll(TAG)) {
		const tag = name.toLowerCase();
		if (tag === 'form' && closing) break;
		if (tag === 'form' && form === undefined) form = attributes;
		else if (tag === 'input' && form !== undefined) {
			const field = attributeOf(attributes, 'name');
			const text = attributeOf(attributes, 'value') ?? '';
			if (!field || !FIELD_NAME.test(field) || !FORM_VALUE.test(text) || holdsCardApart(text) || funnel.quotesSecret(text) || fields.length >= 20) return undefined;
			fields.push(`<input type="hidden" name="${field}" value="${escapeHtml(text)}">`);
		}
	}
	const action = form === undefined ? undefined : urlOf(attributeOf(form, 'action'), funnel);
	const method = (form && attributeOf(form, 'method')?.toUpperCase()) || 'POST';
	if (!action || !/^(?:GET|POST)$/.test(method)) return undefined;
	const id = attributeOf(form ?? '', 'id');
	const named = id && /^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(id) ? ` id="${id}"` : '';
	return `<form${named} method="${method}" action="${escapeHtml(action)}">${fields.join('')}</form><script>document.forms[0].submit()</script>`;
}

/** The value as it may leave under a field of `kind` of `record`, or undefined when it is not of that kind. */
function ofKind(kind: Kind, value: unknown, funnel: Funnel, record: IDataObject): unknown {
	const text = asText(value);
	switch (kind) {
		case 'id':
			return text !== undefined && gatewayIdOf(text) ? value : undefined;
		case 'receipt':
			return text !== undefined && RECEIPT.test(text) && partsAre(text, /[._/#:@+-]/, ONE_CASE) && !holdsCard(text) ? value : undefined;
		case 'signature':
			return typeof value === 'string' && funnel.signs(record.orderId, record.paymentId, value) ? value : undefined;
		case 'word':
			return text !== undefined && typeof value === 'string' && WORD.test(text) && partsAre(text, /[_ -]/, WORD_PART) ? value : undefined;
		case 'amount':
			return isAnswerAmount(value) && !holdsCardNumber(text ?? '') ? value : undefined;
		case 'currency':
			return currencyCode(value) ? value : undefined;
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
export function asKind(kind: Kind, value: unknown, funnel: Funnel, record: IDataObject = {}): unknown {
	const kept = ofKind(kind, value, funnel, record);
	if (kept === undefined || kind === 'message' || kind === 'form') return kept;
	return funnel.quotesSecret(String(kept)) ? undefined : kept;
}

/** A field's name as `droppedFields` may list it: a name of words (`cardNumber`, `card_no`, `field2`), nothing else. */
function listable(name: string, funnel: Funnel): boolean {
	return /^[A-Za-z][A-Za-z0-9_]{0,39}$/.test(name) && partsAre(name.replace(/\d{1,3}$/, ''), /_/, WORD_PART) && !funnel.quotesSecret(name);
}

/** What of a record leaves: its declared fields of their kind, and (into `dropped`) the names of the others. */
export function shapeRecord(shape: Shape, record: unknown, funnel: Funnel, dropped: string[] = [], path = ''): IDataObject {
	const kept: IDataObject = {};
	if (!isPlainObject(record)) return kept;
	for (const [name, value] of Object.entries(record)) {
		const declared = Object.hasOwn(shape, name) ? shape[name] : undefined;
		// null, and an empty text where a text may stand, carry nothing: they stay as the gateway gave them.
		const empty = value === null || (value === '' && typeof declared === 'string' && !NUMBERS.has(declared));
		const shown = declared === undefined ? undefined : empty ? value : shapeValue(declared, value, funnel, dropped, `${path}${name}.`, record);
		if (shown !== undefined) kept[name] = shown as IDataObject[string];
		else if (dropped.length < MAX_DROPPED_NAMES && listable(name, funnel)) dropped.push(`${path}${name}`);
	}
	return kept;
}

function shapeValue(declared: Kind | Shape | ListOf, value: unknown, funnel: Funnel, dropped: string[], path: string, record: IDataObject): unknown {
	if (typeof declared === 'string') return asKind(declared, value, funnel, record);
	if (isListOf(declared)) {
		if (!Array.isArray(value)) return undefined;
		return value.slice(0, declared.max).filter(isPlainObject).map((entry) => shapeRecord(declared.listOf, entry, funnel, dropped, path));
	}
	return isPlainObject(value) ? shapeRecord(declared, value, funnel, dropped, path) : undefined;
}

const isListOf = (declared: Shape | ListOf): declared is ListOf => typeof declared.listOf === 'object' && typeof declared.max === 'number';

/** Every text an output holds, its names included, in order. */
function textsOf(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (typeof value === 'number') return [String(value)];
	if (isPlainObject(value) || Array.isArray(value)) return Object.entries(value).flatMap(([key, entry]) => [key, ...textsOf(entry)]);
	return [];
}

/**
 * The record as it leaves, `droppedFields` added when anything was left out. The fields kept are read again all
 * together, so that a secret cut in pieces across fields, entries or names does not leave either: of such a record,
 * nothing leaves (undefined).
 */
export function declaredOutput(shape: Shape, record: unknown, funnel: Funnel): IDataObject | undefined {
	const dropped: string[] = [];
	const kept = shapeRecord(shape, record, funnel, dropped);
	const output = dropped.length > 0 ? { ...kept, droppedFields: [...new Set(dropped)] } : kept;
	return funnel.quotesSecret(textsOf(output).join('')) ? undefined : output;
}
