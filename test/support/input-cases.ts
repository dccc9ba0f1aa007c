import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { helperTimeoutMs } from '../../nodes/PaymentGateway/transport/deadline';
import type { SentRequest } from './execute-host';
import { HOST_CREDENTIALS } from './execute-host';
import { futureYear } from './fixtures';
import { genericParameters, keyOf, NODE_OPERATIONS } from './operations';
import type { Expected } from './input-rules';
import * as rules from './input-rules';
import { textOf } from './input-rules';
import {
	amountValues,
	anyText,
	cardNumberValues,
	CURRENCIES,
	cvvValues,
	fractionDigits,
	monthValues,
	notText,
	padded,
	urlValues,
	yearValues,
} from './input-values';

// Every validated field of every operation: the values to try, the item that carries one, what a careful user
// expects (input-rules.ts), where the request shows the value, and the bugs in nodes/ some values run into.
// One file on purpose: it is the one list of fields, read top to bottom against the node's parameters.

export interface FieldCase {
	operation: string;
	/** The field as errors name it. */
	field: string;
	values: fc.Arbitrary<unknown>;
	/** Parameters of one item, valid but for this value. */
	item(value: unknown): IDataObject;
	expected(value: unknown): Expected;
	/** The value as the request (or, for what is not sent, the output) carries it. */
	read(request: SentRequest, output: IDataObject): unknown;
}


const ORDER: IDataObject = {
	resource: 'order',
	operation: 'create',
	amount: 25.5,
	currency: 'USD',
	uiMode: 'checkout',
	customerName: 'Jane Doe',
	customerEmail: 'jane@example.com',
	customerPhone: '91234567',
	additionalFields: {},
	options: {},
};
const CHECKOUT: IDataObject = { ...ORDER, operation: 'createCheckout', redirectType: 'post' };
const INITIATE: IDataObject = {
	resource: 'transaction',
	operation: 'initiate',
	orderId: 'wb-generated',
	paymentMode: 'card',
	cardNumber: '4111111111111111',
	cardExpMonth: '12',
	cardExpYear: futureYear,
	cardCVV: '123',
	digitalCardId: 'dc_generated',
	cardHolderName: 'Jane Doe',
	redirectionUrl: 'https://shop.example.com/payment/done',
	secureCard: false,
	customerAuthentication: 'cvvAndOtp',
	options: {},
};
const TOKEN: IDataObject = { ...INITIATE, paymentMode: 'token' };
// A customer without stored cards still gives one item, so that every input item has its output.
const CARDS: IDataObject = { resource: 'digitalCard', operation: 'getMany', customerId: 'cus_generated', options: { outputSummaryWhenEmpty: true } };

/** Identifiers no record in the sandbox has. */
const GENERATED_IDS = { orderId: 'wb-generated', paymentId: 'PAYGENERATED', customerId: 'cus_generated', digitalCardId: 'dc_generated' };

/** A list field given by its id, as an item's expression gives it (and the fast path's stand-in reads it). */
const byId = (parameters: IDataObject): IDataObject =>
	Object.fromEntries(Object.entries(parameters).map(([name, value]) => [name, (value as IDataObject | undefined)?.mode === 'id' ? (value as IDataObject).value : value])) as IDataObject;

/**
 * Each operation of the router's list, valid: its fields from its descriptor (test/support/operations.ts) but where
 * an override gives them; then the variants some field cases run on.
 */
const BASES: Record<string, IDataObject> = {
	...Object.fromEntries(NODE_OPERATIONS.map((operation) => [keyOf(operation), byId(genericParameters(operation, { options: {} }, GENERATED_IDS))])),
	'order.create': ORDER,
	'order.createCheckout': CHECKOUT,
	'transaction.initiate': INITIATE,
	'digitalCard.getMany': CARDS,
	'order.create (amount 25)': { ...ORDER, amount: 25 },
	'order.createCheckout (amount 25)': { ...CHECKOUT, amount: 25 },
	'transaction.initiate (stored card)': TOKEN,
};

const body = (request: SentRequest) => JSON.parse(request.body ?? '{}') as IDataObject;
const cardDetails = (request: SentRequest) => rules.decryptCardDetails(body(request), String(HOST_CREDENTIALS.cardEncryptionKey));
/** The path segment after `prefix` in the request's path, still percent-encoded. */
const segmentAfter = (request: SentRequest, prefix: string) => request.path.split(prefix)[1]?.split('/')[0];

/** Sets a parameter at a dotted path of a copy of `base`. */
function withParameter(base: IDataObject, path: string, value: unknown): IDataObject {
	const [head, ...rest] = path.split('.');
	if (rest.length === 0) return { ...base, [head]: value } as IDataObject;
	return { ...base, [head]: withParameter((base[head] as IDataObject | undefined) ?? {}, rest.join('.'), value) };
}

/** A field that lives at one parameter path. */
function simple(
	operation: string,
	field: string,
	path: string,
	values: fc.Arbitrary<unknown>,
	expected: (value: unknown) => Expected,
	read: FieldCase['read'],
): FieldCase {
	return { operation, field, values, item: (value) => withParameter(BASES[operation], path, value), expected, read };
}

// An expression typed in Fixed mode, as a newcomer types it from the README.
const text = (limit: number, ...examples: string[]) =>
	fc.oneof(anyText(limit), notText, fc.constantFrom(...examples, '{{ $json.orderId }}').chain(padded));

function textCases(operations: string[], field: string, path: string, limit: number, required: boolean, read: FieldCase['read'], examples: string[]) {
	const expected = required ? rules.requiredText(field, limit) : rules.optionalText(field, limit);
	return operations.map((operation) => simple(operation, field, path, text(limit, ...examples), expected, read));
}

/** Amount and currency together: how many decimals an amount may have depends on its currency. */
function amountCase(operation: string, digitsOf: (currency: string) => number, withCurrency: boolean): FieldCase {
	const values = withCurrency
		? fc.constantFrom(...CURRENCIES).chain((currency) => amountValues(digitsOf(currency)).map((amount) => ({ currency, amount })))
		: amountValues(digitsOf('')).map((amount) => ({ currency: undefined, amount }));
	const parts = (value: unknown) => value as { currency?: string; amount: unknown };
	return {
		operation,
		field: 'Amount (amount)',
		values,
		item: (value) =>
			({ ...BASES[operation], amount: parts(value).amount, ...(withCurrency ? { currency: parts(value).currency } : {}) }) as IDataObject,
		expected: (value) => rules.expectedAmount('Amount (amount)', parts(value).amount, digitsOf(parts(value).currency ?? '')),
		read: (request) => rules.sentAmount(request.body),
	};
}

const currencyDigits = (currency: string) => fractionDigits(currency) as number;


const AUTHENTICATIONS = { cvvAndOtp: true, otpOnly: false, none: false } as Record<string, boolean>;
const FLAGS: Record<string, IDataObject> = {
	cvvAndOtp: { skipCVVandOTP: false, skipCVVOnlyFlag: false },
	otpOnly: { skipCVVandOTP: false, skipCVVOnlyFlag: true },
	none: { skipCVVandOTP: true, skipCVVOnlyFlag: false },
};

const headerOptions: Array<[string, string, string]> = [
	['Accept-Language (options.acceptLanguage)', 'options.acceptLanguage', 'Accept-Language'],
	['Browser Fingerprint (options.browserFingerprint)', 'options.browserFingerprint', 'X-MERCHANT-BROWSER-FINGERPRINT'],
	['User Agent (options.userAgent)', 'options.userAgent', 'X-MERCHANT-USER-AGENT'],
	['Merchant IP (options.merchantIp)', 'options.merchantIp', 'X-MERCHANT-IP'],
];

/** Header values the credential fills in when an item gives none, read from a request without overrides. */
export const headerDefaults: Record<string, string | undefined> = {};

function headerCases(operation: string): FieldCase[] {
	return headerOptions.map(([field, path, header]) =>
		simple(
			operation,
			field,
			path,
			fc.oneof(anyText(300), notText, fc.constantFrom('fr-CH', 'Mozilla/5.0 (X11)', '203.0.113.9', 'Jöhn', '→', 'a\r\nX-Evil: 1').chain(padded)),
			(value) => {
				// A value that is not text is refused, not silently replaced by the default (a number is written out).
				if (value !== undefined && value !== null && typeof value !== 'string' && typeof value !== 'number') return rules.refused(field);
				const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
				if (!text) return { sent: headerDefaults[header] };
				return rules.NOT_IN_A_HEADER.test(text) ? rules.refused(field) : { sent: text };
			},
			(request) => request.headers[header],
		),
	);
}

const MAX_TIMER_MS = 2 ** 31 - 1;

function optionCases(operation: string, read: boolean): FieldCase[] {
	const timeout = simple(
		operation,
		'Timeout (options.timeout)',
		'options.timeout',
		fc.oneof(
			fc.integer({ min: 1, max: MAX_TIMER_MS }),
			fc.double({ min: 0.001, max: 1e7, noNaN: true }),
			fc.constantFrom(MAX_TIMER_MS, MAX_TIMER_MS + 1, 2 ** 32 - 1, 2 ** 32, 1e10, Infinity, 0, -1, -0, Number.NaN, 1000.5, '5000', '', undefined),
			notText,
		),
		// Whole milliseconds that Node's timers can hold; anything else refused, naming the option. n8n's helper gets
		// a slightly later time-out, a backstop to the node's own deadline.
		(value) =>
			value === undefined
				? { sent: helperTimeoutMs(60_000) }
				: typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= MAX_TIMER_MS
					? { sent: helperTimeoutMs(value) }
					: rules.refused('Timeout (options.timeout)'),
		(request) => request.timeout,
	);
	const retries = simple(
		operation,
		'Max Retries (options.maxRetries)',
		'options.maxRetries',
		fc.oneof(fc.integer({ min: -3, max: 12 }), fc.double({ noNaN: false }), fc.constantFrom('2', '', undefined), notText),
		(value) =>
			// 0 to 10, as the field offers it (and as the trigger's Max Retries takes it).
			value === undefined || (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 10)
				? { sent: undefined }
				: rules.refused('Max Retries (options.maxRetries)'),
		() => undefined,
	);
	return [timeout, ...(read ? [retries] : []), ...headerCases(operation)];
}

const LISTED: FieldCase[] = [
	amountCase('order.create', currencyDigits, true),
	amountCase('order.createCheckout', currencyDigits, true),
	amountCase('transaction.refund', () => 3, false),
	...['order.create', 'order.createCheckout'].map((operation) =>
		simple(
			// A whole amount, valid in every currency.
			`${operation} (amount 25)`,
			'Currency (currency)',
			'currency',
			fc.oneof(
				fc.constantFrom(...CURRENCIES).chain((code) => fc.constantFrom(code, code.toLowerCase(), `${code[0]}${code.slice(1).toLowerCase()}`)).chain(padded),
				fc.constantFrom('uſd', 'ußd', 'ßd', 'ﬀx', 'usı', 'ＵＳＤ', 'US', 'USDX', 'U$D', 'ЕUR', 'ΕUR', '840'),
				anyText(8),
				notText,
			),
			(value) => {
				const code = textOf(value);
				if (!code || !/^[A-Za-z]{3}$/.test(code)) return rules.refused('Currency (currency)');
				return { sent: code.toUpperCase() };
			},
			(request) => body(request).currency,
		),
	),
	...textCases(['order.create', 'order.createCheckout'], 'Receipt ID (additionalFields.receiptId)', 'additionalFields.receiptId', 40, false, (r) => body(r).receiptId, ['INV-1001']),
	...textCases(['order.create', 'order.createCheckout'], 'Description (additionalFields.description)', 'additionalFields.description', 1000, false, (r) => body(r).description, ['Two cups of tea']),
	...textCases(['order.createCheckout'], 'CURN (additionalFields.curn)', 'additionalFields.curn', 255, false, (r) => body(r).curn, ['c-77']),
	...textCases(['order.create', 'order.createCheckout'], 'Customer Name (customerName)', 'customerName', 255, true, (r) => (body(r).customerFields as IDataObject).name, ['Jane Doe']),
	...textCases(['order.create'], 'Customer Phone (customerPhone)', 'customerPhone', 32, true, (r) => (body(r).customerFields as IDataObject).phone, ['91234567']),
	...['order.create', 'order.createCheckout'].map((operation) =>
		simple(
			operation,
			'Customer Email (customerEmail)',
			'customerEmail',
			fc.oneof(fc.emailAddress(), fc.emailAddress().chain(padded), fc.constantFrom('a@b', 'a@b.c', 'a b@c.d', '@c.d', 'a@.d', 'a@b..c', 'a@b.c.', 'a@@b.c', 'ａ@b.c'), anyText(254), notText),
			(value) => {
				const email = textOf(value);
				if (!email || email.length > 254 || /\s/.test(email)) return rules.refused('Customer Email (customerEmail)');
				const [local, domain, ...more] = email.split('@');
				const labels = (domain ?? '').split('.');
				const wellFormed = more.length === 0 && local !== '' && labels.length >= 2 && labels.every((label) => label !== '');
				return wellFormed ? { sent: email } : rules.refused('Customer Email (customerEmail)');
			},
			(request) => (body(request).customerFields as IDataObject).email,
		),
	),
	simple(
		'order.createCheckout',
		'Redirect Type (redirectType)',
		'redirectType',
		fc.oneof(fc.constantFrom('post', 'redirect', 'POST', 'Redirect', 'get', '').chain(padded), anyText(10), notText),
		(value) => {
			const type = textOf(value);
			return type === 'post' || type === 'redirect' ? { sent: type } : rules.refused('Redirect Type (redirectType)');
		},
		(request) => body(request).redirectType,
	),
	simple(
		'order.createCheckout',
		'Redirect URL (additionalFields.redirectUrl)',
		'additionalFields.redirectUrl',
		urlValues,
		// Falsy means "none"; the address goes into the hosted checkout link, not to the gateway.
		(value) => (value ? rules.expectedUrl('Redirect URL (additionalFields.redirectUrl)', value) : { sent: undefined }),
		(_request, output) => (typeof output.checkoutUrl === 'string' ? new URL(output.checkoutUrl).searchParams.get('redirectUrl') : undefined),
	),
	...textCases(['transaction.initiate'], 'Order ID (orderId)', 'orderId', 255, true, (r) => body(r).orderId, ['wb-4d5791b8']),
	// In the query of check-status: text that cannot be encoded in a URL must be refused like an empty one.
	simple(
		'status.getByOrderId',
		'Order ID (orderId)',
		'orderId',
		text(255, 'wb-4d5791b8', 'wb-1&orderId=wb-2'),
		(value) => {
			const expected = rules.requiredText('Order ID (orderId)', 255)(value);
			return 'sent' in expected && rules.hasLoneSurrogate(String(expected.sent)) ? rules.refused('Order ID (orderId)') : expected;
		},
		(request) => request.qs?.orderId ?? new URL(request.path, 'http://query.test').searchParams.get('orderId'),
	),
	simple(
		'transaction.initiate',
		'Payment Mode (paymentMode)',
		'paymentMode',
		fc.oneof(fc.constantFrom('card', 'token', 'Card', ' token', 'cash', '', undefined), anyText(8), notText),
		(value) => (value === 'card' || value === 'token' ? { sent: value } : rules.refused('Payment Mode (paymentMode)')),
		(request) => body(request).paymentMode,
	),
	simple('transaction.initiate', 'Card Number (cardNumber)', 'cardNumber', cardNumberValues, (value) => rules.expectedCardNumber('Card Number (cardNumber)', value), (r) => cardDetails(r).cardNumber),
	{
		operation: 'transaction.initiate',
		field: 'Expiry Month (cardExpMonth), Expiry Year (cardExpYear)',
		values: fc.tuple(monthValues, yearValues),
		item: (value) => {
			const [cardExpMonth, cardExpYear] = value as [unknown, unknown];
			return { ...INITIATE, cardExpMonth, cardExpYear } as IDataObject;
		},
		expected: (value) => rules.expectedExpiry(...(value as [unknown, unknown])),
		read: (request) => {
			const { cardExpMonth, cardExpYear } = cardDetails(request);
			return { cardExpMonth, cardExpYear };
		},
	},
	{
		operation: 'transaction.initiate',
		field: 'CVV (cardCVV)',
		values: fc.tuple(cvvValues, fc.constantFrom('cvvAndOtp', 'otpOnly', 'none'), fc.constantFrom('card', 'token')),
		item: (value) => {
			const [cardCVV, customerAuthentication, paymentMode] = value as [unknown, string, string];
			return { ...INITIATE, cardCVV, customerAuthentication, paymentMode } as IDataObject;
		},
		expected: (value) => {
			const [cvv, authentication, mode] = value as [unknown, string, string];
			const text = textOf(cvv) ?? '';
			if (!text) return AUTHENTICATIONS[authentication] ? rules.refused('CVV (cardCVV)') : { sent: mode === 'card' ? '' : undefined };
			return /^[0-9]{3,4}$/.test(text) ? { sent: text } : rules.refused('CVV (cardCVV)');
		},
		read: (request) => cardDetails(request).cardCVV,
	},
	simple(
		'transaction.initiate',
		'Customer Authentication (customerAuthentication)',
		'customerAuthentication',
		fc.oneof(fc.constantFrom('cvvAndOtp', 'otpOnly', 'none', 'NONE', 'none ', '', undefined, '__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'), anyText(12), notText),
		(value) =>
			typeof value === 'string' && Object.hasOwn(FLAGS, value)
				? { sent: FLAGS[value] }
				: rules.refused('Customer Authentication (customerAuthentication)'),
		(request) => ({ skipCVVandOTP: body(request).skipCVVandOTP, skipCVVOnlyFlag: body(request).skipCVVOnlyFlag }),
	),
	...textCases(['transaction.initiate'], 'Card Holder Name (cardHolderName)', 'cardHolderName', 255, true, (r) => body(r).cardHolderName, ['Jane Doe']),
	simple('transaction.initiate', 'Redirection URL (redirectionUrl)', 'redirectionUrl', urlValues, (value) => rules.expectedUrl('Redirection URL (redirectionUrl)', value), (r) => body(r).redirectionUrl),
	...textCases(['transaction.initiate (stored card)'], 'Digital Card (digitalCardId)', 'digitalCardId', 255, true, (r) => cardDetails(r).digitalCardId, ['dc_40e5ff402e327ef4']),
	...textCases(['transaction.refund'], 'Payment ID (paymentId)', 'paymentId', 255, true, (r) => body(r).paymentId, ['PAYE93E771E56E81E22E4028D5FFE098BCF']),
	simple('status.getByPaymentId', 'Payment ID (paymentId)', 'paymentId', text(255, 'PAY1/../x', 'PAY 1?#'), (value) => rules.expectedPathSegment('Payment ID (paymentId)', value), (r) => segmentAfter(r, '/transaction/status/')),
	...['digitalCard.getMany', 'digitalCard.get', 'digitalCard.delete'].map((operation) =>
		simple(operation, 'Customer ID (customerId)', 'customerId', text(255, 'cus_afe86936582d7809', 'a/b?c#d'), (value) => rules.expectedPathSegment('Customer ID (customerId)', value), (r) => segmentAfter(r, '/customer/')),
	),
	...['digitalCard.get', 'digitalCard.delete'].map((operation) =>
		simple(operation, 'Digital Card (digitalCardId)', 'digitalCardId', text(255, 'dc_40e5ff402e327ef4', '../dc'), (value) => rules.expectedPathSegment('Digital Card (digitalCardId)', value), (r) => segmentAfter(r, '/digitalCards/')),
	),
	...optionCases('order.create', false),
	...optionCases('transaction.initiate', false),
	...optionCases('status.getByOrderId', true),
	...optionCases('digitalCard.delete', true),
];

/**
 * The field cases above, then, for an operation of the router's list none of them names, what every call of an
 * operation with Options takes: the Timeout, Max Retries for a read, and the headers.
 */
export const FIELD_CASES: FieldCase[] = [
	...LISTED,
	...NODE_OPERATIONS.filter((operation) => operation.options !== false && !LISTED.some((fieldCase) => BASES[fieldCase.operation].operation === operation.value && BASES[fieldCase.operation].resource === operation.resource)).flatMap((operation) => optionCases(keyOf(operation), !operation.sendsOnce)),
];
