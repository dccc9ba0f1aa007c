/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { createHmac } from 'node:crypto';

import { NOTIFICATION, ORDER_STATUS, PAYMENT, PAYMENT_RECORD, REFUND } from '../../nodes/PaymentGateway/shared/answers';
import { asKind, declaredOutput } from '../../nodes/PaymentGateway/transport/outputs';
import { funnelFor } from '../../nodes/PaymentGateway/transport/redact';
import { base32 } from '../support/encodings';

// Attacks on "what leaves is what the operation declares", at the unit level: each test fails where a secret, card data
// or a claim gets through, or where a real gateway value is destroyed. Not here, because nothing but a list of every
// encoding could tell them (the contract asks for none): a secret in an encoding of one's own making (letter-hex words,
// ascii85) in a message or in the gateway's form fields, whose values are opaque by nature; a card number glued to a
// letter inside a web address, where random hex ids would be taken for one; a card number the request did not send,
// cut into numbers between words of a message.

// The sandbox's credential: what a real deployment's looks like (lowercase letters, digits and a dash).
const clientId = 'sandbox-client';
const clientSecret = 'sandbox-secret-f4910caa8879a0d4';
const cardEncryptionKey = 'ae0a48d044fd61f653b82fe9234b6837db4d627b2568d014494eb048ccf595eb';
const funnel = funnelFor({ clientId, clientSecret, cardEncryptionKey });
const CARD = '4111111111111111';
/** A record's signature as the gateway makes it: HMAC-SHA256 of "orderId|paymentId" with the client secret. */
const hmac = (data: string) => createHmac('sha256', clientSecret).update(data).digest('hex');
const cardFunnel = (card: { number?: string; cvv?: string; month?: string; year?: string }) => funnelFor({ clientId, clientSecret, cardEncryptionKey, card });

const rot13 = (text: string) => text.replace(/[a-z]/gi, (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c === c.toLowerCase() ? 97 : 65)));
/** The secret's letters and digits with a "z" after every eight of them: read back by dropping every ninth character. */
const everyNinth = (text: string) => text.replace(/[^a-z0-9]/gi, '').replace(/(.{8})/g, '$1z');

describe('a secret in an id: the id kind carries 100 characters of anything in one case', () => {
	it('the client secret as base32 does not leave as a status record signature (an id)', () => {
		const value = base32(Buffer.from(clientSecret));
		expect(value.length).toBeLessThanOrEqual(100);
		expect(asKind('id', value, funnel)).toBeUndefined();
	});

	it('the Basic value (clientId:clientSecret) as base32 does not leave as a receiptId', () => {
		expect(asKind('id', base32(Buffer.from(`${clientId}:${clientSecret}`)), funnel)).toBeUndefined();
	});

	it('the card encryption key as base32 (of its 32 bytes) does not leave as a paymentId', () => {
		expect(asKind('id', `PAY${base32(Buffer.from(cardEncryptionKey, 'hex'))}`, funnel)).toBeUndefined();
	});

	it('the client secret with a z after every eight characters does not leave as an id', () => {
		const value = everyNinth(clientSecret);
		expect(asKind('id', value, funnel)).toBeUndefined();
	});

	it('the client secret in ROT13 does not leave as an id', () => {
		expect(asKind('id', rot13(clientSecret), funnel)).toBeUndefined();
	});

	it('the card encryption key with a z after every eight hex digits does not leave as an id', () => {
		expect(asKind('id', everyNinth(cardEncryptionKey), funnel)).toBeUndefined();
	});
});

describe('a secret split across fields or list entries: each piece is checked alone', () => {
	it('the card encryption key in 9-character pieces across a payment record’s refunds does not come back whole', () => {
		const pieces = cardEncryptionKey.match(/.{1,9}/g) ?? [];
		const refunds = pieces.map((piece, index) => ({ refundId: `R${index}-${piece}`, status: 'refunded' }));
		const out = declaredOutput(PAYMENT_RECORD, { paymentId: 'PAY1', orderId: 'wb-1', refunds }, funnel) ?? {};
		const rebuilt = ((out.refunds as Array<{ refundId?: string }>) ?? []).map((refund) => (refund.refundId ?? '').split('-')[1] ?? '').join('');
		expect(rebuilt).not.toBe(cardEncryptionKey);
	});

	it('the client secret in pieces across the ids of one refund answer does not come back whole', () => {
		const pieces = clientSecret.replace(/-/g, '').match(/.{1,9}/g) ?? [];
		const answer = { refundId: pieces[0], receiptId: pieces[1], signature: pieces[2], signarture: pieces[3] };
		const out = declaredOutput(REFUND, answer, funnel) ?? {};
		expect([out.refundId, out.receiptId, out.signature, out.signarture].join('')).not.toBe(clientSecret.replace(/-/g, ''));
	});
});

describe('a secret in droppedFields names', () => {
	it('the client secret as base32 in a field name is not listed in droppedFields', () => {
		const out = declaredOutput(PAYMENT, { paymentId: 'PAY1', [base32(Buffer.from(clientSecret))]: 1 }, funnel) ?? {};
		expect(JSON.stringify(out.droppedFields ?? [])).not.toContain(base32(Buffer.from(clientSecret)));
	});

	it('the card encryption key in 9-character pieces as the names of 8 fields does not come back from droppedFields', () => {
		const pieces = cardEncryptionKey.match(/.{1,9}/g) ?? [];
		const answer = Object.fromEntries(pieces.map((piece, index) => [`f${index}_${piece}`, 1]));
		const out = declaredOutput(PAYMENT, answer, funnel) ?? {};
		const rebuilt = ((out.droppedFields as string[]) ?? []).map((name) => name.split('_')[1]).join('');
		expect(rebuilt).not.toBe(cardEncryptionKey);
	});
});

describe('a secret in a message: words are letters, any letter encoding passes', () => {
});

describe('a secret in the formData form or a url', () => {
	const form = (value: string) => `<form method="post" action="https://acs.bank.example/3ds"><input type="hidden" name="PaReq" value="${value}"></form>`;

	it('the Basic value as base32 in a hidden field does not leave in the rebuilt form', () => {
		const out = String(asKind('form', form(base32(Buffer.from(`${clientId}:${clientSecret}`))), funnel) ?? '');
		expect(out).not.toContain(base32(Buffer.from(`${clientId}:${clientSecret}`)));
	});

	it('the client secret as base32 in the redirection url’s query does not leave', () => {
		expect(asKind('url', `https://acs.bank.example/3ds?t=${base32(Buffer.from(clientSecret))}`, funnel)).toBeUndefined();
	});

	it('the card data of the request as base32 in a hidden field does not leave in the initiate answer', () => {
		const request = cardFunnel({ number: CARD, cvv: '123', month: '12', year: '30' });
		const encoded = base32(Buffer.from(JSON.stringify({ cardNumber: CARD, cvv: '123', expMonth: '12', expYear: '30' })));
		const out = String(asKind('form', form(encoded), request) ?? '');
		expect(out).not.toContain(encoded);
	});
});

describe('card numbers beside letters or more digits: the one card-number rule only sees digits without letters', () => {
	// A status read carries no card data in its request: only the card-number rule stands between a PAN and the item.
	it('a card number after a letter prefix does not leave as a receiptId', () => {
		expect(asKind('receipt', `PAN${CARD}`, funnel)).toBeUndefined();
	});

	it('a card number the request sent does not leave behind a prefix in a gateway id (dc_ + 16 digits is an id of the gateway now and then)', () => {
		expect(asKind('id', `PAN${CARD}`, cardFunnel({ number: CARD }))).toBeUndefined();
		expect(asKind('id', 'dc_1234567890123452', funnel)).toBe('dc_1234567890123452');
	});

	it('a card number with dashes after a word does not leave as a receiptId', () => {
		expect(asKind('id', 'card-4111-1111-1111-1111', funnel)).toBeUndefined();
	});

	it('a card number followed by its expiry (20 digits in one run) does not leave as an id', () => {
		expect(asKind('id', `${CARD}1230`, funnel)).toBeUndefined();
	});

	it('a card number with an x between every group does not leave as a paymentId', () => {
		expect(asKind('id', '4111x1111x1111x1111', funnel)).toBeUndefined();
	});

	it('a card number in a form’s hidden field after a letter does not leave', () => {
		const out = String(asKind('form', `<form action="https://acs.bank.example/3ds"><input name="md" value="pan:${CARD}"></form>`, funnel) ?? '');
		expect(out).not.toContain(CARD);
	});

	it('a card number with a dot after its 11th digit does not leave as an amount', () => {
		// 11 digits before the point and up to 6 after: 17 digits, a dot as its one separator.
		expect(asKind('amount', '41111111111.11111', funnel)).toBeUndefined();
		expect(asKind('amount', '501800.000009', funnel)).toBeUndefined();
	});

	it('the card number sent, split into four numbers between words, does not leave as an errMessage', () => {
		const out = String(asKind('message', 'Declined card 4111 and 1111 then 1111 then 1111', cardFunnel({ number: CARD })));
		expect(out.replace(/\D/g, '')).not.toContain(CARD);
	});
});

describe('legitimate data is not destroyed', () => {
	const request = cardFunnel({ number: CARD, cvv: '123', month: '12', year: '30' });

	it('an initiate answer’s amount "12.30" stays when the card expires 12/30', () => {
		const out = declaredOutput(PAYMENT, { paymentId: 'PAY0123456789abcdef0123456789abcdef', amount: '12.30', currency: 'USD', paymentStatus: 'pending' }, request) ?? {};
		expect(out.amount).toBe('12.30');
	});

	it('an initiate answer’s amount 123 stays when the CVV is 123', () => {
		const out = declaredOutput(PAYMENT, { paymentId: 'PAY0123456789abcdef0123456789abcdef', amount: 123, currency: 'USD', paymentStatus: 'pending' }, request) ?? {};
		expect(out.amount).toBe(123);
	});

	it('an initiate answer’s receiptId "INV-123" stays when the CVV is 123', () => {
		const out = declaredOutput(PAYMENT, { paymentId: 'PAY0123456789abcdef0123456789abcdef', receiptId: 'INV-123', paymentStatus: 'pending' }, request) ?? {};
		expect(out.receiptId).toBe('INV-123');
	});

	it('an initiate answer’s orderId wb-<uuid> holding "12-30" stays when the card expires 12/30', () => {
		const orderId = 'wb-3f2a9c12-30ab-4c1a-9e0f-2b6d8a5c3e71';
		const out = declaredOutput(PAYMENT, { orderId, paymentStatus: 'pending' }, request) ?? {};
		expect(out.orderId).toBe(orderId);
	});

	it('PAY + 32 hex in upper and in lower case and wb-<uuid> stay as ids', () => {
		for (const id of ['PAY8F3A0C2B9D4E1F7A6B5C4D3E2F1A0B9C', 'PAY0123456789abcdef0123456789abcdef', 'wb-3f2c9a1e-7d4b-4c1a-9e0f-2b6d8a5c3e71', 'WB-3F2C9A1E-7D4B-4C1A-9E0F-2B6D8A5C3E71']) {
			expect(asKind('id', id, funnel)).toBe(id);
		}
	});

	it('a refund record with compltedAt and signarture comes through whole', () => {
		const record = {
			refundId: 'REF5d2c0b3e8f7a4c1d9e6b2a0f3c8d7e1b',
			paymentId: 'PAY0123456789ABCDEF0123456789ABCDEF',
			orderId: 'wb-3f2c9a1e-7d4b-4c1a-9e0f-2b6d8a5c3e71',
			receiptId: 'INV-1001',
			paymentStatus: 'partially_refunded',
			paymentMethod: 'card',
			amount: '1.000',
			currency: 'OMR',
			initiatedAt: '2026-11-28T10:30:00.000Z',
			compltedAt: '2026-11-28T10:30:01.000Z',
			signarture: hmac('wb-3f2c9a1e-7d4b-4c1a-9e0f-2b6d8a5c3e71|PAY0123456789ABCDEF0123456789ABCDEF'),
		};
		expect(declaredOutput(REFUND, record, funnel)).toEqual(record);
	});

	it('a check-status record comes through whole, its signature included', () => {
		const record = {
			orderId: 'wb-3f2c9a1e-7d4b-4c1a-9e0f-2b6d8a5c3e71',
			status: 'success',
			paymentId: 'PAY0123456789abcdef0123456789abcdef',
			receiptId: 'INV-1001',
			amount: 25.5,
			signature: hmac('wb-3f2c9a1e-7d4b-4c1a-9e0f-2b6d8a5c3e71|PAY0123456789abcdef0123456789abcdef'),
			timestamp: '2026-11-22T08:55:43.453Z',
			paymentDetails: { paymentMethod: 'card', cardNetwork: 'visa', cardType: 'credit' },
		};
		expect(declaredOutput(ORDER_STATUS, record, funnel)).toEqual(record);
	});

});

describe('a notification’s nested claims', () => {
	it('a wrapped record’s data.status "success" is not output as a plain status beside the verified one', () => {
		const out = declaredOutput(NOTIFICATION, { orderId: 'wb-1', paymentId: 'PAY1', data: { status: 'success', amount: '1000' } }, funnel) ?? {};
		expect((out.data as { status?: string } | undefined)?.status).toBeUndefined();
	});
});

describe('attacks that hold (passing: the funnel catches them)', () => {
	const b64 = Buffer.from(clientSecret).toString('base64').replace(/=+$/, '');
	it.each([
		['base64 of the secret as an id', 'id', b64],
		['hex of the secret as an id', 'id', Buffer.from(clientSecret).toString('hex')],
		['the secret reversed as an id', 'id', [...clientSecret].reverse().join('')],
		['the secret in fullwidth letters as a message', 'message', [...clientSecret].map((c) => (/[a-z0-9]/.test(c) ? String.fromCodePoint(c.codePointAt(0)! + 0xfee0) : c)).join('')],
		['the secret with zero-width joiners as a message', 'message', [...clientSecret].join('\u200d')],
		['the secret percent-encoded in a url', 'url', `https://acs.bank.example/?t=${[...clientSecret].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`],
		['the secret as url userinfo', 'url', `https://${clientId}:${clientSecret}@acs.bank.example/`],
		['the secret as an IDN host label', 'url', `https://${clientSecret}.bank.example/`],
		['the secret HTML-entity-encoded in a hidden field', 'form', `<form action="https://acs.bank.example/"><input name="t" value="${[...clientSecret].map((c) => `&#${c.charCodeAt(0)};`).join('')}"></form>`],
		['the secret in the form action', 'form', `<form action="https://acs.bank.example/${clientSecret}"></form>`],
	] as const)('%s', (_label, kind, value) => {
		const out = asKind(kind, value, funnel);
		expect(out === undefined || !String(out).includes(clientSecret.slice(0, 10))).toBe(true);
		if (kind !== 'message') expect(out).toBeUndefined();
	});
});
