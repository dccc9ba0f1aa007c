import type { IN8nHttpFullResponse } from 'n8n-workflow';

import { NoAnswer } from './network';

/** The provider's test environment was seen taking 30-40 s to create a checkout or check a status. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Settles with the work or with a time-out at the deadline; a response that arrives too late is closed. */
export function beforeDeadline(
	work: Promise<IN8nHttpFullResponse>,
	deadline: AbortSignal,
): Promise<IN8nHttpFullResponse> {
	return new Promise((resolve, reject) => {
		let settled = false;
		const onDeadline = () => {
			settled = true;
			reject(new NoAnswer('ETIMEDOUT', true));
		};
		if (deadline.aborted) onDeadline();
		else deadline.addEventListener('abort', onDeadline, { once: true });
		work.then(
			(response) => {
				deadline.removeEventListener('abort', onDeadline);
				if (!settled) resolve(response);
				else (response.body as { destroy?: () => void } | undefined)?.destroy?.();
			},
			(error: unknown) => {
				deadline.removeEventListener('abort', onDeadline);
				if (!settled) reject(error);
			},
		);
	});
}
