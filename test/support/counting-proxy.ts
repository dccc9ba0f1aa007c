/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A pass-through HTTP proxy in front of the sandbox that counts requests in flight (from arrival until the
 * answer is fully sent) and can add a per-request delay. It observes the node from the network side only.
 */
export interface CountingProxy {
	url: string;
	inFlight: number;
	maxInFlight: number;
	/** Milliseconds to hold a request (by its path and query) before passing it on. */
	delayFor: (path: string) => number;
	/** Starts a new count: no request in flight may be left over from an earlier run. */
	resetCount(): void;
	close(): Promise<void>;
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
	const targetUrl = new URL(target);
	const proxy: CountingProxy = {
		url: '',
		inFlight: 0,
		maxInFlight: 0,
		delayFor: () => 0,
		resetCount() {
			if (proxy.inFlight !== 0) throw new Error(`${proxy.inFlight} requests are still in flight`);
			proxy.maxInFlight = 0;
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
			setTimeout(() => {
				const upstream = http.request(
					{
						host: targetUrl.hostname,
						port: targetUrl.port,
						method: req.method,
						path: req.url,
						headers: { ...req.headers, host: targetUrl.host },
					},
					(answer) => {
						res.writeHead(answer.statusCode ?? 502, answer.headers);
						answer.pipe(res);
					},
				);
				upstream.on('error', () => {
					res.writeHead(502);
					res.end();
				});
				upstream.end(Buffer.concat(chunks));
			}, proxy.delayFor(req.url ?? ''));
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
