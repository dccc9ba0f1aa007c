/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
// The package as code requires it: index.js and package.json next to a fresh
// build of the sources (a temporary dist/, so the repository's own dist/ is
// neither needed nor touched). Each require runs in a plain node process, with
// Node's own module resolution and no module cache left from a previous load.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

type Names = { name: string; displayName: string };
type Inspection = {
	exported: Record<string, Names>;
	registered: { className: string; sameClass: boolean }[];
};

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const TRIGGER_SOURCE = path.join(ROOT, 'nodes', 'PaymentGatewayTrigger', 'PaymentGatewayTrigger.node.ts');
const TRIGGER_BUILT = path.join('dist', 'nodes', 'PaymentGatewayTrigger');

// Requires the package by its folder (so through "main"), instantiates every export, and
// requires each file package.json's "n8n" block lists to compare it with the export.
const INSPECT = `
const path = require('node:path');
const dir = process.argv[1];
const pkg = require(path.join(dir, 'package.json'));
const exported = require(dir);
const names = {};
for (const [key, Class] of Object.entries(exported)) {
	const instance = new Class();
	const { name, displayName } = instance.description ?? instance;
	names[key] = { name, displayName };
}
const registered = [...pkg.n8n.nodes, ...pkg.n8n.credentials].map((entry) => {
	const className = path.basename(entry).split('.')[0];
	return { className, sameClass: require(path.join(dir, entry))[className] === exported[className] };
});
console.log(JSON.stringify({ exported: names, registered }));
`;

// Only the names index.js exports, for builds that lack a file package.json lists.
const EXPORT_NAMES = 'console.log(JSON.stringify(Object.keys(require(process.argv[1]))));';

let packageDir: string;

function runInNode<T>(script: string): T {
	return JSON.parse(execFileSync(process.execPath, ['-e', script, packageDir], { encoding: 'utf8', stdio: 'pipe' }));
}

const inspectPackage = () => runInNode<Inspection>(INSPECT);
const exportNames = () => runInNode<string[]>(EXPORT_NAMES);

beforeAll(() => {
	packageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-index-'));
	execFileSync(
		process.execPath,
		[require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json', '--outDir', path.join(packageDir, 'dist')],
		{ cwd: ROOT, stdio: 'pipe' },
	);
	for (const file of ['index.js', 'package.json']) {
		fs.copyFileSync(path.join(ROOT, file), path.join(packageDir, file));
	}
	fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(packageDir, 'node_modules'), 'dir');
}, 120_000);

afterAll(() => {
	if (packageDir) fs.rmSync(packageDir, { recursive: true, force: true });
});

test('package.json points main at index.js and publishes it', () => {
	expect(pkg.main).toBe('index.js');
	expect(pkg.files).toContain('index.js');
});

test('index.js exports exactly the classes package.json registers with n8n, the very classes n8n loads', () => {
	const { exported, registered } = inspectPackage();
	expect(Object.keys(exported).sort()).toEqual(registered.map((entry) => entry.className).sort());
	for (const entry of registered) expect(entry).toEqual({ className: entry.className, sameClass: true });
});

test('the exported classes carry the names saved workflows use', () => {
	const { exported } = inspectPackage();
	expect(exported.PaymentGateway).toEqual({ name: 'paymentGateway', displayName: 'Payment Gateway' });
	expect(exported.PaymentGatewayApi).toEqual({ name: 'paymentGatewayApi', displayName: 'Payment Gateway API' });
	if (fs.existsSync(TRIGGER_SOURCE)) {
		expect(exported.PaymentGatewayTrigger).toEqual({
			name: 'paymentGatewayTrigger',
			displayName: 'Payment Gateway Trigger',
		});
	} else {
		expect(exported).not.toHaveProperty('PaymentGatewayTrigger');
	}
});

test('a build without the trigger still loads, without it', () => {
	fs.rmSync(path.join(packageDir, TRIGGER_BUILT), { recursive: true, force: true });
	expect(exportNames().sort()).toEqual(['PaymentGateway', 'PaymentGatewayApi']);
});

test('a trigger that is built but fails to load is an error, not a missing trigger', () => {
	const dir = path.join(packageDir, TRIGGER_BUILT);
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, 'PaymentGatewayTrigger.node.js'), "require('./helper-that-is-not-there');\n");
	expect(exportNames).toThrow(/helper-that-is-not-there/);
});
