// Lint for what n8n loads: credentials/, nodes/ and package.json.
//
// The rule sets are the ones n8n applies to community packages, composed the
// way `@n8n/node-cli` (`n8n-node lint`) and `@n8n/scan-community-package` do:
// - `@n8n/eslint-plugin-community-nodes` recommended (the n8n Cloud set: no
//   restricted globals such as setTimeout/process, no imports outside the
//   allow-list, icons, credential test, usableAsTool, package.json checks, ...);
// - `eslint-plugin-n8n-nodes-base` `community` on package.json, `credentials`
//   on credentials/ and `nodes` on nodes/, with the same few rules switched
//   off as n8n's own scanner switches off;
// - `no-console`.
//
// The scanner ignores inline `eslint-disable` comments, and so does this
// config: fix errors rather than silencing them. After a build,
// `npx eslint dist` checks the compiled output the way the scanner checks the
// published tarball.
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tsParser from '@typescript-eslint/parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import { defineConfig } from 'eslint/config';

const community = n8nCommunityNodesPlugin.configs.recommended;

// The files n8n's scanner reads from the source tree, plus the compiled output.
const shippedSources = [
	'package.json',
	'credentials/**/*.{ts,js,json}',
	'nodes/**/*.{ts,js,json}',
	'dist/**/*.js',
];

export default defineConfig(
	{
		ignores: ['node_modules/**', 'package-lock.json'],
	},

	// Like the scanner: `eslint-disable` comments do not switch rules off.
	{
		linterOptions: { noInlineConfig: true },
	},

	// The community rules read TypeScript syntax trees; package.json and the
	// codex files are parsed as a single object-literal expression, as n8n does.
	{
		files: shippedSources,
		languageOptions: {
			parser: tsParser,
			parserOptions: { extraFileExtensions: ['.json'] },
		},
	},

	{
		files: shippedSources,
		plugins: {
			...community.plugins,
			'n8n-nodes-base': n8nNodesBase,
		},
		rules: {
			...community.rules,
			'no-console': 'error',
		},
	},

	{
		files: ['package.json'],
		rules: { ...n8nNodesBase.configs.community.rules },
	},

	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// Community credentials link to a full documentation URL, which this
			// rule (written for n8n's own docs slugs) would call miscased.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			// Superseded by @n8n/community-nodes/credential-password-field.
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},

	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// Inputs and outputs are NodeConnectionTypes.Main, not the string 'main'.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			// A gateway limit is a real maximum, so maxValue is allowed.
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
);
