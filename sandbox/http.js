'use strict';

// Plain HTTP helpers shared by the API and the control endpoints.

const MAX_BODY_BYTES = 1024 * 1024;

class HttpError extends Error {
	constructor(status, message) {
		super(message);
		this.status = status;
	}
}

const bad = (message) => new HttpError(400, message);

/** The short family's failure envelope, the message under both names live clients read. */
const failureEnvelope = (status, message) => ({ resCode: status, status: 'failure', errMessage: message, message });
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmptyString = (v) => typeof v === 'string' && v.trim() !== '';
const now = () => new Date().toISOString();

function escapeHtml(s) {
	return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
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

function send(res, status, contentType, text, extraHeaders = {}) {
	res.writeHead(status, {
		'Content-Type': contentType,
		'Content-Length': Buffer.byteLength(text),
		...extraHeaders,
	});
	res.end(text);
}

const sendJson = (res, status, body, extraHeaders) =>
	send(res, status, 'application/json; charset=utf-8', JSON.stringify(body), extraHeaders);

const sendHtml = (res, status, html, extraHeaders) =>
	send(res, status, 'text/html; charset=utf-8', html, extraHeaders);

/** Parses a control-API body: empty means {}; anything but a JSON object is a 400. */
function parseControlJson(raw) {
	try {
		const parsed = raw === '' ? {} : JSON.parse(raw);
		if (isObject(parsed)) return parsed;
	} catch {
		// reported below
	}
	throw bad('Body must be a JSON object');
}

module.exports = {
	MAX_BODY_BYTES,
	HttpError,
	bad,
	failureEnvelope,
	isObject,
	nonEmptyString,
	now,
	escapeHtml,
	isHttpUrl,
	readBody,
	sendJson,
	sendHtml,
	parseControlJson,
};
