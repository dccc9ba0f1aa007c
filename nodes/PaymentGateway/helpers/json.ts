import type { IDataObject } from 'n8n-workflow';

/** The value JSON text stands for; undefined when it is not JSON. */
export function parseJson(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}

/** A JSON object: not null, not an array. */
export function isPlainObject(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Bounds of JSON from outside (the gateway's answers, notifications), counted the same way wherever they apply: every
 * object, array, string, number, true, false and null is a value, a key is not (it comes with its value). The
 * gateway's answers hold a few dozen values and a customer's stored cards a few hundred, and they nest four levels.
 */
export const MAX_JSON_VALUES = 2000;
/** Containers nested in one another, the outermost counting as one. */
export const MAX_JSON_DEPTH = 16;

export interface JsonBounds {
	values: number;
	depth: number;
	/** The longest string, key or value, in bytes as written between its quotes (escapes included). */
	textBytes: number;
	/**
	 * A value already parsed, as a whole: its texts and keys, and a few bytes for each other value (valueExceeds only;
	 * a text's bytes are bounded where they are read).
	 */
	totalBytes?: number;
}

/** Which bound a JSON text exceeds. */
export type JsonExcess = keyof JsonBounds;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const SPACE = 0x20;
const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

const SPACE_CLASS = 1;
const STRUCTURE_CLASS = 2;
/** What ends a number or a literal: white space (SPACE_CLASS), a quote or a structural byte; 0 for the others. */
const SEPARATOR = new Uint8Array(256);
for (const byte of [SPACE, TAB, LINE_FEED, CARRIAGE_RETURN]) SEPARATOR[byte] = SPACE_CLASS;
for (const byte of [QUOTE, OPEN_OBJECT, OPEN_ARRAY, CLOSE_OBJECT, CLOSE_ARRAY, COMMA, COLON]) SEPARATOR[byte] = STRUCTURE_CLASS;

/**
 * Counts JSON text's values, nesting and longest string from its bytes, as they arrive and before they are decoded:
 * a text of a million empty objects is refused after its first few thousand bytes, without a string or an object
 * built from it. It does not check that the text is JSON (parsing does, once the bounds hold); it only has to count
 * right where the text is. Each byte is looked at once, whatever the chunks.
 */
export class JsonScan {
	private values = 0;
	private depth = 0;
	/** Per open container, 1 for an object: whether a string after a comma is a key. */
	private readonly objects: Uint8Array;
	private inString = false;
	private escaped = false;
	private textBytes = 0;
	/** Inside a number or a literal, whose first byte counted it. */
	private inLiteral = false;
	private expectsKey = false;
	private excess: JsonExcess | undefined;

	constructor(private readonly bounds: JsonBounds) {
		this.objects = new Uint8Array(bounds.depth);
	}

	/** The first bound the text so far exceeds, if any; once exceeded, further bytes are not looked at. */
	add(bytes: Uint8Array): JsonExcess | undefined {
		if (this.excess) return this.excess;
		const { bounds, objects } = this;
		let { values, depth, inString, escaped, textBytes, inLiteral, expectsKey } = this;
		let excess: JsonExcess | undefined;
		const { length } = bytes;
		let index = 0;
		while (index < length) {
			if (inString) {
				// A text's bytes up to its next quote or backslash in one tight run, and no further than one byte past
				// the bound; the byte after a backslash is text whatever it is.
				const start = index;
				if (escaped) {
					escaped = false;
					index++;
				}
				const stop = Math.min(length, start + bounds.textBytes - textBytes + 1);
				while (index < stop) {
					const byte = bytes[index];
					if (byte === QUOTE || byte === BACKSLASH) break;
					index++;
				}
				textBytes += index - start;
				if (textBytes > bounds.textBytes) {
					excess = 'textBytes';
					break;
				}
				if (index === length) break;
				if (bytes[index++] === QUOTE) inString = false;
				else {
					escaped = true;
					if (++textBytes > bounds.textBytes) {
						excess = 'textBytes';
						break;
					}
				}
				continue;
			}
			const byte = bytes[index++];
			switch (byte) {
				case QUOTE:
					inString = true;
					inLiteral = false;
					textBytes = 0;
					if (expectsKey) expectsKey = false;
					else if (++values > bounds.values) excess = 'values';
					break;
				case OPEN_OBJECT:
				case OPEN_ARRAY:
					inLiteral = false;
					if (++values > bounds.values) excess = 'values';
					else if (depth === bounds.depth) excess = 'depth';
					else {
						objects[depth++] = byte === OPEN_OBJECT ? 1 : 0;
						expectsKey = byte === OPEN_OBJECT;
					}
					break;
				case CLOSE_OBJECT:
				case CLOSE_ARRAY:
					// A closing bracket too many is not JSON: parsing refuses it.
					if (depth > 0) depth--;
					inLiteral = false;
					expectsKey = false;
					break;
				case COMMA:
					inLiteral = false;
					expectsKey = depth > 0 && objects[depth - 1] === 1;
					break;
				case COLON:
					inLiteral = false;
					break;
				case SPACE:
				case TAB:
				case LINE_FEED:
				case CARRIAGE_RETURN:
					inLiteral = false;
					while (index < length && SEPARATOR[bytes[index]] === SPACE_CLASS) index++;
					break;
				default:
					if (!inLiteral) {
						inLiteral = true;
						expectsKey = false;
						if (++values > bounds.values) excess = 'values';
					}
					// The rest of a number or a literal: nothing in it counts.
					while (index < length && SEPARATOR[bytes[index]] === 0) index++;
			}
			if (excess) break;
		}
		this.values = values;
		this.depth = depth;
		this.inString = inString;
		this.escaped = escaped;
		this.textBytes = textBytes;
		this.inLiteral = inLiteral;
		this.expectsKey = expectsKey;
		this.excess = excess;
		return excess;
	}
}

/**
 * The same bounds for a value already parsed, counted the same way (a string by its length, which its bytes are not
 * fewer than); it visits at most `bounds.values` values, so a value far out of bounds costs no more than one inside.
 */
export function valueExceeds(value: unknown, bounds: JsonBounds): JsonExcess | undefined {
	let values = 0;
	let bytes = 0;
	const total = bounds.totalBytes ?? Infinity;
	const visit = (entry: unknown, depth: number): JsonExcess | undefined => {
		if (++values > bounds.values) return 'values';
		if (typeof entry === 'string') {
			// No shorter in UTF-8 than in UTF-16 units: the longest are refused before they are measured.
			const size = entry.length > bounds.textBytes ? Infinity : jsonTextBytes(entry);
			bytes += size + 2;
			return size > bounds.textBytes ? 'textBytes' : bytes > total ? 'totalBytes' : undefined;
		}
		if (entry === null || typeof entry !== 'object') return (bytes += String(entry).length + 1) > total ? 'totalBytes' : undefined;
		if (depth === bounds.depth) return 'depth';
		// By index: an array's entries are not copied out first, however many there are.
		if (Array.isArray(entry)) {
			for (let index = 0; index < entry.length; index++) {
				const excess = visit(entry[index], depth + 1);
				if (excess) return excess;
			}
			return undefined;
		}
		// Object.keys lists every name first: about half a microsecond for each, before any bound can stop it.
		for (const key of Object.keys(entry)) {
			if (key.length > bounds.textBytes) return 'textBytes';
			if ((bytes += jsonTextBytes(key) + 4) > total) return 'totalBytes';
			const excess = visit((entry as IDataObject)[key], depth + 1);
			if (excess) return excess;
		}
		return undefined;
	};
	return visit(value, 0);
}

/** A text's bytes as JSON writes it: UTF-8, a quote, a backslash or a control character escaped (at most 6 bytes). */
function jsonTextBytes(text: string): number {
	return Buffer.byteLength(text, 'utf8') + (text.match(/["\\\p{Cc}]/gu)?.length ?? 0) * 5;
}
