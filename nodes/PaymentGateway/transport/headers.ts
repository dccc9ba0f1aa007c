import { createHash } from 'node:crypto';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

const DEFAULT_USER_AGENT = 'n8n-nodes-payment-gateway (server-side workflow)';

function text(value: unknown): string {
	return typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : String(value);
}

/**
 * The merchant and browser headers the gateway requires, as the credential fills them in when an item gives none.
 * Scheduled jobs have no browser: the fingerprint then is a fixed hash of the merchant domain. Computed once per
 * execution by the transport; the credential's authenticate() falls back on it for requests without them.
 */
export function merchantHeaders(credentials: ICredentialDataDecryptedObject): Record<string, string> {
	const merchantDomain = text(credentials.merchantDomain);
	const headers: Record<string, string> = {
		'X-MERCHANT-DOMAIN': merchantDomain,
		'X-MERCHANT-BROWSER-FINGERPRINT':
			text(credentials.browserFingerprint) || createHash('sha256').update(`server:${merchantDomain}`).digest('hex'),
		'X-MERCHANT-USER-AGENT': text(credentials.userAgent) || DEFAULT_USER_AGENT,
		'Accept-Language': text(credentials.acceptLanguage) || 'en-US',
	};
	const merchantIp = text(credentials.merchantIp);
	if (merchantIp) headers['X-MERCHANT-IP'] = merchantIp;
	if (!merchantDomain) delete headers['X-MERCHANT-DOMAIN'];
	return headers;
}
