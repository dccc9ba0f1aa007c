/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import axios from 'axios';
import { spawn } from 'node:child_process';
import * as path from 'node:path';

// `npm run sandbox` is one command: it prints the credential values, takes its settings from the
// environment and stops cleanly on SIGTERM.

test('the CLI starts on a free port, applies NOTIFICATION_URL and NOTIFICATION_FORMAT, and stops on SIGTERM', async () => {
	const child = spawn(process.execPath, [path.join(__dirname, '../../sandbox/cli.js')], {
		env: {
			...process.env,
			PORT: '0',
			NOTIFICATION_URL: 'http://127.0.0.1:9/hooks/payment',
			NOTIFICATION_FORMAT: 'wrapped',
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	try {
		let output = '';
		const url = await new Promise<string>((resolve, reject) => {
			child.stdout.on('data', (chunk) => {
				output += chunk;
				const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
				if (m && /Press Ctrl\+C/.test(output)) resolve(m[1]);
			});
			child.on('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
		});
		expect(output).toContain('Base URL            ' + url + '/nac/api/v1/merchant-host');
		expect(output).toContain('Notifications: wrapped, to http://127.0.0.1:9/hooks/payment');
		const settings = await axios.post(`${url}/__sandbox/notifications`, {});
		expect(settings.data).toEqual({ url: 'http://127.0.0.1:9/hooks/payment', format: 'wrapped', pad: false });
	} finally {
		const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
		child.kill('SIGTERM');
		expect(await exited).toBe(0);
	}
});

test('a bad NOTIFICATION_FORMAT stops it with a message', async () => {
	const child = spawn(process.execPath, [path.join(__dirname, '../../sandbox/cli.js')], {
		env: { ...process.env, PORT: '0', NOTIFICATION_URL: 'http://127.0.0.1:9/', NOTIFICATION_FORMAT: 'xml' },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let stderr = '';
	child.stderr.on('data', (chunk) => (stderr += chunk));
	const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
	expect(code).toBe(1);
	expect(stderr).toMatch(/format must be "flat" or "wrapped"/);
});
