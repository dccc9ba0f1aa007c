// n8n's community-package scan, offline: `npm run scan`.
//
// n8n vets community packages with @n8n/scan-community-package. Its CLI
// downloads the published package and the source its npm provenance points
// at, which needs the internet; its exported `analyzePackage(dir, patterns)`
// lints a local folder with exactly the scan's rules. This script:
//
//   1. installs the scanner pinned by e2e/scanner/package-lock.json into
//      .e2e/scanner/ (skipped when already installed from the same lockfile);
//   2. scans the source tree with the scanner's SOURCE_FILE_PATTERNS;
//   3. builds and packs the package as the end-to-end checks do
//      (e2e/lib/package.js; SCAN_SKIP_BUILD=1 skips the build), checks that
//      the tarball holds only dist/, index.js (package.json's "main"),
//      package.json, README and LICENSE, and scans the extracted tarball with
//      ['**/*.js', 'package.json'], as the scan does (so index.js is linted
//      too);
//   4. prints every error and warning; exits non-zero on any error.

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const { buildAndPack, paths } = require('./lib/package');
const { mustRun, runCheck, seconds } = require('./lib/processes');

const ROOT = paths.ROOT;
const SRC = path.join(ROOT, 'e2e', 'scanner');
const DEST = path.join(ROOT, '.e2e', 'scanner');
const TARBALL_PATTERNS = ['**/*.js', 'package.json'];
const started = Date.now();
const log = (message) => console.log(`scan: ${message}`);
const run = (what, command, args, cwd = ROOT) => mustRun(what, command, args, { cwd, log });

/** 1. The scanner, as pinned; `--ignore-scripts` because its package-manager guard runs at install. */
async function installScanner() {
	const files = ['package.json', 'package-lock.json'];
	const sum = createHash('sha256')
		.update(files.map((file) => fs.readFileSync(path.join(SRC, file))).join('\0'))
		.digest('hex');
	const stamp = path.join(DEST, '.stamp-install');
	const installed = path.join(DEST, 'node_modules', '@n8n', 'scan-community-package', 'package.json');
	if (fs.existsSync(installed) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === sum) {
		log('scanner already installed from the same lockfile');
		return;
	}
	fs.mkdirSync(DEST, { recursive: true });
	fs.rmSync(stamp, { force: true });
	for (const file of files) fs.copyFileSync(path.join(SRC, file), path.join(DEST, file));
	await run('installed @n8n/scan-community-package in .e2e/scanner', 'npm', [
		'install',
		'--ignore-scripts',
		'--no-audit',
		'--no-fund',
		'--loglevel=error',
	], DEST);
	fs.writeFileSync(stamp, `${sum}\n`);
}

/** The scanner's parser must get a TypeScript it can drive: 7.x (the native port) has no JS API and breaks it. */
function checkParserTypeScript() {
	const requireFromScanner = createRequire(path.join(DEST, 'package.json'));
	const estree = requireFromScanner.resolve('@typescript-eslint/typescript-estree');
	const typescript = createRequire(estree)('typescript/package.json').version;
	const scanner = requireFromScanner('@n8n/scan-community-package/package.json').version;
	log(`@n8n/scan-community-package ${scanner}; its TypeScript parser uses typescript ${typescript}`);
	if (Number(typescript.split('.')[0]) >= 7) {
		throw new Error(
			`typescript ${typescript} breaks @typescript-eslint's parser: pin an earlier one with "overrides" in e2e/scanner/package.json`,
		);
	}
}

/**
 * Lints like `analyzePackage` (same config, options and file selection) but keeps
 * the warnings too: `analyzePackage` reports only whether there were errors.
 */
async function lintReport(scanner, dir, patterns) {
	const requireFromScanner = createRequire(path.join(DEST, 'package.json'));
	const { ESLint } = await import(pathToFileURL(requireFromScanner.resolve('eslint')).href);
	const glob = requireFromScanner('fast-glob');
	const eslint = new ESLint({
		cwd: dir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: await scanner.buildScanConfig(),
	});
	const files = glob.sync(patterns, { cwd: dir, absolute: true, ignore: ['node_modules/**', '**/package-lock.json'] });
	const results = await eslint.lintFiles(files);
	const formatter = await eslint.loadFormatter('stylish');
	return {
		files: files.length,
		errors: results.reduce((sum, r) => sum + r.errorCount, 0),
		warnings: results.reduce((sum, r) => sum + r.warningCount, 0),
		text: (await formatter.format(results)).trim(),
	};
}

async function scan(scanner, label, dir, patterns) {
	const since = Date.now();
	const verdict = await scanner.analyzePackage(dir, patterns);
	const report = await lintReport(scanner, dir, patterns);
	const ok = verdict.passed && report.errors === 0 && report.files > 0;
	console.log(
		`\n${ok ? 'PASS' : 'FAIL'} ${label}: ${report.files} files, ${report.errors} errors, ${report.warnings} warnings` +
			` (analyzePackage: ${verdict.passed ? 'passed' : `failed: ${verdict.message}`}) (${seconds(since)})`,
	);
	if (report.files === 0) console.log('  no files matched: nothing was scanned');
	if (report.text) console.log(report.text.replaceAll(ROOT + path.sep, '').replace(/^(?=.)/gm, '  '));
	return ok;
}

/** The published tarball holds what n8n needs, the entry point and the usual package files, nothing else. */
function checkTarballFiles(files) {
	const allowed = (file) =>
		file === 'package.json' ||
		file === 'index.js' ||
		file.startsWith('dist/') ||
		/^README(\.md)?$/i.test(file) ||
		/^LICEN[CS]E(\.md|\.txt)?$/i.test(file);
	const unexpected = files.filter((file) => !allowed(file));
	const problems = unexpected.map((file) => `unexpected file in the tarball: ${file}`);
	if (!files.some((file) => /^LICEN[CS]E(\.md|\.txt)?$/i.test(file))) problems.push('the tarball has no LICENSE');
	if (!files.some((file) => /^README(\.md)?$/i.test(file))) problems.push('the tarball has no README');
	const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	for (const entry of [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])]) {
		if (!files.includes(entry)) problems.push(`package.json "n8n" lists ${entry}, which is not in the tarball`);
	}
	if (pkg.main !== 'index.js') problems.push(`package.json "main" is ${pkg.main ?? 'missing'}, not index.js`);
	if (!files.includes('index.js')) problems.push('the tarball has no index.js');
	const ok = problems.length === 0;
	console.log(`\n${ok ? 'PASS' : 'FAIL'} tarball contents: ${files.length} files`);
	for (const problem of problems) console.log(`  ${problem}`);
	return ok;
}

async function main() {
	await installScanner();
	checkParserTypeScript();

	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-scan-'));
	// The scanner makes a temporary folder when loaded: keep it inside ours.
	process.env.TMPDIR = work;
	try {
		const scanner = await import(
			pathToFileURL(path.join(DEST, 'node_modules', '@n8n', 'scan-community-package', 'scanner', 'scanner.mjs')).href
		);
		const results = [];
		results.push(await scan(scanner, 'source (package.json, nodes/, credentials/)', ROOT, scanner.SOURCE_FILE_PATTERNS));

		const { tarball, filename, files } = await buildAndPack(work, { build: process.env.SCAN_SKIP_BUILD !== '1', log });
		const extracted = path.join(work, 'package');
		fs.mkdirSync(extracted);
		await run(`extracted ${filename}`, 'tar', ['-xzf', tarball, '-C', extracted, '--strip-components=1']);
		results.push(checkTarballFiles(files));
		results.push(await scan(scanner, `tarball ${filename} (${TARBALL_PATTERNS.join(', ')})`, extracted, TARBALL_PATTERNS));

		const failed = results.filter((ok) => !ok).length;
		console.log(`\nscan: ${failed ? `FAILED (${failed} of ${results.length} checks)` : 'all checks passed'} (total ${seconds(started)})`);
		return failed ? 1 : 0;
	} finally {
		fs.rmSync(work, { recursive: true, force: true });
	}
}

runCheck(main, { onError: (error) => console.error(`\nscan: ERROR ${error.message}`) });
