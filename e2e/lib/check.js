'use strict';

// What every check adds to node:test: clean-up after the last test and on Ctrl-C, tests that build on each other, and
// the leak search over what n8n stored.

const assert = require('node:assert/strict');
const { after, test } = require('node:test');

const { findLeaks, printLeaks, secretsToFind } = require('./leaks');
const { cleanUp } = require('./processes');

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
 * `failures()` counts both kinds that failed.
 */
function story() {
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
	return { step: register(true), check: register(false), failures: () => failures };
}

/**
 * Stops n8n and searches what it stored for the secrets of the sandbox's clients (and `clients`), its card
 * encryption key and the card data of `workflows` and `cards`; fails on a hit or when there was nothing to search.
 */
async function searchLeaks(n8n, sandbox, { workflows = [], cards = [], clients = [], allowedIn } = {}) {
	await n8n.stop();
	const secrets = secretsToFind({
		clients: [sandbox.clients.active, sandbox.clients.inactive, ...clients],
		cardEncryptionKey: sandbox.cardEncryptionKey,
		workflows,
		cards,
	});
	const result = await findLeaks(n8n, { secrets, workflows, allowedIn });
	assert.ok(printLeaks(result), `${secrets.length} secrets searched for: a leak, or nothing to search (above)`);
	return { result, secrets };
}

module.exports = { story, searchLeaks };
