'use strict';

// The MCP check, `npm run e2e:mcp`: the package's tools behind n8n's MCP Server Trigger in a real n8n, called by the
// official MCP TypeScript SDK client as an outside AI client would (e.g. a desktop assistant), with no model and no
// human review in between. Then: (a) what the client is offered; (b) a read; (c) refunds above, at and under Maximum
// Amount per Call, and over Maximum Total per Execution; (d) a payment in another currency; (e) card details; (f) a
// stored card without the customer's confirmation, or with CVV; (g) a stored card with OTP Only, in another currency
// and in the Limit Currency; (h) the sandbox's requests from every refused call; (i) where n8n keeps the client's
// arguments, and the leak search over what n8n stored.

const assert = require('node:assert/strict');
const path = require('node:path');
const { test } = require('node:test');

const { connectClient, CREDENTIAL, PATH, resultText, TRIGGER, toolName, workflow } = require('./mcp/workflow');
const { mcpArgumentsRule, placesOf } = require('./mcp/stored');
const { has, searchLeaks, setUp, startN8n, story } = require('./lib/check');
const { paidPayment, statusPath, unpaidOrder } = require('./lib/gateway');
const { paths } = require('./lib/package');
const { onCleanUp, parseJson } = require('./lib/processes');
const { RestSession } = require('./lib/rest');
const { assertOtpOnlyPayment, assertToolRefused, placesKeeping, REFUND_PATH, refundsIn, storedCardOrder } = require('./lib/tools');

const USER_FOLDER = path.join(paths.WORK, 'mcp', 'user');
/** The card the client gives in (e): the sandbox's approved test card, an expiry nothing else uses. */
const CARD = { given: 'by the MCP client in (e)', cardNumber: '4111111111111111', cardExpMonth: '10', cardExpYear: '32', cardCVV: '' };

const s = { refused: [], calls: 0 };
const { step, check, log } = story('mcp');

/** One tools/call: the client's result (its text parsed when it is JSON), and the sandbox's requests meanwhile. */
async function call(nodeName, args) {
	const before = s.sandbox.requests.length;
	s.calls++;
	const result = await s.client.callTool({ name: toolName(nodeName), arguments: args });
	const text = resultText(result);
	return { isError: result.isError === true, text, json: parseJson(text), sent: s.sandbox.requests.slice(before) };
}

/** A refusal as the client reads it: an error result, in the node's words (lib/tools.js `assertToolRefused`). */
function assertRefused(label, result, says, reads) {
	assert.ok(result.isError, `an error result: ${result.text.slice(0, 300)}`);
	assertToolRefused(s.refused, label, result, says, reads);
}

/** The SDK client connected to n8n's MCP endpoint, `s.client`, closed at clean-up. */
async function connect() {
	s.url = `${s.server.url}/mcp/${PATH}`;
	const client = await connectClient(s.url, 'payment-gateway-mcp-check');
	onCleanUp(() => client.close());
	s.client = client;
}

const refundsOf = (result) => refundsIn(result.sent).length;
/** A refund of 10 of the payment of (j) through Refund With Day 30. */
const refundTen = () => call('Refund With Day 30', { paymentId: s.dayPayment.paymentId, amount: 10 });

step('the packed package in n8n; the MCP workflow published; the SDK client connected over Streamable HTTP', async () => {
	await setUp(s, USER_FOLDER, { log, credentials: (sandbox) => [{ ...CREDENTIAL, data: sandbox.credentialData() }] });
	await startN8n(s);
	const definition = workflow();
	s.workflowId = (await s.session.createWorkflow(definition)).id;
	s.stored = [{ ...definition, id: s.workflowId }];
	await s.session.activateWorkflow(s.workflowId);
	await connect();
	log(`MCP client connected to ${s.url}`);
});

check('(a) tools/list: every tool, described by its operation; the stored-card tool asks for no CVV', async () => {
	const { tools } = await s.client.listTools();
	const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
	for (const name of Object.keys(workflow().connections)) assert.ok(byName[toolName(name)], `${name} offered: ${Object.keys(byName).join(', ')}`);
	assert.match(byName.Payment_Status.description, /moves no money/);
	assert.match(byName.Refund_Up_To_10.description, /moves money back to the customer/);
	assert.match(byName.Pay_With_Stored_Card.description, /once the customer confirms it with a one-time password/);
	const args = (name) => Object.keys(byName[name].inputSchema?.properties ?? {}).sort();
	// The CVV field is hidden in tool mode: n8n drops its $fromAI() when it loads the workflow, so no client is asked.
	assert.deepEqual([args('Refund_Up_To_10'), args('Pay_With_Stored_Card')], [['amount', 'paymentId'], ['amount', 'currency', 'digitalCardId', 'orderId']]);
	log(`offered: ${tools.map((tool) => `${tool.name}(${args(tool.name).join(', ')})`).join('; ')}`);
});

check('(b) Status → Get by Payment ID: the simplified record comes back to the client', async () => {
	s.payment = await paidPayment(s.sandbox, { amount: 40, receiptId: 'MCP-REFUND-1' });
	const result = await call('Payment Status', { paymentId: s.payment.paymentId });
	assert.ok(!result.isError, result.text.slice(0, 300));
	has(result.json?.[0], { paymentId: s.payment.paymentId, status: 'success', amount: 40, signature: undefined }, 'simplified: no signature');
	assert.deepEqual(result.sent.map((request) => request.apiPath), [statusPath(s.payment.paymentId)]);
});

check('(c) refunds: 10.50 above Maximum Amount per Call 10 refused unsent; 10 at it and 4 under it, one refund each', async () => {
	const { paymentId } = s.payment;
	assertRefused('refund of 10.50 above the limit of 10', await call('Refund Up To 10', { paymentId, amount: 10.5 }), /a refund of 10\.5 USD is above this tool's Maximum Amount per Call of 10 USD/);
	for (const amount of [10, 4]) {
		const result = await call('Refund Up To 10', { paymentId, amount });
		assert.ok(!result.isError, result.text.slice(0, 300));
		assert.deepEqual(result.sent.map((r) => [r.apiPath, parseJson(r.body)?.amount ?? null]), [[statusPath(paymentId), null], [REFUND_PATH, amount]], `one read for the currency, one refund of ${amount}`);
		assert.deepEqual([result.json?.[0]?.amount, result.json?.[0]?.paymentStatus], [amount, 'partially_refunded']);
	}
});

check('(c) Maximum Total per Execution 5: a refund of 8 (under the 10 per call) refused unsent; each tools/call is an execution of its own', async () => {
	const { paymentId } = s.payment;
	assertRefused('refund of 8 over the total of 5', await call('Refund With Total 5', { paymentId, amount: 8 }), /a refund of 8 USD would take this tool above its Maximum Total per Execution of 5 USD: it has moved 0 USD in this execution/);
	const seen = new Set();
	for (const amount of [3, 3]) {
		const result = await call('Refund With Total 5', { paymentId, amount });
		assert.ok(!result.isError, result.text.slice(0, 300));
		seen.add(result.json?.[0]?.refundId);
	}
	assert.equal(seen.size, 2, 'two refunds of 3 through two calls: the total counts within one call, not across calls');
	log('NOTE through MCP each tools/call is an execution of its own: Maximum Total per Execution bounds one call; a client that calls again starts a new total');
});

check('(d) a refund of a payment in EUR through a tool limited in USD: refused after reading the payment, no refund sent', async () => {
	const euro = await paidPayment(s.sandbox, { amount: 20, receiptId: 'MCP-EUR-1', currency: 'EUR' });
	const result = await call('Refund Up To 10', { paymentId: euro.paymentId, amount: 3 });
	assertRefused('refund of a payment in EUR', result, /the payment is in EUR, and this tool's limits are in USD \(Limit Currency\)/, [statusPath(euro.paymentId)]);
});

check('(e) card details from the client: refused, nothing sent', async () => {
	const orderId = await unpaidOrder(s.sandbox, { amount: 12, receiptId: 'MCP-CARD-1' });
	const { cardNumber, cardExpMonth, cardExpYear } = CARD;
	const result = await call('Pay With Card', { orderId, cardNumber, cardExpMonth, cardExpYear, amount: 12 });
	assertRefused('card payment', result, /an AI agent's tool may not pay with card details/);
	assert.ok(!result.text.includes(cardNumber.slice(6)), 'the card number is not in the answer');
});

check('(f) a stored card with Customer Authentication "None" or "CVV and OTP": refused, nothing sent', async () => {
	s.storedCard = await storedCardOrder(s.sandbox, 'MCP');
	assertRefused('stored card without confirmation', await call('Pay Without Confirmation', s.storedCard), /without it the customer does not confirm the amount/);
	assertRefused('stored card with CVV and OTP', await call('Pay With CVV And OTP', s.storedCard), /CVV and OTP needs the card's security code, which an AI agent's tool never takes/);
});

check('(g) a stored card with OTP Only: in EUR refused unsent; in USD one payment that the customer must confirm, sent without the CVV the client added', async () => {
	assertRefused('stored card, stated in EUR', await call('Pay With Stored Card', { ...s.storedCard, currency: 'EUR' }), /the order \(as this call states it\) is in EUR, and this tool's limits are in USD/);
	const paid = await call('Pay With Stored Card', { ...s.storedCard, cvv: '987' });
	assert.ok(!paid.isError, paid.text.slice(0, 300));
	assert.deepEqual([paid.json?.[0]?.orderId, paid.json?.[0]?.paymentStatus], [s.storedCard.orderId, 'pending']);
	assert.ok(paid.json?.[0]?.redirectionData?.formData, 'the confirmation page for the customer');
	assertOtpOnlyPayment(paid.sent, s.sandbox, s.storedCard.digitalCardId);
});

check('(h) 0 requests at the sandbox from each refused call (a refund of a payment in EUR: only its read)', () => {
	for (const { label, requests, reads } of s.refused) log(`${label}: ${requests} writes, ${reads} requests in all`);
	// [writes, requests] of (c) above the limit, (c) over the total, (d) in EUR (its read), (e), (f) twice, (g) in EUR.
	const expected = [[0, 0], [0, 0], [0, 1], [0, 0], [0, 0], [0, 0], [0, 0]];
	assert.deepEqual(s.refused.map(({ requests, reads }) => [requests, reads]), expected, 'writes and requests of each of the 7: one read in all');
});

check('(i) n8n keeps the client\'s arguments of a call in three places of its execution, "success" also when refused', async () => {
	const executions = await s.session.finishedExecutions(s.workflowId, s.calls, { timeoutMs: 60_000 });
	log(`${executions.length} executions for ${s.calls} tools/call requests: ${[...new Set(executions.map((execution) => execution.status))].join(', ')}`);
	const withData = await Promise.all(executions.map(({ id }) => s.session.execution(id)));
	const cardExecution = withData.findLast((execution) => JSON.stringify(execution.data).includes(CARD.cardNumber));
	assert.ok(cardExecution, 'the execution of the card call');
	const places = placesOf(cardExecution.data, CARD.cardNumber, TRIGGER);
	log(`the card number the client gave in (e) is kept in: ${places.join('; ')}`);
	assert.deepEqual([...new Set(places.map((place) => place.split(' ')[0]))].sort(), ['failure-output', 'tool-input', 'trigger-output']);
	const statuses = executions.map((execution) => execution.status);
	assert.deepEqual(statuses, Array(s.calls).fill('success'), 'one execution per tools/call, every one "success", also those refused');
});

check('(j) Maximum Total per Day 30 (10 per call, 10 per execution), a payment of 500: 8 calls one at a time send exactly 3 refunds; 4 at once send none', async () => {
	s.dayPayment = await paidPayment(s.sandbox, { amount: 500, receiptId: 'MCP-DAY-1' });
	const one = [];
	for (let index = 0; index < 8; index++) one.push(await refundTen());
	assert.deepEqual(one.map(refundsOf), [1, 1, 1, 0, 0, 0, 0, 0], 'refunds sent, call by call');
	for (const refused of one.slice(3)) {
		assert.ok(refused.isError, refused.text.slice(0, 300));
		assert.match(refused.text, /a refund of 10 USD would take this tool above its Maximum Total per Day of 30 USD: it has moved 30 USD in the last 24 hours, 0 USD left\. Enough for it frees up at /);
	}
	const atOnce = await Promise.all(Array.from({ length: 4 }, () => refundTen()));
	assert.deepEqual(atOnce.map(refundsOf), [0, 0, 0, 0], 'no refund of the 4 calls at once');
	assert.ok(atOnce.every((result) => /Maximum Total per Day/.test(result.text)));
	const refunds = refundsIn(s.sandbox.requests).filter((refund) => refund.paymentId === s.dayPayment.paymentId);
	assert.equal(refunds.length, 3);
	log(`Maximum Total per Day 30: 8 calls one at a time sent ${one.map(refundsOf).reduce((a, b) => a + b)} refunds of 10; 4 at once sent ${atOnce.map(refundsOf).reduce((a, b) => a + b)}`);
	log(`the refusal as the client reads it: ${one[3].text.slice(0, 260)}`);
});

check('(j) after n8n restarts, a further call the same day is still refused, nothing sent', async () => {
	await s.n8n.stop();
	// Started again on the same database: a new session, logged in as the owner it holds, and a new MCP client.
	s.server = await s.n8n.start();
	s.session = new RestSession(s.server.url);
	await s.session.login();
	await connect();
	const result = await refundTen();
	assert.ok(result.isError, result.text.slice(0, 300));
	assert.match(result.text, /Maximum Total per Day of 30 USD: it has moved 30 USD in the last 24 hours/);
	assert.equal(refundsOf(result), 0);
	const { staticData } = await s.session.data('GET', `/rest/workflows/${s.workflowId}`);
	const kept = JSON.stringify(staticData ?? {});
	assert.ok(!kept.includes(s.dayPayment.paymentId), 'amounts only in the static data, no payment id');
	log(`after a restart: refused, 0 refunds sent; the workflow's static data for the tool: ${kept.slice(0, 200)}`);
});

test('(i) leaks: secrets and card data in what n8n stored (database, logs, files in .n8n), but for the client\'s arguments', async (t) => {
	if (!s.n8n?.server) return t.skip('n8n did not run');
	const { result } = await searchLeaks(s.n8n, s.sandbox, { workflows: s.stored, cards: [CARD], allowedIn: mcpArgumentsRule(TRIGGER) });
	console.log(`NOTE the card number the client gave in (e) is kept by n8n in ${placesKeeping(result, CARD)}, only where it keeps an MCP client's arguments: n8n's doing; the node refused the call and sent nothing`);
});
