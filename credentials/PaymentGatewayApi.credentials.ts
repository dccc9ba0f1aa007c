import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { anyText } from '../nodes/PaymentGateway/helpers/text';
import { basicToken, signRequest } from '../nodes/PaymentGateway/transport/crypto';
import { ALWAYS_SENT_HEADERS, merchantHeaders } from '../nodes/PaymentGateway/transport/headers';

/** The header names a request already carries with a value, lower-cased. */
function headersGiven(headers: IDataObject): Set<string> {
	return new Set(
		Object.entries(headers)
			.filter(([, value]) => value !== undefined && value !== '')
			.map(([name]) => name.toLowerCase()),
	);
}

/**
 * What authenticate() derives from one credential object, kept for the requests that follow: n8n hands the same
 * object to every request of an execution, and a reconciliation signs the same path thousands of times.
 */
interface Signer {
	clientId: string;
	clientSecret: string;
	basic: string;
	sign(apiPath: string, payload: string): string;
}
const signers = new WeakMap<ICredentialDataDecryptedObject, Signer>();

function signerOf(credentials: ICredentialDataDecryptedObject): Signer {
	const clientId = anyText(credentials.clientId);
	const clientSecret = anyText(credentials.clientSecret);
	const known = signers.get(credentials);
	// Compared, not trusted: a caller may change the object it handed over.
	if (known && known.clientId === clientId && known.clientSecret === clientSecret) return known;
	// Only bodiless requests (reads, deletes) repeat their path; a body is signed afresh and not kept.
	let last = { apiPath: '', signature: '' };
	const signer: Signer = {
		clientId,
		clientSecret,
		basic: `Basic ${basicToken(clientId, clientSecret)}`,
		sign(apiPath, payload) {
			if (payload) return signRequest(clientSecret, apiPath, payload);
			if (apiPath !== last.apiPath || !last.signature) last = { apiPath, signature: signRequest(clientSecret, apiPath, '') };
			return last.signature;
		},
	};
	signers.set(credentials, signer);
	return signer;
}

/**
 * The path the gateway signs: the request path relative to its base URL, without the query string.
 * Requests built by this package always carry a relative `url`; an absolute one is reduced to its path.
 */
function apiPathOf(url: string): string {
	const path = /^https?:\/\//i.test(url) ? new URL(url).pathname : url.split('?')[0];
	return path.startsWith('/') ? path : `/${path}`;
}

/**
 * Its Test (the dialog's button, POST /rest/credentials/test) reads both path families, more than one declarative
 * `test` request can: it is the nodes' `methods.credentialTest`, named by their `testedBy`
 * (nodes/PaymentGateway/credentialTest.ts), and signs its requests with authenticate() below.
 */
export class PaymentGatewayApi implements ICredentialType {
	name = 'paymentGatewayApi';

	displayName = 'Payment Gateway API';

	icon = {
		light: 'file:paymentGateway.svg',
		dark: 'file:paymentGateway.dark.svg',
	} as const;

	documentationUrl = 'https://github.com/n8n-nodes-payment-gateway/n8n-nodes-payment-gateway/blob/main/docs/credential.md';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://gateway.example.com/nac/api/v1/merchant-host',
			description:
				'Address of the merchant API as given in your onboarding e-mail, up to but not including the endpoint (e.g. without "/order")',
		},
		{
			displayName: 'Checkout Base URL',
			name: 'checkoutBaseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://gateway.example.com',
			description:
				'Address in front of /nac/api/v1/pg/orders/… (checkout orders and status by order ID). Usually the host alone. Leave empty to use the Base URL.',
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Signs every request and is the password of the Basic authentication',
		},
		{
			displayName: 'Card Encryption Key',
			name: 'cardEncryptionKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The 64-character hexadecimal key from the merchant dashboard, used to encrypt card details',
		},
		{
			displayName: 'Merchant Domain',
			name: 'merchantDomain',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://shop.example.com',
			description: 'Your registered domain, sent as X-MERCHANT-DOMAIN',
		},
		{
			displayName: 'Merchant IP',
			name: 'merchantIp',
			type: 'string',
			default: '',
			placeholder: '203.0.113.10',
			description: 'IP address of your server, sent as X-MERCHANT-IP when set',
		},
		{
			displayName: 'Default Browser Fingerprint',
			name: 'browserFingerprint',
			type: 'string',
			default: '',
			description:
				'Sent as X-MERCHANT-BROWSER-FINGERPRINT when an item gives none (scheduled jobs have no browser). Empty means a fixed value derived from the merchant domain.',
		},
		{
			displayName: 'Default User Agent',
			name: 'userAgent',
			type: 'string',
			default: '',
			description: 'Sent as X-MERCHANT-USER-AGENT when an item gives none. Empty means a server-side identifier.',
		},
		{
			displayName: 'Default Accept-Language',
			name: 'acceptLanguage',
			type: 'string',
			default: 'en-US',
			description: 'Locale sent as Accept-Language (BCP 47, e.g. en-US) when an item gives none',
		},
		{
			displayName: 'Hosted Checkout Page URL',
			name: 'checkoutPageUrl',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://merchant.example.com/cpbs/pg',
			description:
				"The page where customers pay on the gateway's site, not an API address (usually another host than the Base URLs). When set, Order → Create Checkout outputs a ready checkoutUrl to send the customer to.",
		},
	];

	/**
	 * Signs the exact bytes that will be sent: an object body is serialized here once and replaced by that string.
	 * Per-item header overrides set by the node win over the defaults below.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const signer = signerOf(credentials);

		let payload = '';
		const method = (requestOptions.method ?? 'GET').toUpperCase();
		if (method !== 'GET' && method !== 'DELETE' && requestOptions.body !== undefined) {
			payload =
				typeof requestOptions.body === 'string' ? requestOptions.body : JSON.stringify(requestOptions.body);
		}

		const headers: IDataObject = { ...(requestOptions.headers ?? {}) };
		headers.Authorization = signer.basic;
		headers['X-Signature'] = signer.sign(apiPathOf(requestOptions.url), payload);
		// The node's transport sends these already (computed once per execution); other requests get them here.
		const given = headersGiven(headers);
		if (!ALWAYS_SENT_HEADERS.every((name) => given.has(name))) {
			for (const [name, value] of Object.entries(merchantHeaders(credentials))) {
				if (!given.has(name.toLowerCase())) headers[name] = value;
			}
		}
		if (payload && !given.has('content-type')) headers['Content-Type'] = 'application/json';

		const signed: IHttpRequestOptions = { ...requestOptions, headers };
		if (payload) signed.body = payload;
		return signed;
	}
}
