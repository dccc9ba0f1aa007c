'use strict';

// `npm run sandbox`: runs the sandbox gateway in the foreground and prints
// what to paste into the n8n credential.

const { startSandbox } = require('./gateway');

function envNumber(name, fallback) {
	const raw = process.env[name];
	if (raw === undefined || raw === '') return fallback;
	const n = Number(raw);
	if (!Number.isInteger(n) || n < 0) {
		console.error(`${name} must be a non-negative integer, got "${raw}"`);
		process.exit(1);
	}
	return n;
}

async function main() {
	const latencyMs = envNumber('LATENCY_MS', 0);
	const sandbox = await startSandbox({
		port: envNumber('PORT', 8787),
		latencyMs,
		notificationUrl: process.env.NOTIFICATION_URL || null,
		notificationFormat: process.env.NOTIFICATION_FORMAT || undefined,
		notificationPadding: ['1', 'true'].includes(process.env.NOTIFICATION_PADDING ?? ''),
	});
	const { active, inactive } = sandbox.clients;
	const { url, format, pad } = sandbox.notificationSettings;
	const notifications = url ? `${format}${pad ? ', padded' : ''}, to ${url}` : 'off (set NOTIFICATION_URL)';
	console.log(`Sandbox payment gateway listening on ${sandbox.url}

Credential "Payment Gateway API":
  Base URL            ${sandbox.baseUrl}
  Checkout Base URL   ${sandbox.checkoutBaseUrl}
  Client ID           ${active.clientId}
  Client Secret       ${active.clientSecret}
  Card Encryption Key ${sandbox.cardEncryptionKey}
  Merchant Domain     any value, e.g. https://shop.example.com
  Hosted Checkout Page URL  ${sandbox.url}/__sandbox/cpbs/pg

Inactive client (answers 401): ${inactive.clientId} / ${inactive.clientSecret}

Test cards: 4111111111111111 (Visa), 5186001700008785 (Mastercard) approve;
            4393570006367857 declines. Any future expiry, CVV 123.

Control API: ${sandbox.url}/__sandbox/...  (see sandbox/README.md)
Notifications: ${notifications}
Latency: ${latencyMs} ms. Press Ctrl+C to stop.`);

	let stopping = false;
	const stop = () => {
		if (stopping) return;
		stopping = true;
		sandbox.close().then(() => process.exit(0));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((err) => {
	console.error(`Sandbox failed to start: ${err.message}`);
	process.exit(1);
});
