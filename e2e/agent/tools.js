'use strict';

// Checks (a) to (c) of `npm run e2e:agent`: the package's tool nodes called by n8n's AI Agent on the stand-in model's
// say-so, through the check's own workflows (workflows.js) chatted with over HTTP. Each turn: the stand-in is told
// which tool to call with which arguments, a chat message goes to the workflow, and the check reads what the
// sandbox gateway received meanwhile, the tool message n8n gave the model, and the answer the chat caller got.
//
// Context `t`: report, sandbox, model, urls ({ refunds, card }: the chat URLs), refused (filled in here: every
// refused call with the gateway requests it made), card (the card data the model supplies in (c)), secrets (what
// the leak search looks for).

const { gatewayRequest, paidPayment, unpaidOrder } = require('../lib/gateway');
const { searchTexts } = require('../lib/leaks');
const { sendMessage } = require('./chat');
const { toolName } = require('./workflows');

const REFUND_PATH = '/transaction/refund';

const parseJson = (text) => {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
};

/**
 * One chat message whose conversation the stand-in scripts: call `tool` with `args`, then answer quoting the tool.
 * Resolves with { res (the chat caller's answer), sent (sandbox requests meanwhile), answers (tool messages),
 * offered (the tools of the model's first request) }.
 */
async function turn(t, url, chatInput, tool, args) {
	t.model.script(chatInput, { tool: toolName(tool), args });
	const before = t.sandbox.requests.length;
	const res = await sendMessage(url, { sessionId: `agent-check-${before}`, chatInput });
	const [first] = t.model.conversation(chatInput);
	return {
		res,
		sent: t.sandbox.requests.slice(before),
		answers: t.model.toolAnswers(chatInput),
		offered: (first?.body.tools ?? []).map((offer) => offer.function),
	};
}

/** The final answer the chat caller got must be the stand-in's, quoting the tool's answer. */
function checkFinalAnswer(t, label, { res, answers }) {
	const expected = `The tool answered: ${answers.at(-1)}`;
	t.report.check(
		res.status === 200 && answers.length === 1 && res.json?.output === expected,
		`${label}: the agent's final answer, quoting the tool, reaches the chat caller`,
		`HTTP ${res.status}, ${answers.length} tool messages, ${res.text.slice(0, 200)}`,
	);
}

/** A refusal as the model reads it: n8n's error item, the node's words. */
function checkRefusal(t, label, result, says) {
	const [answer] = result.answers;
	const error = parseJson(answer)?.[0]?.error ?? '';
	t.report.check(
		/^Refused: /.test(error) && says.test(error) && error.includes('Nothing was sent to the payment gateway'),
		`${label}: refused, and the refusal reaches the model as the tool message`,
		answer?.slice(0, 300) ?? 'no tool message',
	);
	const sent = result.sent.map((request) => request.apiPath);
	t.report.check(sent.length === 0, `${label}: 0 requests at the sandbox`, `${sent.length}: ${sent.join(', ')}`);
	t.refused.push({ label, requests: result.sent.length });
	checkFinalAnswer(t, label, result);
}

async function statusRead(t) {
	const { check } = t.report;
	console.log('\n(a) Status → Get by Order ID as a tool, the order id from $fromAI');
	const paid = await paidPayment(t.sandbox, { amount: 25.5, receiptId: 'AGENT-STATUS-1' });
	const said = `What is the status of order ${paid.orderId}?`;
	const result = await turn(t, t.urls.refunds, said, 'Order Status', { orderId: paid.orderId });

	const described = Object.fromEntries(result.offered.map((tool) => [tool.name, tool.description]));
	check(
		/moves no money/.test(described.Order_Status) &&
			/moves money/.test(described.Refund_Up_To_5) &&
			/moves money/.test(described.Refund_Without_Limit),
		"the model is offered Order_Status, Refund_Up_To_5 and Refund_Without_Limit, each with its operation's description (whether it moves money)",
		Object.keys(described).join(', '),
	);
	const records = parseJson(result.answers[0] ?? '');
	const [record] = Array.isArray(records) ? records : [];
	check(
		records?.length === 1 &&
			record.orderId === paid.orderId &&
			record.paymentId === paid.paymentId &&
			record.status === 'success' &&
			record.amount === 25.5,
		'the order\'s record comes back to the model as the tool message (status success, its paymentId and amount)',
		result.answers[0]?.slice(0, 300),
	);
	check(
		record && !('signature' in record) && !('paymentDetails' in record),
		'the record is simplified (no signature, no nesting)',
		Object.keys(record ?? {}).join(', '),
	);
	check(
		result.sent.length === 1 && result.sent[0].apiPath === '/nac/api/v1/pg/orders/check-status',
		'one check-status request at the sandbox',
		result.sent.map((r) => r.apiPath).join(', '),
	);
	checkFinalAnswer(t, 'status', result);
}

async function refunds(t) {
	const { check } = t.report;
	console.log('\n(b) Transaction → Refund as a tool: above the limit, at the default limit 0, under the limit');
	const paid = await paidPayment(t.sandbox, { amount: 20, receiptId: 'AGENT-REFUND-1' });
	const ask = (amount, tool, why) =>
		turn(t, t.urls.refunds, `Refund ${amount} of payment ${paid.paymentId} (${why})`, tool, { paymentId: paid.paymentId, amount });

	const above = await ask(10, 'Refund Up To 5', 'limit 5');
	checkRefusal(t, 'refund of 10 at Maximum Amount per Call 5', above, /a refund of 10 is above this tool's Maximum Amount per Call of 5/);
	const unset = await ask(1, 'Refund Without Limit', 'limit left at 0');
	checkRefusal(t, 'refund of 1 at the default Maximum Amount per Call 0', unset, /Maximum Amount per Call is 0/);

	const under = await ask(4, 'Refund Up To 5', 'limit 5, under it');
	const refundsSent = under.sent.filter((request) => request.apiPath === REFUND_PATH);
	check(
		under.sent.length === 1 && refundsSent.length === 1 && parseJson(refundsSent[0].body)?.amount === 4,
		'refund of 4 at Maximum Amount per Call 5: exactly one refund request at the sandbox, of 4',
		under.sent.map((r) => `${r.apiPath} ${r.body}`).join('; '),
	);
	const [refund] = parseJson(under.answers[0] ?? '') ?? [];
	check(
		refund?.paymentId === paid.paymentId &&
			refund.amount === 4 &&
			Boolean(refund.refundId) &&
			refund.paymentStatus === 'partially_refunded',
		'refund of 4: the refund (refundId, amount, paymentStatus partially_refunded) comes back to the model',
		under.answers[0]?.slice(0, 300),
	);
	checkFinalAnswer(t, 'refund of 4', under);
	const after = await gatewayRequest(t.sandbox, 'GET', `/transaction/status/${encodeURIComponent(paid.paymentId)}`);
	check(
		after.body?.data?.paymentStatus === 'partially_refunded',
		'the gateway holds the payment partially refunded',
		JSON.stringify(after.body).slice(0, 200),
	);
}

async function cardPayment(t) {
	const { check } = t.report;
	console.log('\n(c) Transaction → Initiate as a tool with Payment Mode "New Card" and card details from the model');
	const orderId = await unpaidOrder(t.sandbox, { amount: 12, receiptId: 'AGENT-CARD-1' });
	const { cardNumber, cardExpMonth, cardExpYear, cardCVV } = t.card;
	const result = await turn(t, t.urls.card, `Pay order ${orderId} with this card`, 'Pay With Card', {
		orderId,
		cardNumber,
		cardExpMonth,
		cardExpYear,
		cardCVV,
		cardHolderName: 'Cody Card',
		amount: 12,
	});
	checkRefusal(t, 'card payment', result, /^Refused: an AI agent's tool may not pay with card details/);
	const answered = [
		...result.answers.map((text, index) => ({ where: 'tool message', row: `${index + 1}`, text })),
		{ where: 'chat answer', row: '1', text: result.res.text },
	];
	const echoed = searchTexts(answered, t.secrets);
	check(
		echoed.length === 0,
		'card payment: no card number, CVV or expiry (nor any secret) in the tool message or the chat answer',
		echoed.map((hit) => `${hit.where}: ${hit.what}`).join(', '),
	);
}

module.exports = { statusRead, refunds, cardPayment };
