'use strict';

// A stateful stand-in for the payment gateway's merchant API, for tests and
// demos without a provider account. It is deliberately strict: a request the
// real gateway might let through by luck should fail here, loudly.

const http = require('node:http');
const crypto = require('node:crypto');
const net = require('node:net');

// Fixed defaults keep demos and saved workflows reproducible between runs.
const DEFAULT_SHORT_PREFIX = '/nac/api/v1/merchant-host';
const DEFAULT_CLIENTS = {
	active: { clientId: 'sandbox-client', clientSecret: 'sandbox-secret-f4910caa8879a0d4' },
	inactive: { clientId: 'inactive-client', clientSecret: 'inactive-secret-437760f5026c619e' },
};
const DEFAULT_CARD_ENCRYPTION_KEY =
	'ae0a48d044fd61f653b82fe9234b6837db4d627b2568d014494eb048ccf595eb';

const LONG_PREFIX = '/nac/api/v1/pg/orders';
const CONTROL_PREFIX = '/__sandbox';
const MAX_BODY_BYTES = 1024 * 1024;
const CARD_LIMIT = 5;
const DECLINED_CARD = '4393570006367857';
// The live gateway answers amounts of these currencies as strings with three decimals.
const THREE_DECIMAL_CURRENCIES = new Set(['BHD', 'KWD', 'OMR', 'JOD', 'TND']);
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const ORDER_MAGIC = { 401.01: [401, 'Internal server error'] };
const CHECKOUT_MAGIC = { 400.01: [400, 'Order failed'] };
const INITIATE_MAGIC = {
	404.01: [404, 'No route found; try another card'],
	404.02: [404, 'No route found; try an alternative payment method'],
	404.03: [404, 'No route found for this merchant; contact support'],
	409.01: [409, 'Sales transactions not allowed for this merchant; contact support'],
	422.01: [422, 'Fraud-rule validation failed'],
	500.01: [500, 'Internal server error'],
};

const REQUIRED_HEADERS = [
	'X-MERCHANT-BROWSER-FINGERPRINT',
	'X-MERCHANT-USER-AGENT',
	'X-MERCHANT-DOMAIN',
	'Accept-Language',
];

const SHORT_ROUTES = [
	['POST', /^\/order$/, 'createOrder'],
	['POST', /^\/transaction\/initiate$/, 'initiate'],
	['GET', /^\/transaction\/status\/([^/]+)$/, 'statusByPayment'],
	['GET', /^\/customer\/([^/]+)\/digitalCards$/, 'listCards'],
	['GET', /^\/customer\/([^/]+)\/digitalCards\/([^/]+)$/, 'getCard'],
	['DELETE', /^\/customer\/([^/]+)\/digitalCards\/([^/]+)$/, 'deleteCard'],
];
const LONG_ROUTES = [
	['POST', /^\/nac\/api\/v1\/pg\/orders\/create-checkout$/, 'createCheckout'],
	['GET', /^\/nac\/api\/v1\/pg\/orders\/check-status$/, 'checkStatus'],
];

class HttpError extends Error {
	constructor(status, message) {
		super(message);
		this.status = status;
	}
}

const bad = (message) => new HttpError(400, message);
const randomHex = (bytes) => crypto.randomBytes(bytes).toString('hex');
const hmacHex = (key, data) => crypto.createHmac('sha256', key).update(data).digest('hex');
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmptyString = (v) => typeof v === 'string' && v.trim() !== '';
const now = () => new Date().toISOString();

function safeEqual(a, b) {
	// Hashing first gives equal lengths, so the comparison time leaks nothing.
	const ha = crypto.createHash('sha256').update(String(a)).digest();
	const hb = crypto.createHash('sha256').update(String(b)).digest();
	return crypto.timingSafeEqual(ha, hb);
}

function decimalPlaces(n) {
	const s = String(n);
	if (s.includes('e-')) return Infinity;
	if (s.includes('e')) return 0;
	const dot = s.indexOf('.');
	return dot === -1 ? 0 : s.length - dot - 1;
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

function cardNetwork(number) {
	if (number.startsWith('4')) return 'VISA';
	if (number.startsWith('5')) return 'MASTERCARD';
	return 'OTHER';
}

function customerIdFor(customer) {
	const seed = `${customer.email.trim().toLowerCase()}|${String(customer.phone).trim()}`;
	return 'cus_' + crypto.createHash('sha256').update(seed).digest('hex').slice(0, 16);
}

function presentAmount(order) {
	return THREE_DECIMAL_CURRENCIES.has(order.currency.toUpperCase())
		? order.amount.toFixed(3)
		: order.amount;
}

function escapeHtml(s) {
	return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function publicCard(card) {
	const { digitalCardId, network, cardType, status, panLastFour, createdAt, updatedAt } = card;
	return { digitalCardId, network, cardType, status, panLastFour, createdAt, updatedAt };
}

// Shared by both create endpoints; uiMode errors carry 422 because the
// short endpoint reports them so (the long one turns everything into 400).
function validateOrder(body) {
	const { amount, currency, uiMode, receiptId, description, customerFields: cf } = body;
	if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) {
		throw bad('amount must be a number greater than 0');
	}
	if (decimalPlaces(amount) > 2) throw bad('amount must have at most 2 decimal places');
	if (typeof currency !== 'string' || !/^[A-Za-z]{3}$/.test(currency)) {
		throw bad('currency must be a 3-letter currency code');
	}
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
	return { name: cf.name, email: cf.email, phone };
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

// Messages name the field but never repeat its value: card data must not leak into logs.
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

function authenticationPage(payment, order, actionPath) {
	const amount = `${presentAmount(order)} ${order.currency}`;
	const buttons =
		payment.status === 'pending'
			? `<form method="POST" action="${escapeHtml(actionPath)}">
<button name="result" value="success">Authenticate: success</button>
<button name="result" value="failure">Authenticate: failure</button>
</form>`
			: '<p>This payment is already complete.</p>';
	return `<!doctype html>
<html><head><meta charset="utf-8"><title>Sandbox authentication</title></head>
<body style="font-family: sans-serif; max-width: 36em; margin: 3em auto">
<h1>Sandbox card authentication</h1>
<p>Payment <code>${escapeHtml(payment.paymentId)}</code> of order <code>${escapeHtml(order.orderId)}</code>: ${escapeHtml(amount)}.</p>
<p>Status: <strong>${escapeHtml(payment.status)}</strong></p>
${buttons}
</body></html>`;
}

// Mirrors what the live gateway posts to the merchant after authentication.
function resultPage(record, redirectionUrl) {
	const fields = ['orderId', 'paymentId', 'status', 'amount', 'signature', 'timestamp']
		.map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(record[k] ?? '')}">`)
		.join('\n');
	return `<!doctype html>
<html><head><meta charset="utf-8"><title>Sandbox authentication</title></head>
<body style="font-family: sans-serif; max-width: 36em; margin: 3em auto">
<h1>Payment ${escapeHtml(record.status)}</h1>
<form method="POST" action="${escapeHtml(redirectionUrl)}">
${fields}
<button>Return to merchant</button>
</form>
</body></html>`;
}

function readBody(req) {
	return new Promise((resolve, reject) => {
		const chunks = [];
		let size = 0;
		// Keep draining an oversized body so the socket stays usable for the answer.
		req.on('data', (chunk) => {
			size += chunk.length;
			if (size <= MAX_BODY_BYTES) chunks.push(chunk);
		});
		req.on('end', () => {
			if (size > MAX_BODY_BYTES) reject(new HttpError(413, 'Request body too large'));
			else resolve(Buffer.concat(chunks));
		});
		req.on('error', reject);
	});
}

function matchRoute(table, method, path) {
	for (const [routeMethod, re, name] of table) {
		const m = re.exec(path);
		if (!m || routeMethod !== method) continue;
		try {
			return { name, params: m.slice(1).map(decodeURIComponent) };
		} catch {
			return null; // malformed percent-encoding: treat like an unknown path
		}
	}
	return null;
}

function startSandbox(options = {}) {
	const shortPrefix = (options.shortPrefix ?? DEFAULT_SHORT_PREFIX).replace(/\/+$/, '');
	const cardEncryptionKey = options.cardEncryptionKey ?? DEFAULT_CARD_ENCRYPTION_KEY;
	if (!/^[0-9a-fA-F]{64}$/.test(cardEncryptionKey)) {
		return Promise.reject(new Error('cardEncryptionKey must be 64 hex characters'));
	}
	const clients = {
		active: { ...DEFAULT_CLIENTS.active, ...options.clients?.active },
		inactive: { ...DEFAULT_CLIENTS.inactive, ...options.clients?.inactive },
	};
	const clientById = new Map([
		[clients.inactive.clientId, { ...clients.inactive, active: false }],
		[clients.active.clientId, { ...clients.active, active: true }],
	]);

	let latencyMs = Number(options.latencyMs) || 0;
	let faults = [];
	const requests = [];
	const timers = new Set();
	const state = { orders: new Map(), payments: new Map(), wallets: new Map() };
	let url = '';

	function wallet(clientId, customerId) {
		// Customers are per merchant: one client never sees another's cards.
		const key = `${clientId}\n${customerId}`;
		if (!state.wallets.has(key)) state.wallets.set(key, new Map());
		return state.wallets.get(key);
	}

	function activeCards(clientId, customerId) {
		return [...wallet(clientId, customerId).values()].filter((c) => c.status === 'ACTIVE');
	}

	function latestPayment(order) {
		const id = order.paymentIds[order.paymentIds.length - 1];
		return id ? state.payments.get(id) : undefined;
	}

	function statusRecord(order, payment) {
		const secret = clientById.get(order.clientId).clientSecret;
		const paymentId = payment ? payment.paymentId : '';
		const record = {
			orderId: order.orderId,
			status: payment ? payment.status : 'created',
			paymentId,
			receiptId: order.receiptId,
			amount: presentAmount(order),
			signature: hmacHex(secret, `${order.orderId}|${paymentId}`),
			timestamp: (payment ?? order).updatedAt,
		};
		if (payment) {
			record.paymentDetails = {
				paymentMethod: 'card',
				cardNetwork: payment.cardNetwork,
				cardType: payment.cardType,
			};
		}
		return record;
	}

	function completeAuthentication(paymentId, result) {
		if (result !== 'success' && result !== 'failure') {
			throw new HttpError(400, 'result must be "success" or "failure"');
		}
		const payment = state.payments.get(paymentId);
		if (!payment) throw new HttpError(404, 'Payment not found');
		if (payment.status !== 'pending') {
			throw new HttpError(409, `Payment is not pending (status: ${payment.status})`);
		}
		payment.status = payment.declined ? 'failure' : result;
		payment.updatedAt = now();
		return statusRecord(state.orders.get(payment.orderId), payment);
	}

	function createOrder(client, fields, customer, extra) {
		const t = now();
		const order = {
			orderId: 'ord_' + randomHex(8),
			clientId: client.clientId,
			amount: fields.amount,
			currency: fields.currency,
			receiptId: fields.receiptId,
			description: fields.description,
			customer,
			customerId: customerIdFor(customer),
			paymentIds: [],
			createdAt: t,
			updatedAt: t,
			...extra,
		};
		state.orders.set(order.orderId, order);
		return order;
	}

	function storeCard(client, customerId, cardNumber) {
		const cards = wallet(client.clientId, customerId);
		const fingerprint = crypto.createHash('sha256').update(cardNumber).digest('hex');
		const existing = [...cards.values()].find(
			(c) => c.status === 'ACTIVE' && c.fingerprint === fingerprint,
		);
		if (existing) return existing;
		if (activeCards(client.clientId, customerId).length >= CARD_LIMIT) {
			throw new HttpError(422, 'Tokenization limit reached for this customer');
		}
		const t = now();
		const card = {
			digitalCardId: 'dc_' + randomHex(8),
			network: cardNetwork(cardNumber),
			cardType: 'credit',
			status: 'ACTIVE',
			panLastFour: cardNumber.slice(-4),
			createdAt: t,
			updatedAt: t,
			// Internal only, never sent: lets a repeat card reuse its token and keeps the decline.
			fingerprint,
			declined: cardNumber === DECLINED_CARD,
		};
		cards.set(card.digitalCardId, card);
		return card;
	}

	const handlers = {
		createOrder({ client, body }) {
			const customer = validateOrder(body);
			if (ORDER_MAGIC[body.amount]) throw new HttpError(...ORDER_MAGIC[body.amount]);
			const order = createOrder(client, body, customer, { family: 'short' });
			return ok({
				orderId: order.orderId,
				receiptId: order.receiptId,
				amount: presentAmount(order),
				currency: order.currency,
			});
		},

		createCheckout({ client, body }) {
			let customer;
			try {
				customer = validateOrder(body);
				if (body.redirectType !== 'post' && body.redirectType !== 'redirect') {
					throw bad('redirectType must be "post" or "redirect"');
				}
				if (body.curn !== undefined && typeof body.curn !== 'string') throw bad('curn must be a string');
			} catch (err) {
				throw new HttpError(400, `Order failed: ${err.message}`);
			}
			if (CHECKOUT_MAGIC[body.amount]) throw new HttpError(...CHECKOUT_MAGIC[body.amount]);
			const order = createOrder(client, body, customer, {
				family: 'long',
				curn: body.curn,
				redirectType: body.redirectType,
			});
			return {
				status: 200,
				body: {
					orderId: order.orderId,
					amount: presentAmount(order),
					receiptId: order.receiptId,
					status: 'success',
					resCode: 200,
					errMessage: '',
				},
			};
		},

		initiate({ client, body }) {
			const { orderId, encryptedCardDetails, paymentMode, skipCVVandOTP, skipCVVOnlyFlag } = body;
			const secureCard = body.secureCard === undefined ? false : body.secureCard;
			if (!nonEmptyString(orderId)) throw bad('orderId is required');
			if (!nonEmptyString(encryptedCardDetails)) throw bad('encryptedCardDetails is required');
			if (body.paymentMethod !== 'card') throw bad('paymentMethod must be "card"');
			if (!nonEmptyString(body.cardHolderName)) throw bad('cardHolderName is required');
			if (!isHttpUrl(body.redirectionUrl)) throw bad('redirectionUrl must be an absolute http(s) URL');
			if (paymentMode !== 'card' && paymentMode !== 'token') {
				throw bad('paymentMode must be "card" or "token"');
			}
			if (typeof secureCard !== 'boolean') throw bad('secureCard must be a boolean');
			if (typeof skipCVVandOTP !== 'boolean') throw bad('skipCVVandOTP must be a boolean');
			if (typeof skipCVVOnlyFlag !== 'boolean') throw bad('skipCVVOnlyFlag must be a boolean');
			if (body.apiType !== 'hosted') throw bad('apiType must be "hosted"');
			if (skipCVVandOTP && skipCVVOnlyFlag) {
				throw bad('skipCVVandOTP and skipCVVOnlyFlag cannot both be true');
			}
			if (secureCard && paymentMode === 'token') {
				throw bad('secureCard can only be used with paymentMode "card"');
			}

			const order = state.orders.get(orderId);
			if (!order || order.clientId !== client.clientId) throw new HttpError(404, 'Order not found');

			const card = decryptCardDetails(encryptedCardDetails, cardEncryptionKey);
			if (!card) throw bad('Invalid encrypted card details');
			let storedCard;
			if (paymentMode === 'card') {
				checkNewCard(card);
			} else {
				if (!nonEmptyString(card.digitalCardId)) throw bad('digitalCardId is required');
				storedCard = wallet(client.clientId, order.customerId).get(card.digitalCardId);
				if (!storedCard || storedCard.status !== 'ACTIVE') {
					throw bad('digitalCardId is not an active stored card of this customer');
				}
			}
			checkCvv(card, !skipCVVandOTP && !skipCVVOnlyFlag);

			if (INITIATE_MAGIC[order.amount]) throw new HttpError(...INITIATE_MAGIC[order.amount]);
			const previous = order.paymentIds.map((id) => state.payments.get(id));
			if (previous.some((p) => p.status !== 'failure')) {
				throw new HttpError(409, 'Transaction is already in progress');
			}
			if (secureCard) storedCard = storeCard(client, order.customerId, card.cardNumber);

			const t = now();
			const payment = {
				paymentId: 'pay_' + randomHex(8),
				orderId: order.orderId,
				clientId: client.clientId,
				status: 'pending',
				paymentMode,
				cardNetwork: storedCard ? storedCard.network : cardNetwork(card.cardNumber),
				cardType: 'credit',
				declined: storedCard ? storedCard.declined : card.cardNumber === DECLINED_CARD,
				redirectionUrl: body.redirectionUrl,
				createdAt: t,
				updatedAt: t,
			};
			state.payments.set(payment.paymentId, payment);
			order.paymentIds.push(payment.paymentId);
			order.updatedAt = t;
			// Without authentication there is nothing to wait for; the answer still says
			// pending, as the live gateway does, so callers must check the status.
			if (skipCVVandOTP) payment.status = payment.declined ? 'failure' : 'success';

			const action = `${url}${CONTROL_PREFIX}/authenticate/${encodeURIComponent(payment.paymentId)}`;
			const data = {
				paymentId: payment.paymentId,
				orderId: order.orderId,
				receiptId: order.receiptId,
				paymentStatus: 'pending',
				amount: presentAmount(order),
				currency: order.currency,
				redirectionData: {
					method: 'POST',
					formData:
						`<form id="sandbox-auth" method="POST" action="${escapeHtml(action)}">` +
						`<input type="hidden" name="paymentId" value="${escapeHtml(payment.paymentId)}">` +
						'</form><script>document.forms[0].submit()</script>',
				},
			};
			if (secureCard) {
				data.securedCardDetails = {
					customerId: order.customerId,
					digitalCardId: storedCard.digitalCardId,
				};
			}
			return ok(data);
		},

		statusByPayment({ client, params: [paymentId] }) {
			const payment = state.payments.get(paymentId);
			if (!payment || payment.clientId !== client.clientId) {
				throw new HttpError(404, 'Payment not found');
			}
			return ok(statusRecord(state.orders.get(payment.orderId), payment));
		},

		checkStatus({ client, query }) {
			const orderId = query.get('orderId');
			if (!nonEmptyString(orderId)) throw bad('orderId is required');
			const order = state.orders.get(orderId);
			if (!order || order.clientId !== client.clientId) throw new HttpError(404, 'Order not found');
			return { status: 200, body: statusRecord(order, latestPayment(order)) };
		},

		listCards({ client, params: [customerId] }) {
			if (customerId === 'cus_fail_list') {
				throw new HttpError(500, 'Error while fetching digital cards');
			}
			const cards = activeCards(client.clientId, customerId);
			return ok({ digitalCards: cards.map(publicCard), remainingLimit: CARD_LIMIT - cards.length });
		},

		getCard({ client, params: [customerId, digitalCardId] }) {
			if (digitalCardId === 'dc_fail_fetch') {
				throw new HttpError(500, 'Error while fetching digital card');
			}
			const card = wallet(client.clientId, customerId).get(digitalCardId);
			if (!card || card.status !== 'ACTIVE') throw new HttpError(404, 'Card not found');
			const remainingLimit = CARD_LIMIT - activeCards(client.clientId, customerId).length;
			return ok({ digitalCard: publicCard(card), remainingLimit });
		},

		deleteCard({ client, params: [customerId, digitalCardId] }) {
			if (digitalCardId === 'dc_fail_delete') {
				throw new HttpError(500, 'Error while removing digital card');
			}
			const cards = wallet(client.clientId, customerId);
			const card = cards.get(digitalCardId);
			if (!card || card.status !== 'ACTIVE') {
				throw new HttpError(404, 'Card not found or already deleted');
			}
			cards.delete(digitalCardId);
			return ok({ customerId, digitalCardId });
		},
	};

	function ok(data) {
		return { status: 200, body: { resCode: 200, status: 'success', data } };
	}

	function resolveApiRoute(method, pathname) {
		if (pathname === LONG_PREFIX || pathname.startsWith(LONG_PREFIX + '/')) {
			return { family: 'long', apiPath: pathname, route: matchRoute(LONG_ROUTES, method, pathname) };
		}
		const underPrefix =
			shortPrefix === '' || pathname === shortPrefix || pathname.startsWith(shortPrefix + '/');
		if (!underPrefix) return { family: null, apiPath: null, route: null };
		const apiPath = pathname.slice(shortPrefix.length);
		return { family: 'short', apiPath, route: matchRoute(SHORT_ROUTES, method, apiPath) };
	}

	// Each endpoint family has its own failure shape; clients must cope with all of them.
	function failureBody(routeName, status, message, rawBody) {
		if (routeName === 'createCheckout') {
			let receiptId;
			try {
				const parsed = JSON.parse(rawBody);
				if (isObject(parsed) && typeof parsed.receiptId === 'string') receiptId = parsed.receiptId;
			} catch {
				// no receipt to echo
			}
			return { receiptId, status: 'failure', resCode: status, errMessage: message };
		}
		if (routeName === 'checkStatus') return { resCode: status, status: 'failure', errMessage: message };
		return { resCode: status, status: 'failure', message };
	}

	function authenticate(req, apiPath, rawBody) {
		const auth = /^Basic\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
		if (!auth) throw new HttpError(401, 'Missing Authorization header');
		const decoded = Buffer.from(auth[1], 'base64').toString('utf8');
		const colon = decoded.indexOf(':');
		const client = colon === -1 ? undefined : clientById.get(decoded.slice(0, colon));
		if (!client || !safeEqual(client.clientSecret, decoded.slice(colon + 1)) || !client.active) {
			throw new HttpError(401, 'Invalid or inactive client credentials');
		}
		const signature = req.headers['x-signature'];
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

	function checkHeaders(req) {
		for (const name of REQUIRED_HEADERS) {
			if (!nonEmptyString(req.headers[name.toLowerCase()])) {
				throw bad(`Missing required header: ${name}`);
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

	function takeFault(path) {
		const fault = faults.find((f) => f.count > 0 && path.includes(f.match));
		if (!fault) return null;
		fault.count -= 1;
		faults = faults.filter((f) => f.count > 0);
		return fault;
	}

	function delay(ms) {
		if (ms <= 0) return Promise.resolve();
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				timers.delete(timer);
				resolve();
			}, ms);
			timers.add(timer);
		});
	}

	async function handleApi(req, res, pathname, search) {
		const rawBody = await readBody(req);
		const { family, apiPath, route } = resolveApiRoute(req.method, pathname);
		const headers = { ...req.headers };
		if (headers.authorization !== undefined) {
			headers.authorization = `${String(headers.authorization).split(/\s/)[0]} <redacted>`;
		}
		const basic = /^Basic\s+(\S+)/i.exec(req.headers.authorization ?? '');
		const claimed = basic ? Buffer.from(basic[1], 'base64').toString('utf8') : '';
		const entry = {
			time: now(),
			method: req.method,
			path: pathname + search,
			apiPath,
			family,
			headers,
			clientId: claimed.includes(':') ? claimed.slice(0, claimed.indexOf(':')) : null,
			body: rawBody.toString('utf8'),
			status: null,
			resCode: null,
		};
		requests.push(entry);

		const send = (status, body, extraHeaders = {}) => {
			entry.status = status;
			entry.resCode = isObject(body) && 'resCode' in body ? body.resCode : null;
			sendJson(res, status, body, extraHeaders);
		};

		await delay(latencyMs);

		const fault = takeFault(pathname + search);
		if (fault) {
			const message = fault.status === 429 ? 'Too many requests' : 'Service temporarily unavailable';
			const extra = fault.retryAfter !== undefined ? { 'Retry-After': String(fault.retryAfter) } : {};
			send(fault.status, fault.body ?? { resCode: fault.status, status: 'failure', message }, extra);
			return;
		}
		if (!route) {
			send(404, { resCode: 404, status: 'failure', message: 'No route found' });
			return;
		}
		try {
			const client = authenticate(req, apiPath, rawBody);
			checkHeaders(req);
			const body = req.method === 'POST' ? parseJsonBody(req, rawBody) : undefined;
			const query = new URLSearchParams(search);
			const result = handlers[route.name]({ client, body, params: route.params, query });
			send(result.status, result.body);
		} catch (err) {
			if (!(err instanceof HttpError)) console.error('sandbox: unexpected error', err);
			const e = err instanceof HttpError ? err : new HttpError(500, 'Internal server error');
			send(e.status, failureBody(route.name, e.status, e.message, rawBody.toString('utf8')));
		}
	}

	async function handleControl(req, res, pathname) {
		const rest = pathname.slice(CONTROL_PREFIX.length);
		const raw = (await readBody(req)).toString('utf8');
		const json = () => {
			try {
				const parsed = raw === '' ? {} : JSON.parse(raw);
				if (isObject(parsed)) return parsed;
			} catch {
				// reported below
			}
			throw new HttpError(400, 'Body must be a JSON object');
		};
		let m;
		try {
			if ((m = /^\/payments\/([^/]+)\/complete$/.exec(rest)) && req.method === 'POST') {
				sendJson(res, 200, completeAuthentication(decodeURIComponent(m[1]), json().result));
			} else if ((m = /^\/authenticate\/([^/]+)$/.exec(rest)) && ['GET', 'POST'].includes(req.method)) {
				const paymentId = decodeURIComponent(m[1]);
				const payment = state.payments.get(paymentId);
				if (!payment) throw new HttpError(404, 'Payment not found');
				const order = state.orders.get(payment.orderId);
				// The auto-submitted form posts only paymentId; the buttons add a result.
				const result = new URLSearchParams(raw).get('result');
				if (req.method === 'POST' && result) {
					sendHtml(res, 200, resultPage(completeAuthentication(paymentId, result), payment.redirectionUrl));
				} else {
					sendHtml(res, 200, authenticationPage(payment, order, CONTROL_PREFIX + rest));
				}
			} else if (rest === '/requests' && req.method === 'GET') {
				sendJson(res, 200, requests);
			} else if (rest === '/requests' && req.method === 'DELETE') {
				sandbox.clearLog();
				sendJson(res, 200, { cleared: true });
			} else if (rest === '/reset' && req.method === 'POST') {
				sandbox.reset();
				sendJson(res, 200, { reset: true });
			} else if (rest === '/latency' && req.method === 'POST') {
				sandbox.setLatency(json().ms);
				sendJson(res, 200, { latencyMs });
			} else if (rest === '/faults' && req.method === 'POST') {
				sandbox.injectFault(json());
				sendJson(res, 200, { faults });
			} else {
				throw new HttpError(404, 'No such control endpoint');
			}
		} catch (err) {
			if (err instanceof HttpError) sendJson(res, err.status, { error: err.message });
			else if (err instanceof TypeError || err instanceof URIError) sendJson(res, 400, { error: err.message });
			else throw err;
		}
	}

	const server = http.createServer((req, res) => {
		const [pathname, ...query] = req.url.split('?');
		const search = query.length ? '?' + query.join('?') : '';
		const handler =
			pathname === CONTROL_PREFIX || pathname.startsWith(CONTROL_PREFIX + '/')
				? handleControl(req, res, pathname)
				: handleApi(req, res, pathname, search);
		handler.catch((err) => {
			// Whatever went wrong, answer and keep serving.
			const status = err instanceof HttpError ? err.status : 500;
			const message = err instanceof HttpError ? err.message : 'Internal server error';
			if (!res.headersSent && !res.destroyed) {
				sendJson(res, status, { resCode: status, status: 'failure', message });
			}
		});
	});

	const sandbox = {
		url: '',
		baseUrl: '',
		checkoutBaseUrl: '',
		clients: { active: { ...clients.active }, inactive: { ...clients.inactive } },
		cardEncryptionKey,
		requests,
		/** The fields of the n8n credential "Payment Gateway API" that reach this sandbox as the active client. */
		credentialData(overrides = {}) {
			return {
				baseUrl: sandbox.baseUrl,
				checkoutBaseUrl: sandbox.checkoutBaseUrl,
				clientId: sandbox.clients.active.clientId,
				clientSecret: sandbox.clients.active.clientSecret,
				cardEncryptionKey: sandbox.cardEncryptionKey,
				merchantDomain: 'https://shop.example.com',
				...overrides,
			};
		},
		clearLog() {
			requests.length = 0;
		},
		reset() {
			state.orders.clear();
			state.payments.clear();
			state.wallets.clear();
			faults = [];
			requests.length = 0;
		},
		setLatency(ms) {
			const n = Number(ms);
			if (!Number.isFinite(n) || n < 0) throw new TypeError('latency must be a number >= 0');
			latencyMs = n;
		},
		completeAuthentication,
		injectFault({ match = '', status, count = 1, retryAfter, body } = {}) {
			if (typeof match !== 'string') throw new TypeError('match must be a string');
			if (!Number.isInteger(status) || status < 100 || status > 599) {
				throw new TypeError('status must be an HTTP status code');
			}
			if (!Number.isInteger(count) || count < 1) throw new TypeError('count must be a positive integer');
			faults.push({ match, status, count, retryAfter, body });
		},
		close() {
			for (const timer of timers) clearTimeout(timer);
			timers.clear();
			return new Promise((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			});
		},
	};

	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, '127.0.0.1', () => {
			server.off('error', reject);
			url = `http://127.0.0.1:${server.address().port}`;
			sandbox.url = url;
			sandbox.baseUrl = url + shortPrefix;
			sandbox.checkoutBaseUrl = url;
			resolve(sandbox);
		});
	});
}

function isHttpUrl(value) {
	if (typeof value !== 'string') return false;
	try {
		const u = new URL(value);
		return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
	} catch {
		return false;
	}
}

function sendJson(res, status, body, extraHeaders = {}) {
	const text = JSON.stringify(body);
	res.writeHead(status, {
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': Buffer.byteLength(text),
		...extraHeaders,
	});
	res.end(text);
}

function sendHtml(res, status, html) {
	res.writeHead(status, {
		'Content-Type': 'text/html; charset=utf-8',
		'Content-Length': Buffer.byteLength(html),
	});
	res.end(html);
}

module.exports = {
	startSandbox,
	DEFAULT_SHORT_PREFIX,
	DEFAULT_CLIENTS,
	DEFAULT_CARD_ENCRYPTION_KEY,
	CARD_LIMIT,
};
