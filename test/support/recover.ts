/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

// The tests' own attempt to get a secret back out of a text the node let out, written apart from the node's funnel: it
// undoes every encoding it knows (percent, HTML, JSON, octal escapes, byte lists, hex, base64 and base64url at every
// offset, gzip and deflate, compatibility letters, invisible characters, reversal), up to two layers deep, and looks in
// each view for any ten letters and digits of a secret in a row. A finding names the view that showed it.

const PART = 10;

/**
 * Every decimal digit of Unicode with its value, found by walking the code points once: each script's digits are ten
 * in a row, 0 to 9.
 */
export const DIGIT_VALUES = (() => {
	const values = new Map<string, number>();
	let inRow = 0;
	for (let code = 0; code <= 0x1ffff; code++) {
		const char = String.fromCodePoint(code);
		if (/\p{Nd}/u.test(char)) values.set(char, inRow++ % 10);
		else inRow = 0;
	}
	return values;
})();

/** The text in compatibility form, every decimal digit of any script as its ASCII digit. */
export const asciiDigitsOf = (text: string) => [...text.normalize('NFKC')].map((char) => (DIGIT_VALUES.has(char) ? String(DIGIT_VALUES.get(char)) : char)).join('');
const compact = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

function decodings(text: string): Array<[string, string]> {
	const views: Array<[string, string]> = [];
	const add = (how: string, view: string | undefined) => {
		if (view !== undefined && view !== text && view.length > 0) views.push([how, view]);
	};
	add('NFKC, digits of any script', asciiDigitsOf(text));
	add('without invisible characters and spaces', text.replace(/[\s\u00ad\u180e\u200b-\u200f\u2028-\u202f\u2060-\u2064\ufeff]/g, ''));
	add('reversed', [...text].reverse().join(''));
	try {
		add('percent', decodeURIComponent(text));
	} catch {
		add('percent', text.replace(/%([0-9a-f]{2})/gi, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16))));
	}
	add('HTML', text.replace(/&#(\d+);?/g, (_all, code: string) => String.fromCodePoint(Number(code) % 0x110000)).replace(/&#x([0-9a-f]+);?/gi, (_all, code: string) => String.fromCodePoint(parseInt(code, 16) % 0x110000)));
	add('escapes', text.replace(/\\u([0-9a-f]{4})/gi, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/\\x([0-9a-f]{2})/gi, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/\\([0-7]{1,3})/g, (_all, octal: string) => String.fromCharCode(parseInt(octal, 8))));
	const numbers = text.match(/\d{1,3}/g) ?? [];
	if (numbers.length >= 4 && numbers.every((number) => Number(number) < 256)) add('byte list', Buffer.from(numbers.map(Number)).toString('latin1'));
	const squeezed = text.replace(/[\s\u200b-\u200f\u2060\ufeff\u00ad]/g, '');
	for (const run of squeezed.match(/[0-9a-fA-F]{8,}/g) ?? []) {
		const bytes = Buffer.from(run.length % 2 ? run.slice(1) : run, 'hex');
		add('hex', bytes.toString('latin1'));
		add('hex as UTF-16', bytes.toString('utf16le'));
	}
	for (const run of squeezed.match(/[A-Za-z0-9+/=_-]{8,}/g) ?? []) {
		for (let offset = 0; offset < 4 && run.length - offset >= 8; offset++) {
			const bytes = Buffer.from(run.slice(offset).replace(/-/g, '+').replace(/_/g, '/'), 'base64');
			add(`base64 at ${offset}`, bytes.toString('latin1'));
			add(`base64 at ${offset} as UTF-16`, bytes.toString('utf16le'));
			// gzip and zlib say so in their first bytes; raw deflate does not.
			const inflaters = bytes[0] === 0x1f && bytes[1] === 0x8b ? [['gzip', gunzipSync] as const] : bytes[0] === 0x78 ? [['deflate', inflateSync] as const] : [['raw deflate', inflateRawSync] as const];
			for (const [name, inflate] of inflaters) {
				try {
					add(`${name} of base64 at ${offset}`, inflate(bytes).toString('latin1'));
				} catch {
					// not compressed
				}
			}
		}
	}
	return views;
}

/** The views of `text` that show any ten letters and digits of a secret in a row; empty when none does. */
export function recoverable(text: string, secrets: string[]): string[] {
	const parts = new Set<string>();
	for (const secret of secrets) {
		const form = compact(secret);
		for (let at = 0; at + PART <= form.length; at++) parts.add(form.slice(at, at + PART));
	}
	const found: string[] = [];
	const look = (how: string, view: string, depth: number) => {
		const seen = compact(view);
		for (let at = 0; at + PART <= seen.length; at++) {
			if (parts.has(seen.slice(at, at + PART))) {
				found.push(`${how}: ${JSON.stringify(view.slice(0, 80))}`);
				return;
			}
		}
		if (depth < 2) for (const [next, decoded] of decodings(view)) look(`${how} → ${next}`, decoded, depth + 1);
	};
	look('as kept', text, 0);
	return found;
}

/** Every text a value holds: its strings, its keys, and each list of numbers as one text (a byte or digit array). */
function textsOf(value: unknown, texts = new Set<string>()): Set<string> {
	if (typeof value === 'string') texts.add(value);
	else if (Array.isArray(value)) {
		if (value.length > 1 && value.every((entry) => typeof entry === 'number')) texts.add(value.join(', '));
		for (const entry of value) textsOf(entry, texts);
	} else if (value !== null && typeof value === 'object') {
		for (const [key, entry] of Object.entries(value)) {
			texts.add(key);
			textsOf(entry, texts);
		}
	}
	return texts;
}

const UUID = /\b[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}\b/gi;

/**
 * What of `secrets` (long enough to decode) and `tokens` (a CVV, an expiry: too short to decode, looked for as digits of
 * their own, in any script) can be got back from anything a value holds, one text at a time and all of it run together.
 */
export function leaksOf(value: unknown, secrets: string[], tokens: string[] = []): string[] {
	const found: string[] = [];
	const texts = [...textsOf(value)];
	for (const text of texts) found.push(...recoverable(text, secrets));
	const together = texts.join(' ');
	found.push(...recoverable(compact(asciiDigitsOf(together)), secrets).map((how) => `all texts together, ${how}`));
	for (const token of tokens) {
		// Digits of their own, not inside hex (a signature's or an id's digits hold any four by chance), nor one 4-hex
		// group of a UUID (the sandbox's order ids: "-9731-" is a random group, found once in a full run).
		const alone = new RegExp(`(^|[^0-9A-Fa-f])(?:${token}|${[...token].reverse().join('')})([^0-9A-Fa-f]|$)`);
		for (const text of texts) if (alone.test(asciiDigitsOf(text).replace(UUID, ' '))) found.push(`${token} in ${JSON.stringify(text.slice(0, 80))}`);
	}
	return [...new Set(found)];
}
