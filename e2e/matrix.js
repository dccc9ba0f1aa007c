'use strict';

// The compatibility matrix: the same real-n8n checks on each n8n version the package claims. `npm run e2e:matrix`.
//
//   node e2e/matrix.js [version ...]     only these versions (default: e2e/n8n/ and every e2e/n8n-versions/<version>)
//   --checks=e2e,e2e:trigger              other checks (default: e2e, e2e:trigger, e2e:examples, e2e:agent)
//   --report                              the table again from <work>/matrix/ (results.json and the logs), running nothing
//
// For each version: installs it (e2e/install-n8n.sh with E2E_N8N_VERSION), runs each check as `npm run <check>` with
// E2E_N8N_VERSION set, keeps each log in <work>/matrix/, and reads node:test's closing counts ("# pass N",
// "# fail N"). Prints the results as the compatibility table of docs/compatibility.md (Markdown) and writes it with the counts to
// <work>/matrix/results.json. Exits non-zero when any check failed.

const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

const { DEFAULT_N8N_VERSION: DEFAULT_VERSION, n8nInstallOf, paths } = require('./lib/package');
const { mustRun, run } = require('./lib/processes');

const OUT = path.join(paths.WORK, 'matrix');
const { values: options, positionals } = parseArgs({
	allowPositionals: true,
	options: { report: { type: 'boolean' }, checks: { type: 'string', default: 'e2e,e2e:trigger,e2e:examples,e2e:agent' } },
});
const CHECKS = options.checks.split(',');
const versions = positionals.length ? positionals : [DEFAULT_VERSION, ...fs.readdirSync(path.join(__dirname, 'n8n-versions'))].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));

/** node:test's closing counts in a check's output (summed over its scripts), or null when it printed none (it was stopped). */
function closingCounts(output) {
	const count = (name) => [...output.matchAll(new RegExp(`^[#ℹ] ${name} (\\d+)$`, 'gm'))].reduce((sum, match) => sum + Number(match[1]), 0);
	if (!/^[#ℹ] pass \d+$/m.test(output)) return null;
	return { passed: count('pass'), failed: count('fail') + count('cancelled') };
}

/**
 * The node types and versions of examples/support-agent.json (what e2e:agent runs) that this n8n install lacks:
 * e2e:agent runs only "where the AI Agent supports it".
 */
function missingForAgent(n8nDir) {
	const known = new Set();
	for (const pkg of ['n8n-nodes-base', '@n8n/n8n-nodes-langchain']) {
		const types = require(path.join(n8nDir, 'node_modules', pkg, 'dist', 'types', 'nodes.json'));
		for (const type of types) for (const version of [type.version].flat()) known.add(`${pkg}.${type.name}@${version}`);
	}
	const example = require('../examples/support-agent.json');
	const used = example.nodes.filter((node) => !node.type.startsWith('n8n-nodes-payment-gateway.'));
	// n8n derives a node's tool variants (`…Tool`, the human review's `…HitlTool`) from the node at start-up.
	const base = (type) => type.replace(/(HitlTool|Tool)$/, '');
	const missing = used.filter((node) => !known.has(`${node.type}@${node.typeVersion}`) && !known.has(`${base(node.type)}@${node.typeVersion}`));
	return [...new Set(missing.map((node) => `${node.type}@${node.typeVersion}`))];
}

const logFileOf = (version, check) => path.join(OUT, `${version}-${check.replace(':', '-')}.log`);

function printTable(rows) {
	const cell = (result) =>
		!result
			? 'not run'
			: result.ok === null
				? result.note
				: `${result.ok ? 'pass' : '**fail**'}${result.passed != null ? ` (${result.passed}/${result.passed + result.failed})` : ''}${result.note ? `: ${result.note}` : ''}`;
	console.log(`\n| n8n | Node.js | ${CHECKS.map((c) => `\`npm run ${c}\``).join(' | ')} | date |`);
	console.log(`|---|---|${CHECKS.map(() => '---|').join('')}---|`);
	for (const row of rows) console.log(`| ${row.version} | ${row.node ?? '?'} | ${CHECKS.map((c) => cell(row.checks[c])).join(' | ')} | ${row.date} |`);
}

/** --report: the counts read again from the kept logs. */
function report() {
	const rows = JSON.parse(fs.readFileSync(path.join(OUT, 'results.json'), 'utf8'));
	for (const row of rows) {
		for (const [check, result] of Object.entries(row.checks)) {
			if (result.ok !== null && fs.existsSync(logFileOf(row.version, check))) {
				Object.assign(result, closingCounts(fs.readFileSync(logFileOf(row.version, check), 'utf8')));
			}
		}
	}
	printTable(rows);
	return 0;
}

async function main() {
	fs.mkdirSync(OUT, { recursive: true });
	await mustRun('built the package (npm run build)', 'npm', ['run', 'build'], { cwd: paths.ROOT, inherit: true });
	const date = new Date().toISOString().slice(0, 10);
	const rows = [];
	for (const version of versions) {
		const env = { ...process.env, E2E_N8N_VERSION: version, E2E_SKIP_BUILD: '1' };
		console.log(`\n=== n8n ${version}: install`);
		const installed = await run('bash', [path.join(__dirname, 'install-n8n.sh')], { cwd: paths.ROOT, env, inherit: true });
		const row = { version, node: null, date, checks: {} };
		rows.push(row);
		if (installed.code !== 0) {
			for (const check of CHECKS) row.checks[check] = { ok: false, note: 'n8n did not install' };
			continue;
		}
		const { dir, node } = n8nInstallOf(version);
		row.node = (await run(node, ['-v'])).stdout.trim();
		for (const check of CHECKS) {
			const missing = check === 'e2e:agent' ? missingForAgent(dir) : [];
			if (missing.length) {
				row.checks[check] = { ok: null, note: `not supported: this n8n has no ${missing.join(', ')}` };
				console.log(`\n=== n8n ${version}: npm run ${check} not run, ${row.checks[check].note}`);
				continue;
			}
			console.log(`\n=== n8n ${version} (Node ${row.node}): npm run ${check}`);
			const started = Date.now();
			const result = await run('npm', ['run', check], { cwd: paths.ROOT, env: { ...env, E2E_SKIP_INSTALL: '1' } });
			const output = result.stdout + result.stderr;
			const logFile = logFileOf(version, check);
			fs.writeFileSync(logFile, output);
			const counts = closingCounts(result.stdout);
			row.checks[check] = { ok: result.code === 0, ...counts, seconds: Math.round((Date.now() - started) / 1000) };
			// Failed tests and the counts, as TAP (older Node.js writing to a pipe) or the spec reporter print them.
			console.log(output.split('\n').filter((line) => /^(not ok \d|✖ |[#ℹ] (pass|fail|cancelled) \d)/.test(line)).join('\n'));
			console.log(`=== ${result.code === 0 ? 'passed' : 'FAILED'} (log: ${logFile})`);
		}
	}
	fs.writeFileSync(path.join(OUT, 'results.json'), JSON.stringify(rows, null, 2) + '\n');
	printTable(rows);
	return rows.every((row) => CHECKS.every((c) => row.checks[c].ok !== false)) ? 0 : 1;
}

// A failure ends the process as an unhandled rejection: its stack printed, exit code 1.
(options.report ? Promise.resolve(report()) : main()).then((code) => process.exit(code));
