// Driving n8n's editor in headless Chromium (Debian's, installed when missing): the browser logged in as a REST
// session, finding parameters, adding a node, choosing options, the credential dialog. No checks here: these helpers
// answer what the page shows, the editor check judges it.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

import { chromium, selectors } from 'playwright-core';

const require = createRequire(import.meta.url);
const { aptInstall } = require('../lib/apt');

const CHROMIUM = process.env.EDITOR_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Chromium (installed when missing) and a page of it logged in as the REST session: its cookie, and the browser id
 * the cookie is bound to (localStorage's). Resolves with { browser, page }.
 */
export async function openEditor(session, { viewport, log }) {
	if (!existsSync(CHROMIUM)) await aptInstall('Chromium (Debian package)', ['chromium'], { log });
	// n8n's editor marks its elements with data-test-id.
	selectors.setTestIdAttribute('data-test-id');
	const args = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
	const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args });
	const context = await browser.newContext({ viewport, baseURL: session.url });
	// A page of n8n's editor loads in seconds on a quiet machine and took over 20 s on 2 cores at a load of 10: a limit for a hung page, not a speed check.
	context.setDefaultTimeout(60_000);
	await context.addCookies([session.cookie]);
	await context.addInitScript((id) => window.localStorage.setItem('n8n-browserId', id), session.browserId);
	return { browser, page: await context.newPage() };
}

/** Whether any element of the locator is visible. */
export const isShown = async (locator) => (await locator.filter({ visible: true }).count()) > 0;

/** Resolves true once the locator is visible within `timeout`, false otherwise. */
const appears = (locator, timeout = 15_000) => locator.waitFor({ state: 'visible', timeout }).then(() => true, () => false);
/** Waits until one of the locators is visible, or `timeout` passed. */
const oneAppears = (locators, timeout) => Promise.any(locators.map((locator) => locator.first().waitFor({ state: 'visible', timeout }))).catch(() => {});
/** The first element's text, spaces folded; '' when there is none. */
const textOf = async (locator) => ((await locator.count()) ? ((await locator.first().textContent()) ?? '').trim().replace(/\s+/g, ' ') : '');

const parameterInput = (scope, name) => scope.getByTestId(`parameter-input-${name}`);
const resourceLocator = (scope, name) => scope.getByTestId(`resource-locator-${name}`);

/**
 * The fields of [name, label] not as expected: of `shownFields`, input (a plain one, or a resource locator) and label
 * both visible; of `hiddenFields`, neither. Each gets up to 5 s first: inputs take a moment to render after a display
 * option changed.
 */
export async function parametersNotAsExpected(scope, shownFields, hiddenFields = []) {
	const wrong = [];
	for (const [name, label, shown] of [...shownFields.map((field) => [...field, true]), ...hiddenFields.map((field) => [...field, false])]) {
		const input = parameterInput(scope, name).or(resourceLocator(scope, name));
		await input.first().waitFor({ state: shown ? 'visible' : 'hidden', timeout: 5_000 }).catch(() => {});
		// Required fields carry a trailing "*" in the label.
		const labelText = scope.getByText(new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?\\s*$`));
		const state = { input: await isShown(input), label: await isShown(labelText) };
		if (shown ? !(state.input && state.label) : state.input || state.label) wrong.push(`${label} (${name}), ${shown ? 'not shown' : 'shown'}: input ${state.input}, label ${state.label}`);
	}
	return wrong;
}

/** The type attribute of a parameter's input ("password" when masked). */
export const inputType = (scope, name) => parameterInput(scope, name).locator('input').first().getAttribute('type').catch(() => null);

/** The option an options parameter shows as chosen. */
export async function selectedOptionText(scope, name) {
	const input = parameterInput(scope, name).locator('input').first();
	if ((await input.count()) === 0) return '';
	return (await input.inputValue().catch(() => '')) || (await input.getAttribute('placeholder')) || '';
}

/** Clicks what opens a list of options; resolves with the visible options once the first one shows. */
async function openOptions(page, opener) {
	await opener.click();
	const options = page.getByRole('option').filter({ visible: true });
	await options.first().waitFor({ state: 'visible' });
	return options;
}

/** Opens an options parameter's list and chooses the option showing `text`. */
export async function chooseOption(page, scope, name, text) {
	await (await openOptions(page, parameterInput(scope, name))).filter({ hasText: text }).first().click();
}

/** Opens an options parameter's list and returns the headlines of its options (the list stays open). */
export async function offeredOptions(page, scope, name) {
	const options = await openOptions(page, parameterInput(scope, name));
	const offered = await options.evaluateAll((elements) => elements.map((option) => (option.querySelector('.option-headline') ?? option).textContent.trim()));
	return { offered, options };
}

/** Clicks a plain parameter's input, as a user does (closing any open list), and types a value. */
export async function fillParameter(scope, name, value) {
	const input = parameterInput(scope, name).locator('input, textarea').first();
	await input.click();
	await input.fill(String(value));
}

/** The modes a resource locator offers, in order, and the one chosen (its mode list is closed again). */
export async function resourceLocatorModes(page, scope, name) {
	const selector = resourceLocator(scope, name).getByTestId('rlc-mode-selector');
	const chosen = await selector.locator('input').first().inputValue().catch(() => '');
	const options = await openOptions(page, selector);
	const offered = (await options.allTextContents()).map((text) => text.trim());
	await page.keyboard.press('Escape');
	await options.first().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => {});
	return { chosen, offered };
}

/** Opens a resource locator's list (it stays open): its entries, and its error view's text ("Could not load list" …). */
export async function openResourceList(page, scope, name) {
	await resourceLocator(scope, name).getByTestId('rlc-input').click();
	const items = page.getByTestId('rlc-item').filter({ visible: true });
	const error = page.getByTestId('rlc-error-container').filter({ visible: true });
	await oneAppears([items, error], 20_000);
	return { items: (await items.allTextContents()).map((text) => text.trim()), error: await textOf(error) };
}

/** Turns a node setting's switch on in the Settings tab (the tab stays shown); resolves with whether it is on. */
export async function turnOnNodeSetting(ndv, name) {
	await ndv.getByTestId('tab-settings').click();
	const toggle = parameterInput(ndv, name).locator('.el-switch').first();
	if (!(await toggle.evaluate((element) => element.classList.contains('is-checked')))) await toggle.click();
	// The switch is redrawn once n8n has stored the setting on the node.
	return parameterInput(ndv, name).locator('.el-switch.is-checked').first().waitFor({ timeout: 2000 }).then(() => true, () => false);
}

/** "Execute step" in the node's panel; resolves once the output shows the run: { error, description, hints, data }. */
export async function executeStep(ndv) {
	await ndv.getByTestId('node-execute-button').click();
	const output = ndv.getByTestId('output-panel');
	const data = output.getByTestId('ndv-data-container');
	await oneAppears([output.getByTestId('node-error-message'), data], 60_000);
	// Hints are drawn with the data.
	await output.getByTestId('node-hint').first().waitFor({ state: 'visible', timeout: 3_000 }).catch(() => {});
	return {
		error: await textOf(output.getByTestId('node-error-message')),
		description: await textOf(output.getByTestId('node-error-description')),
		hints: (await output.getByTestId('node-hint').allTextContents()).map((hint) => hint.trim().replace(/\s+/g, ' ')),
		data: await isShown(data),
	};
}

/** Opens a new workflow; resolves with the URL it ended on (the sign-in page when not logged in). */
export async function openNewWorkflow(page) {
	await page.goto('/workflow/new');
	await page.getByTestId('node-creator-plus-button').waitFor({ state: 'visible', timeout: 60_000 });
	// Closes pop-ups the editor may show on a first visit so that they do not cover the canvas.
	await page.keyboard.press('Escape').catch(() => {});
	return page.url();
}

/** Node creator: searches `nodeName`, picks the node, then the action: { nodeFound, actionFound, ndv (its panel) }. */
export async function addNodeAction(page, nodeName, actionName) {
	await page.getByTestId('node-creator-plus-button').click();
	const creator = page.getByTestId('node-creator');
	await creator.waitFor({ state: 'visible' });
	await creator.getByTestId('node-creator-search-bar').fill(nodeName);
	const nodeItem = creator.getByTestId('item-iterator-item').filter({ hasText: nodeName }).first();
	if (!(await appears(nodeItem))) return { nodeFound: false };
	await nodeItem.click();
	const actionItem = creator.getByTestId('item-iterator-item').filter({ hasText: actionName }).first();
	// A package with a trigger too: on an empty canvas n8n lists its triggers and folds the "Actions (n)" category.
	const actions = creator.getByTestId('node-creator-category-item').filter({ hasText: /^\s*Actions\b/ }).first();
	if (!(await appears(actionItem, 5_000)) && (await actions.isVisible())) await actions.click();
	if (!(await appears(actionItem))) return { nodeFound: true, actionFound: false };
	await actionItem.click();
	const ndv = page.getByTestId('ndv');
	return { nodeFound: true, actionFound: true, ndv: (await appears(ndv)) ? ndv : undefined };
}

/**
 * Opens the "create new credential" dialog from the node's credential selector, whichever way n8n offers it: a "set
 * up manually" link, the empty state ("Connect to …"), or the selector's "Create new credential" row.
 */
export async function openNewCredentialDialog(page, ndv) {
	const dialog = page.getByTestId('credential-edit-dialog');
	const [setupManually, emptyState, select] = ['setup-manually-link', 'node-credentials-empty-state', 'node-credentials-select'].map((id) => ndv.getByTestId(id).first());
	await oneAppears([setupManually, emptyState, select], 10_000);
	if (await setupManually.isVisible()) {
		await setupManually.click();
	} else {
		await ((await select.isVisible()) ? select : emptyState).click();
		const createNew = page.getByTestId('node-credentials-select-item-new').filter({ visible: true }).first();
		await oneAppears([dialog, createNew], 10_000);
		if (!(await dialog.isVisible()) && (await createNew.isVisible())) await createNew.click();
	}
	return (await appears(dialog)) ? dialog : undefined;
}

/** The credential selected in the node's credential selector. */
export async function selectedCredential(ndv) {
	const select = ndv.getByTestId('node-credentials-select').first();
	return (await select.locator('input').first().inputValue({ timeout: 5_000 }).catch(() => '')) || ((await select.textContent({ timeout: 5_000 }).catch(() => '')) ?? '').trim();
}

/** n8n's answer ({ status, message }) to the next credential test the page sends, or {} after 30 s. */
export const nextCredentialTest = (page) =>
	page
		.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/rest/credentials/test', { timeout: 30_000 })
		.then(async (response) => (await response.json().catch(() => ({})))?.data ?? {})
		.catch(() => ({}));

/** What the credential dialog shows of its test: the success banner's text, or the error banner with n8n's details. */
export async function credentialDialogOutcome(dialog) {
	const success = dialog.getByTestId('credentials-config-container-test-success');
	const failure = dialog.getByText(/Couldn.t connect with these settings/);
	await oneAppears([success, failure], 30_000);
	return {
		success: (await success.isVisible()) ? ((await success.textContent()) ?? '').trim() : '',
		failure: (await isShown(failure)) ? await textOf(failure.first().locator('xpath=../..')) : '',
	};
}

/** The page's visible text and the values of every input that is not masked. */
export const clearTexts = (page) =>
	page.evaluate(() => [document.body.innerText, ...[...document.querySelectorAll('input, textarea')].filter((input) => input.type !== 'password').map((input) => input.value)]);

/** No focus ring, hover controls, tooltip or toast in a screenshot; `keepFocus` for a list that an input holds open. */
export async function screenshot(page, file, { keepFocus = false } = {}) {
	// n8n's toasts fade out on their own: closed so that every run pictures the same.
	for (const close of await page.locator('.el-notification__closeBtn').all()) await close.click().catch(() => {});
	await page.locator('.el-notification').first().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => {});
	if (!keepFocus) await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
	await page.mouse.move(700, 4);
	await page.waitForTimeout(500);
	await page.screenshot({ path: file });
}

/** Imports a workflow file into a new workflow with "Import from File"; resolves with what the canvas shows. */
export async function importFromFile(page, file, workflow) {
	await openNewWorkflow(page);
	await page.getByTestId('workflow-import-input').setInputFiles(file);
	// Sticky notes are drawn apart from the nodes.
	const expected = workflow.nodes.filter((node) => node.type !== 'n8n-nodes-base.stickyNote').length;
	const nodes = page.getByTestId('canvas-node');
	await nodes.nth(expected - 1).waitFor({ state: 'attached', timeout: 15_000 }).catch(() => {});
	// Issues are computed once the nodes are on the canvas; give them a moment to show.
	await page.waitForTimeout(1000);
	const toasts = page.locator('.el-notification[class*="error"], .el-notification[class*="warning"]');
	const complaints = (await toasts.allTextContents()).map((text) => text.trim().replace(/\s+/g, ' '));
	const count = (id) => page.getByTestId(id).count();
	return { expected, nodes: await nodes.count(), stickies: await count('sticky'), issues: await count('node-issues'), complaints };
}

/**
 * The node picker opened with the canvas's + button and searched for `search`: its heading ("What triggers this
 * workflow?", "What happens next?") and each entry's name and description. The picker is closed again.
 */
export async function pickerEntries(page, search) {
	await page.getByTestId('node-creator-plus-button').click();
	const creator = page.getByTestId('node-creator');
	await creator.waitFor({ state: 'visible' });
	const heading = ((await creator.innerText()).split('\n').find((line) => line.trim()) ?? '').trim();
	await creator.getByTestId('node-creator-search-bar').fill(search);
	const items = creator.getByTestId('item-iterator-item');
	// The categories stay until the search's results replace them.
	await items.filter({ hasText: search }).first().waitFor({ state: 'visible', timeout: 15_000 }).catch(() => {});
	const entries = (await items.allInnerTexts()).map((text) => {
		const [name, ...rest] = text.split('\n').map((line) => line.trim()).filter(Boolean);
		return { name, description: rest.join(' ') };
	});
	await page.keyboard.press('Escape');
	await creator.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => {});
	return { heading, entries };
}

/** Adds the first node the picker finds for `search` (a trigger, on an empty canvas); resolves once it is on the canvas. */
export async function addFirstFound(page, search) {
	const nodes = page.getByTestId('canvas-node');
	const before = await nodes.count();
	await page.getByTestId('node-creator-plus-button').click();
	const creator = page.getByTestId('node-creator');
	await creator.getByTestId('node-creator-search-bar').fill(search);
	await creator.getByTestId('item-iterator-item').first().click();
	await nodes.nth(before).waitFor({ state: 'attached', timeout: 15_000 });
	// A node added from the picker opens its panel, or leaves the picker open: neither may cover the canvas.
	await page.keyboard.press('Escape');
	await page.getByTestId('ndv').waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => {});
}

/** Adds the option labelled `option` of the collection parameter labelled `label` (e.g. Additional Fields → Redirect URL). */
export async function addToCollection(page, scope, label, option) {
	await scope.getByTestId('parameter-item').filter({ hasText: label }).getByTestId('collection-parameter-add').first().click();
	await (await openOptionsShown(page)).filter({ hasText: option }).first().click();
}
const openOptionsShown = async (page) => {
	const options = page.getByRole('option').filter({ visible: true });
	await options.first().waitFor({ state: 'visible' });
	return options;
};

/** Pins the output the node's panel shows (the pin above it); resolves with whether the panel then says it is pinned. */
export async function pinOutput(ndv) {
	const output = ndv.getByTestId('output-panel');
	await output.getByTestId('ndv-pin-data').click();
	return output.getByText(/pinned/i).first().waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false);
}

/** Saves the workflow as a person does (Ctrl+S), its panel closed first. */
export async function saveWorkflow(page) {
	await page.getByTestId('ndv-close-button').click().catch(() => {});
	await page.getByTestId('ndv').waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => {});
	await page.keyboard.press('Control+s');
}

/** Opens the panel of the canvas node named `name` (a double click); resolves with the panel. */
export async function openNode(page, name) {
	await page.getByTestId('canvas-node').filter({ hasText: name }).first().dblclick();
	const ndv = page.getByTestId('ndv');
	await ndv.waitFor({ state: 'visible' });
	return ndv;
}
