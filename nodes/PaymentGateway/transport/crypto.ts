import { createCipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The gateway's one signing primitive: lowercase hex HMAC-SHA256 keyed with the client secret. */
function hmacHex(clientSecret: string, data: string): string {
	return createHmac('sha256', clientSecret).update(data, 'utf8').digest('hex');
}

/** The user-pass of Basic authentication as the client id and secret make it; its base64 is the header's token. */
export const basicUserPass = (clientId: string, clientSecret: string): string => `${clientId}:${clientSecret}`;

/** The token of the `Authorization: Basic` header every request carries. */
export const basicToken = (clientId: string, clientSecret: string): string =>
	Buffer.from(basicUserPass(clientId, clientSecret), 'utf8').toString('base64');

/** `X-Signature` of a request: the HMAC over `apiPath + payload`, as the gateway verifies it. */
export function signRequest(clientSecret: string, apiPath: string, payload: string): string {
	return hmacHex(clientSecret, apiPath + payload);
}

/** `signature` of a notification or status record: the HMAC over `orderId|paymentId`, values trimmed. */
export function notificationSignature(clientSecret: string, orderId: string, paymentId: string): string {
	return hmacHex(clientSecret, `${orderId.trim()}|${paymentId.trim()}`);
}

/** Constant-time check of a notification's `signature`; anything but a string of the right length is false. */
export function isAuthenticSignature(
	clientSecret: string,
	orderId: string,
	paymentId: string,
	signature: unknown,
): boolean {
	if (typeof signature !== 'string') return false;
	const given = Buffer.from(signature.trim(), 'utf8');
	const expected = Buffer.from(notificationSignature(clientSecret, orderId, paymentId), 'utf8');
	return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * AES-256-CBC with a fresh IV per call; the output is `ivHex.cipherHex`.
 * The key is hex-decoded: used as a raw string it would be 64 bytes, which AES-256 rejects.
 * Callers validate the key first so that no error here can carry it; a decoded key saves the work per item.
 */
export function encryptCardDetails(details: Record<string, string>, keyHexOrBytes: string | Buffer): string {
	const key = typeof keyHexOrBytes === 'string' ? Buffer.from(keyHexOrBytes.trim(), 'hex') : keyHexOrBytes;
	const iv = randomBytes(16);
	const cipher = createCipheriv('aes-256-cbc', key, iv);
	const ciphertext = Buffer.concat([cipher.update(JSON.stringify(details), 'utf8'), cipher.final()]);
	return `${iv.toString('hex')}.${ciphertext.toString('hex')}`;
}
