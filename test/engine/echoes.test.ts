import type { IDataObject } from 'n8n-workflow';

import type { EchoForm, FaultOptions } from '../../sandbox/gateway';
import { createOrder, initiateParameters, runNode, useSandbox } from '../support/fixtures';
import { runMaterial } from '../support/leaks';
import { leaksOf } from '../support/recover';

// A gateway or a proxy in front of it echoes the credential or the request's card data back, in every form an attacker
// has tried on this package: byte arrays, invisible characters between the letters, letters and digits that normalize
// to ASCII, other byte encodings, reversed or compressed text, the card details' ciphertext, card numbers in other
// digits or split into single digits, and card numbers of 12 digits or starting with 7. Into a field the answer
// declares, into one it does not, and into a failure's message: nothing of it can be got back from the item, the error
// or the run data (test/support/recover.ts tries every decoding it knows).

const sandbox = useSandbox();

const NODE_NAME = 'Payment Gateway';
const CVV = '9731';
const EXPIRY = { month: '11', year: '37' };
/** A Visa test card, a 12-digit Maestro number and a 16-digit number starting with 7: the last two the old rules missed. */
const CARDS = ['5186001700008785', '501800000009', '7111111111111114'];

const FORMS: EchoForm[] = ['as-is', 'byte-array', 'byte-list', 'digit-array', 'invisible', 'fullwidth', 'math-bold', 'arabic-digits', 'hex', 'base64', 'base32', 'utf16-base64', 'utf16-hex', 'reversed', 'gzip-base64'];

/** Where the echo goes: fields of the payment's answer of each kind, one it does not declare, a failure's message. */
const PLACES: Array<Pick<FaultOptions, 'field' | 'status'>> = [
	{ field: 'receiptId' },
	{ field: 'paymentStatus' },
	{ field: 'amount' },
	{ field: 'redirectionData.url' },
	{ field: 'redirectionData.formData' },
	{ field: 'securedCardDetails.digitalCardId' },
	{ field: 'echo' },
	{ field: 'errMessage', status: 500 },
	{ field: 'message', status: 502 },
];

type Of = NonNullable<FaultOptions['of']>;
const SUBJECTS: Array<[Of, string]> = [['basic', CARDS[0]], ['secret', CARDS[0]], ['key', CARDS[0]], ['ciphertext', CARDS[0]], ...CARDS.map((card): [Of, string] => ['card', card]), ['cvv', CARDS[0]], ['expiry', CARDS[0]]];

// Every subject in every form, each into two places in turn: 11 × 15 × 2 runs. A CVV or an expiry alone is three or
// four digits, those of an amount, a receipt or an id by chance as often (CVV 123 and an order of 0.123): they are
// looked for in texts, and put into texts here.
const NUMBERS_AND_IDS = ['amount', 'receiptId', 'securedCardDetails.digitalCardId'];
const cases = SUBJECTS.flatMap(([of, card], subject) =>
	FORMS.flatMap((form, index) =>
		[PLACES[(index + subject) % PLACES.length], PLACES[(index + subject + 4) % PLACES.length]]
			.map((place) => ((of === 'cvv' || of === 'expiry') && NUMBERS_AND_IDS.includes(place.field ?? '') ? { field: 'errMessage', status: 500 } : place))
			.map((place) => ({ of, card, form, ...place })),
	),
);

/** The card details' ciphertext the last payment request carried: with the credential's key, it is the card. */
function sentCiphertext(): string[] {
	const sent = sandbox.requests.filter((request) => request.path.includes('/transaction/initiate')).at(-1);
	const ciphertext = (JSON.parse(sent?.body || '{}') as IDataObject).encryptedCardDetails;
	return typeof ciphertext === 'string' ? [ciphertext] : [];
}

/**
 * What must not be got back: the credential, the card number (beyond its last four digits), the CVV, the expiry, and
 * the card details' ciphertext.
 */
function leaksIn(material: unknown, card: string, ciphertexts: string[] = []): string[] {
	const { clientId, clientSecret } = sandbox.clients.active;
	const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
	// n8n's own timings are numbers of the machine's making, not the gateway's: left out.
	const { run } = material as { run?: { data?: unknown } };
	const secrets = [clientSecret, basic, sandbox.cardEncryptionKey, card.slice(0, -4), card.slice(0, 10), ...ciphertexts];
	return leaksOf({ ...(material as object), run: run?.data }, secrets, [CVV, `${EXPIRY.month}/${EXPIRY.year}`]);
}

it('the tests echo what they mean to: every subject can be found in the echo itself', async () => {
	const orderId = await createOrder(sandbox);
	sandbox.injectFault({ match: '/transaction/initiate', kind: 'echo-encoded', of: 'card', form: 'as-is', field: 'echo', status: 500 });
	sandbox.clearLog();
	await runNode(sandbox, parameters(orderId, CARDS[1]), [{ card: CARDS[1], cvv: CVV }], { continueOnFail: true });
	expect(sandbox.requests[0].status).toBe(500);
	expect(leaksIn({ echo: { errMessage: 'Upstream error', echo: CARDS[1] } }, CARDS[1])).not.toEqual([]);
	const [ciphertext] = sentCiphertext();
	expect(leaksIn({ echo: Buffer.from(ciphertext).toString('base64') }, CARDS[1], [ciphertext])).not.toEqual([]);
	// The CVV as one random group of an order id is no leak; the same digits on their own are.
	expect(leaksIn({ message: `Upstream error (order wb-08aa1769-9f44-48a5-${CVV}-15e4d3338f55)` }, CARDS[1])).toEqual([]);
	expect(leaksIn({ message: `Upstream error (code ${CVV})` }, CARDS[1])).not.toEqual([]);
});

function parameters(orderId: string, card: string): IDataObject {
	return initiateParameters(orderId, {
		cardNumber: '={{ $json.card }}',
		cardCVV: '={{ $json.cvv }}',
		cardExpMonth: EXPIRY.month,
		cardExpYear: EXPIRY.year,
		receiptId: undefined,
		secureCard: card === CARDS[0],
	});
}

it.each(cases)('$of as $form in $field $status: nothing of it in the item, the error or the run', async ({ of, card, form, field, status }) => {
	const orderId = await createOrder(sandbox);
	sandbox.injectFault({ match: '/transaction/initiate', kind: 'echo-encoded', of, form, field, status });
	const result = await runNode(sandbox, parameters(orderId, card), [{ card, cvv: CVV }], { continueOnFail: status !== undefined && form.length % 2 === 0 });
	expect(sandbox.requests.at(-1)?.fault).toBe('echo-encoded');
	// The payment went through, or failed as the fault said: either way an item or an error came back.
	expect(result.items.length + (result.error ? 1 : 0)).toBe(1);
	expect(leaksIn(runMaterial(result, NODE_NAME), card, sentCiphertext())).toEqual([]);
});
