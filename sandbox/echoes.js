'use strict';

// A gateway or a proxy that echoes what it was sent in some other form, as an attacker's or a debugging one would:
// the `echo-encoded` fault. `of` says what is echoed (the Basic header's value, the client secret, the card
// encryption key, the card number, CVV or expiry of the request's encrypted card details, or those details' ciphertext
// itself), `form` how it is written.

const { gzipSync } = require('node:zlib');
const { decryptCardDetails } = require('./checks');

const INVISIBLE = ['\u200b', '\u200c', '\u200d', '\u2060', '\u00ad', '\ufeff'];
const ARABIC_INDIC = '٠١٢٣٤٥٦٧٨٩';

/** RFC 4648 base32: upper-case letters and the digits 2-7. */
function base32(bytes) {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
	let text = '';
	let value = 0;
	let bits = 0;
	for (const byte of bytes) {
		value = ((value << 8) | byte) & 0xffff;
		for (bits += 8; bits >= 5; bits -= 5) text += alphabet[(value >>> (bits - 5)) & 31];
	}
	return bits > 0 ? text + alphabet[(value << (5 - bits)) & 31] : text;
}

const shifted = (text, test, base, from) =>
	[...text].map((char) => (test.test(char) ? String.fromCodePoint(base + char.charCodeAt(0) - from) : char)).join('');

/** Each form a value may be echoed in; a form gives a string, or an array where it says so. */
const FORMS = {
	'as-is': (text) => text,
	'byte-array': (text) => [...Buffer.from(text, 'utf8')],
	'byte-list': (text) => [...Buffer.from(text, 'utf8')].join(', '),
	'digit-array': (text) => [...text.replace(/\D/g, '')].map(Number),
	invisible: (text) => [...text].map((char, index) => char + INVISIBLE[index % INVISIBLE.length]).join(''),
	fullwidth: (text) => shifted(text, /[!-~]/, 0xff01, 0x21),
	'math-bold': (text) => shifted(shifted(shifted(text, /[A-Z]/, 0x1d400, 0x41), /[a-z]/, 0x1d41a, 0x61), /[0-9]/, 0x1d7ce, 0x30),
	'arabic-digits': (text) => text.replace(/[0-9]/g, (digit) => ARABIC_INDIC[Number(digit)]),
	hex: (text) => Buffer.from(text, 'utf8').toString('hex'),
	base64: (text) => Buffer.from(text, 'utf8').toString('base64'),
	base32: (text) => base32(Buffer.from(text, 'utf8')),
	'utf16-base64': (text) => Buffer.from(text, 'utf16le').toString('base64'),
	'utf16-hex': (text) => Buffer.from(text, 'utf16le').toString('hex'),
	reversed: (text) => [...text].reverse().join(''),
	'gzip-base64': (text) => gzipSync(Buffer.from(text, 'utf8')).toString('base64'),
};

const OF = ['basic', 'secret', 'key', 'card', 'cvv', 'expiry', 'ciphertext'];

/** What `of` names in this request, as text; undefined where the request carries none of it. */
function subjectOf(of, { req, rawBody, cardEncryptionKey }) {
	const authorization = String(req.headers.authorization ?? '');
	if (of === 'basic') return authorization || undefined;
	if (of === 'secret') {
		const pair = Buffer.from(authorization.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
		return pair.includes(':') ? pair.slice(pair.indexOf(':') + 1) : undefined;
	}
	if (of === 'key') return cardEncryptionKey;
	let encrypted;
	try {
		encrypted = JSON.parse(rawBody.toString('utf8')).encryptedCardDetails;
	} catch {
		return undefined;
	}
	if (typeof encrypted !== 'string') return undefined;
	if (of === 'ciphertext') return encrypted;
	const card = decryptCardDetails(encrypted, cardEncryptionKey) ?? {};
	if (of === 'card') return card.cardNumber;
	if (of === 'cvv') return card.cardCVV;
	if (of === 'expiry') return card.cardExpMonth && `${card.cardExpMonth}/${card.cardExpYear}`;
	return undefined;
}

/** The echo as the fault puts it into an answer, or undefined when the request has nothing of `of`. */
function echoOf(fault, io) {
	const subject = subjectOf(fault.of, io);
	return subject === undefined ? undefined : FORMS[fault.form](subject);
}

function checkEcho(options) {
	if (!Object.hasOwn(FORMS, options.form)) throw new TypeError(`form must be one of: ${Object.keys(FORMS).join(', ')}`);
	if (!OF.includes(options.of)) throw new TypeError(`of must be one of: ${OF.join(', ')}`);
	if (typeof options.field !== 'string' || options.field === '') throw new TypeError('field must name the field the echo goes into');
}

module.exports = { FORMS, OF, echoOf, checkEcho };
