'use strict';

/** Runs `task(index)` for indexes 0..count-1 with at most `concurrency` in flight, like the node's item runner. */
async function pool(count, concurrency, task) {
	const results = new Array(count);
	let next = 0;
	const worker = async () => {
		while (next < count) {
			const index = next++;
			results[index] = await task(index);
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(count, 1)) }, worker));
	return results;
}

/** Milliseconds taken by `run`, and what it returned. */
async function timed(run) {
	const start = process.hrtime.bigint();
	const result = await run();
	return { ms: Number(process.hrtime.bigint() - start) / 1e6, result };
}

module.exports = { pool, timed };
