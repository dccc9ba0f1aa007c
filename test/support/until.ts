/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
/**
 * Resolves once `predicate` holds, checked every 10 ms; rejects after `timeoutMs`, naming `what`. For what a test
 * must see happen but cannot be told of: a fixed sleep instead would fail whenever a busy machine is slower.
 */
export async function until(predicate: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
	const deadline = performance.now() + timeoutMs;
	while (!predicate()) {
		if (performance.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}
