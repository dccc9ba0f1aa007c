'use strict';

// The rules a tool node keeps alike whoever calls it, asserted alike by the AI Agent check (agent.js) and the MCP
// check (mcp.js): a refusal sends nothing, and a stored-card payment with OTP Only sends no CVV.

const assert = require('node:assert/strict');

const { decryptCardDetails } = require('../../sandbox/checks');
const { cardPayment, unpaidOrder } = require('./gateway');
const { parseJson } = require('./processes');

const REFUND_PATH = '/transaction/refund';

/** The bodies of the refund requests among `requests`, the sandbox's ({} for a body that is not JSON). */
const refundsIn = (requests) => requests.filter((request) => request.apiPath === REFUND_PATH).map((request) => parseJson(request.body) ?? {});

/**
 * A refusal as the caller reads it (`text`, the node's words), and what reached the sandbox (`sent`): nothing, or only
 * `reads`, the read of the payment a refund refused for its currency costs. Tallied in `refused` for the check's count.
 */
function assertToolRefused(refused, label, { text, sent }, says, reads = []) {
	refused.push({ label, requests: sent.filter((request) => !reads.includes(request.apiPath)).length, reads: sent.length });
	const unsent = reads.length ? 'No refund was sent; only the payment was read' : 'Nothing was sent to the payment gateway';
	assert.ok(/Refused: /.test(text) && says.test(text) && text.includes(unsent), `the refusal: ${text.slice(0, 300)}`);
	assert.deepEqual(sent.map((request) => request.apiPath), reads, 'requests at the sandbox');
}

/** A stored-card payment with OTP Only (`sent`): one request, the customer confirms, and no CVV, whatever the caller gave. */
function assertOtpOnlyPayment(sent, sandbox, digitalCardId) {
	assert.deepEqual(sent.map((request) => request.apiPath), ['/transaction/initiate']);
	const body = parseJson(sent[0].body);
	assert.deepEqual([body.skipCVVandOTP, body.skipCVVOnlyFlag], [false, true], 'OTP only: the customer confirms');
	assert.deepEqual(decryptCardDetails(body.encryptedCardDetails, sandbox.cardEncryptionKey), { digitalCardId }, 'no CVV sent');
}

/**
 * A card stored by a first payment (receipt `<prefix>-STORE-1`) and a new order of 20 USD (`<prefix>-TOKEN-1`): the
 * arguments of a stored-card payment of it.
 */
async function storedCardOrder(sandbox, prefix) {
	const stored = await cardPayment(sandbox, await unpaidOrder(sandbox, { amount: 5, receiptId: `${prefix}-STORE-1` }), { secureCard: true });
	const orderId = await unpaidOrder(sandbox, { amount: 20, receiptId: `${prefix}-TOKEN-1` });
	return { orderId, digitalCardId: stored.securedCardDetails.digitalCardId, amount: 20, currency: 'USD' };
}

/** Where the leak search found `card`'s number in what it allows (where n8n keeps a caller's arguments), for a note. */
const placesKeeping = (result, card) =>
	[...new Set(result.allowedElsewhere.filter((hit) => hit.what === `card number ending ${card.cardNumber.slice(-4)}`).map((hit) => hit.where))].join(' and ') || 'no place';

module.exports = { REFUND_PATH, refundsIn, assertToolRefused, assertOtpOnlyPayment, storedCardOrder, placesKeeping };
