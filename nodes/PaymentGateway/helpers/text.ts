// Values reach the node from parameters, expressions, the credential and the gateway, not always as strings. What
// a non-string counts as depends on the caller: a credential field the node reads is a string or missing, text
// typed into a parameter may come from an expression as a number, and the headers and signature the credential
// adds to any node's request write out whatever they are given.

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
