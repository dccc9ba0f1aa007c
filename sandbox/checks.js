'use strict';

// Request checks: client credentials, signature, required headers, body
// format, card-details decryption and field rules. Messages name the field
// but never repeat its value: card data must not leak into logs.

const crypto = require('node:crypto');
const net = require('node:net');
const { HttpError, bad, isObject, nonEmptyString } = require('./http');
const { toMinorUnits } = require('./currency');

const REQUIRED_HEADERS = [
	'X-MERCHANT-BROWSER-FINGERPRINT',
	'X-MERCHANT-USER-AGENT',
	'X-MERCHANT-DOMAIN',
	'Accept-Language',
];
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const hmacHex = (key, data) => crypto.createHmac('sha256', key).update(data).digest('hex');

function safeEqual(a, b) {
	// Hashing first gives equal lengths, so the comparison time leaks nothing.
	const ha = crypto.createHash('sha256').update(String(a)).digest();
	const hb = crypto.createHash('sha256').update(String(b)).digest();
	return crypto.timingSafeEqual(ha, hb);
}

/**
 * Basic credentials, then X-Signature over apiPath + body. The long family is
 * called with Basic alone by every public client, so there the signature is
 * checked only when one is sent.
 */
function authenticate(req, { apiPath, family, rawBody, clientById }) {
	const auth = /^Basic\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
	if (!auth) throw new HttpError(401, 'Missing Authorization header');
	const decoded = Buffer.from(auth[1], 'base64').toString('utf8');
	const colon = decoded.indexOf(':');
	const client = colon === -1 ? undefined : clientById.get(decoded.slice(0, colon));
	if (!client || !safeEqual(client.clientSecret, decoded.slice(colon + 1)) || !client.active) {
		throw new HttpError(401, 'Invalid or inactive client credentials');
	}
	const signature = req.headers['x-signature'];
	if (signature === undefined && family === 'long') return client;
	if (!signature) throw new HttpError(401, 'Signature missing in the header');
	const payload = req.method === 'POST' ? rawBody : Buffer.alloc(0);
	const expected = crypto
		.createHmac('sha256', client.clientSecret)
		.update(apiPath)
		.update(payload)
		.digest('hex');
	if (!safeEqual(signature, expected)) {
		throw new HttpError(401, 'Invalid signature; request cannot be processed');
	}
	return client;
}

/**
 * The merchant and browser headers. The short family requires them; the gateway's public clients call the long
 * family with Basic and Content-Type alone, so there a header is checked only for its form when it is sent.
 */
function checkHeaders(req, family) {
	for (const name of REQUIRED_HEADERS) {
		const value = req.headers[name.toLowerCase()];
		if (family === 'long' && value === undefined) continue;
		if (!nonEmptyString(value)) {
			throw bad(family === 'long' ? `Invalid header: ${name} is empty` : `Missing required header: ${name}`);
		}
	}
	const ip = req.headers['x-merchant-ip'];
	if (ip !== undefined && net.isIP(ip.trim()) === 0) {
		throw bad('Invalid header: X-MERCHANT-IP must be an IPv4 or IPv6 address');
	}
}

function parseJsonBody(req, rawBody) {
	const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
	if (type !== 'application/json') throw bad('Content-Type must be application/json');
	let body;
	try {
		body = JSON.parse(rawBody.toString('utf8'));
	} catch {
		throw bad('Request body must be valid JSON');
	}
	if (!isObject(body)) throw bad('Request body must be a JSON object');
	return body;
}

const isPositiveNumber = (v) => typeof v === 'number' && Number.isFinite(v) && v > 0;

/** A JSON number > 0 within the currency's minor units, as an integer of them. */
function checkAmount(amount, currency) {
	if (!isPositiveNumber(amount)) throw bad('amount must be a number greater than 0');
	return toMinorUnits(amount, currency);
}

// Shared by both create endpoints; uiMode errors carry 422 because the
// short endpoint reports them so (the long one turns everything into 400).
function validateOrder(body) {
	const { amount, currency, uiMode, receiptId, description, customerFields: cf } = body;
	if (!isPositiveNumber(amount)) throw bad('amount must be a number greater than 0');
	if (typeof currency !== 'string' || !/^[A-Za-z]{3}$/.test(currency)) {
		throw bad('currency must be a 3-letter currency code');
	}
	const amountMinor = checkAmount(amount, currency);
	if (uiMode !== 'checkout') throw new HttpError(422, 'Incorrect UI mode');
	if (receiptId !== undefined && (typeof receiptId !== 'string' || receiptId.length > 40)) {
		throw bad('receiptId must be a string of at most 40 characters');
	}
	if (description !== undefined && typeof description !== 'string') {
		throw bad('description must be a string');
	}
	if (!isObject(cf)) throw bad('customerFields must be an object with name, email and phone');
	if (!nonEmptyString(cf.name)) throw bad('customerFields.name is required');
	if (typeof cf.email !== 'string' || !EMAIL_RE.test(cf.email.trim())) {
		throw bad('customerFields.email must be a valid e-mail address');
	}
	const phone = typeof cf.phone === 'number' && Number.isFinite(cf.phone) ? String(cf.phone) : cf.phone;
	if (!nonEmptyString(phone)) throw bad('customerFields.phone is required');
	return { amountMinor, customer: { name: cf.name, email: cf.email, phone } };
}

function decryptCardDetails(encrypted, keyHex) {
	const m = /^([0-9a-f]{32})\.((?:[0-9a-f]{32})+)$/.exec(encrypted);
	if (!m) return null;
	try {
		const decipher = crypto.createDecipheriv(
			'aes-256-cbc',
			Buffer.from(keyHex, 'hex'),
			Buffer.from(m[1], 'hex'),
		);
		const plain = Buffer.concat([decipher.update(Buffer.from(m[2], 'hex')), decipher.final()]);
		const parsed = JSON.parse(plain.toString('utf8'));
		return isObject(parsed) ? parsed : null;
	} catch {
		// A wrong key usually fails the padding check, sometimes yields garbage JSON: same answer.
		return null;
	}
}

function luhnValid(digits) {
	let sum = 0;
	for (let i = 0; i < digits.length; i++) {
		let d = Number(digits[digits.length - 1 - i]);
		if (i % 2 === 1) {
			d *= 2;
			if (d > 9) d -= 9;
		}
		sum += d;
	}
	return sum % 10 === 0;
}

function checkCvv(card, cvvRequired) {
	const cvv = card.cardCVV;
	if (cvv === undefined || cvv === '') {
		if (cvvRequired) throw bad('cardCVV is required when CVV is not skipped');
		return;
	}
	if (typeof cvv !== 'string' || !/^\d{3,4}$/.test(cvv)) throw bad('cardCVV must be 3 or 4 digits');
}

function checkNewCard(card) {
	const { cardNumber, cardExpMonth, cardExpYear } = card;
	if (typeof cardNumber !== 'string' || !/^\d{12,19}$/.test(cardNumber) || !luhnValid(cardNumber)) {
		throw bad('cardNumber is not a valid card number');
	}
	if (typeof cardExpMonth !== 'string' || !/^(0[1-9]|1[0-2])$/.test(cardExpMonth)) {
		throw bad('cardExpMonth must be a 2-digit month string ("01" to "12")');
	}
	if (typeof cardExpYear !== 'string' || !/^\d{2}$/.test(cardExpYear)) {
		throw bad('cardExpYear must be a 2-digit year string');
	}
	const today = new Date();
	const expiry = (2000 + Number(cardExpYear)) * 12 + Number(cardExpMonth);
	if (expiry < today.getUTCFullYear() * 12 + today.getUTCMonth() + 1) {
		throw bad('cardExpMonth/cardExpYear: the card has expired');
	}
}

module.exports = {
	hmacHex,
	authenticate,
	checkHeaders,
	parseJsonBody,
	checkAmount,
	validateOrder,
	decryptCardDetails,
	checkCvv,
	checkNewCard,
};
