'use strict';

// CPU time of the package's text handling on adversarial input, measured in a process of its own (forked by
// test/unit/linear-inputs.test.ts), where no other test, sandbox or collector of a jest worker runs beside it. Each
// case runs once to warm up, then once measured; the answer is the CPU milliseconds of the measured run, per case.

require('./load-ts');

const { funnelFor, MAX_READ } = require('../../nodes/PaymentGateway/transport/redact.ts');
const { knownFailureFields } = require('../../nodes/PaymentGateway/transport/failureFields.ts');
const { asKind, declaredOutput } = require('../../nodes/PaymentGateway/transport/outputs.ts');
const { PAYMENT, PAYMENT_RECORD } = require('../../nodes/PaymentGateway/shared/answers.ts');
const input = require('../../nodes/PaymentGateway/validation/input.ts');
const { answerAmount, fieldAmount } = require('../../nodes/PaymentGateway/validation/amount.ts');
const { checkCredentialFields } = require('../../nodes/PaymentGateway/validation/credential.ts');
const { readNotification } = require('../../nodes/PaymentGatewayTrigger/notification.ts');
const { claimOf } = require('../../nodes/PaymentGateway/shared/rechecks.ts');

const MIB = 1024 * 1024;
/** Texts that make backtracking patterns, digit-run scanners and decoders work hardest, 1 MiB each. */
const TEXTS = {
	'"1," repeated': '1,'.repeat(MIB / 2),
	'"1 " repeated': '1 '.repeat(MIB / 2),
	'digits': '1'.repeat(MIB),
	'"1-" repeated': '1-'.repeat(MIB / 2),
	'"%2" repeated': '%2'.repeat(MIB / 2),
	'"%41" repeated': '%41'.repeat(MIB / 3),
	'"+" repeated': '+'.repeat(MIB),
	'"Basic " repeated': 'Basic '.repeat(MIB / 6),
	'"cvv 1" repeated': 'cvv 1'.repeat(MIB / 5),
	'"exp 1/" repeated': 'exp 1/'.repeat(MIB / 6),
	'"4111 1111 1111 " repeated': '4111 1111 1111 '.repeat(MIB / 15),
	'slashes': '/'.repeat(MIB),
	'"0." repeated': '0.'.repeat(MIB / 2),
	'base64 of base64': Buffer.from(Buffer.from('x'.repeat(MIB / 2)).toString('base64')).toString('base64').slice(0, MIB),
	'"%5C" repeated': '%5C'.repeat(MIB / 3),
	'"\\u0041" repeated': '\\u0041'.repeat(MIB / 6),
	'"&#x41;" repeated': '&#x41;'.repeat(MIB / 6),
	'16 letters and a space, repeated': 'abcdefghijklmnop '.repeat(MIB / 17),
	'"<input" repeated': '<input'.repeat(MIB / 6),
	'"<form" repeated': '<form'.repeat(MIB / 5),
	'"<input value=\'" repeated': "<input value='".repeat(MIB / 14),
	'"&#1" repeated': '&#1'.repeat(MIB / 3),
};

// The funnel reads texts up to MAX_READ and leaves longer ones unread: measured at its bound too.
const funnel = funnelFor({ clientId: 'client-id', clientSecret: 'a-client-secret-of-some-length', cardEncryptionKey: 'ab'.repeat(32) });

const ATTEMPTS = {
	'an error text': (text) => knownFailureFields({ resCode: 500, status: 'failure', errMessage: text, message: text }, funnel),
	'a success answer': (text) => declaredOutput(PAYMENT_RECORD, { description: text, orderId: text, paymentDetails: { cardType: text }, note: text }, funnel),
	'an error text at the bound': (text) => knownFailureFields({ errMessage: text.slice(0, MAX_READ) }, funnel),
	'a form at the bound': (text) => asKind('form', `<form method="post" action="https://acs.example/3ds">${text.slice(0, 65000)}`, funnel),
	'a web address at the bound': (text) => asKind('url', `https://acs.example/${text.slice(0, 2000)}`, funnel),
	'a success answer at the bound': (text) => declaredOutput(PAYMENT, { redirectionData: { formData: `<form action="https://a.example/">${text.slice(0, MAX_READ)}`, url: text.slice(0, MAX_READ) }, orderId: text.slice(0, MAX_READ) }, funnel),
	'Amount': (text) => fieldAmount('Amount (amount)', text, 3),
	'an amount in an answer': (text) => answerAmount(text),
	'e-mail': (text) => input.validateEmail('Customer Email (customerEmail)', text),
	'URL': (text) => input.validateUrl('Redirection URL (redirectionUrl)', text),
	'card number': (text) => input.validateCardNumber('Card Number (cardNumber)', text),
	'header value': (text) => input.validateHeaderValue('User Agent (options.userAgent)', text),
	'credential Base URL': (text) => checkCredentialFields({ clientId: 'c', clientSecret: 's', baseUrl: `https://gateway.example.com/${text}`, cardEncryptionKey: 'ab'.repeat(32) }),
	'notification field': (text) => readNotification({ orderId: 'wb-1', paymentId: 'PAY1', status: text }, undefined),
	'notification claim key': (text) => claimOf({ orderId: 'wb-1', paymentId: 'PAY1', status: text.slice(0, 2048) }),
};

function cpuMs(fn) {
	const started = process.cpuUsage();
	try {
		fn();
	} catch {
		// A refusal is an answer too: the time to it is what is measured.
	}
	const used = process.cpuUsage(started);
	return (used.user + used.system) / 1000;
}

const results = [];
for (const [attempt, fn] of Object.entries(ATTEMPTS)) {
	for (const [label, text] of Object.entries(TEXTS)) {
		cpuMs(() => fn(text));
		results.push({ attempt, text: label, ms: cpuMs(() => fn(text)) });
	}
}
process.send(results);
