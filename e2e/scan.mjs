// n8n's community-package scan, offline: `npm run scan`. The scanner's CLI downloads the published package and the
// source its npm provenance points at; its exported `analyzePackage(dir, patterns)` lints a local folder with exactly
// the scan's rules. So: the scanner as e2e/scanner/package-lock.json pins it (in <work>/scanner/), the source scanned
// with its SOURCE_FILE_PATTERNS, then the package built and packed as the end-to-end checks do (E2E_SKIP_BUILD=1
// skips the build), the tarball's files checked, and the extracted tarball scanned as the scan reads a package
// (index.js linted too). Every error and warning is printed.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const { story } = require('./lib/check');
const { buildAndPack, paths } = require('./lib/package');
const { mustRun, onCleanUp } = require('./lib/processes');

const ROOT = paths.ROOT;
const SRC = path.join(ROOT, 'e2e', 'scanner');
const DEST = path.join(paths.WORK, 'scanner');
const requireFromScanner = createRequire(path.join(DEST, 'package.json'));
const TARBALL_PATTERNS = ['**/*.js', 'package.json'];
const s = {};
const { step, check, log } = story('scan');

/** 1. The scanner, as pinned; `--ignore-scripts` because its package-manager guard runs at install. */
async function installScanner() {
	const files = ['package.json', 'package-lock.json'];
	const sum = createHash('sha256').update(files.map((file) => fs.readFileSync(path.join(SRC, file))).join('\0')).digest('hex');
	const stamp = path.join(DEST, '.stamp-install');
	const installed = path.join(DEST, 'node_modules', '@n8n', 'scan-community-package', 'package.json');
	if (fs.existsSync(installed) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === sum) return log('scanner already installed from the same lockfile');
	fs.mkdirSync(DEST, { recursive: true });
	fs.rmSync(stamp, { force: true });
	for (const file of files) fs.copyFileSync(path.join(SRC, file), path.join(DEST, file));
	const install = ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'];
	await mustRun(`installed @n8n/scan-community-package in ${DEST}`, 'npm', install, { cwd: DEST, log });
	fs.writeFileSync(stamp, `${sum}\n`);
}

/** The scanner's parser must get a TypeScript it can drive: 7.x (the native port) has no JS API and breaks it. */
function checkParserTypeScript() {
	const estree = requireFromScanner.resolve('@typescript-eslint/typescript-estree');
	const typescript = createRequire(estree)('typescript/package.json').version;
	const scanner = requireFromScanner('@n8n/scan-community-package/package.json').version;
	log(`@n8n/scan-community-package ${scanner}; its TypeScript parser uses typescript ${typescript}`);
	if (Number(typescript.split('.')[0]) >= 7) throw new Error(`typescript ${typescript} breaks @typescript-eslint's parser: pin an earlier one with "overrides" in e2e/scanner/package.json`);
}

/** Lints like `analyzePackage` (same config, options and files) but keeps the warnings: it says only whether there were errors. */
async function lintReport(scanner, dir, patterns) {
	const { ESLint } = await import(pathToFileURL(requireFromScanner.resolve('eslint')).href);
	const eslint = new ESLint({ cwd: dir, allowInlineConfig: false, overrideConfigFile: true, overrideConfig: await scanner.buildScanConfig() });
	const files = requireFromScanner('fast-glob').sync(patterns, { cwd: dir, absolute: true, ignore: ['node_modules/**', '**/package-lock.json'] });
	const results = await eslint.lintFiles(files);
	const count = (key) => results.reduce((sum, result) => sum + result[key], 0);
	const text = (await (await eslint.loadFormatter('stylish')).format(results)).trim();
	return { files: files.length, errors: count('errorCount'), warnings: count('warningCount'), text };
}

/** The scan of one folder: analyzePackage's verdict, and every error and warning printed. */
async function assertScanPasses(dir, patterns) {
	const verdict = await s.scanner.analyzePackage(dir, patterns);
	const report = await lintReport(s.scanner, dir, patterns);
	log(`${report.files} files, ${report.errors} errors, ${report.warnings} warnings (analyzePackage: ${verdict.passed ? 'passed' : `failed: ${verdict.message}`})`);
	if (report.text) console.log(report.text.replaceAll(ROOT + path.sep, '').replace(/^(?=.)/gm, '  '));
	assert.ok(report.files > 0, 'no files matched: nothing was scanned');
	assert.equal(report.errors, 0);
	assert.ok(verdict.passed, verdict.message);
}

step('the scanner installed as e2e/scanner pins it, with a TypeScript its parser can drive', async () => {
	await installScanner();
	checkParserTypeScript();
	s.work = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-scan-'));
	onCleanUp(() => fs.rmSync(s.work, { recursive: true, force: true }));
	// The scanner makes a temporary folder when loaded: keep it inside ours.
	process.env.TMPDIR = s.work;
	s.scanner = await import(pathToFileURL(path.join(DEST, 'node_modules', '@n8n', 'scan-community-package', 'scanner', 'scanner.mjs')).href);
});

check('the source (package.json, nodes/, credentials/) passes the scan', () => assertScanPasses(ROOT, s.scanner.SOURCE_FILE_PATTERNS));

step('built and packed (npm pack), the tarball extracted', async () => {
	s.packed = await buildAndPack(s.work, { log });
	s.extracted = path.join(s.work, 'package');
	fs.mkdirSync(s.extracted);
	await mustRun(`extracted ${s.packed.filename}`, 'tar', ['-xzf', s.packed.tarball, '-C', s.extracted, '--strip-components=1'], { log });
});

check('the tarball holds dist/, index.js (package.json\'s "main"), package.json, README and LICENSE, nothing else', () => {
	const { files } = s.packed;
	const license = (file) => /^LICEN[CS]E(\.md|\.txt)?$/i.test(file);
	const readme = (file) => /^README(\.md)?$/i.test(file);
	const allowed = (file) => file === 'package.json' || file === 'index.js' || file.startsWith('dist/') || readme(file) || license(file);
	assert.deepEqual(files.filter((file) => !allowed(file)), [], 'unexpected files');
	assert.ok(files.some(license) && files.some(readme) && files.includes('index.js'), 'LICENSE, README and index.js');
	const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	assert.deepEqual([...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])].filter((entry) => !files.includes(entry)), [], 'listed in "n8n" but not packed');
	assert.equal(pkg.main, 'index.js');
});

check(`the extracted tarball passes the scan (${TARBALL_PATTERNS.join(', ')}, as the scan reads a package)`, () => assertScanPasses(s.extracted, TARBALL_PATTERNS));
