'use strict';

// The fault table: what the next matching API requests get instead of a
// normal answer. Each kind says whether the request is processed (changes
// state) before the fault, and how it answers.

const http = require('node:http');
const { failureEnvelope } = require('./http');
const { checkEcho, echoOf } = require('./echoes');

const MIB = 1024 * 1024;
const HUGE_MIN_BYTES = 64; // room for the envelope around the padding
const CHUNK = Buffer.alloc(64 * 1024, 'x');
const SPACES = Buffer.alloc(64 * 1024, ' ');
// `,{}` repeated, a multiple of its 3 bytes long, so that a cut at a multiple of 3 ends on a whole object.
const EMPTY_OBJECTS = Buffer.from(',{}'.repeat(21845));
const MANY_VALUES_HEAD = '{"resCode":200,"status":"success","data":[{}';
const MANY_VALUES_TAIL = ']}';

const failureMessage = (status) => (status === 429 ? 'Too many requests' : 'Service temporarily unavailable');

function retryAfterHeader(fault) {
	return fault.retryAfter === undefined ? {} : { 'Retry-After': String(fault.retryAfter) };
}

/** Writes `total` bytes of `chunk` as fast as the client reads them; stops when the client goes. */
function pump(res, total, done, chunk = CHUNK) {
	let left = total;
	const more = () => {
		while (left > 0 && !res.destroyed) {
			const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
			left -= piece.length;
			if (!res.write(piece)) return res.once('drain', more);
		}
		if (!res.destroyed) done();
	};
	more();
}

// respond(io, fault, result): io = { req, rawBody, res, send(status, body, headers), sendRaw(status, type, text,
// headers), sendHead(status, headers, resCode) (JSON headers only), schedule(fn, ms) }; result is the real
// { status, body } when the kind is processed.
const KINDS = {
	status: {
		processed: false,
		respond({ send }, fault) {
			const body = fault.body ?? failureEnvelope(fault.status, failureMessage(fault.status));
			send(fault.status, body, retryAfterHeader(fault));
		},
	},
	// Handled as the request arrives, before its body is read.
	'reset-before-body': { processed: false, respond: ({ res }) => res.socket?.destroy() },
	'reset-after-body': { processed: true, respond: ({ res }) => res.socket?.destroy() },
	hang: { processed: false, respond: () => {} },
	'slow-body': {
		processed: true,
		respond({ res, sendHead, schedule }, fault, result) {
			const bytes = Buffer.from(JSON.stringify(result.body));
			sendHead(result.status, { 'Content-Length': bytes.length }, result.body.resCode);
			const chunk = Math.max(1, Math.round(fault.bytesPerSecond / 10));
			const interval = (1000 * chunk) / fault.bytesPerSecond;
			let sent = 0;
			const next = () => {
				if (res.destroyed) return;
				res.write(bytes.subarray(sent, sent + chunk));
				sent += chunk;
				if (sent >= bytes.length) res.end();
				else schedule(next, interval);
			};
			schedule(next, interval);
		},
	},
	endless: {
		processed: false,
		respond({ res, sendHead }) {
			sendHead(200, {}, 200); // no Content-Length: chunked
			res.write('{"resCode":200,"status":"success","data":"');
			pump(res, Infinity, () => {});
		},
	},
	html: {
		processed: false,
		respond({ sendRaw }, fault) {
			const title = `${fault.status} ${http.STATUS_CODES[fault.status] ?? 'Error'}`;
			const page =
				`<!doctype html>\n<html><head><title>${title}</title></head>\n` +
				`<body><h1>${title}</h1><hr><p>proxy</p></body></html>\n`;
			sendRaw(fault.status, 'text/html; charset=utf-8', page, retryAfterHeader(fault));
		},
	},
	'failure-envelope': {
		processed: false,
		respond: ({ send }, fault) =>
			send(
				200,
				{ resCode: fault.status, status: 'failure', errMessage: failureMessage(fault.status) },
				retryAfterHeader(fault),
			),
	},
	// A gateway or a proxy in front of it that answers an error with the request it got, headers (the Basic
	// Authorization) and body included, as debugging error pages do: in known fields' neighbours and in `error`.
	echo: {
		processed: false,
		respond({ send, req, rawBody }, fault) {
			const request = { method: req.method, url: req.url, headers: req.headers, body: rawBody.toString('utf8') };
			send(fault.status, {
				resCode: fault.status,
				status: 'failure',
				errMessage: 'Internal Server Error',
				error: JSON.stringify(request),
				request,
			});
		},
	},
	// A gateway or a proxy that echoes the Basic header, the secret, the key or the request's card data in another form
	// (sandbox/echoes.js) into `field` of its answer: the real answer (its `data`, or the flat body), processed as
	// usual, or with `status` a failure envelope of that status. `field` may be a path (`redirectionData.url`).
	'echo-encoded': {
		processed: true,
		respond({ send, ...io }, fault, result) {
			const body = fault.status === undefined ? structuredClone(result.body) : failureEnvelope(fault.status, 'Upstream error');
			const echo = echoOf(fault, io);
			if (echo !== undefined) {
				const path = fault.field.split('.');
				let target = fault.status === undefined && body.data !== null && typeof body.data === 'object' ? body.data : body;
				for (const name of path.slice(0, -1)) target = target[name] !== null && typeof target[name] === 'object' ? target[name] : (target[name] = {});
				target[path.at(-1)] = echo;
			}
			send(fault.status ?? result.status, body);
		},
	},
	// A gateway, a proxy or a wrong Base URL answering with a redirect: to `location` (another origin, or plain
	// http://), or by default to the request's own address, as a redirect loop does.
	redirect: {
		processed: false,
		respond({ sendRaw, req }, fault) {
			const location = fault.location ?? req.url;
			sendRaw(fault.status, 'text/html; charset=utf-8', `<a href="${location}">Moved</a>\n`, { Location: location });
		},
	},
	'truncated-json': {
		processed: true,
		respond({ sendRaw }, fault, result) {
			const whole = Buffer.from(JSON.stringify(result.body));
			sendRaw(result.status, 'application/json; charset=utf-8', whole.subarray(0, Math.floor(whole.length / 2)));
		},
	},
	empty: {
		processed: false,
		respond: ({ sendRaw }) => sendRaw(200, 'application/json; charset=utf-8', ''),
	},
	huge: {
		processed: false,
		respond({ res, sendHead }, fault) {
			// Spaces between the envelope's tokens: large, yet few values and no long text.
			const [head, tail, chunk] =
				fault.fill === 'spaces'
					? ['{"resCode":200,"status":"success","data":{"padding":""}', '}', SPACES]
					: ['{"resCode":200,"status":"success","data":{"padding":"', '"}}', CHUNK];
			sendHead(200, { 'Content-Length': fault.sizeBytes }, 200);
			res.write(head);
			pump(res, fault.sizeBytes - head.length - tail.length, () => res.end(tail), chunk);
		},
	},
	// Small in bytes per value: about 350,000 empty objects in 1 MiB, which parsed take some 20 times that in memory.
	'many-values': {
		processed: false,
		respond({ res, sendHead }, fault) {
			const room = fault.sizeBytes - MANY_VALUES_HEAD.length - MANY_VALUES_TAIL.length;
			const objects = room - (room % 3);
			sendHead(200, { 'Content-Length': fault.sizeBytes }, 200);
			res.write(MANY_VALUES_HEAD);
			pump(res, objects, () => res.end(`${' '.repeat(room % 3)}${MANY_VALUES_TAIL}`), EMPTY_OBJECTS);
		},
	},
	deep: {
		processed: false,
		respond: ({ sendRaw }, fault) =>
			sendRaw(
				200,
				'application/json; charset=utf-8',
				`{"resCode":200,"status":"success","data":${'['.repeat(fault.depth)}${']'.repeat(fault.depth)}}`,
			),
	},
};

const WITH_STATUS = new Set(['status', 'html', 'failure-envelope', 'echo', 'redirect']);
const DEFAULT_STATUS = { html: 502, 'failure-envelope': 503, echo: 500, redirect: 302 };

const positiveInteger = (v) => Number.isInteger(v) && v > 0;
const httpStatus = (v) => Number.isInteger(v) && v >= 100 && v <= 599;

/** Checks a fault as given to injectFault and fills in the defaults; throws a TypeError when it is unusable. */
function normalizeFault(options = {}) {
	const { match = '', method, status, count = 1, retryAfter, body } = options;
	const kind = options.kind ?? (status !== undefined ? 'status' : undefined);
	if (typeof match !== 'string') throw new TypeError('match must be a string');
	if (method !== undefined && (typeof method !== 'string' || method === '')) {
		throw new TypeError('method must be an HTTP method name');
	}
	if (kind === undefined) throw new TypeError('kind or status is required');
	if (!Object.hasOwn(KINDS, kind)) {
		throw new TypeError(`kind must be one of: ${Object.keys(KINDS).join(', ')}`);
	}
	const fault = { match, method: method?.toUpperCase(), kind, count, status: status ?? DEFAULT_STATUS[kind] };
	if (WITH_STATUS.has(kind) && !httpStatus(fault.status)) {
		throw new TypeError('status must be an HTTP status code');
	}
	if (!positiveInteger(count)) throw new TypeError('count must be a positive integer');
	if (retryAfter !== undefined) {
		if (!(typeof retryAfter === 'string' || (typeof retryAfter === 'number' && retryAfter >= 0))) {
			throw new TypeError('retryAfter must be a number of seconds or an HTTP date');
		}
		fault.retryAfter = retryAfter;
	}
	if (body !== undefined) fault.body = body;
	if (kind === 'echo-encoded') {
		checkEcho(options);
		Object.assign(fault, { form: options.form, of: options.of, field: options.field, status });
	}
	if (kind === 'redirect') {
		if (!(fault.status >= 300 && fault.status < 400)) throw new TypeError('status of a redirect must be 3xx');
		if (options.location !== undefined) {
			if (typeof options.location !== 'string' || options.location === '') throw new TypeError('location must be a URL');
			fault.location = options.location;
		}
	}
	if (kind === 'slow-body') {
		fault.bytesPerSecond = options.bytesPerSecond ?? 5;
		if (!(typeof fault.bytesPerSecond === 'number' && fault.bytesPerSecond > 0)) {
			throw new TypeError('bytesPerSecond must be a number greater than 0');
		}
	}
	if (kind === 'huge' || kind === 'many-values') {
		// many-values: just under 1 MiB, the node's bound in bytes, by default.
		fault.sizeBytes = options.sizeBytes ?? (kind === 'huge' ? 64 * MIB : MIB - 1);
		if (!Number.isSafeInteger(fault.sizeBytes) || fault.sizeBytes < HUGE_MIN_BYTES) {
			throw new TypeError(`sizeBytes must be an integer of at least ${HUGE_MIN_BYTES}`);
		}
	}
	if (kind === 'huge') {
		fault.fill = options.fill ?? 'text';
		if (!['text', 'spaces'].includes(fault.fill)) throw new TypeError('fill must be "text" or "spaces"');
	}
	if (kind === 'deep') {
		fault.depth = options.depth ?? 100000;
		if (!positiveInteger(fault.depth)) throw new TypeError('depth must be a positive integer');
	}
	return fault;
}

function createFaultTable() {
	let faults = [];
	return {
		add(options) {
			faults.push(normalizeFault(options));
		},
		/** The fault for this request, if any, counted as used. */
		take(method, path) {
			const fault = faults.find(
				(f) => path.includes(f.match) && (f.method === undefined || f.method === method),
			);
			if (!fault) return null;
			fault.count -= 1;
			faults = faults.filter((f) => f.count > 0);
			return fault;
		},
		list: () => faults,
		clear() {
			faults = [];
		},
	};
}

const BEYOND = ['refuse', 'wait'];

/** Checks a capacity as given to setCapacity; null (or `serves: null`) means no limit. */
function normalizeCapacity(options) {
	if (options === null || options === undefined || options.serves === null) return null;
	const { serves, beyond = 'refuse', retryAfter = 1 } = options;
	if (!positiveInteger(serves)) throw new TypeError('serves must be a positive integer, or null for no limit');
	if (!BEYOND.includes(beyond)) throw new TypeError(`beyond must be one of: ${BEYOND.join(', ')}`);
	if (!(retryAfter === null || typeof retryAfter === 'string' || (typeof retryAfter === 'number' && retryAfter >= 0))) {
		throw new TypeError('retryAfter must be a number of seconds, an HTTP date or null');
	}
	return { serves, beyond, retryAfter };
}

/**
 * How many API requests the gateway serves at once, and what the others get: a 429 at once (`refuse`, with
 * `Retry-After` unless retryAfter is null), or a wait for a free place, so that latency grows with load (`wait`).
 * A place is held from admission until the answer is fully sent or the connection closes.
 */
function createCapacity() {
	let settings = null;
	let serving = 0;
	const waiting = [];
	const next = () => {
		while (waiting.length > 0 && (settings === null || serving < settings.serves)) waiting.shift()();
	};
	const hold = (res) => {
		serving++;
		let held = true;
		const free = () => {
			if (!held) return;
			held = false;
			serving--;
			next();
		};
		res.once('finish', free);
		res.once('close', free);
	};
	return {
		get settings() {
			return settings === null ? { serves: null } : { ...settings };
		},
		get serving() {
			return serving;
		},
		set(options) {
			settings = normalizeCapacity(options);
			next();
		},
		/** Resolves true once the request holds a place, false when it is refused. */
		admit(res) {
			if (settings === null || serving < settings.serves) {
				hold(res);
				return Promise.resolve(true);
			}
			if (settings.beyond === 'refuse') return Promise.resolve(false);
			return new Promise((resolve) => {
				const enter = () => {
					res.off('close', leave);
					if (res.destroyed) return resolve(false);
					hold(res);
					resolve(true);
				};
				// A client that gives up while waiting leaves the queue.
				const leave = () => {
					const index = waiting.indexOf(enter);
					if (index >= 0) waiting.splice(index, 1);
					resolve(false);
				};
				res.once('close', leave);
				waiting.push(enter);
			});
		},
		refusal(send) {
			const headers = settings.retryAfter === null ? {} : retryAfterHeader(settings);
			send(429, failureEnvelope(429, failureMessage(429)), headers);
		},
	};
}

module.exports = { KINDS, createCapacity, createFaultTable };
