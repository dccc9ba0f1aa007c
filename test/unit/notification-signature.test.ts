import { isAuthenticSignature, notificationSignature } from '../../nodes/PaymentGateway/transport/crypto';
import { opensslHmacHex } from '../support/openssl';

// The `signature` of a notification or status record: lowercase hex HMAC-SHA256(client secret, orderId|paymentId),
// trimmed values, compared in constant time (CONTRACT.md, status.verifySignature and the trigger). The expected
// values come from `openssl dgst -sha256 -hmac`, never from the code under test.

const vectors: Array<[string, string, string]> = [
	['sandbox-secret-f4910caa8879a0d4', 'ord_741e7d86d1591fe6', 'pay_4bb2b6a42cdb09f7'],
	['s3cr3t with spaces', 'wb-3f2c9a1e-7d4b-4c1a-9e0f-2b6d8a5c3e71', 'PAY0123456789ABCDEF0123456789ABCDEF'],
	['ключ', 'заказ-1', 'paiement-€'],
	['k', '42', '7'],
];

describe.each(vectors)('secret %p, order %p, payment %p', (secret, orderId, paymentId) => {
	const expected = opensslHmacHex(secret, `${orderId}|${paymentId}`);

	it('is what openssl computes over "orderId|paymentId", in lowercase hex', () => {
		expect(expected).toMatch(/^[0-9a-f]{64}$/);
		expect(notificationSignature(secret, orderId, paymentId)).toBe(expected);
	});

	it('is authentic as openssl computed it', () => {
		expect(isAuthenticSignature(secret, orderId, paymentId, expected)).toBe(true);
	});

	it('is not authentic with any one character changed', () => {
		for (let position = 0; position < expected.length; position++) {
			const changed = expected[position] === '0' ? '1' : '0';
			const forged = expected.slice(0, position) + changed + expected.slice(position + 1);
			expect(isAuthenticSignature(secret, orderId, paymentId, forged)).toBe(false);
		}
	});

	it('is authentic with stray spaces around the order id, the payment id and the signature (values are trimmed)', () => {
		expect(isAuthenticSignature(secret, `  ${orderId} `, `\t${paymentId}\n`, ` ${expected}  `)).toBe(true);
		expect(notificationSignature(secret, ` ${orderId}`, `${paymentId} `)).toBe(expected);
	});

	it('is not authentic under another secret', () => {
		expect(isAuthenticSignature(`${secret}x`, orderId, paymentId, expected)).toBe(false);
		expect(isAuthenticSignature('another-secret', orderId, paymentId, expected)).toBe(false);
	});

	it('is not authentic for another order or payment, or another signing input', () => {
		expect(isAuthenticSignature(secret, `${orderId}0`, paymentId, expected)).toBe(false);
		expect(isAuthenticSignature(secret, orderId, `${paymentId}0`, expected)).toBe(false);
		expect(isAuthenticSignature(secret, orderId, paymentId, opensslHmacHex(secret, `${paymentId}|${orderId}`))).toBe(
			false,
		);
		expect(isAuthenticSignature(secret, orderId, paymentId, opensslHmacHex(secret, orderId + paymentId))).toBe(false);
	});

	// The contract and the gateway's documents say lowercase hex; an upper-case signature is not what the
	// gateway sends, so it is refused rather than normalised.
	it('is not authentic in upper-case hex', () => {
		expect(isAuthenticSignature(secret, orderId, paymentId, expected.toUpperCase())).toBe(false);
	});
});

describe('a signature that is missing, empty, of the wrong length or not a string', () => {
	const [secret, orderId, paymentId] = vectors[0];
	const valid = opensslHmacHex(secret, `${orderId}|${paymentId}`);

	it.each([
		['missing', undefined],
		['null', null],
		['empty', ''],
		['only spaces', '   '],
		['one character short', valid.slice(0, -1)],
		['one character too many', `${valid}0`],
		['twice the length', valid + valid],
		['the raw HMAC bytes instead of hex', Buffer.from(valid, 'hex').toString('latin1')],
		['base64 instead of hex', Buffer.from(valid, 'hex').toString('base64')],
		['a number', 12345],
		['an array holding it', [valid]],
		['an object holding it', { signature: valid }],
		['a Buffer of it', Buffer.from(valid, 'utf8')],
		['a boolean', true],
	])('%s is not authentic', (_label, signature) => {
		expect(isAuthenticSignature(secret, orderId, paymentId, signature)).toBe(false);
	});
});
