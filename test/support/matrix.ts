import type { IDataObject } from 'n8n-workflow';

import { PaymentGatewayApi } from '../../credentials/PaymentGatewayApi.credentials';
import { PaymentGatewayTrigger } from '../../nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node';
import type { FaultOptions, LoggedRequest } from '../../sandbox/gateway';
import type { RunWorkflowResult } from './engine';
import type { MatrixFault } from './faults';
import { armAfter } from './faults';
import type { Sandbox } from './fixtures';
import { runNode, sandboxCredentials } from './fixtures';
import { everything, expiryFragments, findLeaks, observedPaymentGateway, runMaterial, sandboxSecrets } from './leaks';
import type { OperationCase, Prepared } from './matrix-operations';
import { CARD, CVV, EXPIRY_MONTH, EXPIRY_YEAR } from './matrix-operations';
import { startWebhookServer } from './webhook';

// The cells of the fault matrix (test/engine/fault-matrix.test.ts) and how each runs: the node through n8n's
// engine, or the trigger served as a production webhook, against a sandbox with the fault armed for the middle
// item; and small functions to run many cells at once and print the outcome table.

/** Short enough to keep the hanging cells fast, long enough for a loaded machine to answer the others. */
export const TIMEOUT = 1500;
export const MAX_RETRIES = 2;
const NODE_NAME = 'Payment Gateway';

export type Mode = 'stop' | 'continue' | 'retry';

export interface Cell {
	id: string;
	operation: OperationCase;
	fault: MatrixFault;
	mode: Mode;
}

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

export interface CellRun {
	prepared: Prepared;
	/** The node's run; for the trigger, one item per notification, paired to it, from its three executions. */
	result: RunWorkflowResult;
	/** The trigger's answers to the gateway: status, and when the answer was sent (the sandbox log's clock). */
	answers?: Array<{ status: number; answeredAtMs: number }>;
	requests: LoggedRequest[];
	pendingFaults: number;
	/** The fault as armed (its Retry-After date). */
	armed?: FaultOptions;
	/** What the leak search found, and what it searched: to tell a clean run from a search of nothing. */
	leaks: string[];
	searched: { bytes: number; thrownErrors: number; stack: boolean };
}

const leakTerms = (sandbox: Sandbox) => ({
	secrets: [...sandboxSecrets(sandbox), ...expiryFragments(EXPIRY_MONTH, EXPIRY_YEAR)],
	cards: [CARD],
	cvvs: [CVV],
});

async function runNodeCell(cell: Cell, sandbox: Sandbox, prepared: Prepared) {
	const thrown: unknown[] = [];
	// Max Retries as the mode says (the node retries reads 3 times when it is not set), and one item
	// after the other (it sends them at once when Concurrency is not set): the fault is the middle item's, and a
	// stopped run must not have sent the third. Writes are asked too: their options list neither, and n8n drops them
	// before the node runs.
	const options: IDataObject = { timeout: TIMEOUT, maxRetries: cell.mode === 'retry' ? MAX_RETRIES : 0, concurrency: 1 };
	const result = await runNode(sandbox, { ...prepared.parameters, options }, prepared.items, {
		nodeType: observedPaymentGateway(thrown),
		continueOnFail: cell.mode !== 'stop',
	});
	return { result, thrown, material: runMaterial(result, NODE_NAME, thrown) };
}

/** Each record notified in turn to the trigger served as a production webhook, its re-check run to the end. */
async function runTriggerCell(sandbox: Sandbox, prepared: Prepared, mode: Mode) {
	const server = await startWebhookServer({
		nodeType: PaymentGatewayTrigger,
		credentialType: PaymentGatewayApi,
		credentials: sandboxCredentials(sandbox),
		parameters: { options: { timeout: TIMEOUT, maxRetries: mode === 'retry' ? MAX_RETRIES : 0 } },
	});
	const answers: Array<{ status: number; answeredAtMs: number; text: string }> = [];
	try {
		for (const [index, record] of prepared.items.entries()) {
			const response = await fetch(server.url, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(record),
			});
			const text = await response.text();
			answers.push({ status: response.status, answeredAtMs: server.calls[index].answeredAtMs!, text });
			await server.idle();
		}
	} finally {
		await server.close();
	}
	const executions = [...server.executions];
	const items = executions.flatMap((execution, item) => execution.items.map((output) => ({ ...output, pairedItem: { item } })));
	const result = { items, outputs: [items], runData: {}, status: 'success', nodeExecutionOrder: [], credentialUpdates: [] };
	const material = everything({ executions, answers, calls: server.calls });
	return { result: result as RunWorkflowResult, thrown: [], material, answers };
}

export async function runCell(cell: Cell, sandbox: Sandbox): Promise<CellRun> {
	const prepared = await cell.operation.prepare(sandbox);
	sandbox.clearLog();
	// Verify Signature sends nothing: its fault stays pending, whatever the items.
	if (cell.operation.kind === 'local') sandbox.injectFault(cell.fault.options());
	const arming = cell.operation.kind === 'local' ? undefined : armAfter(sandbox, 1, () => cell.fault.options());
	const { result, thrown, material, answers } =
		cell.operation.kind === 'trigger'
			? await runTriggerCell(sandbox, prepared, cell.mode)
			: { ...(await runNodeCell(cell, sandbox, prepared)), answers: undefined };
	const searched = JSON.stringify(material);
	return {
		prepared,
		result,
		answers,
		requests: [...sandbox.requests],
		pendingFaults: sandbox.faults.length,
		armed: arming?.armed,
		leaks: findLeaks(material, leakTerms(sandbox)),
		searched: { bytes: searched.length, thrownErrors: thrown.length, stack: searched.includes('"stack":"NodeApiError') },
	};
}
