'use strict';

// What every check adds to node:test: clean-up after the last test and on Ctrl-C, tests that build on each other, the
// set-up they share, and the leak search over what n8n stored.

const assert = require('node:assert/strict');
const { after, test } = require('node:test');

const { startSandbox } = require('../../sandbox/gateway');
const { findLeaks, printLeaks, secretsToFind } = require('./leaks');
const { createN8n } = require('./n8n');
const { preparePackage } = require('./package');
const { cleanUp, onCleanUp } = require('./processes');
const { RestSession } = require('./rest');

after(cleanUp);
for (const signal of ['SIGINT', 'SIGTERM']) {
	process.once(signal, async () => {
		console.log(`interrupted by ${signal}: stopping everything started`);
		await cleanUp();
		process.exit(130);
	});
}

/**
 * A check's tests in the order they build on each other: `step` is one the rest needs (after it failed, the rest are
 * skipped rather than failed for its sake), `check` one that needs the steps before it but nothing needs.
 * `failures()` counts both kinds that failed; `log(message)` prints a line under the check's `name`.
 */
function story(checkName) {
	let failed;
	let failures = 0;
	const register = (stops) => (name, fn) =>
		test(name, async (t) => {
			if (failed) return t.skip(`"${failed}" failed`);
			try {
				return await fn(t);
			} catch (error) {
				failures++;
				if (stops) failed = name;
				throw error;
			}
		});
	return { step: register(true), check: register(false), failures: () => failures, log: (message) => console.log(`${checkName}: ${message}`) };
}

/** The credential the checks' own workflows name for the sandbox. */
const SANDBOX_CREDENTIAL = { id: 'pgSandboxCred001', name: 'Payment Gateway sandbox', type: 'paymentGatewayApi' };

/**
 * The packed package installed into a real n8n on `userFolder`, the sandbox gateway, and the credentials
 * `credentials(sandbox)` gives imported (by default SANDBOX_CREDENTIAL with the sandbox's data): `s.sandbox`, `s.n8n`.
 */
async function setUp(s, userFolder, { log, credentials = (sandbox) => [{ ...SANDBOX_CREDENTIAL, data: sandbox.credentialData() }], ...options }) {
	await preparePackage(userFolder, { log });
	s.sandbox = await startSandbox({ port: 0 });
	onCleanUp(() => s.sandbox.close());
	log(`sandbox gateway on ${s.sandbox.url}`);
	s.n8n = await createN8n({ userFolder, log, ...options });
	const imported = credentials(s.sandbox);
	if (imported.length) await s.n8n.importCredentials(imported);
}

/** n8n started, its owner set up over REST: `s.server`, `s.session`. */
async function startN8n(s) {
	s.server = await s.n8n.start();
	s.session = new RestSession(s.server.url);
	await s.session.setupOwner();
}

/** The fields of `object` that `expected` names must be `expected`'s: one comparison that shows every field. */
const has = (object, expected, message) => assert.deepEqual(Object.fromEntries(Object.keys(expected).map((key) => [key, object?.[key]])), expected, message);

/** The secrets of the sandbox's clients (and `clients`), its card encryption key and the card data of `workflows` and `cards`. */
const sandboxSecrets = (sandbox, { clients = [], workflows = [], cards = [] } = {}) =>
	secretsToFind({ clients: [sandbox.clients.active, sandbox.clients.inactive, ...clients], cardEncryptionKey: sandbox.cardEncryptionKey, workflows, cards });

/** Stops n8n and searches what it stored for `sandboxSecrets`; fails on a hit or when there was nothing to search. */
async function searchLeaks(n8n, sandbox, { workflows = [], cards = [], clients = [], allowedIn } = {}) {
	await n8n.stop();
	const secrets = sandboxSecrets(sandbox, { clients, workflows, cards });
	const result = await findLeaks(n8n, { secrets, workflows, allowedIn });
	assert.ok(printLeaks(result), `${secrets.length} secrets searched for: a leak, or nothing to search (above)`);
	return { result, secrets };
}

/** The last test of a check: the leak search over what n8n stored, with `options()` of searchLeaks. */
const leakTest = (s, options) =>
	test('leaks: secrets and card data in what n8n stored (database, logs, files in .n8n)', (t) => (s.n8n ? searchLeaks(s.n8n, s.sandbox, options()) : t.skip('n8n did not run')));

module.exports = { SANDBOX_CREDENTIAL, has, story, setUp, startN8n, sandboxSecrets, searchLeaks, leakTest };
