import type { JsonBounds, JsonExcess } from '../helpers/json';
import { JsonScan, MAX_JSON_DEPTH, MAX_JSON_VALUES, parseJson, valueExceeds } from '../helpers/json';
import type { Deadline } from './deadline';

/** Gateway answers are a few kilobytes; anything far larger is not one, and must not fill memory. */
const MAX_ANSWER_BYTES = 1024 * 1024;
/** The gateway's longest text is `redirectionData.formData`, an HTML form of a few kilobytes. */
const MAX_ANSWER_TEXT_BYTES = 64 * 1024;

/**
 * Bytes alone do not bound memory: 1 MiB of `[{},{},…]` parses into some 20 MiB of objects, and a run holds many
 * answers at once. Values and depth are bounded as for notifications, counted in the answer's bytes before it is
 * decoded or parsed.
 */
const ANSWER_BOUNDS: JsonBounds = { values: MAX_JSON_VALUES, depth: MAX_JSON_DEPTH, textBytes: MAX_ANSWER_TEXT_BYTES, totalBytes: MAX_ANSWER_BYTES };

const TOO_LARGE = `an answer larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB, which was not read`;
const BEYOND: Record<JsonExcess, string> = {
	values: `an answer with more than ${MAX_JSON_VALUES} values, which was not read`,
	depth: `an answer nested deeper than ${MAX_JSON_DEPTH} levels, which was not read`,
	textBytes: `an answer with a text longer than ${MAX_ANSWER_TEXT_BYTES / 1024} KiB, which was not read`,
	totalBytes: TOO_LARGE,
};

/** An answer arrived but cannot be one of the gateway's: too large, too many values, too deeply nested, too long a text. */
export class UnreadableAnswer extends Error {}

class TimedOut extends Error {
	code = 'ETIMEDOUT';
}

/** What the transport needs of a response stream (n8n hands the body over as one with encoding 'stream'). */
interface BodyStream extends AsyncIterable<unknown> {
	destroy(error?: Error): void;
}

function isStream(value: unknown): value is BodyStream {
	return (
		value !== null &&
		typeof value === 'object' &&
		typeof (value as BodyStream).destroy === 'function' &&
		typeof (value as BodyStream)[Symbol.asyncIterator] === 'function'
	);
}

/** An answer's bytes when they are within the bounds, else the bound they exceed. */
function boundedBytes(bytes: Buffer): Buffer | UnreadableAnswer {
	if (bytes.length > MAX_ANSWER_BYTES) throw new UnreadableAnswer(TOO_LARGE);
	const excess = new JsonScan(ANSWER_BOUNDS).add(bytes);
	return excess ? new UnreadableAnswer(BEYOND[excess]) : bytes;
}

/** A body n8n's helper read or parsed itself, under the same bounds as a stream's. */
function boundedBody(body: unknown): string | UnreadableAnswer {
	if (body === undefined || body === null) return '';
	if (Buffer.isBuffer(body)) {
		const bytes = boundedBytes(body);
		return bytes instanceof UnreadableAnswer ? bytes : bytes.toString('utf8');
	}
	if (typeof body === 'string') {
		if (Buffer.byteLength(body) > MAX_ANSWER_BYTES) throw new UnreadableAnswer(TOO_LARGE);
		const bytes = boundedBytes(Buffer.from(body));
		return bytes instanceof UnreadableAnswer ? bytes : body;
	}
	// Already objects: walked within the bounds before it is written out as text, which then counts as any answer's.
	const excess = valueExceeds(body, ANSWER_BOUNDS);
	if (excess) return new UnreadableAnswer(BEYOND[excess]);
	let text: string | undefined;
	try {
		text = JSON.stringify(body);
	} catch {
		// A value JSON cannot write (a BigInt) is no answer of the gateway's: read as not JSON.
	}
	return text === undefined ? '' : boundedBody(text);
}

/**
 * Reads an answer's body as text, stopping at the deadline and at MAX_ANSWER_BYTES (thrown), and at the first bound
 * of ANSWER_BOUNDS its bytes exceed (returned: the answer arrived, and is not the gateway's), before any of it is
 * decoded.
 */
export async function readAnswer(body: unknown, deadline: Deadline): Promise<string | UnreadableAnswer> {
	if (!isStream(body)) return boundedBody(body);
	const stopWatching = deadline.watch(() => body.destroy(new TimedOut('the answer did not arrive within the time-out')));
	const chunks: Buffer[] = [];
	const scan = new JsonScan(ANSWER_BOUNDS);
	let size = 0;
	try {
		for await (const chunk of body) {
			const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
			size += bytes.length;
			if (size > MAX_ANSWER_BYTES) {
				body.destroy();
				throw new UnreadableAnswer(TOO_LARGE);
			}
			const excess = scan.add(bytes);
			if (excess) {
				// The rest is not waited for: a million empty objects end after their first few thousand bytes.
				body.destroy();
				return new UnreadableAnswer(BEYOND[excess]);
			}
			chunks.push(bytes);
		}
	} finally {
		stopWatching();
	}
	return Buffer.concat(chunks, size).toString('utf8');
}

/**
 * The value of an answer as readAnswer gave it (or '' for none): undefined when it is not JSON, the UnreadableAnswer
 * when a bound refused it. Only text readAnswer bounded is parsed here.
 */
export function parseAnswer(raw: string | UnreadableAnswer): unknown {
	return raw instanceof UnreadableAnswer ? raw : parseJson(raw);
}
