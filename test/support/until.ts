/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
/** After this long without the predicate holding, `until` says what it waits for (and goes on waiting). */
const SAY_AFTER_MS = 10_000;

/**
 * Resolves once `predicate` holds, checked every 10 ms. For what a test must see happen but cannot be told of: a fixed
 * sleep instead would fail whenever a busy machine is slower. No deadline of its own, which load could overrun: what
 * never happens fails the test by jest's time-out, and after 10 s `what` is printed so that the failure names it. The
 * polling timer does not keep the process alive once the test has failed.
 */
export async function until(predicate: () => boolean, what: string): Promise<void> {
	const started = performance.now();
	let said = false;
	while (!predicate()) {
		if (!said && performance.now() - started > SAY_AFTER_MS) {
			said = true;
			console.warn(`Still waiting, after ${SAY_AFTER_MS / 1000} s, for ${what}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 10).unref());
	}
}
