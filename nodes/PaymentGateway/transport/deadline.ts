import type { IN8nHttpFullResponse } from 'n8n-workflow';

import { MAX_TIMER_MS } from '../validation/input';
import { NoAnswer } from './network';

/** The provider's test environment was seen taking 30-40 s to create a checkout or check a status. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Shared deadlines are at most this much late. */
const MAX_SLACK_MS = 1000;

function slackOf(timeoutMs: number): number {
	const slack = Math.min(MAX_SLACK_MS, Math.floor(timeoutMs / 50));
	return timeoutMs + slack <= MAX_TIMER_MS ? slack : 0;
}

/**
 * The time-out handed to n8n's helper as well, a backstop only: it must fire after the deadline, which ends the
 * attempt and reports it as a time-out (the helper's own time-out surfaces as a closed connection).
 */
export const helperTimeoutMs = (timeoutMs: number) => Math.min(timeoutMs + slackOf(timeoutMs) + 100, MAX_TIMER_MS);

/** When an attempt gives up. */
export interface Deadline {
	readonly passed: boolean;
	/** Runs `onPassed` when the deadline passes, at once if it has; the function returned stops watching. */
	watch(onPassed: () => void): () => void;
}

class SharedDeadline implements Deadline {
	private readonly watchers = new Set<() => void>();
	// Held here: a timeout signal nobody references can be collected before it fires.
	private readonly signal: AbortSignal;
	private readonly onAbort = () => this.pass();

	constructor(ms: number) {
		this.signal = AbortSignal.timeout(ms);
	}

	get passed(): boolean {
		return this.signal.aborted;
	}

	private pass() {
		const watchers = [...this.watchers];
		this.watchers.clear();
		for (const onPassed of watchers) {
			try {
				onPassed();
			} catch {
				// One attempt's failing clean-up must not keep the others sharing this deadline from ending.
			}
		}
	}

	watch(onPassed: () => void): () => void {
		if (this.passed) {
			onPassed();
			return () => undefined;
		}
		// Listened to only while someone watches: Node keeps a timeout signal with a listener alive until it fires,
		// and a finished execution's deadlines must not stay in memory for the rest of their time-out.
		if (this.watchers.size === 0) this.signal.addEventListener('abort', this.onAbort, { once: true });
		this.watchers.add(onPassed);
		return () => {
			if (this.watchers.delete(onPassed) && this.watchers.size === 0) {
				this.signal.removeEventListener('abort', this.onAbort);
			}
		};
	}
}

/**
 * Deadlines for one execution. A timer per request was the largest part of the transport's own CPU time, so attempts
 * that start within a small slack of each other share one: each still gets its whole time-out, and at most a
 * fiftieth of it (1 s at most) more.
 */
export function deadlineClock(): (timeoutMs: number) => Deadline {
	const current = new Map<number, { deadline: Deadline; startedAt: number }>();
	return (timeoutMs) => {
		const slack = slackOf(timeoutMs);
		// The monotonic clock, as timers use: a wall clock set back would hand later attempts an earlier deadline.
		const now = performance.now();
		const known = current.get(timeoutMs);
		// Strictly within the slack: the shared timer then still fires no earlier than this attempt's whole time-out.
		if (known && !known.deadline.passed && now - known.startedAt < slack) return known.deadline;
		const deadline = new SharedDeadline(timeoutMs + slack);
		current.set(timeoutMs, { deadline, startedAt: now });
		return deadline;
	};
}

/** Settles with the work or with a time-out at the deadline; a response that arrives too late is closed. */
export function beforeDeadline(work: Promise<IN8nHttpFullResponse>, deadline: Deadline): Promise<IN8nHttpFullResponse> {
	return new Promise((resolve, reject) => {
		let settled = false;
		const stopWatching = deadline.watch(() => {
			settled = true;
			reject(new NoAnswer('ETIMEDOUT', true));
		});
		work.then(
			(response) => {
				stopWatching();
				if (!settled) resolve(response);
				else (response.body as { destroy?: () => void } | undefined)?.destroy?.();
			},
			(error: unknown) => {
				stopWatching();
				if (!settled) reject(error);
			},
		);
	});
}
