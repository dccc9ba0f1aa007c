/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { createDecipheriv } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { createOrder, futureYear, initiateParameters, runNode, useSandbox } from '../support/fixtures';

// Input checks of Transaction → Initiate through n8n's engine: each refused input gives a NodeOperationError
// that names the field and the item, never repeats the refused value, and sends nothing to the gateway.

const sandbox = useSandbox();

const now = new Date();
const lastYear = String((now.getUTCFullYear() - 1) % 100).padStart(2, '0');
const thisYear = String(now.getUTCFullYear() % 100).padStart(2, '0');

/** What the user sees of an error: message, description, context and messages. */
function visibleText(error: IDataObject | undefined): string {
	if (!error) return '';
	return JSON.stringify({
		message: error.message,
		description: error.description,
		context: error.context,
		messages: error.messages,
	});
}

function decryptCardDetails(encrypted: string): IDataObject {
	const [ivHex, cipherHex] = encrypted.split('.');
	const decipher = createDecipheriv('aes-256-cbc', Buffer.from(sandbox.cardEncryptionKey, 'hex'), Buffer.from(ivHex, 'hex'));
	const plain = Buffer.concat([decipher.update(Buffer.from(cipherHex, 'hex')), decipher.final()]);
	return JSON.parse(plain.toString('utf8')) as IDataObject;
}

interface RefusedCase {
	case: string;
	parameters: IDataObject;
	items?: IDataObject[];
	credentials?: { cardEncryptionKey: string };
	/** The parameter name the message must carry, e.g. `(cardNumber)`. */
	field: string;
	/** Values that must not appear in what the user sees of the error. */
	secrets: string[];
}

const refused: RefusedCase[] = [
	{ case: 'card number failing Luhn', parameters: { cardNumber: '4111111111111112' }, field: '(cardNumber)', secrets: ['4111111111111112'] },
	{ case: 'card number of 11 digits', parameters: { cardNumber: '42424242424' }, field: '(cardNumber)', secrets: ['42424242424'] },
	{
		case: 'card number of 20 digits',
		parameters: { cardNumber: '42424242424242424242' },
		field: '(cardNumber)',
		secrets: ['42424242424242424242', '4242424242424242'],
	},
	{ case: 'card number with letters', parameters: { cardNumber: '4111x11111111111' }, field: '(cardNumber)', secrets: ['4111x11111111111'] },
	{ case: 'expiry month 13', parameters: { cardExpMonth: '13' }, field: '(cardExpMonth)', secrets: ['13', '4111111111111111'] },
	{ case: 'expiry month 0', parameters: { cardExpMonth: '0' }, field: '(cardExpMonth)', secrets: ['4111111111111111'] },
	{ case: 'expiry year of 3 digits', parameters: { cardExpYear: '203' }, field: '(cardExpYear)', secrets: ['203', '4111111111111111'] },
	{
		case: 'expired card (December of last year)',
		parameters: { cardExpMonth: '12', cardExpYear: lastYear },
		field: '(cardExpYear)',
		secrets: ['4111111111111111'],
	},
	{ case: 'CVV of 2 digits', parameters: { cardCVV: '98' }, field: '(cardCVV)', secrets: ['98'] },
	{ case: 'CVV of 5 digits', parameters: { cardCVV: '98765' }, field: '(cardCVV)', secrets: ['98765'] },
	{
		case: 'CVV missing with CVV and OTP',
		parameters: { cardCVV: '', customerAuthentication: 'cvvAndOtp' },
		field: '(cardCVV)',
		secrets: ['4111111111111111'],
	},
	{
		case: 'CVV of 2 digits even when OTP only',
		parameters: { cardCVV: '98', customerAuthentication: 'otpOnly' },
		field: '(cardCVV)',
		secrets: ['98'],
	},
	{
		// An expression can give any object; one that cannot even be turned into a text once crashed the lookup.
		case: 'Customer Authentication an object with no usable text form',
		parameters: { customerAuthentication: '={{ $json.choice }}' },
		items: [{ choice: { toString: [] } }],
		field: '(customerAuthentication)',
		secrets: ['4111111111111111'],
	},
	{
		case: 'relative redirection URL',
		parameters: { redirectionUrl: 'payment/done-relative' },
		field: '(redirectionUrl)',
		secrets: ['payment/done-relative'],
	},
	{
		case: 'ftp redirection URL',
		parameters: { redirectionUrl: 'ftp://files.example.org/drop' },
		field: '(redirectionUrl)',
		secrets: ['ftp://files.example.org/drop'],
	},
	{
		case: 'token mode without a digital card id (expression giving nothing)',
		parameters: { paymentMode: 'token', digitalCardId: '={{ $json.digitalCardId }}' },
		items: [{ digitalCardId: '' }],
		field: '(digitalCardId)',
		secrets: [],
	},
	{
		case: 'empty order id (expression giving nothing)',
		parameters: { orderId: '={{ $json.orderId }}' },
		items: [{ orderId: '   ' }],
		field: '(orderId)',
		secrets: [],
	},
	{
		case: 'card holder name of blanks',
		parameters: { cardHolderName: '   ' },
		field: '(cardHolderName)',
		secrets: [],
	},
	{
		case: 'card encryption key of 63 characters',
		parameters: {},
		credentials: { cardEncryptionKey: 'ae0a48d044fd61f653b82fe9234b6837db4d627b2568d014494eb048ccf595e' },
		field: 'Card Encryption Key',
		secrets: ['ae0a48d044fd61f653b82fe9234b6837db4d627b2568d014494eb048ccf595e', 'ae0a48d044fd61f6', '4111111111111111'],
	},
	{
		case: 'card encryption key that is not hex',
		parameters: {},
		credentials: { cardEncryptionKey: 'zz0a48d044fd61f653b82fe9234b6837db4d627b2568d014494eb048ccf595eb' },
		field: 'Card Encryption Key',
		secrets: ['zz0a48d044fd61f653b82fe9234b6837db4d627b2568d014494eb048ccf595eb', 'zz0a48d044fd', '4111111111111111'],
	},
];

describe('transaction.initiate: refused inputs', () => {
	it.each(refused)('$case', async ({ parameters, items, credentials, field, secrets }) => {
		const orderId = await createOrder(sandbox);
		sandbox.clearLog();

		const result = await runNode(sandbox, initiateParameters(orderId, parameters), items ?? [{}], {
			credentials: credentials ?? {},
		});

		expect(result.status).toBe('error');
		expect(result.items).toEqual([]);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toContain(field);
		expect(result.error?.message).toContain('[item 0]');
		expect(result.error?.context).toMatchObject({ itemIndex: 0 });
		expect(result.error?.description).toMatch(/Nothing was sent to the gateway/);
		const text = visibleText(result.error as IDataObject);
		for (const secret of secrets) expect(text).not.toContain(secret);
		expect(sandbox.requests).toEqual([]);
	});

	it('an expired card is refused in a sentence naming both expiry fields and the item', async () => {
		const orderId = await createOrder(sandbox);
		sandbox.clearLog();

		const result = await runNode(sandbox, initiateParameters(orderId, { cardExpMonth: '12', cardExpYear: lastYear }));

		expect(result.error?.message).toBe(
			'Expiry Year (cardExpYear) and Expiry Month (cardExpMonth) are in the past: the card has expired [item 0]',
		);
		expect(sandbox.requests).toEqual([]);
	});

	it('a required parameter left empty in the editor stops the workflow before it runs', async () => {
		const orderId = await createOrder(sandbox);
		sandbox.clearLog();

		const result = await runNode(sandbox, initiateParameters(orderId, { paymentMode: 'token', digitalCardId: '' }));

		expect(result.error?.name).toBe('WorkflowHasIssuesError');
		expect(result.error?.message).toContain('Parameter "Digital Card" is required');
		expect(sandbox.requests).toEqual([]);
	});
});

describe('transaction.initiate: accepted inputs', () => {
	async function initiateAndDecrypt(parameters: IDataObject) {
		const orderId = await createOrder(sandbox);
		sandbox.clearLog();
		const result = await runNode(sandbox, initiateParameters(orderId, parameters));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ orderId, paymentStatus: 'pending' });
		expect(sandbox.requests).toHaveLength(1);
		const body = JSON.parse(sandbox.requests[0].body) as IDataObject;
		return { body, card: decryptCardDetails(body.encryptedCardDetails as string) };
	}

	it('card number with spaces and dashes is sent as digits only', async () => {
		const { card } = await initiateAndDecrypt({ cardNumber: ' 4111 1111-1111-1111 ' });
		expect(card.cardNumber).toBe('4111111111111111');
	});

	it('one-digit month and four-digit year are sent as two-digit strings', async () => {
		const { card } = await initiateAndDecrypt({ cardExpMonth: '1', cardExpYear: `20${futureYear}` });
		expect(card).toMatchObject({ cardExpMonth: '01', cardExpYear: futureYear });
	});

	it('the current month of the current year is not expired yet', async () => {
		const month = String(now.getUTCMonth() + 1).padStart(2, '0');
		const { card } = await initiateAndDecrypt({ cardExpMonth: month, cardExpYear: thisYear });
		expect(card).toMatchObject({ cardExpMonth: month, cardExpYear: thisYear });
	});

	it('a 4-digit CVV is accepted', async () => {
		const { card } = await initiateAndDecrypt({ cardCVV: '1234' });
		expect(card.cardCVV).toBe('1234');
	});

	it.each(['otpOnly', 'none'])('CVV may be left out with %s', async (customerAuthentication) => {
		const { body, card } = await initiateAndDecrypt({ cardCVV: '', customerAuthentication });
		expect(body.skipCVVandOTP || body.skipCVVOnlyFlag).toBe(true);
		expect(card).toEqual({
			cardNumber: '4111111111111111',
			cardExpMonth: '12',
			cardExpYear: futureYear,
			cardCVV: '',
		});
	});

	it('an order id from an expression is trimmed', async () => {
		const orderId = await createOrder(sandbox);
		sandbox.clearLog();
		const result = await runNode(sandbox, initiateParameters('={{ $json.orderId }}'), [{ orderId: ` ${orderId} ` }]);
		expect(result.error).toBeUndefined();
		expect((JSON.parse(sandbox.requests[0].body) as IDataObject).orderId).toBe(orderId);
	});
});
