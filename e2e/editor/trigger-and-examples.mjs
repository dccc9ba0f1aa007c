// The editor check's trigger panel and example workflows: the Payment Gateway Trigger added from the node creator
// (its notice and production URL shown), and every file of examples/ imported with the editor's "Import from File".
import path from 'node:path';
import { createRequire } from 'node:module';

import * as editor from './page.mjs';

const require = createRequire(import.meta.url);
const { EXAMPLES_DIR, EXAMPLE_CREDENTIAL_NAME, loadExamples } = require('../lib/examples');
const { waitUntil } = require('../lib/processes');

const TRIGGER_ACTION = 'On new Payment Gateway event';
const NOTICE = /Give the gateway the Production URL above as your notification \(webhook\) URL/;
/** The example pictured on the canvas (docs/screenshots/example-<name>.png). */
export const PICTURED_EXAMPLE = 'notifications';

/**
 * The trigger's parameter panel on a new workflow: the notice, and the production URL once "Production URL" is
 * chosen in its Webhook URLs. `shot(page, file)` takes the screenshot.
 */
export async function checkTriggerPanel(page, { check, must }, shot, serverUrl) {
	await editor.openNewWorkflow(page);
	const added = await editor.addNodeAction(page, 'Payment Gateway', TRIGGER_ACTION);
	must(added.actionFound && Boolean(added.ndv), `node creator offers the trigger ("${TRIGGER_ACTION}") and opens its panel`);
	const parameters = added.ndv.getByTestId('node-parameters');
	await parameters.waitFor({ state: 'visible' });
	check(await editor.isShown(parameters.getByText(NOTICE)), 'trigger panel shows the notice on where to register the URL');

	const urls = parameters.getByText('Webhook URLs');
	await urls.click();
	await parameters.getByTestId('radio-button-production').click();
	const url = ((await parameters.locator('.webhook-url').first().textContent().catch(() => '')) ?? '').trim();
	check(
		new RegExp(`^${serverUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/webhook/[0-9a-f-]{36}/webhook$`).test(url),
		'trigger panel shows the production URL (/webhook/<webhook id>/webhook)',
		`shows "${url}"`,
	);
	const method = ((await parameters.locator('.http-method').first().textContent().catch(() => '')) ?? '').trim();
	check(method === 'POST', 'the trigger listens for POST', `shows "${method}"`);
	await shot(page, 'trigger.png');
	await added.ndv.getByTestId('ndv-close-button').click();
}

/** The toasts n8n shows, as { kind, text }. */
async function toasts(page) {
	const found = [];
	for (const toast of await page.locator('.el-notification').all()) {
		const kind = (await toast.getAttribute('class')) ?? '';
		found.push({ kind, text: ((await toast.textContent()) ?? '').trim().replace(/\s+/g, ' ') });
	}
	return found;
}

/** Imports an example into a new workflow with "Import from File"; resolves with what the canvas shows. */
async function importExample(page, name, workflow) {
	await editor.openNewWorkflow(page);
	await page.getByTestId('workflow-import-input').setInputFiles(path.join(EXAMPLES_DIR, `${name}.json`));
	// Sticky notes are drawn apart from the nodes.
	const expected = workflow.nodes.filter((node) => node.type !== 'n8n-nodes-base.stickyNote').length;
	const nodes = page.getByTestId('canvas-node');
	await waitUntil(async () => (await nodes.count()) >= expected, { timeoutMs: 15_000 });
	// Issues are computed once the nodes are on the canvas; give them a moment to show.
	await page.waitForTimeout(1000);
	return {
		expected,
		nodes: await nodes.count(),
		stickies: await page.getByTestId('sticky').count(),
		issues: await page.getByTestId('node-issues').count(),
		complaints: (await toasts(page)).filter((toast) => /error|warning/.test(toast.kind)).map((toast) => toast.text),
	};
}

/**
 * With no Payment Gateway credential at all, an imported example shows node issues (which proves the check below
 * can see them). The credentials stored so far are deleted first: the editor would give an imported node the most
 * recently updated credential of its type.
 */
export async function checkExampleWithoutCredential(page, session, { check, must }) {
	for (const credential of await session.data('GET', '/rest/credentials')) {
		if (credential.type === 'paymentGatewayApi') await session.data('DELETE', `/rest/credentials/${credential.id}`);
	}
	const left = (await session.data('GET', '/rest/credentials')).filter((credential) => credential.type === 'paymentGatewayApi');
	must(left.length === 0, 'the Payment Gateway credentials made so far deleted through the REST API', `${left.length} left`);
	const shown = await importExample(page, PICTURED_EXAMPLE, loadExamples()[PICTURED_EXAMPLE]);
	check(shown.issues > 0, `without a Payment Gateway credential, examples/${PICTURED_EXAMPLE}.json shows node issues`, `${shown.issues} issues`);
}

/**
 * The other credential an example names: support-agent.json's OpenAI Chat Model refers to "OpenAI account", which
 * examples/README.md asks users to create. Its values are never used (nothing runs here).
 */
export async function storeModelCredential(session, { must }) {
	const data = { apiKey: 'editor-check-placeholder', url: 'http://127.0.0.1:9/v1' };
	const stored = await session.call('POST', '/rest/credentials', { name: 'OpenAI account', type: 'openAiApi', data });
	must(stored.status === 200, 'credential "OpenAI account" (openAiApi) stored through POST /rest/credentials', `HTTP ${stored.status}`);
}

/**
 * Every example imported into a new workflow through the editor's "Import from File" (its file input): all nodes
 * and the note on the canvas, none with issues (the credential found by name), no warning or error toast.
 */
export async function checkExampleImports(page, { check }, shot) {
	for (const [name, workflow] of Object.entries(loadExamples())) {
		const shown = await importExample(page, name, workflow);
		check(
			shown.nodes === shown.expected && shown.stickies === 1 && shown.issues === 0 && shown.complaints.length === 0,
			`examples/${name}.json imports from file: ${shown.expected} nodes and the note on the canvas, none with issues, no warning`,
			`${shown.nodes} nodes, ${shown.stickies} notes, ${shown.issues} with issues${shown.complaints.length ? `, toasts: ${shown.complaints.join(' | ')}` : ''}`,
		);
		if (name === PICTURED_EXAMPLE) {
			await page.getByTestId('zoom-to-fit').click();
			await shot(page, `example-${name}.png`);
		}
	}
}

/**
 * The examples as n8n stored the imports (the editor saves them under ids of its own), for the leak search: what an
 * example's own parameters hold (the test card in a note) is allowed where the example put it.
 */
export async function storedExamples(session) {
	const byName = new Map(Object.values(loadExamples()).map((workflow) => [workflow.name, workflow]));
	const stored = await session.data('GET', '/rest/workflows');
	return stored.filter((workflow) => byName.has(workflow.name)).map((workflow) => ({ ...byName.get(workflow.name), id: workflow.id }));
}
