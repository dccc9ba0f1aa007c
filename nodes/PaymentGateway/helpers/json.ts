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

/** True when arrays and objects nest deeper than `limit`; it stops looking as soon as they do. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
	if (value === null || typeof value !== 'object') return false;
	if (limit === 0) return true;
	return Object.values(value).some((entry) => nestsDeeperThan(entry, limit - 1));
}

/**
 * The same for JSON text, counted outside strings before anything is parsed: parsing first would already hold
 * every level in memory.
 */
export function textNestsDeeperThan(text: string, limit: number): boolean {
	let depth = 0;
	let inString = false;
	let escaped = false;
	for (let index = 0; index < text.length; index++) {
		const char = text.charCodeAt(index);
		if (inString) {
			if (escaped) escaped = false;
			else if (char === 0x5c) escaped = true;
			else if (char === 0x22) inString = false;
		} else if (char === 0x22) inString = true;
		else if (char === 0x7b || char === 0x5b) {
			if (++depth > limit) return true;
		} else if (char === 0x7d || char === 0x5d) depth--;
	}
	return false;
}
