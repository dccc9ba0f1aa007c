import type { IDataObject } from 'n8n-workflow';

import type { Redactor } from './redact';
import { cardDataRedactor } from './redact';

/** The fields of a failure answer that say what failed; the gateway's own messages use the first of them found. */
const FAILURE_FIELDS = ['resCode', 'status', 'errMessage', 'message'] as const;

/** The longest failure text kept: a gateway's message is a sentence, an echoed request is not. */
export const MAX_FAILURE_TEXT = 300;

/** A failure text as it may be kept: through the redaction funnel (strict: every long digit run goes), then cut short. */
export function keptFailureText(value: string, redactor: Redactor): string {
	const text = redactor.text(value, true);
	return text.length > MAX_FAILURE_TEXT ? `${text.slice(0, MAX_FAILURE_TEXT)}…` : text;
}

/**
 * What of a failure answer may reach an error or an item: its known fields, when they are plain values. Whatever
 * else it holds stays out: a gateway or a proxy that echoes the request would put the Basic header, the client
 * secret or card data into the execution. The texts kept go through the redaction funnel, should they quote the
 * request; `status` is kept only as the short word the gateway uses.
 */
export function knownFailureFields(body: IDataObject, redactor: Redactor = cardDataRedactor): IDataObject {
	const known: IDataObject = {};
	for (const key of FAILURE_FIELDS) {
		const value = body[key];
		if (key === 'status' && !(typeof value === 'string' && value.length <= 32 && /^[A-Za-z_ -]{1,32}$/.test(value))) continue;
		// A resCode is an HTTP-style code of three digits; anything else (a card number echoed there) is not one.
		if (key === 'resCode' && !/^[1-9]\d{2}$/.test(String(value).trim())) continue;
		if (typeof value === 'string') known[key] = keptFailureText(value, redactor);
		else if (typeof value === 'number' && Number.isFinite(value)) known[key] = value;
	}
	return known;
}
