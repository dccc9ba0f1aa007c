import {
	claimedOutcome,
	confirmedOutcome,
	MAX_FIELD_CHARS,
	MAX_NOTIFICATION_BYTES,
	readNotification,
	RefusedNotification,
} from '../../nodes/PaymentGatewayTrigger/notification';

// The trigger's pure helpers: reading a notification out of a request body (flat or wrapped, trimmed, bounded
// in depth) and telling what it reports. Shapes and values are those of gateway-notes.md ("Callbacks",
// "Notifications").

const flat = {
	orderId: 'wb-3f2c9a1e-7d4b-4c1a-9e0f-2b6d8a5c3e71',
	paymentId: 'PAY0123456789abcdef0123456789abcdef',
	status: 'success',
	receiptId: 'INV-1001',
	amount: '1.000',
	signature: 'a'.repeat(64),
	timestamp: '2026-01-02T03:04:05.000Z',
	paymentDetails: { paymentMethod: 'card', cardNetwork: 'visa', cardType: 'credit' },
};

const wrappedData = {
	...flat,
	failureReason: null,
	redirectType: 'post',
	redirectUrl: 'https://shop.example.com/done',
};

/** A JSON object nested `depth` levels below the notification itself. */
function nested(depth: number): unknown {
	let value: unknown = 'leaf';
	for (let level = 0; level < depth; level++) value = { level: value };
	return value;
}

describe('readNotification', () => {
	it('reads a flat notification as it is', () => {
		expect(readNotification(flat, undefined)).toEqual(flat);
	});

	it('flattens a wrapped notification and keeps its eventType', () => {
		expect(readNotification({ eventType: null, data: wrappedData }, undefined)).toEqual({
			eventType: null,
			...wrappedData,
		});
		expect(readNotification({ eventType: 'TRANSACTION_COMPLETED', data: flat }, undefined)).toEqual({
			eventType: 'TRANSACTION_COMPLETED',
			...flat,
		});
	});

	it('gives a wrapped notification without eventType a null one', () => {
		expect(readNotification({ data: flat }, undefined)).toEqual({ eventType: null, ...flat });
	});

	it('trims every string value, nested ones included', () => {
		const spaced = {
			eventType: ' TRANSACTION_COMPLETED ',
			data: {
				orderId: `  ${flat.orderId} `,
				paymentId: `\t${flat.paymentId}\n`,
				status: ' success ',
				signature: ` ${flat.signature} `,
				paymentDetails: { cardNetwork: ' visa ', tags: [' a ', 'b '] },
			},
		};
		expect(readNotification(spaced, undefined)).toEqual({
			eventType: 'TRANSACTION_COMPLETED',
			orderId: flat.orderId,
			paymentId: flat.paymentId,
			status: 'success',
			signature: flat.signature,
			paymentDetails: { cardNetwork: 'visa', tags: ['a', 'b'] },
		});
	});

	it('gives numeric ids as strings', () => {
		expect(readNotification({ orderId: 1001, paymentId: 7 }, undefined)).toEqual({ orderId: '1001', paymentId: '7' });
	});

	it('reads the raw body when the parsed body is empty (no or another content type)', () => {
		const raw = Buffer.from(JSON.stringify({ eventType: null, data: flat }), 'utf8');
		expect(readNotification({}, raw)).toEqual({ eventType: null, ...flat });
		expect(readNotification(undefined, raw)).toEqual({ eventType: null, ...flat });
		expect(readNotification(JSON.stringify(flat), undefined)).toEqual(flat);
	});

	it.each([
		['an array of notifications', [flat]],
		['a JSON string', 'just text'],
		['a number', 42],
		['null', null],
		['an empty object', {}],
		['no orderId', { ...flat, orderId: undefined }],
		['no paymentId', { paymentId: undefined, orderId: flat.orderId, signature: flat.signature }],
		['an orderId of spaces only', { ...flat, orderId: '   ' }],
		['an empty paymentId', { ...flat, paymentId: '' }],
		['an orderId that is an object', { ...flat, orderId: { id: 1 } }],
		['a paymentId that is a boolean', { ...flat, paymentId: true }],
		['a wrapped notification whose data lacks the ids', { eventType: null, data: { status: 'success' } }],
		['a wrapper whose data is an array', { eventType: null, data: [flat] }],
	])('refuses %s', (_label, body) => {
		expect(readNotification(body, undefined)).toBeInstanceOf(RefusedNotification);
	});

	it.each([
		['a raw body that is not JSON', Buffer.from('{"orderId": "o1", ', 'utf8')],
		['a raw body that is a JSON array', Buffer.from(JSON.stringify([flat]), 'utf8')],
		['a raw body that is a JSON string', Buffer.from('"text"', 'utf8')],
		['an empty raw body', Buffer.alloc(0)],
	])('refuses %s', (_label, raw) => {
		expect(readNotification({}, raw)).toBeInstanceOf(RefusedNotification);
	});

	it('accepts nesting up to 16 levels and refuses anything deeper, without walking it all', () => {
		expect(readNotification({ ...flat, extra: nested(15) }, undefined)).toMatchObject({ orderId: flat.orderId });
		expect(readNotification({ ...flat, extra: nested(16) }, undefined)).toBeInstanceOf(RefusedNotification);
		expect(readNotification({ eventType: null, data: { ...flat, extra: nested(14) } }, undefined)).toMatchObject({
			paymentId: flat.paymentId,
		});
		expect(readNotification({ eventType: null, data: { ...flat, extra: nested(15) } }, undefined)).toBeInstanceOf(RefusedNotification);
		// Deep enough that walking it all the way (or trimming it recursively) would overflow the stack.
		expect(readNotification({ ...flat, extra: nested(200_000) }, undefined)).toBeInstanceOf(RefusedNotification);
		const deepRaw = Buffer.from(`{"orderId":"o","paymentId":"p","extra":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
		expect(readNotification({}, deepRaw)).toBeInstanceOf(RefusedNotification);
	});
});

describe('readNotification bounds every text before anything reads it', () => {
	it('refuses a body larger than 64 KiB with 413, naming the field that makes it so, without parsing it again', () => {
		const body = { ...flat, padding: 'x'.repeat(MAX_NOTIFICATION_BYTES) };
		const named = readNotification(body, Buffer.from(JSON.stringify(body))) as RefusedNotification;
		expect([named.statusCode, named.message]).toEqual([413, expect.stringContaining('field padding')]);
		const many = Object.fromEntries(Array.from({ length: 1000 }, (_, index) => [`field${index}`, 'y'.repeat(100)]));
		const unnamed = readNotification({}, Buffer.from(JSON.stringify({ ...flat, ...many }))) as RefusedNotification;
		expect([unnamed.statusCode, unnamed.message]).toEqual([413, expect.stringContaining('larger than 64 KiB')]);
	});

	it.each(['status', 'orderId', 'refundId'])('refuses a %s of 1 MiB with 400, naming the field', (field) => {
		const refused = readNotification({ ...flat, [field]: '1,'.repeat(512 * 1024) }, undefined) as RefusedNotification;
		expect(refused).toBeInstanceOf(RefusedNotification);
		expect(refused.statusCode).toBe(400);
		expect(refused.message).toContain(field);
	});

	it('refuses a nested field past the bound, naming its path; keeps one at the bound', () => {
		const long = 'a'.repeat(MAX_FIELD_CHARS);
		expect(readNotification({ ...flat, paymentDetails: { cardType: long } }, undefined)).toMatchObject({ paymentDetails: { cardType: long } });
		const refused = readNotification({ eventType: null, data: { ...flat, paymentDetails: { cardType: `${long}a` } } }, undefined) as RefusedNotification;
		expect(refused.message).toContain('paymentDetails.cardType');
	});

	it('refuses ids longer than 255 characters', () => {
		expect(readNotification({ ...flat, paymentId: 'P'.repeat(256) }, undefined)).toBeInstanceOf(RefusedNotification);
	});
});

describe('claimedOutcome: what a notification claims (the re-check turned off)', () => {
	// Status values of gateway-notes.md: success, failure, pending (several sources); failed, cancelled,
	// processing (one source each).
	it.each([
		['success', 'succeeded'],
		['failure', 'failed'],
		['pending', 'other'],
		['failed', 'failed'],
		['cancelled', 'failed'],
		['processing', 'other'],
		['SUCCESS', 'succeeded'],
		['Failure', 'failed'],
		['created', 'other'],
		['', 'other'],
	])('status %p is %p', (status, outcome) => {
		expect(claimedOutcome({ ...flat, status })).toBe(outcome);
		expect(claimedOutcome({ eventType: null, ...flat, status })).toBe(outcome);
	});

	it('a notification without a status is other', () => {
		expect(claimedOutcome({ orderId: 'o', paymentId: 'p' })).toBe('other');
		expect(claimedOutcome({ orderId: 'o', paymentId: 'p', status: 1 })).toBe('other');
	});

	// Event types of gateway-notes.md (one source): TRANSACTION_COMPLETED, TRANSACTION_FAILED, REFUND_SUCCESS,
	// REFUND_FAILED, with refundId on refunds. Transaction events go by the status; refund events by the event type.
	it.each([
		['TRANSACTION_COMPLETED', 'success', 'succeeded'],
		['TRANSACTION_COMPLETED', 'failure', 'failed'],
		['TRANSACTION_FAILED', 'failure', 'failed'],
		['TRANSACTION_FAILED', 'success', 'succeeded'],
		['TRANSACTION_FAILED', undefined, 'other'],
		['REFUND_SUCCESS', 'success', 'refunded'],
		['REFUND_SUCCESS', undefined, 'refunded'],
		['refund_success', 'success', 'refunded'],
		['REFUND_FAILED', 'failure', 'other'],
		['REFUND_FAILED', 'success', 'other'],
	])('eventType %p with status %p is %p', (eventType, status, outcome) => {
		expect(claimedOutcome({ eventType, orderId: 'o', paymentId: 'p', status })).toBe(outcome);
	});

	it('a refundId or a refund status makes it a refund', () => {
		expect(claimedOutcome({ eventType: null, orderId: 'o', paymentId: 'p', refundId: 'RF1', status: 'success' })).toBe(
			'refunded',
		);
		expect(claimedOutcome({ orderId: 'o', paymentId: 'p', status: 'refunded' })).toBe('refunded');
		expect(claimedOutcome({ orderId: 'o', paymentId: 'p', refundId: '', status: 'success' })).toBe('succeeded');
	});
});

describe('confirmedOutcome: what the gateway’s confirmed status reports', () => {
	it.each([
		['success', 'succeeded'],
		['failure', 'failed'],
		['pending', 'other'],
		['refunded', 'refunded'],
		['partially_refunded', 'refunded'],
		[' PARTIALLY_REFUNDED ', 'refunded'],
		['refund_pending', 'other'],
		['not refunded', 'other'],
		[undefined, 'other'],
	])('status %p is %p', (status, outcome) => {
		expect(confirmedOutcome(status)).toBe(outcome);
	});
});
