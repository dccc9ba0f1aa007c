// The editor check's look at what the node shows beyond its fields: the Digital Card list with a customer's stored
// cards (and its message without a Customer ID), the refusal of Retry On Fail on a write, and a hint in the output
// pane, each executed or opened in the editor as a user does, against the sandbox.
import * as editor from './page.mjs';
import { createOrder, storeTwoCards } from './gateway-data.mjs';

const NODE_NAME = 'Payment Gateway';
// n8n 2.41 shows a list search's error message but not its description (its REST answer keeps only the message):
// the node puts the way out, "By ID", into the message.
const CARD_LIST_ERROR = /^Could not load list\s*Enter the Customer ID above first.*Choose "By ID"/s;

/** A new workflow with one Payment Gateway node for `action`, its parameter panel open and its credential chosen. */
async function nodeFor(page, { must, check }, action) {
	await editor.openNewWorkflow(page);
	const added = await editor.addNodeAction(page, NODE_NAME, action);
	must(added.actionFound && Boolean(added.ndv), `node creator offers "${action}" and opens its panel`);
	const parameters = added.ndv.getByTestId('node-parameters');
	await parameters.waitFor({ state: 'visible' });
	const credential = await editor.selectedCredential(added.ndv);
	check(/Payment Gateway/.test(credential), `"${action}": the node gets the stored credential`, `credential selector shows "${credential}"`);
	return { ndv: added.ndv, parameters };
}

/** Transaction → Initiate in stored-card mode: Digital Card is a resource locator whose list says Initiate has no customer. */
async function checkInitiateCardList(page, { check, must }) {
	const { ndv, parameters } = await nodeFor(page, { check, must }, 'Charge a card for an order');
	await editor.chooseOption(page, parameters, 'paymentMode', 'Stored Card');
	check(await editor.isShown(parameters.getByTestId('resource-locator-digitalCardId')), 'stored-card mode: Digital Card is a resource locator');
	const list = await editor.openResourceList(page, parameters, 'digitalCardId');
	check(
		list.items.length === 0 && /^Could not load list\s*Stored cards are listed per customer, and this operation has no Customer ID.*Choose "By ID"/s.test(list.error),
		'stored-card mode: the card list says that Initiate has no Customer ID and to choose By ID, not a blank list',
		`${list.items.length} entries, error view "${list.error}"`,
	);
	await page.keyboard.press('Escape');
	await ndv.getByTestId('ndv-close-button').click().catch(() => {});
}

/**
 * Digital Card → Get: the Digital Card list says what is missing without a Customer ID, then, with the customer's
 * ID, lists exactly the two cards stored before, as a person recognises them. Pictured open.
 */
async function checkCardList(page, sandbox, { check, must }, shot) {
	const stored = await storeTwoCards(sandbox);
	must(stored.cards.length === 2, 'the sandbox holds two stored cards of one customer (paid with Secure Card on)', `${stored.cards.length} cards`);
	const { ndv, parameters } = await nodeFor(page, { check, must }, 'Get a stored card');

	const modes = await editor.resourceLocatorModes(page, parameters, 'digitalCardId');
	check(
		// n8n names the list mode itself ("From list").
		/^From list$/i.test(modes.chosen) && JSON.stringify(modes.offered.map((mode) => mode.toLowerCase())) === '["from list","by id"]',
		'Digital Card offers "From list" (chosen) then "By ID"',
		`offers ${JSON.stringify(modes.offered)}, "${modes.chosen}" chosen`,
	);

	sandbox.clearLog();
	const empty = await editor.openResourceList(page, parameters, 'digitalCardId');
	console.log(`  card list without a Customer ID: ${empty.items.length} entries, "${empty.error}"`);
	check(
		empty.items.length === 0 && CARD_LIST_ERROR.test(empty.error),
		'without a Customer ID the card list shows the node\'s message ("Enter the Customer ID above first", "Choose By ID"), not a blank list',
		`${empty.items.length} entries, error view "${empty.error}"`,
	);
	check(sandbox.requests.length === 0, 'without a Customer ID the list sends nothing to the gateway', `${sandbox.requests.length} requests`);

	await editor.fillParameter(parameters, 'customerId', stored.customerId);
	const listed = await editor.openResourceList(page, parameters, 'digitalCardId');
	console.log(`  card list of ${stored.customerId}: ${JSON.stringify(listed.items)}`);
	const expected = stored.cards.map((card) => card.label);
	check(
		JSON.stringify([...listed.items].sort()) === JSON.stringify([...expected].sort()) && !listed.error,
		`with the Customer ID the card list shows the customer's two stored cards: ${expected.join('; ')}`,
		`shows ${JSON.stringify(listed.items)}${listed.error ? `, error "${listed.error}"` : ''}`,
	);
	const asked = sandbox.requests.map((request) => `${request.method} ${request.apiPath} → ${request.status}`);
	check(
		asked.includes(`GET /customer/${stored.customerId}/digitalCards → 200`),
		"the list was read from the gateway (GET /customer/<customerId>/digitalCards)",
		asked.join('; ') || 'no request',
	);
	await shot(page, 'card-list.png', { keepFocus: true });
	await page.keyboard.press('Escape');
	await ndv.getByTestId('ndv-close-button').click().catch(() => {});
}

/**
 * Transaction → Refund with the node setting Retry On Fail turned on in its Settings tab, executed from the editor:
 * the error names Retry On Fail and what to use instead, and the gateway receives nothing.
 */
async function checkRetryOnFail(page, sandbox, { check, must }, shot) {
	const { ndv, parameters } = await nodeFor(page, { check, must }, 'Refund a payment');
	const refundType = await editor.selectedOptionText(parameters, 'refundType');
	check(refundType === 'An Amount', 'Refund offers "An Amount" by default', `shows "${refundType}"`);
	await editor.fillParameter(parameters, 'paymentId', 'PAY0123456789ABCDEF0123456789ABCDEF');
	await editor.fillParameter(parameters, 'amount', 5);
	must(await editor.setNodeSetting(page, ndv, 'retryOnFail', true), 'Retry On Fail turned on in the node\'s Settings tab');

	sandbox.clearLog();
	const run = await editor.executeStep(ndv);
	console.log(`  Refund with Retry On Fail: "${run.error}" / "${run.description}"`);
	check(
		/^This node must not run with Retry On Fail: .*Nothing was sent\./.test(run.error),
		'executed from the editor, the output shows the error "This node must not run with Retry On Fail: … Nothing was sent."',
		run.error ? `shows "${run.error}"` : 'no error shown',
	);
	check(
		/Turn off Retry On Fail/.test(run.description) && /On Error to "Continue \(using error output\)"/.test(run.description),
		'the error says to turn Retry On Fail off and use On Error "Continue (using error output)" instead',
		`description "${run.description}"`,
	);
	check(sandbox.requests.length === 0, 'the sandbox received no request', sandbox.requests.map((r) => `${r.method} ${r.apiPath}`).join('; '));
	await shot(page, 'retry-on-fail.png');
	await ndv.getByTestId('ndv-close-button').click().catch(() => {});
}

/** Status → Get by Order ID on an order nobody has paid, executed from the editor: the hint in the output pane. */
async function checkUnpaidOrderHint(page, sandbox, { check, must }, shot) {
	const orderId = await createOrder(sandbox, 'UNPAID-1');
	const { ndv, parameters } = await nodeFor(page, { check, must }, 'Get the payment status of an order');
	await editor.fillParameter(parameters, 'orderId', orderId);
	sandbox.clearLog();
	const run = await editor.executeStep(ndv);
	console.log(`  Get by Order ID of an unpaid order: hints ${JSON.stringify(run.hints)}`);
	check(!run.error && run.data, 'executed from the editor, Get by Order ID of an unpaid order outputs its status', `error "${run.error}"`);
	check(
		run.hints.some((hint) => hint.startsWith('1 of 1 order is not in status "success" (1 failure).') && /Transaction not initiated/.test(hint)),
		'the output pane shows the hint "1 of 1 order is not in status "success" (1 failure). … "Transaction not initiated"."',
		run.hints.length ? `hints ${JSON.stringify(run.hints)}` : 'no hint shown',
	);
	check(
		sandbox.requests.length === 1 && sandbox.requests[0].status === 400,
		'the gateway was asked once and answered "Transaction not initiated" (400)',
		sandbox.requests.map((r) => `${r.method} ${r.apiPath} → ${r.status}`).join('; ') || 'no request',
	);
	await shot(page, 'hint.png');
	await ndv.getByTestId('ndv-close-button').click().catch(() => {});
}

/** The steps above in turn, each timed. */
export async function checkCardsAndRuns(page, sandbox, report, shot) {
	await report.timed('card lists', async () => {
		await checkInitiateCardList(page, report);
		await checkCardList(page, sandbox, report, shot);
	});
	await report.timed('Retry On Fail refused', () => checkRetryOnFail(page, sandbox, report, shot));
	await report.timed('hint', () => checkUnpaidOrderHint(page, sandbox, report, shot));
}
