import { createHash } from 'node:crypto';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { anyText } from '../helpers/text';

const DEFAULT_USER_AGENT = 'n8n-nodes-payment-gateway (server-side workflow)';

/**
 * The merchant and browser headers the gateway requires, as the credential fills them in when an item gives none.
 * Scheduled jobs have no browser: the fingerprint then is a fixed hash of the merchant domain. Computed once per
 * execution by the transport; the credential's authenticate() falls back on it for requests without them.
 */
export function merchantHeaders(credentials: ICredentialDataDecryptedObject): Record<string, string> {
	const merchantDomain = anyText(credentials.merchantDomain);
	const headers: Record<string, string> = {
		'X-MERCHANT-DOMAIN': merchantDomain,
		'X-MERCHANT-BROWSER-FINGERPRINT':
			anyText(credentials.browserFingerprint) || createHash('sha256').update(`server:${merchantDomain}`).digest('hex'),
		'X-MERCHANT-USER-AGENT': anyText(credentials.userAgent) || DEFAULT_USER_AGENT,
		'Accept-Language': anyText(credentials.acceptLanguage) || 'en-US',
	};
	const merchantIp = anyText(credentials.merchantIp);
	if (merchantIp) headers['X-MERCHANT-IP'] = merchantIp;
	if (!merchantDomain) delete headers['X-MERCHANT-DOMAIN'];
	return headers;
}
