// Values reach the node from parameters, expressions, the credential and the gateway, not always as strings.
// Each caller keeps the reading it has always had: a credential field the node reads counts only as a string,
// typed-in text may also be a number, and request headers write out whatever they are given.

/** A string, trimmed; any other value is no text (''). */
export function stringText(value: unknown): string {
	return typeof value === 'string' ? value.trim() : '';
}

/** A string, trimmed, or a number written out; undefined for any other value. */
export function scalarText(value: unknown): string | undefined {
	return typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : undefined;
}

/** Any value written out, a string trimmed; undefined and null are no text (''). */
export function anyText(value: unknown): string {
	return typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : String(value);
}
