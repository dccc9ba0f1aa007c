import { randomBytes } from 'node:crypto';

import { encryptCardDetails, signRequest } from '../../nodes/PaymentGateway/transport/crypto';
import { cardEncryptionKey, InvalidCredential } from '../../nodes/PaymentGateway/validation/credential';
import { openssl, opensslHmacHex } from '../support/openssl';

describe('signRequest agrees with openssl', () => {
	const cases: Array<[string, string, string]> = [
		['sandbox-secret', '/order', '{"amount":10.5,"currency":"USD"}'],
		['s3cr3t with spaces', '/transaction/status/pay_123', ''],
		['ключ', '/customer/cus_1/digitalCards/dc_9', ''],
		['k', '/transaction/initiate', JSON.stringify({ name: 'Zoë', note: 'ümlaut €' })],
	];

	it.each(cases)('secret %p over %p', (secret, apiPath, payload) => {
		const expected = opensslHmacHex(secret, apiPath + payload);
		expect(signRequest(secret, apiPath, payload)).toBe(expected);
		expect(signRequest(secret, apiPath, payload)).toMatch(/^[0-9a-f]{64}$/);
	});

	it('changes when a single byte of the payload changes', () => {
		expect(signRequest('k', '/order', '{"amount":1}')).not.toBe(signRequest('k', '/order', '{"amount":2}'));
	});
});

describe('encryptCardDetails decrypts with openssl', () => {
	const key = randomBytes(32).toString('hex');
	const card = { cardNumber: '4111111111111111', cardExpMonth: '02', cardExpYear: '30', cardCVV: '123' };

	it('gives lowercase ivHex.cipherHex that openssl decrypts to the card JSON', () => {
		const encrypted = encryptCardDetails(card, key);
		expect(encrypted).toMatch(/^[0-9a-f]{32}\.[0-9a-f]+$/);
		const [iv, cipherHex] = encrypted.split('.');
		const plain = openssl(['enc', '-d', '-aes-256-cbc', '-K', key, '-iv', iv], Buffer.from(cipherHex, 'hex'));
		expect(JSON.parse(plain)).toEqual(card);
	});

	it('uses a fresh IV on every call', () => {
		const ivs = new Set(Array.from({ length: 20 }, () => encryptCardDetails(card, key).split('.')[0]));
		expect(ivs.size).toBe(20);
	});

	it('accepts an upper-case key and decrypts with the same bytes', () => {
		const encrypted = encryptCardDetails({ cardCVV: '999', digitalCardId: 'dc_1' }, key.toUpperCase());
		const [iv, cipherHex] = encrypted.split('.');
		const plain = openssl(['enc', '-d', '-aes-256-cbc', '-K', key, '-iv', iv], Buffer.from(cipherHex, 'hex'));
		expect(JSON.parse(plain)).toEqual({ cardCVV: '999', digitalCardId: 'dc_1' });
	});

	it('recognises only 64 hexadecimal characters as a key', () => {
		expect(cardEncryptionKey(key)).toEqual(Buffer.from(key, 'hex'));
		expect(cardEncryptionKey(` ${key.toUpperCase()}\n`)).toEqual(Buffer.from(key, 'hex'));
		for (const bad of [key.slice(2), `${key.slice(2)}zz`, Buffer.from(key).toString('hex'), undefined]) {
			expect(() => cardEncryptionKey(bad)).toThrow(InvalidCredential);
		}
	});
});
