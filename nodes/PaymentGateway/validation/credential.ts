import type { IDataObject } from 'n8n-workflow';

import { stringText } from '../helpers/text';
import { InvalidInput, withoutTrailing } from './input';

/** A field of the Payment Gateway API credential is unusable; the value is never repeated, it may be a secret. */
export class InvalidCredential extends InvalidInput {}

/** The longest address a credential field takes; longer text is refused before any pattern reads it. */
const MAX_ADDRESS_CHARS = 2048;

/** A credential field's text, trimmed, without trailing slashes, and bounded in length. */
function addressText(field: string, value: unknown): string {
	const text = stringText(value);
	if (text.length > MAX_ADDRESS_CHARS) throw new InvalidCredential(field, `is longer than ${MAX_ADDRESS_CHARS} characters`);
	return withoutTrailing(text, '/');
}

/** This machine, as URL gives the host name: `localhost`, 127.0.0.0/8 (however written) and ::1. */
const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;
const isLoopback = (hostname: string): boolean => LOOPBACK_HOST.test(hostname);

/**
 * An address of the credential as it is used, the Base URLs and the Hosted Checkout Page URL alike: printable ASCII with
 * no space or backslash (what a browser and this node would read differently), a scheme, no query or fragment, no user
 * info (it would be sent as a second Authorization, or hide the host: `https://evil\@merchant/`), and https: every
 * request carries the Basic header with the client secret, and a customer's browser opens the page; plain http only to
 * this machine (a local test gateway). `what` says, for https, why it matters here.
 */
function webAddress(field: string, value: unknown, what: string): { address: string; url: URL } {
	const address = addressText(field, value);
	if (!/^https?:\/\//i.test(address)) throw new InvalidCredential(field, 'must start with https:// or http://');
	if (!/^[\x21-\x7e]+$/.test(address) || address.includes('\\')) {
		throw new InvalidCredential(field, 'must be a plain web address: no spaces, backslashes, line breaks or characters outside ASCII (write a host in another script as its xn-- form)');
	}
	if (!URL.canParse(address)) throw new InvalidCredential(field, 'is not a valid web address');
	const url = new URL(address);
	if (url.search || url.hash || address.includes('?') || address.includes('#')) {
		throw new InvalidCredential(field, 'must not contain a query string (?…) or a fragment (#…)');
	}
	if (url.username || url.password || /^https?:\/\/[^/]*@/i.test(address)) {
		throw new InvalidCredential(field, 'must not contain a user name or password (user:password@…): the credential signs every request');
	}
	if (url.protocol !== 'https:' && !isLoopback(url.hostname)) {
		throw new InvalidCredential(field, `must start with https://: ${what} (http:// is accepted only for localhost, 127.0.0.0/8 and ::1)`);
	}
	return { address, url };
}

/** A base address as the transport uses it: no trailing slash. */
const baseAddress = (field: string, value: unknown): string =>
	webAddress(field, value, 'over http:// the client secret would travel in clear text').address;

/** Where each path family is sent, once the client's identity is there to sign with. */
export function baseAddresses(credentials: IDataObject): { short: string; long: string } {
	if (!stringText(credentials.clientId)) throw new InvalidCredential('Client ID', 'is empty');
	if (!stringText(credentials.clientSecret)) throw new InvalidCredential('Client Secret', 'is empty');
	const short = baseAddress('Base URL', credentials.baseUrl);
	const long = stringText(credentials.checkoutBaseUrl)
		? baseAddress('Checkout Base URL', credentials.checkoutBaseUrl)
		: short;
	return { short, long };
}

/** The key as AES-256 takes it: 64 hexadecimal characters decoded to 32 bytes (as text it would be 64 bytes). */
export function cardEncryptionKey(value: unknown): Buffer {
	const key = stringText(value);
	if (!/^[0-9a-fA-F]{64}$/.test(key)) {
		throw new InvalidCredential('Card Encryption Key', 'must be the 64 hexadecimal characters from the merchant dashboard');
	}
	return Buffer.from(key, 'hex');
}

/** Every field of the credential a request or a payment needs, checked at once (the credential dialog's Test). */
export function checkCredentialFields(credentials: IDataObject): void {
	baseAddresses(credentials);
	cardEncryptionKey(credentials.cardEncryptionKey);
	checkedCheckoutPageAddress(credentials);
}

/** Both path families of the merchant API live under /nac/api/ in real deployments; the checkout page does not. */
const API_PATH = /\/nac\/api(\/|$)/i;

/** Whether `page` is a base URL of the credential, or lies under one that has a path of its own (a prefix). */
function underApiBase(page: string, credentials: IDataObject): boolean {
	const address = withoutTrailing(page, '/');
	return [credentials.baseUrl, credentials.checkoutBaseUrl].some((value) => {
		const base = withoutTrailing(stringText(value), '/');
		if (!URL.canParse(base) || new URL(base).pathname === '/') return false;
		return address === base || address.startsWith(`${base}/`);
	});
}

/**
 * The hosted checkout page, when set: Create Checkout appends `?actionType=checkout&…` to it and a customer's
 * browser opens it, so it is a page of its own (a path on https, http only on this machine), not an API address.
 */
export function checkedCheckoutPageAddress(credentials: IDataObject): string | undefined {
	const field = 'Hosted Checkout Page URL';
	if (!stringText(credentials.checkoutPageUrl)) return undefined;
	const { address, url } = webAddress(field, credentials.checkoutPageUrl, 'a customer’s browser opens it');
	if (withoutTrailing(url.pathname, '/') === '') {
		throw new InvalidCredential(field, 'must include the page’s path, e.g. https://merchant.example.com/cpbs/pg');
	}
	if (API_PATH.test(url.pathname) || underApiBase(address, credentials)) {
		throw new InvalidCredential(
			field,
			'is an address of the merchant API; it must be the page where customers pay (usually on another host, e.g. https://merchant.example.com/cpbs/pg)',
		);
	}
	// As a browser reads it: the customer is sent to that very address.
	return withoutTrailing(url.href, '/');
}
