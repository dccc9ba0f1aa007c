/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A pass-through HTTP proxy in front of the sandbox that counts requests in flight (from arrival until the
 * answer is fully sent) and can add a per-request delay. It observes the node from the network side only.
 *
 * That a node sends so many requests at once is a count a busy machine can move when answers may come back before
 * the last of them is out. `holdUntilInFlight(n)` takes the timing out: every request is held until n are in flight
 * together, then all pass. So `maxInFlight` reaches n whatever the load, and only the node can take it above n; a
 * node that never has n out at once is held until the test's own time-out fails it.
 */
export interface CountingProxy {
	url: string;
	inFlight: number;
	maxInFlight: number;
	/** Milliseconds to hold a request (by its path and query) before passing it on. */
	delayFor: (path: string) => number;
	/** Holds every request until `count` are in flight together, then lets them and all later ones pass. */
	holdUntilInFlight(count: number): void;
	/**
	 * Holds every request whose path contains `part` until `release()`; `arrived` resolves once one is held. What the
	 * test does meanwhile then comes before that request's answer, however long it takes on a busy machine.
	 */
	holdMatching(part: string): { arrived: Promise<void>; release(): void };
	/**
	 * Holds every request until the test lets it pass, so that the test chooses when each answer can come back:
	 * `held()` counts those waiting, `heldAt(n)` resolves once n wait, `release(k)` lets the first k pass in the
	 * order they came, `open()` lets all pass and stops holding. A node that never has n out at once is held until the
	 * test's own time-out fails it. `holdMatching` comes first.
	 */
	gate(): Gate;
	/**
	 * Holds every answer with this HTTP status (the request stays in flight) until `release()`, then holds no more:
	 * the node meets the others first, whatever the load. By status only: a 200 carrying an error envelope is held too.
	 */
	holdAnswers(status: number): { release(): void };
	/** Starts a new count: no request in flight may be left over from an earlier run. Lifts the holds. */
	resetCount(): void;
	close(): Promise<void>;
}

export interface Gate {
	held(): number;
	heldAt(count: number): Promise<void>;
	release(count: number): void;
	open(): void;
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
	const targetUrl = new URL(target);
	const matching = new Map<string, { held: Array<() => void>; onHeld: () => void }>();
	let answerHold: { status: number; held: Array<() => void> } | null = null;
	let gated: { held: Array<() => void>; waiters: Array<{ count: number; resolve: () => void }> } | null = null;
	const wakeWaiters = (state: NonNullable<typeof gated>) => {
		const count = state.held.length;
		for (const waiter of state.waiters.filter((entry) => entry.count <= count)) waiter.resolve();
		state.waiters = state.waiters.filter((entry) => entry.count > count);
	};
	const proxy: CountingProxy = {
		url: '',
		inFlight: 0,
		maxInFlight: 0,
		delayFor: () => 0,
		holdUntilInFlight(count) {
			// A gate opened by itself once `count` wait: all of them are out together.
			const gate = proxy.gate();
			void gate.heldAt(count).then(() => gate.open());
		},
		holdMatching(part) {
			let onHeld = () => {};
			const arrived = new Promise<void>((resolve) => (onHeld = resolve));
			matching.set(part, { held: [], onHeld });
			return {
				arrived,
				release() {
					const passes = matching.get(part)?.held ?? [];
					matching.delete(part);
					for (const pass of passes) pass();
				},
			};
		},
		gate() {
			const state: NonNullable<typeof gated> = { held: [], waiters: [] };
			gated = state;
			return {
				held: () => state.held.length,
				heldAt: (count) => new Promise<void>((resolve) => {
					state.waiters.push({ count, resolve });
					wakeWaiters(state);
				}),
				release(count) {
					for (const pass of state.held.splice(0, count)) pass();
				},
				open() {
					if (gated === state) gated = null;
					for (const pass of state.held.splice(0)) pass();
				},
			};
		},
		holdAnswers(status) {
			const state = { status, held: [] as Array<() => void> };
			answerHold = state;
			return {
				release() {
					if (answerHold === state) answerHold = null;
					for (const deliver of state.held.splice(0)) deliver();
				},
			};
		},
		resetCount() {
			if (proxy.inFlight !== 0) throw new Error(`${proxy.inFlight} requests are still in flight`);
			proxy.maxInFlight = 0;
			gated = null;
			answerHold = null;
			matching.clear();
		},
		close: async () => {},
	};
	const server = http.createServer((req, res) => {
		proxy.inFlight++;
		proxy.maxInFlight = Math.max(proxy.maxInFlight, proxy.inFlight);
		let done = false;
		const finished = () => {
			if (!done) proxy.inFlight--;
			done = true;
		};
		res.on('finish', finished);
		res.on('close', finished);
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const pass = () => setTimeout(() => {
				const upstream = http.request(
					{
						host: targetUrl.hostname,
						port: targetUrl.port,
						method: req.method,
						path: req.url,
						headers: { ...req.headers, host: targetUrl.host },
					},
					(answer) => {
						const deliver = () => {
							res.writeHead(answer.statusCode ?? 502, answer.headers);
							answer.pipe(res);
						};
						if (answerHold !== null && answer.statusCode === answerHold.status) answerHold.held.push(deliver);
						else deliver();
					},
				);
				upstream.on('error', () => {
					res.writeHead(502);
					res.end();
				});
				upstream.end(Buffer.concat(chunks));
			}, proxy.delayFor(req.url ?? ''));
			const match = [...matching].find(([part]) => (req.url ?? '').includes(part))?.[1];
			if (match) {
				match.held.push(pass);
				match.onHeld();
			} else if (gated !== null) {
				gated.held.push(pass);
				wakeWaiters(gated);
			} else pass();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	proxy.close = async () => {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	};
	return proxy;
}
