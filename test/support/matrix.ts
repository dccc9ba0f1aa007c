import type { LoggedRequest } from '../../sandbox/gateway';

// Small helpers of the fault matrix: running many cells at once, and printing the outcome table.

/** Runs `tasks` with at most `limit` in flight; results in the order of the tasks. */
export async function inPool<T>(tasks: Array<() => Promise<T>>, limit: number): Promise<T[]> {
	const results: T[] = new Array(tasks.length);
	let next = 0;
	const worker = async () => {
		while (next < tasks.length) {
			const index = next++;
			results[index] = await tasks[index]();
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
	return results;
}

/**
 * How many requests of the log belong to each item, told by a piece of path or body. A request reset before its
 * body arrived shows neither: items run one after the other, so it belongs to the item after the last one seen.
 */
export function requestsPerItem(requests: LoggedRequest[], keys: string[]): number[] {
	const counts = keys.map(() => 0);
	let last = -1;
	for (const request of requests) {
		const item = keys.findIndex((key) => request.path.includes(key) || request.body.includes(key));
		const owner = item === -1 ? last + 1 : item;
		counts[owner] += 1;
		if (item !== -1) last = item;
	}
	return counts;
}

/** Milliseconds between two logged requests. */
export const msBetween = (first: LoggedRequest, second: LoggedRequest) => Date.parse(second.time) - Date.parse(first.time);

/** A plain text table: the first row is the header; columns padded to their widest cell. */
export function textTable(rows: string[][]): string {
	const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
	const line = (row: string[]) => row.map((cell, column) => (cell ?? '').padEnd(widths[column])).join(' | ');
	return [line(rows[0]), widths.map((width) => '-'.repeat(width)).join('-+-'), ...rows.slice(1).map(line)].join('\n');
}
