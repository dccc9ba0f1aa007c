'use strict';

// Chatting with an n8n Chat Trigger the way n8n's chat widget does, without a browser:
//
// - a message is a POST to the trigger's production URL (`/webhook/<webhookId>/chat`) with
//   { action: 'sendMessage', sessionId, chatInput }. In "Embedded Chat" mode, answered when the last node finishes,
//   the answer is the agent's output. In "Hosted Chat" mode with Response Mode "Using Response Nodes" (what the chat
//   human-review tool needs), n8n answers at once with { executionStarted, executionId, resumeToken }...
// - ...and the widget then opens a WebSocket on `/chat?sessionId&executionId&isPublic=true&token=<resumeToken>`,
//   where n8n (polling every 3 s) sends what the execution has for the chat: an approval request is a JSON message
//   { type: 'with-buttons', text, buttons: [{ text, link }] }, a Respond to Chat node's message is its text, and
//   'n8n|continue' says the execution went on. It sends 'n8n|heartbeat' and expects 'n8n|heartbeat-ack'.
// - A button is a link to the execution's waiting webhook, opened by the person's browser. n8n ignores such a GET
//   from a user agent it takes for a bot (link previews must not approve anything), and Node's fetch is one.

const { requireFromN8n } = require('../lib/package');
const { parseJson, waitUntil } = require('../lib/processes');
const { post } = require('../lib/rest');

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/** One chat message; `cookie`: an n8n session, for "n8n User Auth". */
const sendMessage = (url, { sessionId, chatInput, cookie }) =>
	post(url, { action: 'sendMessage', sessionId, chatInput }, { headers: cookie ? { cookie } : {} });

/**
 * The chat widget's WebSocket for one execution: `messages` (all but heartbeats), `next(test, timeoutMs)` resolving
 * with the first message since the last `next` that passes `test` (undefined after the timeout), `close()`.
 */
function openChatSocket(serverUrl, { sessionId, executionId, resumeToken }) {
	const WebSocket = requireFromN8n('ws');
	const query = new URLSearchParams({ sessionId, executionId, isPublic: 'true', token: resumeToken });
	const socket = new WebSocket(`${serverUrl.replace(/^http/, 'ws')}/chat?${query}`);
	const chat = { messages: [], closed: false, read: 0, close: () => socket.close() };
	socket.on('message', (data) => (String(data) === 'n8n|heartbeat' ? socket.send('n8n|heartbeat-ack') : chat.messages.push(String(data))));
	for (const event of ['close', 'error']) socket.on(event, () => (chat.closed = true));
	chat.next = async (test, timeoutMs = 30_000) => {
		const index = () => chat.messages.findIndex((message, at) => at >= chat.read && test(message));
		await waitUntil(() => chat.closed || index() >= 0, { timeoutMs, intervalMs: 100 });
		const found = index();
		if (found >= 0) chat.read = found + 1;
		return chat.messages[found];
	};
	return chat;
}

/** An approval request as the chat shows it, or undefined for any other message. */
function approvalRequest(message) {
	const parsed = message?.startsWith('{') ? parseJson(message) : undefined;
	return parsed?.type === 'with-buttons' ? parsed : undefined;
}

/** Clicks a button of an approval request: its link opened as a browser opens it; resolves with the HTTP status. */
async function clickButton(button) {
	const res = await fetch(button.link, { headers: { 'user-agent': BROWSER } });
	await res.text();
	return res.status;
}

module.exports = { sendMessage, openChatSocket, approvalRequest, clickButton };
