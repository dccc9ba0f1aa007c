'use strict';

// One measurement of answer handling, in a process of its own and with one build of the package (the parent names its
// dist folder), so that the build measured before cannot warm the code of the other, nor leave its garbage behind.
//
// `micro`: the transport's own reading of an answer (readAnswer, then parseAnswer) on bodies handed over as a stream
// in 64 KiB chunks, as the socket hands them to n8n's helper; each case repeated until it has used `minCpuMs` of CPU.
// `engine`: Status → Get by Order ID through n8n's engine (test/support/engine.js) against the bench's sandbox, whose
// fault (armed by the parent) answers each request; the process's CPU time and heap during the run.

const path = require('node:path');
const { Readable } = require('node:stream');

const { runWorkflow } = require('../../test/support/engine');

const CHUNK_BYTES = 64 * 1024;
const SAMPLE_EVERY_MS = 2;

const cpuMs = () => {
	const { user, system } = process.cpuUsage();
	return (user + system) / 1000;
};

const chunksOf = (bytes) => {
	const chunks = [];
	for (let from = 0; from < bytes.length; from += CHUNK_BYTES) chunks.push(bytes.subarray(from, from + CHUNK_BYTES));
	return chunks;
};

/** What handling gave: a refusal's message, or how much was parsed. */
function outcomeOf(parsed) {
	if (parsed instanceof Error) return { refused: parsed.message };
	if (parsed === undefined) return { refused: 'not JSON' };
	return { parsed: JSON.stringify(parsed).length };
}

/**
 * The check each build makes before parsing, alone, with the decoding it comes with: before, the text decoded, then
 * its nesting counted; after, values, nesting and texts counted in the bytes (with bounds no text here reaches, so
 * that every byte is looked at), then the text decoded.
 */
function preParseCheck(dist) {
	const json = require(path.join(dist, 'nodes/PaymentGateway/helpers/json.js'));
	if (json.JsonScan) {
		const everyByte = { values: Infinity, depth: 64, textBytes: Infinity };
		return (bytes) => {
			new json.JsonScan(everyByte).add(bytes);
			return bytes.toString('utf8');
		};
	}
	return (bytes) => {
		const text = bytes.toString('utf8');
		json.textNestsDeeperThan(text, 64);
		return text;
	};
}

/** CPU of `fn` repeated until it has used `minCpuMs` and run `minRounds` times, after a warm-up. */
async function repeated(fn, { minCpuMs, minRounds }) {
	for (let round = 0; round < 3; round++) await fn();
	global.gc();
	let rounds = 0;
	const started = cpuMs();
	while (rounds < minRounds || cpuMs() - started < minCpuMs) {
		await fn();
		rounds += 1;
	}
	return { rounds, cpuMs: cpuMs() - started };
}

async function micro(dist, { cases, checks, minCpuMs, minRounds }) {
	const { readAnswer, parseAnswer } = require(path.join(dist, 'nodes/PaymentGateway/transport/answer.js'));
	const { deadlineClock } = require(path.join(dist, 'nodes/PaymentGateway/transport/deadline.js'));
	const deadlineIn = deadlineClock();
	const handle = async (chunks) => parseAnswer(await readAnswer(Readable.from(chunks), deadlineIn(60_000)));
	const perMiB = (bytes, { rounds, cpuMs: used }) => ({ bytes, rounds, cpuMs: used, cpuMsPerAnswer: used / rounds, cpuMsPerMiB: used / ((rounds * bytes) / 2 ** 20) });
	const results = { cases: {}, checks: {} };
	for (const { key, text } of cases) {
		const chunks = chunksOf(Buffer.from(text));
		const outcome = outcomeOf(await handle(chunks));
		results.cases[key] = { ...perMiB(Buffer.byteLength(text), await repeated(() => handle(chunks), { minCpuMs, minRounds })), ...outcome };
	}
	const check = preParseCheck(dist);
	for (const { key, text } of checks) {
		const bytes = Buffer.from(text);
		results.checks[key] = perMiB(bytes.length, await repeated(() => check(bytes), { minCpuMs, minRounds }));
	}
	return results;
}

async function engine(dist, { credentials, items, warmUpItems, parameters }) {
	const { PaymentGateway } = require(path.join(dist, 'nodes/PaymentGateway/PaymentGateway.node.js'));
	const { PaymentGatewayApi } = require(path.join(dist, 'credentials/PaymentGatewayApi.credentials.js'));
	const run = (count) =>
		runWorkflow({
			nodeType: PaymentGateway,
			credentialType: PaymentGatewayApi,
			credentials,
			parameters,
			items: items.slice(0, count),
			continueOnFail: true,
		});
	// Warm-up: engine, node and the error's path loaded and compiled before the baseline; a few items are not enough
	// for the code the measured run goes through to be optimized.
	await run(warmUpItems);
	// A run of one item: what a run costs whatever its items (the workflow, the credential, the engine's start and end),
	// taken from the measured run so that the figure per item is an item's own.
	global.gc();
	const oneStarted = cpuMs();
	await run(1);
	const oneItem = cpuMs() - oneStarted;
	global.gc();
	const baseline = process.memoryUsage().heapUsed;
	let peakHeap = baseline;
	const sampler = setInterval(() => {
		peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
	}, SAMPLE_EVERY_MS);
	const started = cpuMs();
	const result = await run(items.length);
	const used = cpuMs() - started;
	clearInterval(sampler);
	global.gc();
	// With the output still held, as n8n holds it until the next node has run.
	const held = process.memoryUsage().heapUsed - baseline;
	const errors = result.items.map((item) => item.json.error).filter((error) => typeof error === 'string');
	return {
		items: items.length,
		outputItems: result.items.length,
		errorItems: errors.length,
		firstError: errors[0],
		cpuMs: used,
		cpuMsOfOneItemRun: oneItem,
		cpuMsPerItem: (used - oneItem) / (items.length - 1),
		peakHeapAboveBaseline: peakHeap - baseline,
		heldAfterRun: held,
	};
}

process.once('message', async ({ dist, micro: microOptions, engine: engineOptions }) => {
	try {
		const result = microOptions ? await micro(dist, microOptions) : await engine(dist, engineOptions);
		process.send({ result });
	} catch (error) {
		process.send({ error: String(error?.stack ?? error) });
	}
	process.disconnect();
});
