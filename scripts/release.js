'use strict';

// `npm run release -- <patch|minor|major|x.y.z>`: the release commit and its tag.
//
//   1. refuses unless the work tree is clean and CHANGELOG.md says something under [Unreleased];
//   2. lints and builds, as n8n's `n8n-node release` does before it bumps;
//   3. bumps package.json and package-lock.json (`npm version --no-git-tag-version`);
//   4. turns [Unreleased] into [x.y.z] - <date> under a new, empty [Unreleased], with its compare link;
//   5. commits "Release x.y.z" and tags vx.y.z.
//
// It pushes nothing: `git push --follow-tags` then makes GitHub Actions publish the tag
// (.github/workflows/publish.yml). npm's own version and publish hooks (preversion, version,
// prepublishOnly, ...) cannot do this here: .npmrc sets ignore-scripts, so npm skips them.

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const CHANGELOG = 'CHANGELOG.md';
const UNRELEASED = '## [Unreleased]';

const UNRELEASED_LINK = /^\[Unreleased\]: (\S+)\/compare\/(\S+)\.\.\.HEAD$/m;

/** Where [Unreleased]'s text begins, the repository and the previous tag; throws when there is nothing to release. */
function readChangelog(text) {
	const start = text.indexOf(UNRELEASED);
	if (start === -1) throw new Error(`${CHANGELOG} has no "${UNRELEASED}" section`);
	const bodyStart = start + UNRELEASED.length;
	const next = text.indexOf('\n## [', bodyStart);
	if (text.slice(bodyStart, next === -1 ? text.length : next).trim() === '') {
		throw new Error(`nothing under "${UNRELEASED}" in ${CHANGELOG}: say what the release changes first`);
	}
	const link = text.match(UNRELEASED_LINK);
	if (!link) throw new Error(`${CHANGELOG} has no "[Unreleased]: <repository>/compare/<tag>...HEAD" link`);
	return { bodyStart, repository: link[1], previousTag: link[2] };
}

/** CHANGELOG.md text with [Unreleased] released as `version` on `date` (YYYY-MM-DD). */
function releaseChangelog(text, version, date) {
	const { bodyStart, repository, previousTag } = readChangelog(text);
	if (text.includes(`## [${version}]`)) throw new Error(`${CHANGELOG} already has a section for ${version}`);
	return `${text.slice(0, bodyStart)}\n\n## [${version}] - ${date}${text.slice(bodyStart)}`.replace(
		UNRELEASED_LINK,
		`[Unreleased]: ${repository}/compare/v${version}...HEAD\n` +
			`[${version}]: ${repository}/compare/${previousTag}...v${version}`,
	);
}

function run(command, args, options = {}) {
	const output = execFileSync(command, args, { cwd: ROOT, encoding: 'utf8', stdio: 'pipe', ...options });
	return (output ?? '').trim();
}

function main(args) {
	if (args.length !== 1) throw new Error('usage: npm run release -- <patch|minor|major|x.y.z>');
	if (run('git', ['status', '--porcelain']) !== '') throw new Error('the work tree has uncommitted changes');
	const changelogPath = path.join(ROOT, CHANGELOG);
	const changelog = fs.readFileSync(changelogPath, 'utf8');
	readChangelog(changelog);

	for (const script of ['lint', 'build']) run('npm', ['run', script], { stdio: 'inherit' });

	const version = run('npm', ['version', args[0], '--no-git-tag-version']).replace(/^v/, '');
	const date = new Date().toISOString().slice(0, 10);
	try {
		fs.writeFileSync(changelogPath, releaseChangelog(changelog, version, date));
	} catch (error) {
		run('git', ['checkout', '--', 'package.json', 'package-lock.json']);
		throw error;
	}

	run('git', ['add', 'package.json', 'package-lock.json', CHANGELOG]);
	run('git', ['commit', '-m', `Release ${version}`]);
	run('git', ['tag', '-a', `v${version}`, '-m', `Release ${version}`]);
	console.log(`release: committed and tagged v${version}; publish it with: git push --follow-tags`);
}

module.exports = { releaseChangelog };

if (require.main === module) {
	try {
		main(process.argv.slice(2));
	} catch (error) {
		console.error(`release: ${error.message}`);
		process.exitCode = 1;
	}
}
