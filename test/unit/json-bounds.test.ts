/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { Readable } from 'node:stream';

import fc from 'fast-check';

import type { JsonBounds } from '../../nodes/PaymentGateway/helpers/json';
import { JsonScan, valueExceeds } from '../../nodes/PaymentGateway/helpers/json';
import { parseAnswer, readAnswer, UnreadableAnswer } from '../../nodes/PaymentGateway/transport/answer';
import { deadlineClock } from '../../nodes/PaymentGateway/transport/deadline';
import { readNotification, RefusedNotification } from '../../nodes/PaymentGatewayTrigger/notification';

// An answer's values, nesting and longest text are counted in its bytes before it is decoded or parsed. The oracle
// here counts the same things on the parsed value, written independently: every object, array, string, number,
// boolean and null is a value, a key is not; the outermost container is one level; a text's length is its bytes as
// written between the quotes.

const KIB = 1024;
const MIB = 1024 * KIB;

interface Shape {
	values: number;
	depth: number;
	textBytes: number;
}

const written = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;

function shapeOf(value: unknown): Shape {
	if (typeof value === 'string') return { values: 1, depth: 0, textBytes: written(value) };
	if (value === null || typeof value !== 'object') return { values: 1, depth: 0, textBytes: 0 };
	const shape = { values: 1, depth: 1, textBytes: 0 };
	const entries = Array.isArray(value) ? value.map((entry) => ['', entry] as const) : Object.entries(value);
	for (const [key, entry] of entries) {
		const inner = shapeOf(entry);
		shape.values += inner.values;
		shape.depth = Math.max(shape.depth, inner.depth + 1);
		shape.textBytes = Math.max(shape.textBytes, inner.textBytes, Array.isArray(value) ? 0 : written(key));
	}
	return shape;
}

const scanned = (bytes: Buffer, bounds: JsonBounds, cuts: number[] = []) => {
	const scan = new JsonScan(bounds);
	let from = 0;
	for (const cut of [...cuts].sort((a, b) => a - b)) {
		scan.add(bytes.subarray(from, cut));
		from = cut;
	}
	return scan.add(bytes.subarray(from));
};

// Any code point, lone surrogates and control characters included: JSON.stringify escapes what it must.
const json = fc.jsonValue({ maxDepth: 6, stringUnit: 'binary' });
const spacing = fc.constantFrom(undefined, 1, '\t', ' \r\n');

describe('JsonScan counts values, depth and the longest text as the parsed value has them', () => {
	it('exactly at each bound it accepts; one below, it names that bound, however the bytes are cut', () => {
		fc.assert(
			fc.property(json, spacing, fc.array(fc.nat(), { maxLength: 6 }), (value, space, positions) => {
				const bytes = Buffer.from(JSON.stringify(value, null, space as string | number | undefined));
				const cuts = positions.map((position) => position % (bytes.length + 1));
				const shape = shapeOf(value);
				expect(scanned(bytes, shape, cuts)).toBeUndefined();
				if (shape.values > 1) expect(scanned(bytes, { ...shape, values: shape.values - 1 }, cuts)).toBe('values');
				if (shape.depth > 0) expect(scanned(bytes, { ...shape, depth: shape.depth - 1 }, cuts)).toBe('depth');
				if (shape.textBytes > 0) expect(scanned(bytes, { ...shape, textBytes: shape.textBytes - 1 }, cuts)).toBe('textBytes');
			}),
			{ numRuns: 500 },
		);
	});

	it('keys are not values; escaped quotes and backslashes stay inside their text; bytes, not characters', () => {
		const wide = { values: 100, depth: 16, textBytes: 100 };
		expect(scanned(Buffer.from('{"a":1,"b":{"c":[true,null,"x"]}}'), { ...wide, values: 7 })).toBeUndefined();
		expect(scanned(Buffer.from('{"a":1,"b":{"c":[true,null,"x"]}}'), { ...wide, values: 6 })).toBe('values');
		// `"a\"{[{[": ` is one text: no level and no value inside it.
		expect(scanned(Buffer.from('["a\\"{[{[", "\\\\", 1]'), { values: 4, depth: 1, textBytes: 9 })).toBeUndefined();
		expect(scanned(Buffer.from(JSON.stringify(['é'.repeat(10)])), { ...wide, textBytes: 19 })).toBe('textBytes');
		expect(scanned(Buffer.from(JSON.stringify(['é'.repeat(10)])), { ...wide, textBytes: 20 })).toBeUndefined();
		// A number cut in two by a chunk is one value.
		expect(scanned(Buffer.from('[12345,67890]'), { ...wide, values: 3 }, [3, 10])).toBeUndefined();
	});

	it('a cut anywhere, or two, even between a backslash and what it escapes, changes nothing', () => {
		const text = Buffer.from('{"k\\"":[12.5e3, true ,"\\\\",\n"a\\"b\\t",{"x":null}],  "é":-0}');
		const value = JSON.parse(text.toString()) as unknown;
		const shape = shapeOf(value);
		const bounds = [shape, { ...shape, values: shape.values - 1 }, { ...shape, depth: shape.depth - 1 }, { ...shape, textBytes: shape.textBytes - 1 }];
		for (const bound of bounds) {
			const whole = scanned(text, bound);
			for (let first = 0; first <= text.length; first++) {
				for (let second = first; second <= text.length; second++) expect(scanned(text, bound, [first, second])).toBe(whole);
			}
		}
		expect(bounds.map((bound) => scanned(text, bound))).toEqual([undefined, 'values', 'depth', 'textBytes']);
	});

	it('stops looking at the first bound: a million empty objects are refused within their first bytes', () => {
		const scan = new JsonScan({ values: 2000, depth: 16, textBytes: 64 * KIB });
		const objects = Buffer.from(`[${'{},'.repeat(1_000_000)}{}]`);
		const piece = 4 * KIB;
		let read = 0;
		let excess;
		while (!excess && read < objects.length) {
			excess = scan.add(objects.subarray(read, read + piece));
			read += piece;
		}
		expect(excess).toBe('values');
		expect(read).toBeLessThanOrEqual(2 * piece);
		// Once refused, it says so again without looking.
		expect(scan.add(Buffer.from('[]'))).toBe('values');
	});

	it('valueExceeds counts a parsed value the same way', () => {
		fc.assert(
			fc.property(json, (value) => {
				const shape = { ...shapeOf(value), textBytes: 1_000_000 };
				expect(valueExceeds(value, shape)).toBeUndefined();
				if (shape.values > 1) expect(valueExceeds(value, { ...shape, values: shape.values - 1 })).toBe('values');
				if (shape.depth > 0) expect(valueExceeds(value, { ...shape, depth: shape.depth - 1 })).toBe('depth');
			}),
			{ numRuns: 300 },
		);
	});

	it('is the rule notifications are read by: 2,000 values and 16 levels for both', () => {
		const answerBounds = { values: 2000, depth: 16, textBytes: 64 * KIB };
		// orderId, paymentId, the object itself and the list: 4 values, and the list's numbers.
		const notification = (numbers: number) => ({ orderId: 'o-1', paymentId: 'p-1', list: Array.from({ length: numbers }, () => 1) });
		const nested = (levels: number): unknown => (levels === 1 ? [] : [nested(levels - 1)]);
		for (const [body, accepted] of [
			[notification(1996), true],
			[notification(1997), false],
			[{ orderId: 'o-1', paymentId: 'p-1', extra: nested(15) }, true],
			[{ orderId: 'o-1', paymentId: 'p-1', extra: nested(16) }, false],
		] as const) {
			const raw = Buffer.from(JSON.stringify(body));
			expect(readNotification(body, raw) instanceof RefusedNotification).toBe(!accepted);
			expect(scanned(raw, answerBounds) === undefined).toBe(accepted);
		}
	});
});

describe('readAnswer refuses an answer beyond a bound before decoding it, whatever form n8n hands it in', () => {
	const deadline = () => deadlineClock()(60_000);
	const manyValues = `{"resCode":200,"status":"success","data":[${'{},'.repeat(300_000)}{}]}`;
	const answers: Array<[string, string, RegExp]> = [
		['2,001 values', JSON.stringify({ data: Array.from({ length: 1999 }, () => 0) }), /^an answer with more than 2000 values, which was not read$/],
		['a million empty objects', manyValues, /^an answer with more than 2000 values, which was not read$/],
		['17 levels', `{"data":${'['.repeat(16)}${']'.repeat(16)}}`, /^an answer nested deeper than 16 levels, which was not read$/],
		['a text over 64 KiB', JSON.stringify({ data: { formData: 'x'.repeat(64 * KIB + 1) } }), /^an answer with a text longer than 64 KiB, which was not read$/],
	];

	it.each(answers)('%s: as a stream, as bytes, as text and as a parsed value', async (_label, text, message) => {
		const forms = [Readable.from([Buffer.from(text)]), Buffer.from(text), text, JSON.parse(text) as unknown];
		for (const form of forms) {
			const answer = await readAnswer(form, deadline());
			expect(answer).toBeInstanceOf(UnreadableAnswer);
			expect((answer as UnreadableAnswer).message).toMatch(message);
			expect(parseAnswer(answer)).toBe(answer);
		}
	});

	it('within every bound, each form reads as the same value', async () => {
		// 21 values and 1,979 numbers; 16 levels; a text of 64 KiB in bytes.
		const deep = JSON.parse(`${'['.repeat(14)}${']'.repeat(14)}`) as unknown;
		const list = Array.from({ length: 1979 }, () => 1);
		const value = { resCode: 200, status: 'success', data: { orderId: 'o-1', list, deep, form: 'é'.repeat(32 * KIB) } };
		const text = JSON.stringify(value);
		for (const form of [Readable.from([Buffer.from(text)]), Buffer.from(text), text, value]) {
			expect(parseAnswer(await readAnswer(form, deadline()))).toEqual(value);
		}
	});

	it('stops reading a stream at the bound: the rest of the answer is never asked for', async () => {
		let served = 0;
		const chunk = Buffer.from('{},'.repeat(1000));
		const stream = new Readable({
			read() {
				served += 1;
				this.push(served === 1 ? Buffer.from('{"data":[') : chunk);
			},
		});
		const answer = await readAnswer(stream, deadline());
		expect((answer as UnreadableAnswer).message).toMatch(/more than 2000 values/);
		expect(served).toBeLessThan(10);
		expect(stream.destroyed).toBe(true);
	});

	it('more than 1 MiB is still thrown, in every form, before it is scanned', async () => {
		const spaces = `{"data":{}${' '.repeat(MIB)}}`;
		for (const form of [Readable.from([Buffer.from(spaces)]), Buffer.from(spaces), spaces]) {
			await expect(readAnswer(form, deadline())).rejects.toThrow(/^an answer larger than 1 MiB, which was not read$/);
		}
	});

	it('a parsed value that loops is refused by depth; one JSON cannot write is no JSON; no body is none', async () => {
		const loop: Record<string, unknown> = { status: 'success' };
		loop.data = loop;
		expect(((await readAnswer(loop, deadline())) as UnreadableAnswer).message).toMatch(/nested deeper than 16 levels/);
		expect(parseAnswer(await readAnswer(() => 1, deadline()))).toBeUndefined();
		expect(await readAnswer(undefined, deadline())).toBe('');
		expect(await readAnswer(null, deadline())).toBe('');
	});
});
