/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { gzipSync } from 'node:zlib';

import { funnelFor, WITHHELD } from '../../nodes/PaymentGateway/transport/redact';
import { recoverable } from '../support/recover';

// The one text funnel, as a pure function: a text leaves as a short message of the gateway is made, or not at all. The
// echoes are made here with Node's own encoders, and what is left is searched by test/support/recover.ts, which tries
// to decode it back in every way it knows: neither is the funnel's own code.

const clientId = 'merchant-client-01';
const clientSecret = 'Zq9+/sEcret_value-with=padding';
const cardEncryptionKey = '0f1e2d3c4b5a69788796a5b4c3d2e1f0'.repeat(2);
const funnel = funnelFor({ clientId, clientSecret, cardEncryptionKey });
const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
const secrets = [clientSecret, cardEncryptionKey, basic];

const INVISIBLE = ['\u200b', '\u200c', '\u200d', '\u2060', '\u00ad', '\ufeff'];
const fullwidth = (text: string) => [...text].map((char) => (char >= '!' && char <= '~' ? String.fromCodePoint(char.codePointAt(0)! + 0xfee0) : char)).join('');
const mathBold = (text: string) =>
	[...text].map((char) => (/[A-Z]/.test(char) ? String.fromCodePoint(0x1d400 + char.charCodeAt(0) - 65) : /[a-z]/.test(char) ? String.fromCodePoint(0x1d41a + char.charCodeAt(0) - 97) : /[0-9]/.test(char) ? String.fromCodePoint(0x1d7ce + char.charCodeAt(0) - 48) : char)).join('');

function echoesOf(secret: string): Array<[string, string]> {
	const bytes = Buffer.from(secret, 'utf8');
	return [
		['as written', `secret=${secret}`],
		['percent-encoded', `secret=${encodeURIComponent(secret)}`],
		['percent-encoded twice', `secret=${encodeURIComponent(encodeURIComponent(secret))}`],
		['as a JSON string', JSON.stringify({ secret })],
		['HTML-escaped', secret.replace(/./g, (char) => `&#${char.charCodeAt(0)};`)],
		['in the Basic header', `Authorization: Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`],
		['base64', bytes.toString('base64')],
		['base64url', bytes.toString('base64url')],
		['base64 at offset 1', Buffer.from(`x${secret}`).toString('base64')],
		['base64 at offset 2', Buffer.from(`xy${secret}`).toString('base64')],
		['base64 wrapped at 4', bytes.toString('base64').replace(/(.{4})/g, '$1 ')],
		['hex', bytes.toString('hex')],
		['hex in upper case, bytes apart', bytes.toString('hex').toUpperCase().replace(/(..)/g, '$1 ')],
		['UTF-16 hex', Buffer.from(secret, 'utf16le').toString('hex')],
		['UTF-16 base64', Buffer.from(secret, 'utf16le').toString('base64')],
		['a byte array', JSON.stringify([...bytes])],
		['a byte array with spaces', [...bytes].join(', ')],
		['bytes in octal', [...bytes].map((byte) => `\\${byte.toString(8)}`).join('')],
		['invisible characters between its letters', [...secret].join(INVISIBLE[secret.length % INVISIBLE.length])],
		['each invisible character in turn', [...secret].map((char, index) => char + INVISIBLE[index % INVISIBLE.length]).join('')],
		['letters spaced out', [...secret].join(' ')],
		['fullwidth letters', fullwidth(secret)],
		['mathematical letters', mathBold(secret)],
		['reversed', [...secret].reverse().join('')],
		['reversed base64', [...bytes.toString('base64')].reverse().join('')],
		['gzip in base64', gzipSync(bytes).toString('base64')],
		['gzip in base64, wrapped', gzipSync(bytes).toString('base64').replace(/(.{8})/g, '$1 ')],
		['base64 of base64', Buffer.from(bytes.toString('base64')).toString('base64')],
	];
}

describe('the credential in any form a proxy may echo it: not recoverable from what the funnel keeps', () => {
	for (const secret of secrets) {
		it.each(echoesOf(secret))(`${secret.slice(0, 6)}…: %s`, (_label, echo) => {
			// The search finds it in the echo itself: what it does not find in the funnel's text is gone.
			expect(recoverable(echo, [secret])).not.toEqual([]);
			const kept = funnel.text(`Upstream error: ${echo} end`);
			expect(recoverable(kept, secrets)).toEqual([]);
		});
	}

	it('a text that quotes the secret is withheld whole, not cut around it', () => {
		expect(funnel.text(`denied for ${clientSecret}`)).toBe(WITHHELD);
		expect(funnel.text(`denied for ${[...clientSecret].join('\u200b')}`)).toBe(WITHHELD);
	});
});

describe('what a gateway says stays as it said it', () => {
	it.each([
		'Invalid signature; request cannot be processed',
		'Invalid or inactive client credentials',
		'Transaction not initiated',
		'Refund amount exceeds the refundable amount',
		'Order failed: amount must have at most 3 decimal places for OMR',
		'redirectType must be "post" or "redirect"',
		'Payment is not pending (status: success)',
		'No route found; try another card',
		'Card not found or already deleted',
		'Tokenization limit reached for this customer',
		'Amount 10.500 is above 5.000 for order 123',
		'HTTP 502: upstream 3DS server timed out',
	])('%s', (message) => {
		expect(funnel.text(message)).toBe(message);
	});

	it('is cut at 300 characters, and not read past 4,096', () => {
		const long = 'word '.repeat(100).trim();
		expect(funnel.text(long)).toHaveLength(301);
		expect(funnel.text('x'.repeat(5000))).toBe('[text of 5000 characters, not read]');
	});

	it('keeps words of one script, not codes: a long mixed token, an odd-cased one, a word of mixed scripts or a fifth number goes as "…"', () => {
		expect(funnel.text('خطأ في الدفع')).toBe('خطأ في الدفع');
		expect(funnel.text('Payment PAY8F3A0C2B9D4E1F7A6B5C4D3E2F1A0B9C not found')).toBe('Payment … not found');
		expect(funnel.text('token YWxhZGRpbjpvcGVu accepted')).toBe('token … accepted');
		expect(funnel.text('bytes 1 2 3 4 5 6 end')).toBe('bytes 1 2 3 4 … end');
		expect(funnel.text('Ｂａｓｉｃ')).toBe('Basic');
		expect(funnel.text('сard Рay')).toBe('…');
	});
});

describe('card data in a text', () => {
	const card = '4111111111111111';
	it.each([
		['plain', card],
		['spaces', '4111 1111 1111 1111'],
		['dots', '4111.1111.1111.1111'],
		['dashes', '4111-1111-1111-1111'],
		['double spaces', '4111  1111  1111  1111'],
		['Arabic-Indic digits', '٤١١١ ١١١١ ١١١١ ١١١١'],
		['fullwidth digits', '４１１１ １１１１ １１１１ １１１１'],
		['mathematical digits', mathBold('4111 1111 1111 1111')],
		['single digits in a JSON array', JSON.stringify([...card].map(Number))],
		['a 12-digit Maestro number', '5018 0000 0009'],
		['a number starting with 7', '7111 1111 1111 1114'],
	])('with %s: only the last four digits, if anything', (_label, written) => {
		const kept = funnel.text(`charged ${written} ok`);
		expect(kept.replace(/\D/g, '').length).toBeLessThanOrEqual(4);
	});

	it('a card number followed by its expiry is cut whole; a CVV and an expiry named as such go', () => {
		expect(funnel.text('card 4111 1111 1111 1111 12 30')).toBe('card …1111 …');
		expect(funnel.text('cvv 123, CVC2: 4321, exp 12/30')).toBe('cvv …, CVC2: …, exp …');
	});

	it('a card ciphertext of this package is withheld', () => {
		expect(funnel.text(`echo ${'ab'.repeat(16)}.${'cd'.repeat(48)}`)).toBe(WITHHELD);
	});
});
