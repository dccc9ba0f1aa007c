/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
// n8n's own verdict on n8n Cloud eligibility: `n8n-node cloud-support` reports it from package.json's
// `n8n.strict` and from eslint.config.mjs being n8n's default one-liner. It always exits 0 and does
// not lint; `npm run lint` is the other half.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

test('n8n-node cloud-support reports the package eligible for n8n Cloud verification', () => {
	const cli = path.join(ROOT, 'node_modules', '@n8n', 'node-cli', 'bin', 'n8n-node.mjs');
	const output = execFileSync(process.execPath, [cli, 'cloud-support'], {
		cwd: ROOT,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
		env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
	});
	expect(output).toContain('Cloud support is ENABLED');
	expect(output).toMatch(/Strict mode: enabled/);
	expect(output).toMatch(/ESLint config: using default config/);
	expect(output).toMatch(/Status: eligible for n8n Cloud verification/);
});
