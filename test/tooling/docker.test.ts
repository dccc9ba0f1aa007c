/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

// The Docker image installs the package with the script every end-to-end check installs it with, so that the checks
// (which run a real n8n, as Docker cannot run here) prove the image's steps. This holds the three files together.

const root = path.join(__dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

it('the image starts through n8n\'s own entrypoint after installing the baked tarball with docker/install-package.sh', () => {
	const dockerfile = read('docker/Dockerfile');
	expect(dockerfile).toMatch(/^FROM n8nio\/n8n:\$\{N8N_VERSION\}$/m);
	expect(dockerfile).toMatch(/^ARG N8N_VERSION=2\.41\.1$/m);
	expect(dockerfile).toContain('COPY --chown=node:node docker/install-package.sh docker/entrypoint.sh docker/keep-tarball.sh /opt/payment-gateway/');
	expect(dockerfile).toMatch(/^ENTRYPOINT \["tini", "--", "\/opt\/payment-gateway\/entrypoint\.sh"\]$/m);
	expect(dockerfile).toMatch(/^ENV N8N_UNVERIFIED_PACKAGES_ENABLED=true$/m);
	const entrypoint = read('docker/entrypoint.sh');
	expect(entrypoint).toContain('sh /opt/payment-gateway/install-package.sh /opt/payment-gateway/n8n-nodes-payment-gateway.tgz "${N8N_USER_FOLDER:-$HOME}/.n8n/nodes"');
	expect(entrypoint).toContain('exec /docker-entrypoint.sh "$@"');
});

it('every end-to-end check installs the package with the same script', () => {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { INSTALL_SCRIPT } = require('../../e2e/lib/package') as { INSTALL_SCRIPT: string };
	expect(path.relative(root, INSTALL_SCRIPT)).toBe(path.join('docker', 'install-package.sh'));
	expect(read('e2e/lib/package.js')).toContain("'sh', [INSTALL_SCRIPT, tarball, nodesDir]");
});

it.each(['docker/install-package.sh', 'docker/entrypoint.sh', 'docker/keep-tarball.sh'])('%s is a valid POSIX shell script', (script) => {
	expect(() => execFileSync('sh', ['-n', path.join(root, script)])).not.toThrow();
});

// The image's steps without Docker: the same scripts, run as the Dockerfile and the entrypoint run them, in a folder of
// their own.

const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** A folder removed after the test. */
function tempFolder(): string {
	const folder = mkdtempSync(path.join(tmpdir(), 'pg-docker-test-'));
	folders.push(folder);
	return folder;
}

/** A tarball as npm pack writes it: package/package.json of this package at `version`, and a file saying which one it is. */
function tarball(folder: string, file: string, version: string): string {
	const staging = path.join(folder, `staging-${version}`, 'package');
	mkdirSync(staging, { recursive: true });
	writeFileSync(path.join(staging, 'package.json'), JSON.stringify({ name: 'n8n-nodes-payment-gateway', version }));
	writeFileSync(path.join(staging, 'which.txt'), version);
	execFileSync('tar', ['czf', path.join(folder, file), '-C', path.dirname(staging), 'package']);
	return path.join(folder, file);
}

const sh = (script: string, args: string[], cwd: string) => spawnSync('sh', [path.join(root, script), ...args], { cwd, encoding: 'utf8' });

describe("the Dockerfile's tarball step (docker/keep-tarball.sh)", () => {
	it('runs in the image on package.json and every tarball of the clone, and keeps only the tarball of that version', () => {
		const dockerfile = read('docker/Dockerfile');
		expect(dockerfile).toContain('COPY --chown=node:node package.json n8n-nodes-payment-gateway-*.tgz /opt/payment-gateway/packed/');
		expect(dockerfile).toContain('RUN sh /opt/payment-gateway/keep-tarball.sh /opt/payment-gateway/packed /opt/payment-gateway/n8n-nodes-payment-gateway.tgz');
		expect(dockerfile).toContain('&& rm -rf /opt/payment-gateway/packed');
	});

	it("with two versions' tarballs in the clone, keeps the one of package.json's version", () => {
		const folder = tempFolder();
		const packed = path.join(folder, 'packed');
		mkdirSync(packed);
		writeFileSync(path.join(packed, 'package.json'), read('package.json').replace(/^ {2}"version": "[^"]*"/m, '  "version": "0.2.0"'));
		tarball(packed, 'n8n-nodes-payment-gateway-0.1.0.tgz', '0.1.0');
		tarball(packed, 'n8n-nodes-payment-gateway-0.2.0.tgz', '0.2.0');
		const kept = path.join(folder, 'n8n-nodes-payment-gateway.tgz');
		const run = sh('docker/keep-tarball.sh', [packed, kept], folder);
		expect([run.status, run.stderr]).toEqual([0, '']);
		expect(execFileSync('tar', ['xzOf', kept, 'package/which.txt'], { encoding: 'utf8' })).toBe('0.2.0');
	});

	it('without the tarball of that version, fails saying what to run; without arguments, says how to call it', () => {
		const folder = tempFolder();
		writeFileSync(path.join(folder, 'package.json'), read('package.json'));
		tarball(folder, 'n8n-nodes-payment-gateway-0.0.1.tgz', '0.0.1');
		const run = sh('docker/keep-tarball.sh', [folder, path.join(folder, 'kept.tgz')], folder);
		expect(run.status).toBe(1);
		expect(run.stderr).toMatch(/no n8n-nodes-payment-gateway-\d+\.\d+\.\d+\.tgz .*found: n8n-nodes-payment-gateway-0\.0\.1\.tgz.*run npm run build && npm pack first/);
		const bare = sh('docker/keep-tarball.sh', [], folder);
		expect([bare.status, bare.stderr]).toEqual([2, expect.stringMatching(/^Usage: sh docker\/keep-tarball\.sh </)]);
	});
});

describe('docker/install-package.sh', () => {
	it('without arguments, or without a tarball, says how to call it, and installs nothing', () => {
		const folder = tempFolder();
		for (const args of [[], ['n8n-nodes-payment-gateway-0.1.0.tgz']]) {
			const run = sh('docker/install-package.sh', args, folder);
			expect([run.status, run.stderr]).toEqual([2, expect.stringMatching(/^Usage: sh docker\/install-package\.sh <tarball> <nodes folder>\n.*<tarball>.*\n.*<nodes folder>/)]);
		}
		const missing = sh('docker/install-package.sh', ['gone.tgz', path.join(folder, 'nodes')], folder);
		expect([missing.status, missing.stderr]).toEqual([1, expect.stringMatching(/no tarball at gone\.tgz/)]);
		expect(existsSync(path.join(folder, 'nodes'))).toBe(false);
	});

	it('installs so that a later offline install in the nodes folder works once the tarball given is gone, and replaces an earlier install', () => {
		const folder = tempFolder();
		const nodes = path.join(folder, 'user', '.n8n', 'nodes');
		mkdirSync(nodes, { recursive: true });
		// What the script left before: the tarball named by a path outside the folder, long gone.
		writeFileSync(path.join(nodes, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { 'n8n-nodes-payment-gateway': 'file:../../../gone/n8n-nodes-payment-gateway-0.0.9.tgz' } }));
		const installed = () => JSON.parse(readFileSync(path.join(nodes, 'node_modules', 'n8n-nodes-payment-gateway', 'package.json'), 'utf8')).version;
		for (const version of ['0.1.0', '0.1.1']) {
			const given = tarball(folder, `n8n-nodes-payment-gateway-${version}.tgz`, version);
			const run = sh('docker/install-package.sh', [given, nodes], folder);
			expect([run.status, run.stderr]).toEqual([0, '']);
			rmSync(given);
			expect(installed()).toBe(version);
		}
		expect(JSON.parse(readFileSync(path.join(nodes, 'package.json'), 'utf8')).dependencies).toEqual({ 'n8n-nodes-payment-gateway': 'file:n8n-nodes-payment-gateway.tgz' });
		// As n8n installs another community package there, offline: the package installed stays, from the kept tarball.
		rmSync(path.join(nodes, 'node_modules'), { recursive: true });
		const later = spawnSync('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: nodes, encoding: 'utf8' });
		expect([later.status, later.stderr]).toEqual([0, '']);
		expect(installed()).toBe('0.1.1');
	});
});

describe('line endings', () => {
	const scripts = ['docker/entrypoint.sh', 'docker/install-package.sh', 'docker/keep-tarball.sh', 'e2e/install-n8n.sh', 'e2e/lib/progress.sh', '.ci/run'];

	it('every checkout, Windows included, writes the shell scripts with LF (.gitattributes), as they are stored', () => {
		const attributes = execFileSync('git', ['check-attr', 'eol', '--', ...scripts], { cwd: root, encoding: 'utf8' });
		expect(attributes.trim().split('\n')).toEqual(scripts.map((script) => `${script}: eol: lf`));
		for (const script of scripts) expect(read(script)).not.toContain('\r');
	});
});
