'use strict';

// Check (d) of `npm run e2e:agent`: examples/support-agent.json as users get it, imported from its file with
// `n8n import:workflow` (by agent.js, before n8n starts), published, and chatted with as n8n's hosted chat does it
// (chat.js): Order Status answered without review; Refund Payment behind the chat's human review, approved once,
// declined once, and approved above the example's Maximum Amount per Call.
//
// Context `t`: as in tools.js, plus session (REST, logged in), server, example (the workflow as in its file).

const { paidPayment } = require('../lib/gateway');
const { sleep } = require('../lib/processes');
const { approvalRequest, clickButton, openChatSocket, sendMessage } = require('./chat');
const { CHAT_TRIGGER, CREDENTIALS, toolName } = require('./workflows');

const REFUND_PATH = '/transaction/refund';
const FINAL = (message) => message.startsWith('The tool answered:');

/** n8n's view of the imported example: node types and versions it knows, credentials found by name. */
async function checkImported(t) {
	const { check, must } = t.report;
	const { status, body: types } = await t.session.call('GET', '/types/nodes.json');
	must(status === 200 && Array.isArray(types), 'n8n lists its node types (/types/nodes.json)', `HTTP ${status}`);
	const known = new Set(types.flatMap((type) => [type.version].flat().map((version) => `${type.name}@${version}`)));
	const used = t.example.nodes.map((node) => `${node.type}@${node.typeVersion}`);
	const unknown = used.filter((type) => !known.has(type));
	check(
		unknown.length === 0,
		`n8n knows every node type and version the example uses (${[...new Set(used)].join(', ')})`,
		unknown.join(', '),
	);
	const stored = await t.session.data('GET', `/rest/workflows/${t.example.id}`);
	const ids = stored.nodes.flatMap((node) => Object.values(node.credentials ?? {}).map((credential) => credential.id));
	const expected = [CREDENTIALS.gateway.id, CREDENTIALS.model.id];
	check(
		ids.length === 3 && ids.every((id) => expected.includes(id)),
		`imported with n8n import:workflow, its nodes use "${CREDENTIALS.gateway.name}" and "${CREDENTIALS.model.name}", found by name`,
		ids.join(', '),
	);
	const refund = stored.nodes.find((node) => node.name === 'Refund Payment');
	const limit = refund?.parameters.toolMaxAmount;
	check(limit === 25, 'Refund Payment keeps its Maximum Amount per Call of 25', `${limit}`);
}

/**
 * One message into the example's chat, and the chat's WebSocket for its execution. Resolves with { executionId,
 * socket, before (the sandbox's request count before it) }.
 */
async function say(t, chatInput, tool, args) {
	t.model.script(chatInput, { tool: toolName(tool), args });
	const before = t.sandbox.requests.length;
	const sessionId = `support-agent-${before}`;
	const res = await sendMessage(t.chatUrl, { sessionId, chatInput, cookie: `n8n-auth=${t.session.token}` });
	t.report.must(
		res.status === 200 && res.json?.executionStarted === true,
		`"${chatInput.slice(0, 40)}…": the hosted chat starts an execution`,
		`HTTP ${res.status} ${res.text.slice(0, 200)}`,
	);
	const { executionId, resumeToken } = res.json;
	return { executionId, before, socket: openChatSocket(t.server.url, { sessionId, executionId, resumeToken }) };
}

const refundsSince = (t, before) => t.sandbox.requests.slice(before).filter((request) => request.apiPath === REFUND_PATH);

async function executionStatus(t, id) {
	const execution = await t.session.data('GET', `/rest/executions/${id}`);
	return execution.status;
}

/** A refund through the chat: the approval request, what happened before the click, then the click. */
async function reviewedRefund(t, label, payment, amount, buttonText) {
	const { check, must } = t.report;
	const said = `Refund ${amount} of payment ${payment.paymentId}`;
	const chat = await say(t, said, 'Refund Payment', { paymentId: payment.paymentId, amount });
	const request = approvalRequest(await chat.socket.next((message) => Boolean(approvalRequest(message))));
	must(Boolean(request), `${label}: the chat shows an approval request`, chat.socket.messages.join(' | ').slice(0, 300));
	check(
		request.text.includes(payment.paymentId) && new RegExp(`\\b${amount}\\b`).test(request.text),
		`${label}: the approval request shows the tool's parameters (the paymentId and ${amount})`,
		request.text,
	);
	const labels = request.buttons.map((button) => button.text);
	const shown = [...labels].sort().join(', ');
	check(shown === 'Approve refund, Decline', `${label}: with the buttons Approve refund and Decline`, shown);
	// The request comes once the execution waits: nothing may have reached the gateway, nor may it while it waits.
	await sleep(1000);
	check(
		refundsSince(t, chat.before).length === 0 && (await executionStatus(t, chat.executionId)) === 'waiting',
		`${label}: before an answer the execution waits and no refund reached the sandbox`,
		`${refundsSince(t, chat.before).length} refund requests`,
	);
	const status = await clickButton(request.buttons.find((button) => button.text === buttonText));
	check(status === 200, `${label}: "${buttonText}" clicked (GET of its link answered 200)`, `HTTP ${status}`);
	const final = await chat.socket.next(FINAL);
	check(Boolean(final), `${label}: the agent's final answer reaches the chat`, chat.socket.messages.join(' | ').slice(0, 300));
	chat.socket.close();
	return { final: final ?? '', refunds: refundsSince(t, chat.before), answers: t.model.toolAnswers(said) };
}

async function supportAgent(t) {
	const { check, must } = t.report;
	console.log('\n(d) examples/support-agent.json: imported from its file, human review answered in the chat');
	await checkImported(t);
	await t.session.activateWorkflow(t.example.id);
	const trigger = t.example.nodes.find((node) => node.type === CHAT_TRIGGER);
	t.chatUrl = t.server.webhookUrl(`${trigger.webhookId}/chat`);
	await t.session.waitForWebhook(t.chatUrl);
	t.report.pass(`published over REST; its hosted chat answers on ${t.chatUrl}`);
	const anonymous = await sendMessage(t.chatUrl, { sessionId: 'no-login', chatInput: 'Refund everything' });
	check(
		anonymous.status === 401,
		'a message without an n8n login is refused (401): only n8n users chat, and approve',
		`HTTP ${anonymous.status}`,
	);

	const payment = await paidPayment(t.sandbox, { amount: 30, receiptId: 'AGENT-EXAMPLE-1' });
	const status = await say(t, `What is the status of order ${payment.orderId}?`, 'Order Status', { orderId: payment.orderId });
	const answer = await status.socket.next((message) => FINAL(message) || Boolean(approvalRequest(message)));
	status.socket.close();
	must(Boolean(answer) && FINAL(answer), 'Order Status: answered in the chat without a review', answer ?? 'no answer');
	check(
		answer.includes(`"orderId":"${payment.orderId}"`) && answer.includes('"status":"success"'),
		"Order Status: the answer holds the order's status",
		answer.slice(0, 300),
	);

	const approved = await reviewedRefund(t, 'refund of 10, approved', payment, 10, 'Approve refund');
	const [sent] = approved.refunds;
	check(
		approved.refunds.length === 1 && JSON.parse(sent.body).paymentId === payment.paymentId && JSON.parse(sent.body).amount === 10,
		'refund of 10, approved: exactly one refund request at the sandbox, of 10',
		`${approved.refunds.length} refund requests`,
	);
	check(
		/"refundId":"[^"]+"/.test(approved.final) && approved.final.includes('"amount":10'),
		'refund of 10, approved: the refund comes back in the answer',
		approved.final.slice(0, 300),
	);

	const declined = await reviewedRefund(t, 'refund of 7, declined', payment, 7, 'Decline');
	check(declined.refunds.length === 0, 'refund of 7, declined: no refund request at the sandbox', `${declined.refunds.length}`);
	check(
		/rejected the tool call to Refund Payment/.test(declined.answers.at(-1) ?? ''),
		'refund of 7, declined: the model is told the person rejected it',
		declined.answers.at(-1),
	);
	t.refused.push({ label: "refund of 7 declined in the example's chat", requests: declined.refunds.length });

	const above = await reviewedRefund(t, 'refund of 30, approved', payment, 30, 'Approve refund');
	check(
		above.refunds.length === 0 && /Maximum Amount per Call of 25/.test(above.final),
		'refund of 30, approved: refused by Maximum Amount per Call 25, nothing sent',
		above.final.slice(0, 300),
	);
	t.refused.push({ label: "refund of 30 approved in the example's chat, above its limit", requests: above.refunds.length });
}

module.exports = { supportAgent };
