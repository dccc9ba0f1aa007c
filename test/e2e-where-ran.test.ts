/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// Which worker ran which execution in the queue check (e2e/queue/where-ran.js), on n8n log files made up here in
// n8n's JSON line format: matched by execution and job id, and every way it can go wrong reported.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { heldAtStop, whereRan } = require('../e2e/queue/where-ran');

const WORKERS = ['worker-1', 'worker-2'];
let logDir: string;

const line = (message: string, executionId?: number) =>
	JSON.stringify({ level: 'info', message, metadata: { file: 'x.js', executionId: executionId && String(executionId) } });
const enqueued = (id: number, job: number) => line(`Enqueued execution ${id} (job ${job})`);
const started = (id: number, job: number) => line(`Worker started execution ${id} (job ${job})`);

function writeLogs(logs: Record<string, string[]>) {
	for (const [role, lines] of Object.entries(logs)) {
		fs.writeFileSync(path.join(logDir, `n8n-${role}.log`), `${lines.join('\n')}\nnot json\n`);
	}
}

beforeEach(() => {
	logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'where-ran-'));
});
afterEach(() => fs.rmSync(logDir, { recursive: true, force: true }));

describe('where each execution ran', () => {
	it('names the worker whose log started each execution under the job it was enqueued as', () => {
		writeLogs({
			webhook: [enqueued(1, 1), enqueued(2, 2), enqueued(3, 3), line('Execution 3 (job 3) finished')],
			'worker-1': [started(1, 1), started(3, 3)],
			'worker-2': [line('Worker started'), started(2, 2)],
		});
		expect(whereRan(logDir, ['1', '2', '3'], { workers: WORKERS })).toEqual({
			byWorker: { 'worker-1': ['1', '3'], 'worker-2': ['2'] },
			problems: [],
		});
	});

	it('reads what main enqueued too, and only the executions asked about', () => {
		writeLogs({ main: [enqueued(7, 4)], 'worker-2': [started(7, 4), started(8, 5)] });
		expect(whereRan(logDir, [7], { workers: WORKERS })).toEqual({
			byWorker: { 'worker-1': [], 'worker-2': ['7'] },
			problems: [],
		});
	});

	it('reports an execution run twice, never enqueued, run under another job, or run nowhere', () => {
		writeLogs({
			webhook: [enqueued(1, 1), enqueued(3, 3), enqueued(4, 4)],
			'worker-1': [started(1, 1), started(2, 2), started(3, 9)],
			'worker-2': [started(1, 1)],
		});
		const { problems } = whereRan(logDir, ['1', '2', '3', '4'], { workers: WORKERS });
		expect(problems).toEqual([
			'execution 1 started by 2 workers',
			'execution 2 enqueued 0 times',
			'execution 3 enqueued as job 3 but started as job 9',
			'execution 4 started by 0 workers',
		]);
	});

	it('finds nothing in logs that are missing', () => {
		expect(whereRan(logDir, ['1'], { workers: WORKERS }).problems).toEqual([
			'execution 1 enqueued 0 times',
			'execution 1 started by 0 workers',
		]);
	});
});

describe('what held a process at its stop', () => {
	const added = (id: number) => line('Execution added', id);
	const removed = (id: number) => line('Execution removed', id);
	const finished = (id: number) => line(`Execution ${id} (job ${id}) finished`, id);

	it('tells executions whose job finished but which never ended (lost by n8n) from executions still running', () => {
		writeLogs({ webhook: [added(1), added(2), added(3), finished(1), removed(1), finished(2), added(4)] });
		expect(heldAtStop(logDir, 'webhook')).toEqual({ lostByN8n: ['2'], others: ['3', '4'] });
	});

	it('finds nothing held when every execution ended', () => {
		writeLogs({ webhook: [added(1), finished(1), removed(1)] });
		expect(heldAtStop(logDir, 'webhook')).toEqual({ lostByN8n: [], others: [] });
	});
});
