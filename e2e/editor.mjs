// The editor check: the packed package in a real n8n, seen through n8n's REST API and its editor in headless
// Chromium. `npm run e2e:editor`. Prints one PASS/FAIL line per check and exits non-zero when any fails.
//
// Installs Chromium (Debian) when missing and the package into a fresh user folder (.e2e/editor/user), starts the
// sandbox and `n8n start` (free ports), creates the owner, runs n8n's credential test over REST, drives the editor,
// adds the trigger, imports every example from its file, opens the Digital Card list on cards stored in the sandbox,
// executes a refund with Retry On Fail and a status read of an unpaid order from the editor, writes
// docs/screenshots/*.png, then searches what n8n stored for the secrets it was given. Everything started is
// stopped in every case (success, failure, Ctrl-C).
//
// Environment: EDITOR_CHROMIUM (/usr/bin/chromium); EDITOR_KEEP_OPEN=1 leaves n8n running for a look by hand;
// E2E_SKIP_INSTALL=1 and E2E_SKIP_BUILD=1 as for npm run e2e.
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { editorContext, ensureChromium, launchBrowser } from './editor/browser.mjs';
import { checkCredentialTests, CREDENTIAL_TEST_PATH, WRONG_SECRET } from './editor/credential-tests.mjs';
import {
	CARD_MODE_FIELDS,
	CARD_ONLY_FIELDS,
	CREDENTIAL_FIELDS,
	TOKEN_MODE_FIELDS,
	TOKEN_ONLY_FIELDS,
} from './editor/fields.mjs';
import * as editor from './editor/page.mjs';
import {
	checkExampleImports,
	checkExampleWithoutCredential,
	checkTriggerPanel,
	storedExamples,
	storeModelCredential,
} from './editor/trigger-and-examples.mjs';
import { checkCardsAndRuns } from './editor/runs-and-cards.mjs';

const require = createRequire(import.meta.url);
const { startSandbox } = require('../sandbox/gateway');
const { secretsToFind, findLeaks, printLeaks } = require('./lib/leaks');
const { EXAMPLE_CREDENTIAL_NAME } = require('./lib/examples');
const { createN8n } = require('./lib/n8n');
const { paths, preparePackage } = require('./lib/package');
const { onCleanUp, runCheck, seconds } = require('./lib/processes');
const { createReport, StepFailed } = require('./lib/report');
const { RestSession } = require('./lib/rest');

const WORK = path.join(paths.ROOT, '.e2e', 'editor');
const USER_FOLDER = path.join(WORK, 'user');
const SHOTS = path.join(paths.ROOT, 'docs', 'screenshots');

// Tall enough for the whole Transaction → Initiate parameter list to fit in the screenshots without scrolling.
const VIEWPORT = { width: 1400, height: 1260 };
const CREDENTIAL_VIEWPORT = { width: 1400, height: 1400 };
const CANVAS_VIEWPORT = { width: 1400, height: 900 };

const NODE_NAME = 'Payment Gateway';
const ACTION_NAME = 'Charge a card for an order';
const CREDENTIAL_NAME = 'Payment Gateway API';
/** The fields filled in the credential dialog (the sandbox's values); the others keep their defaults. */
const CREDENTIAL_UI_FIELDS = ['baseUrl', 'checkoutBaseUrl', 'clientId', 'clientSecret', 'cardEncryptionKey', 'merchantDomain'];

const report = createReport();
const { pass, fail, check, must, timed } = report;
const log = (message) => console.log(`editor: ${message}`);

/** Each parameter shown (or not) with its input and label. */
async function expectParameters(scope, fields, shown, context) {
	for (const [name, label] of fields) {
		const state = await editor.parameterState(scope, name, label, { expectShown: shown });
		const describe = (visible, missing) => `input ${state.input ? visible : missing}, label ${state.label ? visible : missing}`;
		if (shown) check(state.input && state.label, `${context}: "${label}" (${name}) is shown`, describe('visible', 'missing'));
		else check(!state.input && !state.label, `${context}: "${label}" (${name}) is not shown`, describe('visible', 'absent'));
	}
}

async function shot(page, name, options) {
	await editor.screenshot(page, path.join(SHOTS, name), options);
	pass(`screenshot docs/screenshots/${name}`);
}

/** Transaction → Initiate: its parameters in card and in stored-card mode, and the authentication choices. */
async function checkInitiateParameters(page, parameters) {
	const resource = await editor.selectedOptionText(parameters, 'resource');
	const operation = await editor.selectedOptionText(parameters, 'operation');
	check(resource === 'Transaction', 'Resource is "Transaction"', `shows "${resource}"`);
	check(operation === 'Initiate', 'Operation is "Initiate"', `shows "${operation}"`);

	const mode = await editor.selectedOptionText(parameters, 'paymentMode');
	check(mode === 'New Card', 'Payment Mode defaults to "New Card"', `shows "${mode}"`);
	await expectParameters(parameters, CARD_MODE_FIELDS, true, 'card mode');
	await expectParameters(parameters, TOKEN_ONLY_FIELDS, false, 'card mode');
	for (const [name, label] of [
		['cardNumber', 'Card Number'],
		['cardCVV', 'CVV'],
	]) {
		const type = await editor.inputType(parameters, name);
		check(type === 'password', `card mode: "${label}" is a masked input`, `input type ${type}`);
	}
	await shot(page, 'initiate-card-mode.png');

	await editor.chooseOption(page, parameters, 'paymentMode', 'Stored Card');
	const tokenMode = await editor.selectedOptionText(parameters, 'paymentMode');
	check(tokenMode === 'Stored Card', 'Payment Mode switched to "Stored Card"', `shows "${tokenMode}"`);
	await expectParameters(parameters, TOKEN_MODE_FIELDS, true, 'stored-card mode');
	await expectParameters(parameters, CARD_ONLY_FIELDS, false, 'stored-card mode');
	await shot(page, 'initiate-token-mode.png');

	const { offered, options } = await editor.offeredOptions(page, parameters, 'customerAuthentication');
	check(
		JSON.stringify(offered) === JSON.stringify(['CVV and OTP', 'OTP Only', 'None']),
		'Customer Authentication offers exactly "CVV and OTP", "OTP Only", "None"',
		`offers ${JSON.stringify(offered)}`,
	);
	await options.filter({ hasText: 'CVV and OTP' }).first().click();
}

/**
 * The credential dialog opened from the node: its fields, masked secrets, the test on save, the reopened dialog's
 * "Connection tested successfully", and neither secret in clear text anywhere on the page.
 */
async function checkCredentialDialog(page, ndv, sandbox) {
	const dialog = await editor.openNewCredentialDialog(page, ndv);
	must(Boolean(dialog), 'the credential selector opens the "create new credential" dialog');
	const dialogBox = page.locator('.el-dialog', { has: dialog });
	check(
		await editor.isShown(dialogBox.getByText(CREDENTIAL_NAME, { exact: true })),
		`credential dialog is for "${CREDENTIAL_NAME}"`,
	);
	await expectParameters(dialog, CREDENTIAL_FIELDS, true, 'credential dialog');
	const secretType = await editor.inputType(dialog, 'clientSecret');
	check(secretType === 'password', 'credential dialog masks Client Secret', `input type ${secretType}`);
	const keyType = await editor.inputType(dialog, 'cardEncryptionKey');
	check(keyType === 'password', 'credential dialog masks Card Encryption Key', `input type ${keyType}`);

	// n8n tests the credential on save. Opened from a node's credential selector, it closes the dialog once that test
	// succeeded (it stays open with "Couldn't connect with these settings" when it fails) and selects the credential.
	const credentialData = sandbox.credentialData();
	await editor.fillCredential(dialog, credentialData, CREDENTIAL_UI_FIELDS);
	sandbox.clearLog();
	const saveTest = await timed('credential save and test in the dialog', async () => {
		const tested = editor.nextCredentialTest(page);
		await page.getByTestId('credential-save-button').click();
		return tested;
	});
	console.log(`  credential test on save (editor): ${saveTest.status} "${saveTest.message ?? ''}"`);
	check(
		saveTest.status === 'OK',
		'saving the credential in the dialog runs n8n\'s credential test: status "OK"',
		`status ${saveTest.status}, message "${saveTest.message}"`,
	);
	const closedOnSuccess = await dialog
		.waitFor({ state: 'hidden', timeout: 10_000 })
		.then(() => true)
		.catch(() => false);
	if (!closedOnSuccess) {
		const outcome = await editor.credentialDialogOutcome(dialog);
		fail(
			`the credential dialog closes after a successful test on save (${outcome.failure ? `shows "${outcome.failure}"` : `still open, "${outcome.success}"`})`,
		);
	} else {
		pass('the credential dialog closes after the successful test on save');
		const selected = await editor.selectedCredential(ndv);
		check(/Payment Gateway/.test(selected), 'the node now uses the saved credential', `credential selector shows "${selected}"`);
		// Reopened with the pencil next to the selector, n8n tests it again and shows the success banner.
		const reopened = await timed('credential dialog reopened and tested', async () => {
			const tested = editor.nextCredentialTest(page);
			await ndv.getByTestId('credential-edit-button').first().click();
			await dialog.waitFor({ state: 'visible', timeout: 15_000 });
			return { test: await tested, ...(await editor.credentialDialogOutcome(dialog)) };
		});
		console.log(`  credential test on reopening (editor): ${reopened.test.status} "${reopened.test.message ?? ''}"`);
		check(
			reopened.success.includes('Connection tested successfully'),
			'the reopened credential dialog shows "Connection tested successfully"',
			reopened.failure ? `dialog shows "${reopened.failure}"` : `no test result shown (test ${reopened.test.status})`,
		);
	}
	const uiTest = sandbox.requests.filter((request) => request.path.endsWith(CREDENTIAL_TEST_PATH));
	check(
		uiTest.length >= 1 &&
			uiTest.every((request) => request.clientId === credentialData.clientId && request.status === 200) &&
			uiTest.every((request) => /^[0-9a-f]{64}$/.test(String(request.headers['x-signature']))),
		"the sandbox answered the dialog's credential test (signed, 200)",
		uiTest.map((request) => `${request.path} as ${request.clientId} → ${request.status}`).join('; ') || 'no request',
	);

	const savedTypes = [await editor.inputType(dialog, 'clientSecret'), await editor.inputType(dialog, 'cardEncryptionKey')];
	check(
		savedTypes.every((type) => type === 'password'),
		'after saving, Client Secret and Card Encryption Key are still masked inputs',
		`input types ${savedTypes.join(', ')}`,
	);
	const texts = await editor.clearTexts(page);
	const leaked = [
		['Client Secret', credentialData.clientSecret],
		['Card Encryption Key', credentialData.cardEncryptionKey],
	].filter(([, value]) => texts.some((text) => text.includes(value)));
	check(
		leaked.length === 0,
		'the page shows neither the client secret nor the card encryption key in clear text',
		`shown: ${leaked.map(([label]) => label).join(', ')}`,
	);

	// For the picture only, after the checks above: the whole dialog at once.
	await editor.uncapCredentialDialog(page, CREDENTIAL_VIEWPORT);
	await shot(page, 'credential.png');
}

async function run(state) {
	await ensureChromium(log);
	await preparePackage(USER_FOLDER, { log });
	pass(`package installed into a fresh user folder's .n8n/nodes (${path.relative(paths.ROOT, USER_FOLDER)})`);

	const sandbox = await startSandbox({ port: 0 });
	onCleanUp(() => sandbox.close());
	state.sandbox = sandbox;
	pass(`sandbox gateway listens on ${sandbox.url}`);

	const n8n = await createN8n({ userFolder: USER_FOLDER, log });
	state.n8n = n8n;
	const fromStart = Date.now();
	const server = await n8n.start().catch((error) => fail(`n8n start: ${error.message}`));
	must(Boolean(server), `n8n start answers /healthz and /healthz/readiness on ${server?.url} (${seconds(fromStart)})`);
	const session = new RestSession(server.url);
	const owner = await timed('owner setup', () => session.setupOwner().catch((error) => error));
	must(!(owner instanceof Error), 'owner account created through POST /rest/owner/setup', owner?.message);
	const login = await session.login().catch((error) => error);
	must(!(login instanceof Error), 'owner logs in through POST /rest/login', login?.message);

	await timed('credential tests through the REST API', () => checkCredentialTests(session, sandbox, report));

	const browser = await timed('Chromium launch', launchBrowser);
	state.browser = browser;
	onCleanUp(() => browser.close());
	const context = await editorContext(browser, session, { viewport: VIEWPORT });
	const page = await context.newPage();
	state.page = page;
	const pageErrors = [];
	page.on('pageerror', (error) => pageErrors.push(error.message));

	const url = await timed('editor load', () => editor.openNewWorkflow(page));
	must(!url.includes('/signin'), 'editor opens a new workflow while logged in', url);
	const added = await editor.addNodeAction(page, NODE_NAME, ACTION_NAME);
	must(added.nodeFound, `node creator search "${NODE_NAME}" lists the community node`);
	must(added.actionFound, `node creator offers the action "${ACTION_NAME}"`);
	must(Boolean(added.ndv), 'choosing the action adds the node and opens its parameter panel');
	const parameters = added.ndv.getByTestId('node-parameters');
	await parameters.waitFor({ state: 'visible' });

	await checkInitiateParameters(page, parameters);
	await checkCredentialDialog(page, added.ndv, sandbox);

	await page.setViewportSize(CANVAS_VIEWPORT);
	await timed('example import without a credential', () => checkExampleWithoutCredential(page, session, report));
	// The examples refer to their credential by name: one of that name, as their README asks users to create.
	const named = await session.call('POST', '/rest/credentials', { name: EXAMPLE_CREDENTIAL_NAME, type: 'paymentGatewayApi', data: sandbox.credentialData() });
	must(named.status === 200, `credential "${EXAMPLE_CREDENTIAL_NAME}" stored through POST /rest/credentials`, `HTTP ${named.status}`);
	await storeModelCredential(session, report);
	await timed('trigger panel', () => checkTriggerPanel(page, report, shot, server.url));
	await timed('example imports', () => checkExampleImports(page, report, shot));
	state.examples = await storedExamples(session);

	await page.setViewportSize(VIEWPORT);
	await checkCardsAndRuns(page, sandbox, report, shot);
	check(pageErrors.length === 0, 'no uncaught errors in the editor page', pageErrors.slice(0, 3).join(' | '));
}

/**
 * Closes the browser, stops n8n (or leaves it running with EDITOR_KEEP_OPEN=1), then searches what n8n stored for
 * the secrets it was given.
 */
async function finish({ browser, n8n, sandbox, examples = [] }) {
	await browser?.close();
	if (!n8n?.server) return;
	if (process.env.EDITOR_KEEP_OPEN === '1') {
		console.log(`n8n left running on ${n8n.server.url} (pid ${n8n.server.pid}); stop it with kill -TERM -${n8n.server.pid}`);
		console.log('  (the sandbox gateway ends with this script: the saved credential points at a closed port)');
		n8n.keep();
		return;
	}
	const stopped = await n8n.stop();
	check(!stopped.killed, `n8n stopped on SIGTERM (${stopped.signal ?? `exit ${stopped.code}`})`, 'killed after 30 s');

	console.log('leaks: the secrets n8n was given, in what it stored (database, logs, files in .n8n)');
	const secrets = secretsToFind({
		clients: [sandbox.clients.active, sandbox.clients.inactive, { clientId: sandbox.clients.active.clientId, clientSecret: WRONG_SECRET }],
		cardEncryptionKey: sandbox.cardEncryptionKey,
	});
	const clean = printLeaks(await findLeaks(n8n, { secrets, workflows: examples }));
	check(clean, 'n8n stored the credential only encrypted, and no secret anywhere else');
}

async function main() {
	mkdirSync(SHOTS, { recursive: true });
	const state = {};
	try {
		await run(state);
	} catch (error) {
		if (!(error instanceof StepFailed)) fail(`unexpected error: ${error?.stack ?? error}`);
		if (state.page) {
			const failureShot = path.join(WORK, 'failure.png');
			await state.page.screenshot({ path: failureShot }).catch(() => {});
			console.log(`  failure screenshot: ${path.relative(paths.ROOT, failureShot)}`);
		}
		if (state.n8n) console.log(`  n8n's output: ${path.relative(paths.ROOT, path.join(state.n8n.logDir, 'main.out'))}`);
	}
	await finish(state).catch((error) => fail(`stopping n8n and the leak search: ${error?.stack ?? error}`));
	return report.summary('editor e2e');
}

runCheck(main);
