/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
// `npm run release` (scripts/release.js): how it turns CHANGELOG.md's [Unreleased] into a release.
import fs from 'node:fs';
import path from 'node:path';

import { releaseChangelog } from '../../scripts/release';

const REPO = 'https://github.com/n8n-nodes-payment-gateway/n8n-nodes-payment-gateway';
const changelog = fs.readFileSync(path.resolve(__dirname, '..', '..', 'CHANGELOG.md'), 'utf8');

// The sections of a sample changelog: what is unreleased, and the one release before it.
const ADDED = '### Added\n\n- Refunds.\n';
const FIRST_RELEASE = '## [0.1.0] - 2026-11-22\n\n- First release.\n';
const sample = ['# Changelog', '', '## [Unreleased]', '', ADDED, FIRST_RELEASE, `[Unreleased]: ${REPO}/compare/v0.1.0...HEAD`, `[0.1.0]: ${REPO}/releases/tag/v0.1.0`, ''].join('\n');

test('the project changelog has an [Unreleased] section and its compare link, so it can be released', () => {
	const released = releaseChangelog(changelog, '9.9.9', '2030-01-01');
	expect(released).toContain('## [Unreleased]\n\n## [9.9.9] - 2030-01-01\n');
	expect(released).toContain(`[Unreleased]: ${REPO}/compare/v9.9.9...HEAD\n[9.9.9]: ${REPO}/compare/v0.1.0...v9.9.9\n`);
});

test('[Unreleased] becomes the dated version under a new, empty [Unreleased], with compare links', () => {
	expect(releaseChangelog(sample, '0.2.0', '2026-12-01')).toBe(
		[
			'# Changelog',
			'',
			'## [Unreleased]',
			'',
			'## [0.2.0] - 2026-12-01',
			'',
			ADDED,
			FIRST_RELEASE,
			`[Unreleased]: ${REPO}/compare/v0.2.0...HEAD`,
			`[0.2.0]: ${REPO}/compare/v0.1.0...v0.2.0`,
			`[0.1.0]: ${REPO}/releases/tag/v0.1.0`,
			'',
		].join('\n'),
	);
});

test('refuses a release with nothing under [Unreleased], a version released before, or no compare link', () => {
	const empty = sample.replace('### Added\n\n- Refunds.\n\n', '');
	expect(() => releaseChangelog(empty, '0.2.0', '2026-12-01')).toThrow(/nothing under "## \[Unreleased\]"/);
	expect(() => releaseChangelog(sample, '0.1.0', '2026-12-01')).toThrow(/already has a section for 0\.1\.0/);
	const noLink = sample.replace(/^\[Unreleased\]:.*\n/m, '');
	expect(() => releaseChangelog(noLink, '0.2.0', '2026-12-01')).toThrow(/no "\[Unreleased\]: <repository>/);
});
