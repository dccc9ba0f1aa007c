'use strict';

// The AI Agent check, `npm run e2e:agent`: the package's tool nodes used by n8n's own AI Agent in a real n8n, its
// OpenAI Chat Model pointed at a local stand-in (agent/model.js) that scripts which tool to call with which arguments.
// The check's two workflows (agent/refunds.json, agent/card.json: Chat Trigger answered over HTTP, AI Agent, Payment
// Gateway tools) are published over REST; examples/support-agent.json is imported from its file as users do. Then:
//   (a) a status read through the agent; (b) refunds above the limit, at the default limit 0 and under it, two at
//   once against Maximum Total per Execution, and one of a payment in another currency than Limit Currency;
//   (c) a card payment asked by the model (card.json carries Payment Mode "New Card", which the editor does not offer
//   in tool mode, and a generous limit, so that only the card rule can refuse it), a stored card without the
//   customer's confirmation, and one with OTP Only whose CVV the model may not give; (d) the example, its human review
//   answered in the chat, the stand-in reading the sentences `npm run agent:standin` documents instead of a script;
//   (e) the sandbox's requests from every refused call; (f) the leak search over what n8n stored and logged and over
//   everything the stand-in received.

const assert = require('node:assert/strict');
const path = require('node:path');
const { test } = require('node:test');

const { approvalRequest, clickButton, openChatSocket, sendMessage } = require('./agent/chat');
const { startModel } = require('./agent/model');
const { modelRequestTexts, TOOL_CALL_ARGUMENTS } = require('./agent/stored');
const { toolName } = require('./mcp/workflow');
const { has, sandboxSecrets, searchLeaks, setUp, startN8n, story } = require('./lib/check');
const { EXAMPLES_DIR, unknownTypes } = require('./lib/examples');
const { gatewayRequest, paidPayment, statusPath, unpaidOrder } = require('./lib/gateway');
const { searchTexts } = require('./lib/leaks');
const { paths } = require('./lib/package');
const { onCleanUp, parseJson, sleep } = require('./lib/processes');
const { assertOtpOnlyPayment, assertToolRefused, placesKeeping, REFUND_PATH, refundsIn, storedCardOrder } = require('./lib/tools');

const USER_FOLDER = path.join(paths.WORK, 'agent', 'user');
const EXAMPLE_FILE = path.join(EXAMPLES_DIR, 'support-agent.json');
/** The credentials the check imports; the example finds them by name. */
const CREDENTIALS = {
	gateway: { id: 'pgAgentCred00001', name: 'Payment Gateway account', type: 'paymentGatewayApi' },
	model: { id: 'openAiStandIn001', name: 'OpenAI account', type: 'openAiApi' },
};
/** The card the stand-in model gives in (c): the sandbox's approved test card, an expiry and CVV nothing else uses. */
const CARD = { given: 'by the stand-in model in (c)', cardNumber: '4111111111111111', cardExpMonth: '11', cardExpYear: '31', cardCVV: '987' };
/** Refund Payment's Maximum Amount per Call in examples/support-agent.json. */
const LIMIT = 25;
const FINAL = (message) => message.startsWith('The tool answered:');

const s = { urls: {}, refused: [], stored: [] };
const { step, check, log } = story('agent');
const secrets = () => sandboxSecrets(s.sandbox, { cards: [CARD] });

/**
 * One chat message whose conversation the stand-in scripts: call `tool` with `args` (`times` at once, as a model asks
 * for parallel tool calls), then answer quoting the tool. Resolves with the chat caller's answer, the sandbox requests
 * meanwhile, the tool messages n8n gave the model, and the tools the model was offered.
 */
async function turn(url, chatInput, tool, args, times = 1) {
	s.model.script(chatInput, Array(times).fill({ tool: toolName(tool), args }));
	const before = s.sandbox.requests.length;
	const res = await sendMessage(url, { sessionId: `agent-check-${before}`, chatInput });
	const offered = (s.model.conversation(chatInput)[0]?.body.tools ?? []).map((offer) => offer.function);
	return { res, sent: s.sandbox.requests.slice(before), answers: s.model.toolAnswers(chatInput), offered };
}

/** The final answer the chat caller got must be the stand-in's, quoting the tool's one answer. */
function assertFinalAnswer({ res, answers }) {
	assert.deepEqual([res.status, answers.length], [200, 1], 'HTTP 200, one tool message');
	assert.equal(res.json?.output, `The tool answered: ${answers[0]}`, "the agent's final answer, quoting the tool, reaches the chat caller");
}

/** A refusal as the model reads it: n8n's error item, in the node's words from its start (lib/tools.js `assertToolRefused`). */
function assertRefusal(label, result, says, reads) {
	const error = parseJson(result.answers[0] ?? '')?.[0]?.error ?? '';
	assert.match(error, /^Refused: /, `the tool message: ${result.answers[0]?.slice(0, 300)}`);
	assertToolRefused(s.refused, label, { text: error, sent: result.sent }, says, reads);
	assertFinalAnswer(result);
}

/**
 * One message into the example's hosted chat, and the chat's WebSocket for the execution it started. Unscripted: the
 * stand-in reads the sentence as `npm run agent:standin` does.
 */
async function say(chatInput) {
	const before = s.sandbox.requests.length;
	const sessionId = `support-agent-${before}`;
	const res = await sendMessage(s.chatUrl, { sessionId, chatInput, cookie: `n8n-auth=${s.session.token}` });
	assert.ok(res.status === 200 && res.json?.executionStarted === true, `the hosted chat starts an execution: HTTP ${res.status} ${res.text.slice(0, 200)}`);
	return { executionId: res.json.executionId, before, socket: openChatSocket(s.server.url, { sessionId, ...res.json }) };
}

/**
 * A refund through the example's chat: the approval request (the payment, the amount with its currency, the limit,
 * and whether the amount is above it), what happened before the click, then the click.
 */
async function reviewedRefund(amount, buttonText) {
	const { paymentId, currency } = s.payment;
	const said = `Refund ${amount} ${currency} of payment ${paymentId}`;
	const chat = await say(said);
	try {
		const request = approvalRequest(await chat.socket.next((message) => Boolean(approvalRequest(message))));
		assert.ok(request, `the chat shows an approval request: ${chat.socket.messages.join(' | ').slice(0, 300)}`);
		log(`the review of a refund of ${amount}: ${request.text.replace(/\n+/g, ' / ')}`);
		assert.ok(request.text.startsWith(`Refund ${amount} ${currency} of payment ${paymentId}?`), `it shows the amount with its currency and the paymentId: ${request.text}`);
		assert.ok(request.text.includes(`refunds only payments in ${currency}, at most ${LIMIT} ${currency} per call`), `it shows the limit: ${request.text}`);
		assert.equal(request.text.includes('this refund is above it'), amount > LIMIT, `it says whether ${amount} is above ${LIMIT}: ${request.text}`);
		assert.deepEqual(request.buttons.map((button) => button.text).sort(), ['Approve refund', 'Decline']);
		// The request comes once the execution waits: nothing may have reached the gateway, nor may it while it waits.
		await sleep(1000);
		assert.equal(refundsIn(s.sandbox.requests.slice(chat.before)).length, 0, 'no refund before an answer');
		assert.equal((await s.session.data('GET', `/rest/executions/${chat.executionId}`)).status, 'waiting');
		assert.equal(await clickButton(request.buttons.find((button) => button.text === buttonText)), 200, `"${buttonText}" clicked`);
		const final = await chat.socket.next(FINAL);
		assert.ok(final, `the agent's final answer reaches the chat: ${chat.socket.messages.join(' | ').slice(0, 300)}`);
		return { final, refunds: refundsIn(s.sandbox.requests.slice(chat.before)), answers: s.model.toolAnswers(said) };
	} finally {
		chat.socket.close();
	}
}

step("the packed package in n8n with the stand-in model; support-agent.json imported, the check's agent workflows published", async () => {
	s.example = require(EXAMPLE_FILE);
	s.model = await startModel();
	onCleanUp(() => s.model.close());
	log(`stand-in model on ${s.model.url}`);
	const credentials = (sandbox) => [
		{ ...CREDENTIALS.gateway, data: sandbox.credentialData() },
		{ ...CREDENTIALS.model, data: { apiKey: 'stand-in-model-key', url: s.model.url } },
	];
	await setUp(s, USER_FOLDER, { log, credentials });
	await s.n8n.mustCli('imported examples/support-agent.json (n8n import:workflow)', ['import:workflow', `--input=${EXAMPLE_FILE}`]);
	s.stored.push(s.example);
	await startN8n(s);
	for (const name of ['refunds', 'card']) {
		const deployed = await s.session.deploy(require(`./agent/${name}.json`), s.server);
		s.stored.push(deployed.stored);
		s.urls[name] = deployed.url;
	}
	log(`the check's chats answer on ${Object.values(s.urls).join(', ')}`);
});

check('(a) Status → Get by Order ID as a tool, the order id from $fromAI: the simplified record comes back to the model', async () => {
	const paid = await paidPayment(s.sandbox, { amount: 25.5, receiptId: 'AGENT-STATUS-1' });
	const result = await turn(s.urls.refunds, `What is the status of order ${paid.orderId}?`, 'Order Status', { orderId: paid.orderId });
	const described = Object.fromEntries(result.offered.map((tool) => [tool.name, tool.description]));
	// Each tool carries its operation's description, which says whether it moves money.
	assert.match(described.Order_Status ?? '', /moves no money/);
	assert.match(described.Refund_Up_To_5 ?? '', /moves money/);
	assert.match(described.Refund_Without_Limit ?? '', /moves money/);
	const records = parseJson(result.answers[0] ?? '');
	assert.ok(Array.isArray(records) && records.length === 1, `one record as the tool message: ${result.answers[0]?.slice(0, 300)}`);
	const fields = { orderId: paid.orderId, paymentId: paid.paymentId, status: 'success', amount: 25.5, signature: undefined, paymentDetails: undefined };
	has(records[0], fields, 'simplified: no signature, no nesting');
	assert.deepEqual(result.sent.map((r) => r.apiPath), ['/nac/api/v1/pg/orders/check-status']);
	assertFinalAnswer(result);
});

check('(b) Transaction → Refund as a tool: refused above Maximum Amount per Call 5 and at the default 0; at 4 exactly one refund', async () => {
	const paid = await paidPayment(s.sandbox, { amount: 20, receiptId: 'AGENT-REFUND-1' });
	const ask = (amount, tool, why) => turn(s.urls.refunds, `Refund ${amount} of payment ${paid.paymentId} (${why})`, tool, { paymentId: paid.paymentId, amount });
	assertRefusal('refund of 10 at Maximum Amount per Call 5', await ask(10, 'Refund Up To 5', 'limit 5'), /a refund of 10 USD is above this tool's Maximum Amount per Call of 5 USD/);
	assertRefusal('refund of 1 at the default Maximum Amount per Call 0', await ask(1, 'Refund Without Limit', 'limit left at 0'), /Maximum Amount per Call is 0/);
	const under = await ask(4, 'Refund Up To 5', 'limit 5, under it');
	const sent = under.sent.map((r) => [r.apiPath, parseJson(r.body)?.amount]);
	assert.deepEqual(sent, [[statusPath(paid.paymentId), undefined], [REFUND_PATH, 4]], 'the payment read for its currency, then exactly one refund request, of 4');
	const [refund] = parseJson(under.answers[0] ?? '') ?? [];
	assert.deepEqual([refund?.paymentId, refund?.amount, refund?.paymentStatus], [paid.paymentId, 4, 'partially_refunded'], 'the refund comes back to the model');
	assert.ok(refund.refundId, 'with its refundId');
	assertFinalAnswer(under);
	const after = await gatewayRequest(s.sandbox, 'GET', statusPath(encodeURIComponent(paid.paymentId)));
	assert.equal(after.body?.data?.paymentStatus, 'partially_refunded', 'the gateway holds the payment partially refunded');
});

check('(b) two refunds of 3 asked at once under Maximum Total per Execution 5 (the default: Maximum Amount per Call): one sent, one refused', async () => {
	const paid = await paidPayment(s.sandbox, { amount: 20, receiptId: 'AGENT-BUDGET-1' });
	const result = await turn(s.urls.refunds, `Refund 3 twice of payment ${paid.paymentId}`, 'Refund Up To 5', { paymentId: paid.paymentId, amount: 3 }, 2);
	assert.equal(result.answers.length, 2, `two tool messages: ${result.answers.join(' | ').slice(0, 300)}`);
	const errors = result.answers.map((answer) => parseJson(answer)?.[0]?.error).filter(Boolean);
	assert.equal(errors.length, 1, result.answers.join(' | ').slice(0, 400));
	assert.match(errors[0], /^Refused: a refund of 3 USD would take this tool above its Maximum Total per Execution of 5 USD: it has moved (0|3) USD in this execution/);
	assert.deepEqual(refundsIn(result.sent).map((refund) => refund.amount), [3], 'exactly one refund of 3');
	// The refused call sent nothing: the one read is the sent refund's.
	s.refused.push({ label: 'second refund of 3 over the total of 5', requests: result.sent.length - 2 });
	assert.equal(result.res.status, 200);
});

check('(b) a refund of a payment in EUR through a tool limited in USD: refused after reading the payment, no refund sent', async () => {
	const paid = await paidPayment(s.sandbox, { amount: 20, receiptId: 'AGENT-EUR-1', currency: 'EUR' });
	const result = await turn(s.urls.refunds, `Refund 2 of payment ${paid.paymentId} (in euro)`, 'Refund Up To 5', { paymentId: paid.paymentId, amount: 2 });
	assertRefusal('refund of a payment in EUR', result, /the payment is in EUR, and this tool's limits are in USD \(Limit Currency\)/, [statusPath(paid.paymentId)]);
});

check('(c) Transaction → Initiate as a tool with card details from the model: refused, and no card data in the answers', async () => {
	const orderId = await unpaidOrder(s.sandbox, { amount: 12, receiptId: 'AGENT-CARD-1' });
	const { cardNumber, cardExpMonth, cardExpYear, cardCVV } = CARD;
	const args = { orderId, cardNumber, cardExpMonth, cardExpYear, cardCVV, cardHolderName: 'Cody Card', amount: 12 };
	const result = await turn(s.urls.card, `Pay order ${orderId} with this card`, 'Pay With Card', args);
	assertRefusal('card payment', result, /^Refused: an AI agent's tool may not pay with card details/);
	const answered = result.answers.map((text, index) => ({ where: 'tool message', row: `${index + 1}`, text }));
	answered.push({ where: 'chat answer', row: '1', text: result.res.text });
	assert.deepEqual(searchTexts(answered, secrets()), [], 'card number, CVV, expiry or a secret in the tool message or the chat answer');
});

check('(c) a stored card with Customer Authentication "None": refused, nothing sent', async () => {
	s.storedCard = await storedCardOrder(s.sandbox, 'AGENT');
	const result = await turn(s.urls.card, `Pay order ${s.storedCard.orderId} with the stored card, no confirmation`, 'Pay Stored Card Without Confirmation', s.storedCard);
	assertRefusal('stored card without confirmation', result, /only when the customer confirms the payment with a one-time password/);
});

check('(c) a stored card with OTP Only: the model is asked for no CVV, one given anyway is not sent, and the customer must confirm', async () => {
	const result = await turn(s.urls.card, `Pay order ${s.storedCard.orderId} with the stored card`, 'Pay Stored Card', { ...s.storedCard, cvv: '987' });
	const offered = result.offered.find((tool) => tool.name === 'Pay_Stored_Card');
	assert.deepEqual(Object.keys(offered?.parameters?.properties ?? {}).sort(), ['amount', 'currency', 'digitalCardId', 'orderId'], 'no cvv argument offered');
	assertOtpOnlyPayment(result.sent, s.sandbox, s.storedCard.digitalCardId);
	assert.equal(parseJson(result.answers[0] ?? '')?.[0]?.paymentStatus, 'pending');
	assertFinalAnswer(result);
});

check('(d) support-agent.json imported with n8n import:workflow: every node type known, its credentials found by name, its limit of 25 kept', async () => {
	assert.deepEqual(await unknownTypes(s.session, s.example), [], 'node types n8n does not know');
	const stored = await s.session.data('GET', `/rest/workflows/${s.example.id}`);
	const ids = stored.nodes.flatMap((node) => Object.values(node.credentials ?? {}).map((credential) => credential.id));
	assert.deepEqual(ids.map((id) => [CREDENTIALS.gateway.id, CREDENTIALS.model.id].includes(id)), [true, true, true], ids.join(', '));
	// A text field, as every money limit: what the author typed.
	assert.equal(stored.nodes.find((node) => node.name === 'Refund Payment')?.parameters.toolMaxAmount, String(LIMIT));
});

step('(d) support-agent.json published: its hosted chat answers, and refuses a message without an n8n login (401)', async () => {
	s.chatUrl = (await s.session.publish(s.example.id, s.example, s.server)).url;
	log(`its hosted chat answers on ${s.chatUrl}`);
	assert.equal((await sendMessage(s.chatUrl, { sessionId: 'no-login', chatInput: 'Refund everything' })).status, 401, 'only n8n users chat, and approve');
	s.payment = { ...(await paidPayment(s.sandbox, { amount: 30, receiptId: 'AGENT-EXAMPLE-1', currency: 'USD' })), currency: 'USD' };
});

check("(d) Order Status answered in the chat without a review, with the order's status", async () => {
	const { orderId } = s.payment;
	const chat = await say(`What is the status of order ${orderId}?`);
	const answer = await chat.socket.next((message) => FINAL(message) || Boolean(approvalRequest(message)));
	chat.socket.close();
	assert.ok(answer && FINAL(answer), `answered without a review: ${answer}`);
	assert.ok(answer.includes(`"orderId":"${orderId}"`) && answer.includes('"status":"success"'), answer.slice(0, 300));
});

check('(d) a sentence the stand-in does not read is answered with the two it does, and no tool runs', async () => {
	const chat = await say('Hello, what can you do?');
	const answer = await chat.socket.next((message) => message.includes('I understand two sentences') || Boolean(approvalRequest(message)));
	chat.socket.close();
	assert.ok(answer?.includes('"What is the status of order <orderId>?"') && answer.includes('"Refund <amount> <currency> of payment <paymentId>"'), `${answer}`);
	assert.equal(s.sandbox.requests.length, chat.before, 'requests at the sandbox');
});

check('(d) a refund of 10 approved in the chat: the execution waits for it, then exactly one refund of 10, in the answer', async () => {
	const approved = await reviewedRefund(10, 'Approve refund');
	assert.deepEqual(approved.refunds.map((refund) => [refund.paymentId, refund.amount]), [[s.payment.paymentId, 10]]);
	// An OMR amount comes back as the gateway writes it, with its three decimals ("10.000").
	assert.ok(/"refundId":"[^"]+"/.test(approved.final) && /"amount":"?10(\.0+)?"?[,}]/.test(approved.final), approved.final.slice(0, 300));
});

check('(d) a refund of 7 declined in the chat: no refund, and the model is told the person rejected it', async () => {
	const declined = await reviewedRefund(7, 'Decline');
	s.refused.push({ label: "refund of 7 declined in the example's chat", requests: declined.refunds.length });
	assert.equal(declined.refunds.length, 0);
	assert.match(declined.answers.at(-1) ?? '', /rejected the tool call to Refund Payment/);
});

check('(d) a refund of 30 approved in the chat: refused by Maximum Amount per Call 25, nothing sent', async () => {
	const above = await reviewedRefund(30, 'Approve refund');
	s.refused.push({ label: "refund of 30 approved in the example's chat, above its limit", requests: above.refunds.length });
	assert.equal(above.refunds.length, 0);
	assert.match(above.final, /Maximum Amount per Call of 25/);
});

check('(b) Maximum Total per Day 15 (10 per call): chat messages, each its own execution, stop at the day\'s budget', async () => {
	const paid = await paidPayment(s.sandbox, { amount: 100, receiptId: 'AGENT-DAY-1' });
	const sent = [];
	for (const [index, amount] of [6, 6, 6, 3].entries()) {
		const result = await turn(s.urls.refunds, `Refund ${amount} of payment ${paid.paymentId} (message ${index + 1} of the day)`, 'Refund With Day 15', { paymentId: paid.paymentId, amount });
		sent.push(refundsIn(result.sent).map((refund) => refund.amount));
		if (index === 2) {
			const error = parseJson(result.answers[0] ?? '')?.[0]?.error ?? '';
			assert.match(error, /^Refused: a refund of 6 USD would take this tool above its Maximum Total per Day of 15 USD: it has moved 12 USD in the last 24 hours, 3 USD left\./, result.answers[0]);
			log(`the third message's refusal as the model reads it: ${error.slice(0, 240)}`);
		}
		assertFinalAnswer(result);
	}
	assert.deepEqual(sent, [[6], [6], [], [3]], 'refunds sent, message by message: the third would pass 15, the fourth fits what is left');
});

check('(e) 0 requests at the sandbox from each of the 8 refused tool calls (a refund of a payment in EUR: but its read)', () => {
	for (const { label, requests } of s.refused) log(`${label}: ${requests} requests`);
	assert.deepEqual(s.refused.map(({ requests }) => requests), [0, 0, 0, 0, 0, 0, 0, 0]);
});

test('(f) leaks: secrets and card data in what n8n stored (database, logs, files in .n8n)', async (t) => {
	if (!s.n8n?.server) return t.skip('n8n did not run');
	const { result } = await searchLeaks(s.n8n, s.sandbox, { workflows: s.stored, cards: [CARD], allowedIn: TOOL_CALL_ARGUMENTS });
	console.log(
		`NOTE the card number the model gave in (c) is kept by n8n in ${placesKeeping(result, CARD)}, only where it keeps a ` +
			"model's tool-call arguments (execution data: the tool node's input, the agent's tool request, the chat model's " +
			"conversation; event log: the conversation of n8n.ai.llm.generated): n8n's doing, whatever the tool does; the node " +
			'refused the call and sent nothing',
	);
});

test('(f) leaks: none in what the stand-in model received (tool definitions, prompts, tool messages)', async (t) => {
	if (!s.model) return t.skip('the stand-in model did not run');
	const { texts, echoed } = modelRequestTexts(s.model.requests);
	const own = searchTexts(echoed, secrets());
	console.log(
		`NOTE ${new Set(own.map((hit) => hit.row)).size} of its requests carry back what it gave itself as tool-call arguments in ` +
			`(c) (${[...new Set(own.map((hit) => hit.what))].join(', ')}): n8n sends the conversation back whole`,
	);
	assert.ok(texts.length > 0, 'the stand-in model received requests');
	assert.deepEqual(searchTexts(texts, secrets()), []);
});
