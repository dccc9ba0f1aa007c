import { createHash } from 'node:crypto';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { anyText } from '../helpers/text';

const DEFAULT_USER_AGENT = 'n8n-nodes-payment-gateway (server-side workflow)';

/** The merchant and browser headers by the credential field (and node option) that sets each. */
export const MERCHANT_HEADER = {
	merchantDomain: 'X-MERCHANT-DOMAIN',
	browserFingerprint: 'X-MERCHANT-BROWSER-FINGERPRINT',
	userAgent: 'X-MERCHANT-USER-AGENT',
	acceptLanguage: 'Accept-Language',
	merchantIp: 'X-MERCHANT-IP',
} as const;

/** What merchantHeaders always sends (the IP only when set), lower-cased as a request's names are compared. */
export const ALWAYS_SENT_HEADERS = [
	MERCHANT_HEADER.merchantDomain,
	MERCHANT_HEADER.browserFingerprint,
	MERCHANT_HEADER.userAgent,
	MERCHANT_HEADER.acceptLanguage,
].map((name) => name.toLowerCase());

/**
 * The merchant and browser headers the gateway requires, as the credential fills them in when an item gives none.
 * Scheduled jobs have no browser: the fingerprint then is a fixed hash of the merchant domain. Computed once per
 * execution by the transport; the credential's authenticate() falls back on it for requests without them.
 */
export function merchantHeaders(credentials: ICredentialDataDecryptedObject): Record<string, string> {
	const merchantDomain = anyText(credentials.merchantDomain);
	const headers: Record<string, string> = {
		[MERCHANT_HEADER.merchantDomain]: merchantDomain,
		[MERCHANT_HEADER.browserFingerprint]:
			anyText(credentials.browserFingerprint) || createHash('sha256').update(`server:${merchantDomain}`).digest('hex'),
		[MERCHANT_HEADER.userAgent]: anyText(credentials.userAgent) || DEFAULT_USER_AGENT,
		[MERCHANT_HEADER.acceptLanguage]: anyText(credentials.acceptLanguage) || 'en-US',
	};
	const merchantIp = anyText(credentials.merchantIp);
	if (merchantIp) headers[MERCHANT_HEADER.merchantIp] = merchantIp;
	if (!merchantDomain) delete headers[MERCHANT_HEADER.merchantDomain];
	return headers;
}
