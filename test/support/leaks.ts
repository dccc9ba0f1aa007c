/* eslint-disable @n8n/community-nodes/require-node-api-error, @typescript-eslint/no-unused-vars -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, IRun } from 'n8n-workflow';

import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import type { Sandbox } from '../../sandbox/gateway';
import type { RunWorkflowResult } from './engine';

// The one leak search of the test suite: what must never appear in what n8n keeps of a run, and how to look.

export interface LeakSearchTerms {
	/** Exact strings that must appear nowhere (secrets, keys, Basic header values, JSON fragments of card data). */
	secrets: string[];
	/** Card numbers: any run of 5 or more of their digits is a leak; the last four alone are allowed. */
	cards: string[];
	/** CVVs, searched as standalone tokens (as numbers they would also match timestamps and amounts). */
	cvvs: string[];
}

const basic = (clientId: string, secret: string) => Buffer.from(`${clientId}:${secret}`).toString('base64');

/** The sandbox's secrets: both clients' secrets and Basic header values, and the card encryption key. */
export function sandboxSecrets(sandbox: Sandbox, extraSecrets: string[] = []): string[] {
	const { active, inactive } = sandbox.clients;
	return [
		active.clientSecret,
		inactive.clientSecret,
		sandbox.cardEncryptionKey,
		basic(active.clientId, active.clientSecret),
		basic(inactive.clientId, inactive.clientSecret),
		...extraSecrets.flatMap((secret) => [secret, basic(active.clientId, secret)]),
	];
}

/** Expiry as it travels inside the encrypted card details; "12" or "30" alone are far too common to search. */
export function expiryFragments(month: string, year: string): string[] {
	return [`"cardExpMonth":"${month}"`, `"cardExpYear":"${year}"`, `${month}/${year}`];
}

/** All string leaves of a value, with their JSON paths. */
function stringLeaves(value: unknown, path = '$', seen = new Set<unknown>()): Array<[string, string]> {
	if (typeof value === 'string') return [[path, value]];
	if (value === null || typeof value !== 'object' || seen.has(value)) return [];
	seen.add(value);
	return Object.entries(value as object).flatMap(([key, child]) => stringLeaves(child, `${path}.${key}`, seen));
}

/**
 * Finds leaks in a value: exact forbidden strings anywhere (numbers included, via JSON); each CVV as a standalone
 * token; and in strings, any run of 5 or more digits of a card (spaces and dashes between digits ignored), which
 * allows the last four digits and nothing longer. Hex tokens containing a letter (ids, signatures, hashes) cannot
 * be card numbers and are skipped, so random hex digits cannot cause a false alarm.
 */
export function findLeaks(value: unknown, terms: LeakSearchTerms): string[] {
	const leaks: string[] = [];
	// n8n's own measure of how long a node ran is left out: on a busy machine a run lasts a CVV's number of
	// milliseconds as readily as any other.
	const text = JSON.stringify(value, (key, entry: unknown) => (key === 'executionTime' ? undefined : entry)) ?? '';
	for (const [index, secret] of [...terms.secrets, ...terms.cards].entries()) {
		if (text.includes(secret) || text.includes(JSON.stringify(secret).slice(1, -1))) {
			leaks.push(`contains term ${index} (${secret.slice(0, 6)}…)`);
		}
	}
	// A stack frame's line and column (`file.js:120:7391`) are set by the code's layout, not by any data: a CVV's four
	// digits turn up there by chance (once in a full run), so positions are left out of the CVV search.
	// The same holds for the 4-hex groups of a UUID (the sandbox's ids, n8n's node ids): "-9731-" is a random group.
	const withoutPositions = text
		.replace(/:\d+:\d+(?=\)|\\n|"|$)/g, ':…')
		.replace(GATEWAY_ID, ' ')
		.replace(/\b[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}\b/gi, ' ');
	for (const cvv of terms.cvvs) {
		if (new RegExp(`(^|[^0-9A-Za-z])${cvv}([^0-9A-Za-z]|$)`).test(withoutPositions)) leaks.push(`contains the CVV ${cvv}`);
	}
	for (const [path, leaf] of stringLeaves(value)) {
		const cleaned = leaf
			// The sandbox's ids are random hex, so by chance they hold five digits of a test card.
			.replace(GATEWAY_ID, ' ')
			.replace(/(?<![0-9A-Za-z])(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{8,}(?![0-9A-Za-z])/g, ' ')
			.replace(/(?<=\d)[\s-]+(?=\d)/g, '');
		for (const run of cleaned.match(/\d{5,}/g) ?? []) {
			for (const card of terms.cards) {
				for (let start = 0; start + 5 <= card.length; start++) {
					if (run.includes(card.slice(start, start + 5))) {
						leaks.push(`${path} holds more than the last four digits of a card (${run.length} digits)`);
						start = card.length;
					}
				}
			}
		}
	}
	return [...new Set(leaks)];
}

/**
 * Everything an object holds, as plain JSON: own properties whether enumerable or not (an Error's message, stack
 * and cause), followed through nested objects, cycles cut. This is what a serializer or a log could reach.
 */
export function everything(value: unknown, seen = new Set<unknown>()): unknown {
	if (typeof value === 'bigint') return value.toString();
	if (typeof value === 'function' || typeof value === 'symbol') return undefined;
	if (value === null || typeof value !== 'object') return value;
	if (seen.has(value)) return '[cycle]';
	seen.add(value);
	if (Buffer.isBuffer(value)) return value.toString('utf8');
	if (Array.isArray(value)) return value.map((entry) => everything(entry, seen));
	const plain: Record<string, unknown> = {};
	for (const key of Object.getOwnPropertyNames(value)) {
		plain[key] = everything((value as Record<string, unknown>)[key], seen);
	}
	return plain;
}

/**
 * The Payment Gateway node as n8n runs it, keeping the errors it throws: n8n records only a copy of a thrown
 * error's own enumerable fields, while the error object itself (cause, response, request) could reach a log.
 */
export function observedPaymentGateway(thrown: unknown[]): INodeType {
	const node = new PaymentGateway();
	return {
		description: node.description,
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			try {
				return await node.execute.call(this);
			} catch (error) {
				thrown.push(error);
				throw error;
			}
		},
	};
}

const GATEWAY_ID =
	/\b(?:(?:PAY|RFD)[0-9A-F]{32}|wb-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?:cus|dc)_[0-9a-f]{16})\b/g;

/**
 * With "Continue (using error output)", n8n itself merges the paired input item into each error-output item
 * (WorkflowExecute.handleNodeErrorOutput); only `error` and `message` there come from the node.
 */
function nodePartOfErrorOutput(main: unknown): unknown {
	if (!Array.isArray(main) || main.length < 2) return main;
	return main.map((output: Array<{ json: IDataObject }> | null, index) =>
		index === 0 || !output
			? output
			: output.map((item) => ({ ...item, json: { error: item.json.error, message: item.json.message } })),
	);
}

/**
 * The run as n8n stores it, without the user's own input: the start node's run data and, when the node failed,
 * the input items n8n keeps on the execution stack to resume from (the very items the user gave).
 */
function runWithoutInput(run: IRun | undefined, nodeName: string): unknown {
	if (!run) return undefined;
	const runData = Object.fromEntries(
		Object.entries(run.data.resultData.runData)
			.filter(([name]) => name !== 'Input')
			.map(([name, tasks]) => [
				name,
				tasks.map((task) => ({
					...task,
					data: task.data && name === nodeName ? { ...task.data, main: nodePartOfErrorOutput(task.data.main) } : task.data,
				})),
			]),
	);
	const executionData = run.data.executionData && {
		...run.data.executionData,
		nodeExecutionStack: run.data.executionData.nodeExecutionStack.map(({ data: _input, ...entry }) => entry),
	};
	return { ...run, data: { ...run.data, executionData, resultData: { ...run.data.resultData, runData } } };
}

/**
 * What n8n keeps of a run of the node: its output items, the recorded error, the whole run object but for the
 * user's own input (see runWithoutInput) and any errors the node threw, in full.
 */
export function runMaterial(result: RunWorkflowResult, nodeName: string, thrown: unknown[] = []): unknown {
	return {
		items: result.items,
		outputs: nodePartOfErrorOutput(result.outputs),
		error: everything(result.error),
		run: everything(runWithoutInput(result.run, nodeName)),
		thrown: everything(thrown),
	};
}
