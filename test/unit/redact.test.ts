/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { holdsCardNumber, isCardKey, redactorFor, WITHHELD } from '../../nodes/PaymentGateway/transport/redact';

// The one redaction funnel, as a pure function: what it cuts and what it must leave alone. The encodings are made here
// with Node's own encoders, not the funnel's.

const clientId = 'merchant-client-01';
const clientSecret = 'Zq9+/sEcret_value-with=padding';
const cardEncryptionKey = '0f'.repeat(32);
const redactor = redactorFor({ clientId, clientSecret, cardEncryptionKey });
const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');

describe('the credential in the encodings a proxy echoes it in', () => {
	const echoes: Array<[string, string]> = [
		['as written', `secret=${clientSecret}`],
		['percent-encoded', `secret=${encodeURIComponent(clientSecret)}`],
		['percent-encoded twice', `secret=${encodeURIComponent(encodeURIComponent(clientSecret))}`],
		['percent-encoded in lower case', `secret=${encodeURIComponent(clientSecret).toLowerCase()}`],
		['the Basic value', `Authorization: Basic ${basic}`],
		['the Basic value without its word', `token=${basic}`],
		['the Basic value percent-encoded', `authorization=Basic%20${encodeURIComponent(basic)}`],
		['the Basic value form-encoded', `authorization=Basic+${encodeURIComponent(basic)}`],
		['the Basic value in base64url without padding', `t=${Buffer.from(`${clientId}:${clientSecret}`).toString('base64url')}`],
		['the secret in base64 at offset 1', Buffer.from(`x${clientSecret}`).toString('base64')],
		['the secret in base64 at offset 2', Buffer.from(`xy${clientSecret}`).toString('base64')],
		['the secret in base64url at offset 1', Buffer.from(`{${clientSecret}}`).toString('base64url')],
		['the key as written', `key ${cardEncryptionKey}`],
		['the key in upper case', `key ${cardEncryptionKey.toUpperCase()}`],
		['the key’s bytes in base64', `key ${Buffer.from(cardEncryptionKey, 'hex').toString('base64')}`],
		['the secret in hex', `hex ${Buffer.from(clientSecret).toString('hex')}`],
	];
	it.each(echoes)('%s: cut out or the text withheld', (_label, echo) => {
		for (const kept of [redactor.text(`Upstream: ${echo} end`), redactor.text(`Upstream: ${echo} end`, true)]) {
			expect(kept === WITHHELD || !kept.includes(clientSecret)).toBe(true);
			const decoded = decodeURIComponent(decodeURIComponent(kept.replace(/%(?![0-9A-Fa-f]{2})/g, '%25')));
			expect(decoded).not.toContain(clientSecret);
			expect(kept).not.toContain(basic.slice(0, 12));
			expect(kept.toLowerCase()).not.toContain(cardEncryptionKey);
		}
	});

	it('any Basic credential, not only this one, in any spelling of its space', () => {
		for (const space of [' ', '%20', '+', '\t', '&nbsp;']) {
			expect(redactor.text(`auth Basic${space}dXNlcjpwYXNzd29yZA== done`)).toBe('auth Basic … done');
		}
	});

	it('a text without any of it stays as it is', () => {
		const message = 'Refund amount exceeds the refundable amount (25.500 OMR) for order wb-3f2c9a1e, expected 2 decimals';
		expect(redactor.text(message)).toBe(message);
		expect(redactor.text(message, true)).toBe(message);
	});
});

describe('card data', () => {
	it.each([
		['plain', '4111111111111111'],
		['spaces', '4111 1111 1111 1111'],
		['dots', '4111.1111.1111.1111'],
		['double spaces', '4111  1111  1111  1111'],
		['dashes', '5186-0017-0000-8785'],
		['underscores', '4111_1111_1111_1111'],
	])('a card number with %s in a text keeps only its last four digits', (_label, card) => {
		const kept = redactor.text(`charged ${card} ok`);
		expect(kept).toBe(`charged …${card.slice(-4)} ok`);
	});

	it('a card number followed by its expiry is cut whole; the CVV and expiry named as such go', () => {
		expect(redactor.text('card 4111 1111 1111 1111 12 30')).toBe('card …');
		expect(redactor.text('cvv 123, CVC2: 4321, exp 12/30, expiry 12-2030, valid thru 1230')).toBe('cvv …, CVC2: …, exp …, expiry …, valid thru …');
	});

	it('dates, times, amounts, phone numbers and ids are no card numbers', () => {
		for (const text of ['2026-11-27 22:02:10.123', '2026-11-27T22:02:10.123Z', '1,250.500', '+968 9123 4567', 'wb-3f2c9a1e-7d4b-4c1a-9e0f-2b6d8a5c3e71', 'PAY41111111111111111abc', '1732744930123']) {
			expect(redactor.text(text)).toBe(text);
		}
	});

	it('error texts lose every run of twelve digits or more, whatever separates them', () => {
		expect(redactor.text('ref 1234 5678 9012 here', true)).toBe('ref … here');
		expect(redactor.text('ref 1234,5678;9012 here', true)).toBe('ref … here');
	});

	it('success answers lose card fields under any key, nested too; ids keep their digits unless they are a card number', () => {
		const answer = {
			orderId: 'wb-41111111-1111-1111-1111-111111111111',
			receiptId: '4111111111111111',
			panLastFour: '1111',
			cardNumber: '4111111111111111',
			card_number: '4111111111111111',
			maskedPan: '411111******1111',
			pan: 4111111111111111,
			cvv: '123',
			CVV2: '123',
			expiryMonth: '12',
			exp_year: '30',
			expirationDate: '12/30',
			encryptedCardDetails: 'ab.cd',
			nested: [{ card: { number: '5186001700008785', expiry: '12/30', securityCode: '999' }, note: 'paid with 5186 0017 0000 8785' }],
			total: 4111111111111111,
		};
		expect(redactor.answer(answer)).toEqual({
			orderId: answer.orderId,
			receiptId: '…1111',
			panLastFour: '1111',
			nested: [{ card: {}, note: 'paid with …8785' }],
			total: '…1111',
		});
	});

	it('card keys and card-number checks', () => {
		for (const key of ['cardNumber', 'card_no', 'pan', 'PAN', 'maskedPan', 'cvv', 'cvc2', 'securityCode', 'exp', 'expiry', 'expMonth', 'cardExpYear', 'expirationDate', 'validThru', 'track2Data', 'cc_exp', 'ccNum', 'cvvCode', 'cvv_number', 'card_verification_value', 'expMonthYear', 'expiryDateText']) {
			expect([key, isCardKey(key)]).toEqual([key, true]);
		}
		for (const key of ['panLastFour', 'lastFour', 'last4', 'cardType', 'cardNetwork', 'paymentDetails', 'expiresAt', 'number0', 'cardHolderName']) {
			expect([key, isCardKey(key)]).toEqual([key, false]);
		}
		expect(holdsCardNumber('4111 1111 1111 1111')).toBe(true);
		expect(holdsCardNumber('4111 1111 1111 1112')).toBe(false);
		expect(holdsCardNumber('9 4111 1111 1111 1111 7')).toBe(true);
	});
});
