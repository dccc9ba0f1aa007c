import type { FaultOptions, Sandbox } from '../../sandbox/gateway';

// The faults of the matrix: every kind of the sandbox's fault table, and the HTTP statuses a gateway or a proxy in
// front of it answers with when it is in trouble.

export interface MatrixFault {
	/** Column label in the printed matrix. */
	name: string;
	/** The fault as injected; a function because a Retry-After date must be computed when it is armed. */
	options(): FaultOptions;
	/** The gateway acted on the request before the fault, and the client cannot tell (sandbox/README.md). */
	processed: boolean;
	/** What an error for this fault carries: the gateway's or the proxy's status, or the network code. */
	expected: { resCode?: number; code?: string };
	/** No answer arrives until the client gives up: the time-out decides. */
	timesOut?: boolean;
	/** The gateway said it did not act (rate limited): no reason to check the status before sending again. */
	refusedUnprocessed?: boolean;
}

/** Large enough to be "many megabytes", small enough to keep a matrix cell fast. */
export const HUGE_BYTES = 8 * 1024 * 1024;

const status = (code: number, extra: Partial<MatrixFault> = {}): MatrixFault => ({
	name: String(code),
	options: () => ({ kind: 'status', status: code }),
	processed: false,
	expected: { resCode: code },
	...extra,
});

/** An HTTP date about two seconds ahead; HTTP dates have whole seconds, so the wait is between 1 and 2 s. */
export const retryAfterDate = () => new Date(Date.now() + 2000).toUTCString();

export const FAULTS: MatrixFault[] = [
	status(500),
	status(502),
	status(503),
	status(504),
	status(429, {
		name: '429 RA 1s',
		options: () => ({ kind: 'status', status: 429, retryAfter: 1 }),
		refusedUnprocessed: true,
	}),
	status(429, {
		name: '429 RA date',
		options: () => ({ kind: 'status', status: 429, retryAfter: retryAfterDate() }),
		refusedUnprocessed: true,
	}),
	{ name: 'reset-before', options: () => ({ kind: 'reset-before-body' }), processed: false, expected: { code: 'ECONNRESET' } },
	{ name: 'reset-after', options: () => ({ kind: 'reset-after-body' }), processed: true, expected: { code: 'ECONNRESET' } },
	{ name: 'hang', options: () => ({ kind: 'hang' }), processed: false, expected: { code: 'ETIMEDOUT' }, timesOut: true },
	{ name: 'slow-body', options: () => ({ kind: 'slow-body' }), processed: true, expected: { code: 'ETIMEDOUT' }, timesOut: true },
	{ name: 'endless', options: () => ({ kind: 'endless' }), processed: false, expected: {} },
	{ name: 'html 502', options: () => ({ kind: 'html' }), processed: false, expected: { resCode: 502 } },
	// A gateway or proxy that echoes the request (Basic header, body) in its error: nothing of it may be kept.
	{ name: 'echo 500', options: () => ({ kind: 'echo' }), processed: false, expected: { resCode: 500 } },
	{ name: 'envelope 503', options: () => ({ kind: 'failure-envelope' }), processed: false, expected: { resCode: 503 } },
	{ name: 'truncated', options: () => ({ kind: 'truncated-json' }), processed: true, expected: {} },
	{ name: 'empty', options: () => ({ kind: 'empty' }), processed: false, expected: {} },
	{ name: 'huge', options: () => ({ kind: 'huge', sizeBytes: HUGE_BYTES }), processed: false, expected: {} },
	{ name: 'deep', options: () => ({ kind: 'deep' }), processed: false, expected: {} },
];

/**
 * Arms a fault for the request after the `after`-th one, as that one is logged: it lands on the next request
 * whatever its path. The node sends the next item's request only once this one is answered, so the fault hits
 * exactly the next item.
 */
export function armAfter(sandbox: Sandbox, after: number, fault: () => FaultOptions): { armed?: FaultOptions } {
	const state: { armed?: FaultOptions } = {};
	const log = sandbox.requests;
	const push = log.push.bind(log);
	log.push = (...entries) => {
		const length = push(...entries);
		if (length === after && !state.armed) {
			state.armed = fault();
			sandbox.injectFault(state.armed);
		}
		return length;
	};
	return state;
}
