import type { IDataObject } from 'n8n-workflow';

/** The fields of a failure answer that say what failed; the gateway's own messages use the first of them found. */
const FAILURE_FIELDS = ['resCode', 'status', 'errMessage', 'message'] as const;

/** The longest failure text kept: a gateway's message is a sentence, an echoed request is not. */
const MAX_FAILURE_TEXT = 300;

/**
 * A failure text as it may be kept. `hidden` (the secret, the Basic value) is cut out, and so are any Basic
 * credentials and any run of 12 or more digits (a card number, spaced or not) it quotes; long texts are cut short.
 */
function keptFailureText(value: string, hidden: readonly string[]): string {
	const text = hidden
		.reduce((kept, secret) => kept.split(secret).join('…'), value)
		.replace(/Basic\s+[A-Za-z0-9+/=_-]{8,}/gi, 'Basic …')
		.replace(/\d(?:[ -]?\d){11,}/g, '…');
	return text.length > MAX_FAILURE_TEXT ? `${text.slice(0, MAX_FAILURE_TEXT)}…` : text;
}

/**
 * What of a failure answer may reach an error or an item: its known fields, when they are plain values. Whatever
 * else it holds stays out: a gateway or a proxy that echoes the request would put the Basic header, the client
 * secret or card data into the execution. The texts kept are cleaned the same way (keptFailureText), should they
 * quote the request; `status` is kept only as the short word the gateway uses.
 */
export function knownFailureFields(body: IDataObject, hidden: readonly string[] = []): IDataObject {
	const known: IDataObject = {};
	for (const key of FAILURE_FIELDS) {
		const value = body[key];
		if (key === 'status' && !(typeof value === 'string' && /^[A-Za-z_ -]{1,32}$/.test(value))) continue;
		if (typeof value === 'string') known[key] = keptFailureText(value, hidden);
		else if (typeof value === 'number' && Number.isFinite(value)) known[key] = value;
	}
	return known;
}
