import { createCipheriv, createHmac, randomBytes } from 'node:crypto';

const CARD_KEY_PATTERN = /^[0-9a-fA-F]{64}$/;

/** Lowercase hex HMAC-SHA256 over `apiPath + payload`, as the gateway verifies it. */
export function signRequest(clientSecret: string, apiPath: string, payload: string): string {
	return createHmac('sha256', clientSecret).update(apiPath + payload, 'utf8').digest('hex');
}

export function isValidCardEncryptionKey(key: unknown): key is string {
	return typeof key === 'string' && CARD_KEY_PATTERN.test(key.trim());
}

/**
 * AES-256-CBC with a fresh IV per call; the output is `ivHex.cipherHex`.
 * The key is hex-decoded: used as a raw string it would be 64 bytes, which AES-256 rejects.
 * Callers validate the key first so that no error here can carry it.
 */
export function encryptCardDetails(details: Record<string, string>, keyHex: string): string {
	const key = Buffer.from(keyHex.trim(), 'hex');
	const iv = randomBytes(16);
	const cipher = createCipheriv('aes-256-cbc', key, iv);
	const ciphertext = Buffer.concat([cipher.update(JSON.stringify(details), 'utf8'), cipher.final()]);
	return `${iv.toString('hex')}.${ciphertext.toString('hex')}`;
}
