import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { anyText } from '../nodes/PaymentGateway/helpers/text';
import { signRequest } from '../nodes/PaymentGateway/transport/crypto';
import { merchantHeaders } from '../nodes/PaymentGateway/transport/headers';
import { checkCredentialFields } from '../nodes/PaymentGateway/validation/credential';

const MERCHANT_HEADER_NAMES = [
	'x-merchant-domain',
	'x-merchant-browser-fingerprint',
	'x-merchant-user-agent',
	'accept-language',
];

/** A customer id that no onboarding produces: listing its cards reads nothing and changes nothing. */
const CREDENTIAL_TEST_PATH = '/customer/n8n-credential-test/digitalCards';

const WRONG_BASE_URL =
	'The Base URL does not reach the merchant API: it should end where the endpoint paths (/order, /customer/…) begin';

function testRule(key: string, value: unknown, message: string) {
	return { type: 'responseSuccessBody' as const, properties: { key, value, message } };
}

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
		basic: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
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

export class PaymentGatewayApi implements ICredentialType {
	name = 'paymentGatewayApi';

	displayName = 'Payment Gateway API';

	icon = {
		light: 'file:paymentGateway.svg',
		dark: 'file:paymentGateway.dark.svg',
	} as const;

	documentationUrl = 'https://github.com/n8n-nodes-payment-gateway/n8n-nodes-payment-gateway#credentials';

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
		// The dialog's Test is the one request that meets the credential before any node has checked it.
		if (requestOptions.url === CREDENTIAL_TEST_PATH) checkCredentialFields(credentials);
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
		if (!MERCHANT_HEADER_NAMES.every((name) => given.has(name))) {
			for (const [name, value] of Object.entries(merchantHeaders(credentials))) {
				if (!given.has(name.toLowerCase())) headers[name] = value;
			}
		}
		if (payload && !given.has('content-type')) headers['Content-Type'] = 'application/json';

		const signed: IHttpRequestOptions = { ...requestOptions, headers };
		if (payload) signed.body = payload;
		return signed;
	}

	/**
	 * A working pair may still be answered with an error about the probe customer (an empty list or a 404 are both
	 * plausible), so HTTP errors are read as bodies and the rules pick out the answers that mean a wrong setup.
	 * Reading them as bodies also keeps n8n from sending the request a second time after a 401.
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.trim().replace(/\\/+$/, "")}}',
			url: CREDENTIAL_TEST_PATH,
			method: 'GET',
			ignoreHttpStatusErrors: true,
		},
		rules: [
			...[401, '401'].map((resCode) =>
				testRule(
					'resCode',
					resCode,
					'The gateway refused the credentials (401): check the Client ID and Client Secret, and that the client is active',
				),
			),
			...[400, '400'].map((resCode) =>
				testRule(
					'resCode',
					resCode,
					'The gateway refused the request (400): check Merchant Domain and the default header fields',
				),
			),
			testRule('message', 'No route found', WRONG_BASE_URL),
			testRule('errMessage', 'No route found', WRONG_BASE_URL),
			// Every answer of the merchant API carries `status` and `resCode`; a page without them comes from elsewhere.
			testRule('status', undefined, WRONG_BASE_URL),
			testRule('resCode', undefined, WRONG_BASE_URL),
		],
	};
}
