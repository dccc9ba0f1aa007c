import { parseJson, textNestsDeeperThan } from '../helpers/json';
import type { Deadline } from './deadline';

/** Gateway answers are a few kilobytes; anything far larger is not one, and must not fill memory. */
const MAX_ANSWER_BYTES = 1024 * 1024;
/** The gateway nests four levels deep at most; deeper JSON is not an answer and could exhaust the stack later on. */
const MAX_ANSWER_DEPTH = 64;

/** An answer arrived but cannot be one of the gateway's: too large, too deeply nested. */
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

/** Reads an answer's body as text, stopping at the deadline and at MAX_ANSWER_BYTES. */
export async function readAnswer(body: unknown, deadline: Deadline): Promise<string> {
	if (!isStream(body)) {
		if (typeof body === 'string') return body;
		return Buffer.isBuffer(body) ? body.toString('utf8') : body === undefined || body === null ? '' : JSON.stringify(body);
	}
	const stopWatching = deadline.watch(() => body.destroy(new TimedOut('the answer did not arrive within the time-out')));
	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const chunk of body) {
			const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
			size += bytes.length;
			if (size > MAX_ANSWER_BYTES) {
				body.destroy();
				throw new UnreadableAnswer(`an answer larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB, which was not read`);
			}
			chunks.push(bytes);
		}
	} finally {
		stopWatching();
	}
	return Buffer.concat(chunks, size).toString('utf8');
}

/** The parsed answer; undefined when it is not JSON, an UnreadableAnswer when it nests too deeply. */
export function parseAnswer(raw: string): unknown {
	if (textNestsDeeperThan(raw, MAX_ANSWER_DEPTH)) {
		return new UnreadableAnswer(`an answer nested deeper than ${MAX_ANSWER_DEPTH} levels, which was not read`);
	}
	return parseJson(raw);
}
