'use strict';

// One API request, start to finish: routing, the request log, faults,
// latency, the checks, the handler, and the failure shape of its family.

const { performance } = require('node:perf_hooks');
const { HttpError, failureEnvelope, readBody } = require('./http');
const { authenticate, checkHeaders, parseJsonBody } = require('./checks');
const { KINDS } = require('./faults');
const { LONG_PREFIX, longFailure } = require('./routes-long');

function matchRoute(table, method, path) {
	for (const [routeMethod, re, handler] of table) {
		const m = re.exec(path);
		if (!m || routeMethod !== method) continue;
		try {
			return { handler, params: m.slice(1).map(decodeURIComponent) };
		} catch {
			return null; // malformed percent-encoding: treat like an unknown path
		}
	}
	return null;
}

function redactedHeaders(req) {
	const headers = { ...req.headers };
	if (headers.authorization !== undefined) {
		headers.authorization = `${String(headers.authorization).split(/\s/)[0]} <redacted>`;
	}
	return headers;
}

function claimedClientId(req) {
	const basic = /^Basic\s+(\S+)/i.exec(req.headers.authorization ?? '');
	const claimed = basic ? Buffer.from(basic[1], 'base64').toString('utf8') : '';
	return claimed.includes(':') ? claimed.slice(0, claimed.indexOf(':')) : null;
}

/**
 * `ctx`: { shortPrefix, shortTable, longTable, clientById, faults, capacity, requests, latency(), delay(ms),
 * schedule(fn, ms) }.
 * Returns the request handler for everything outside the control API.
 */
function createApiHandler(ctx) {
	function resolve(method, pathname) {
		if (pathname === LONG_PREFIX || pathname.startsWith(LONG_PREFIX + '/')) {
			return { family: 'long', apiPath: pathname, route: matchRoute(ctx.longTable, method, pathname) };
		}
		const { shortPrefix } = ctx;
		const underPrefix =
			shortPrefix === '' || pathname === shortPrefix || pathname.startsWith(shortPrefix + '/');
		if (!underPrefix) return { family: null, apiPath: null, route: null };
		const apiPath = pathname.slice(shortPrefix.length);
		return { family: 'short', apiPath, route: matchRoute(ctx.shortTable, method, apiPath) };
	}

	/** The real answer { status, body } to a request whose body has been read. */
	function answer(req, { family, apiPath, route }, rawBody, search) {
		if (!route) return { status: 404, body: failureEnvelope(404, ctx.unknownPathMessage()) };
		try {
			const client = authenticate(req, { apiPath, family, rawBody, clientById: ctx.clientById });
			checkHeaders(req, family);
			const body = req.method === 'POST' ? parseJsonBody(req, rawBody) : undefined;
			const query = new URLSearchParams(search);
			return route.handler({ client, body, params: route.params, query });
		} catch (err) {
			if (!(err instanceof HttpError)) console.error('sandbox: unexpected error', err);
			const e = err instanceof HttpError ? err : new HttpError(500, 'Internal server error');
			const body =
				family === 'long'
					? longFailure(route.handler.name, e.status, e.message, rawBody.toString('utf8'))
					: failureEnvelope(e.status, e.message);
			return { status: e.status, body };
		}
	}

	return async function handleApi(req, res, pathname, search) {
		const resolved = resolve(req.method, pathname);
		const entry = {
			time: new Date().toISOString(),
			method: req.method,
			path: pathname + search,
			apiPath: resolved.apiPath,
			family: resolved.family,
			headers: redactedHeaders(req),
			clientId: claimedClientId(req),
			body: '',
			status: null,
			resCode: null,
			fault: null,
			// Monotonic, unlike `time`: how long a connection stayed open and how long a client waited between
			// requests, as this server saw them, measured apart from the client's own timers.
			receivedAtMs: performance.now(),
			closedAtMs: null,
			// Whether the whole answer was sent before the exchange ended: false when the client hung up first. Who
			// ended an exchange cannot be moved by a busy machine, unlike how long it took.
			answered: false,
		};
		res.once('close', () => {
			entry.closedAtMs = performance.now();
			entry.answered = res.writableFinished;
		});
		const fault = ctx.faults.take(req.method, pathname + search);
		if (fault) entry.fault = fault.kind;
		if (fault?.kind === 'reset-before-body') {
			entry.body = req.read()?.toString('utf8') ?? ''; // whatever had arrived
			ctx.requests.push(entry);
			req.socket.destroy();
			return;
		}

		const rawBody = await readBody(req);
		entry.body = rawBody.toString('utf8');
		ctx.requests.push(entry);

		const logged = (status, resCode) => {
			entry.status = status;
			entry.resCode = resCode ?? null;
		};
		const io = {
			req,
			rawBody,
			res,
			cardEncryptionKey: ctx.cardEncryptionKey,
			send(status, body, headers = {}) {
				io.sendRaw(status, 'application/json; charset=utf-8', JSON.stringify(body), headers, body?.resCode);
			},
			sendRaw(status, type, text, headers = {}, resCode) {
				logged(status, resCode);
				res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(text), ...headers });
				res.end(text);
			},
			sendHead(status, headers, resCode) {
				logged(status, resCode);
				res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
			},
			schedule: ctx.schedule,
		};

		// Injected faults answer whatever the load; other requests need a place under the capacity first.
		if (!fault && !(await ctx.capacity.admit(res))) {
			if (res.destroyed) return;
			entry.fault = 'capacity';
			ctx.capacity.refusal(io.send);
			return;
		}
		await ctx.delay(ctx.latency());

		if (!fault) {
			const { status, body } = answer(req, resolved, rawBody, search);
			io.send(status, body);
			return;
		}
		const kind = KINDS[fault.kind];
		const result = kind.processed ? answer(req, resolved, rawBody, search) : undefined;
		kind.respond(io, fault, result);
	};
}

module.exports = { createApiHandler };
