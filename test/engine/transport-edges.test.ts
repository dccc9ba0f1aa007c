import type { IDataObject } from 'n8n-workflow';

import { WITHHELD } from '../../nodes/PaymentGateway/transport/redact';
import { createOrder, initiateParameters, orderParameters, runNode, settledPayment, useSandbox, withoutSubject } from '../support/fixtures';
import { everything, findLeaks, runMaterial, sandboxSecrets } from '../support/leaks';

// The edges of the transport, each through n8n's engine against the sandbox: ids that would change a request's path
// are refused with nothing sent; a failure answer reaches the execution only through its known fields, whatever else
// a gateway or proxy puts in it; a delete answered "not found" after a retry is never reported as a deletion.

const sandbox = useSandbox();

const CARD = '4111111111111111';
const CVV = '7391';

/** A stored card of a new customer: { customerId, digitalCardId }. */
async function storedCard(): Promise<{ customerId: string; digitalCardId: string }> {
	const stored = await runNode(sandbox, initiateParameters(await createOrder(sandbox), { secureCard: true }));
	return stored.items[0].json.securedCardDetails as { customerId: string; digitalCardId: string };
}

describe('ids that would change the path of a request are refused, nothing sent', () => {
	const cases: Array<[string, string, (id: string) => IDataObject]> = [
		['Status → Get by Payment ID', 'Payment ID (paymentId)', (id) => ({ resource: 'status', operation: 'getByPaymentId', paymentId: id })],
		['Transaction → Refund, the whole payment', 'Payment ID (paymentId)', (id) => ({ resource: 'transaction', operation: 'refund', refundType: 'full', paymentId: id })],
		['Digital Card → Get Many', 'Customer ID (customerId)', (id) => ({ resource: 'digitalCard', operation: 'getMany', customerId: id })],
		['Digital Card → Get, the customer', 'Customer ID (customerId)', (id) => ({ resource: 'digitalCard', operation: 'get', customerId: id, digitalCardId: 'dc_0000000000000000' })],
		['Digital Card → Delete, the customer', 'Customer ID (customerId)', (id) => ({ resource: 'digitalCard', operation: 'delete', customerId: id, digitalCardId: 'dc_0000000000000000' })],
		['Digital Card → Get, the card', 'Digital Card (digitalCardId)', (id) => ({ resource: 'digitalCard', operation: 'get', customerId: 'cus_0000000000000000', digitalCardId: id })],
		['Digital Card → Delete, the card', 'Digital Card (digitalCardId)', (id) => ({ resource: 'digitalCard', operation: 'delete', customerId: 'cus_0000000000000000', digitalCardId: id })],
	];
	describe.each(cases)('%s', (_label, field, parametersFor) => {
		it.each(['.', '..', ' .. ', ' ', ''])('id "%s": an error naming the field, 0 requests', async (id) => {
			// From an expression, as ids come: an empty literal is refused by n8n itself as a missing parameter.
			const stopped = await runNode(sandbox, parametersFor('={{ $json.id }}'), [{ id }]);
			const continued = await runNode(sandbox, parametersFor('={{ $json.id }}'), [{ id }, { id }], { continueOnFail: true });
			expect(stopped.error?.message).toMatch(new RegExp(`^${field.replace(/[()]/g, '\\$&')} (must not be "\\." or "\\.\\."|is required).*\\[item 0\\]$`));
			expect(continued.items.map((item) => item.json.error)).toEqual([expect.stringContaining(field), expect.stringContaining(field)]);
			expect(sandbox.requests).toEqual([]);
		});
	});

	it('a dot inside an id is an id like any other, sent encoded', async () => {
		const result = await runNode(sandbox, { resource: 'digitalCard', operation: 'getMany', customerId: '.a..', options: { outputSummaryWhenEmpty: true } });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.path)).toEqual([expect.stringMatching(/\/customer\/\.a\.\.\/digitalCards$/)]);
	});
});

describe('a failure answer that echoes the request (a debugging gateway or proxy): only its known fields are kept', () => {
	const terms = () => ({ secrets: sandboxSecrets(sandbox), cards: [CARD], cvvs: [CVV] });
	// Card data from the items, as in a checkout workflow: the user's own parameters are not what is searched. The reads
	// with Max Retries 0: the one failure answer is what reaches the execution (retried, it would be the sandbox's next).
	const runs: Array<[string, () => Promise<IDataObject>, string]> = [
		['Transaction → Initiate with card details', async () => initiateParameters(await createOrder(sandbox), { cardNumber: '={{ $json.card }}', cardCVV: '={{ $json.cvv }}' }), '/transaction/initiate'],
		['Transaction → Refund', async () => ({ resource: 'transaction', operation: 'refund', paymentId: (await settledPayment(sandbox, 'success')).paymentId, amount: 1 }), '/transaction/refund'],
		['Order → Create', async () => orderParameters(), '/order'],
		['Status → Get by Order ID', async () => ({ resource: 'status', operation: 'getByOrderId', orderId: await createOrder(sandbox), options: { maxRetries: 0 } }), 'check-status'],
		['Digital Card → Get Many', async () => ({ resource: 'digitalCard', operation: 'getMany', customerId: 'cus_0000000000000000', options: { maxRetries: 0 } }), '/digitalCards'],
	];
	it.each(runs)('%s: the leak search finds nothing, stopped or continued', async (_label, parametersFor, match) => {
		const parameters = await parametersFor();
		for (const continueOnFail of [false, true]) {
			sandbox.injectFault({ match, kind: 'echo' });
			const result = await runNode(sandbox, parameters, [{ card: CARD, cvv: CVV }], { continueOnFail });
			expect(sandbox.requests.at(-1)?.fault).toBe('echo');
			const material = runMaterial(result, 'Payment Gateway');
			expect(findLeaks(material, terms())).toEqual([]);
			const text = JSON.stringify(material);
			expect(text).not.toMatch(/authorization|"request"|X-Signature/i);
			const failure = continueOnFail ? result.items[0].json : result.error!;
			expect(withoutSubject((continueOnFail ? failure.error : failure.message) as string)).toBe('Internal Server Error [item 0]');
			expect(continueOnFail ? failure.resCode : (failure.context as IDataObject).resCode).toBe(500);
		}
	});

	it('a message that quotes the client secret or the Basic value is not kept at all', async () => {
		const { clientId, clientSecret } = sandbox.clients.active;
		const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
		const message = `Upstream refused: Authorization: Basic ${basic}; secret=${clientSecret}`;
		sandbox.injectFault({ match: '/order', status: 502, body: { resCode: 502, status: 'failure', message } });
		const result = await runNode(sandbox, orderParameters());
		expect(result.error?.message).toBe(`${WITHHELD} [item 0]`);
		expect(findLeaks(runMaterial(result, 'Payment Gateway'), terms())).toEqual([]);
	});

	it('any Basic value, card number or long text a failure quotes is cut, and a status that is no word is dropped', async () => {
		const message = `Bad request: authorization=Basic dXNlcjpwYXNzd29yZA== card 4111 1111 1111 1111 / 5186001700008785 ${'x'.repeat(400)}`;
		const status = 'failure; Authorization: Basic dXNlcjpwYXNzd29yZA==';
		for (const continueOnFail of [false, true]) {
			sandbox.injectFault({ match: '/order', status: 500, body: { resCode: 500, status, message } });
			const result = await runNode(sandbox, orderParameters(), [{}], { continueOnFail });
			const text = JSON.stringify(everything(continueOnFail ? result.items : result.error));
			expect(text).not.toMatch(/dXNlcjpwYXNzd29yZA|4111|5186001700008785|failure; /);
			const kept = continueOnFail ? (result.items[0].json.error as string) : result.error!.message;
			// A token that is no word (base64, 16 digits, 400 letters) goes whole; the card number in groups keeps its last four.
			expect(kept).toBe('Bad request: authorization=Basic … card …1111 / … [item 0]');
		}
	});

	it('an unpaid order read by Get by Order ID keeps only the known fields of its failure answer', async () => {
		const orderId = await createOrder(sandbox);
		const body = { resCode: 400, status: 'failure', errMessage: 'Transaction not initiated', request: { headers: { authorization: 'Basic c2VjcmV0' } } };
		sandbox.injectFault({ match: 'check-status', status: 400, body });
		const result = await runNode(sandbox, { resource: 'status', operation: 'getByOrderId', orderId });
		expect(result.items[0].json).toEqual({ orderId, resCode: 400, status: 'failure', errMessage: 'Transaction not initiated', droppedFields: ['request'] });
	});

	it('the error keeps the gateway’s message, resCode and status, and nothing else of the answer', async () => {
		const body = { resCode: 503, status: 'failure', message: 'Down for maintenance', trace: ['at handler'], config: { secret: 'x' } };
		sandbox.injectFault({ match: '/order', status: 503, body });
		const result = await runNode(sandbox, orderParameters());
		const seen = JSON.stringify(everything(result.error));
		expect(result.error?.message).toBe('Down for maintenance [item 0]');
		expect(seen).not.toMatch(/at handler|"config"|"trace"/);
	});
});

describe('Digital Card → Delete answered "not found" after a retry is no deletion', () => {
	const remove = (customerId: string, digitalCardId: string) => ({
		resource: 'digitalCard',
		operation: 'delete',
		customerId,
		digitalCardId,
		options: { maxRetries: 1 },
	});

	it('429 then 404, a card that never existed: the gateway’s "not found", nothing removed', async () => {
		const { customerId } = await storedCard();
		sandbox.clearLog();
		for (const continueOnFail of [false, true]) {
			sandbox.injectFault({ match: '/digitalCards/', status: 429, retryAfter: 0 });
			const result = await runNode(sandbox, remove(customerId, 'dc_0000000000000000'), [{}], { continueOnFail });
			const failure = continueOnFail ? result.items[0].json : { ...result.error, ...result.error?.context };
			expect(failure).toMatchObject({ resCode: 404, description: expect.stringMatching(/Nothing was removed/) });
			expect(JSON.stringify(result.items)).not.toMatch(/"deleted"/);
		}
		expect(sandbox.requests.map((request) => request.status)).toEqual([429, 404, 429, 404]);
	});

	it.each(['reset-after-body', 'reset-before-body'] as const)(
		'an attempt without answer (%s) then 404: an error saying the card is gone and that the run cannot tell who removed it',
		async (kind) => {
			const { customerId, digitalCardId } = await storedCard();
			sandbox.clearLog();
			sandbox.injectFault({ match: '/digitalCards/', kind });
			// reset-after-body: the first attempt removed the card; reset-before-body: it never arrived, the id is wrong.
			const target = kind === 'reset-after-body' ? digitalCardId : 'dc_0000000000000000';
			const result = await runNode(sandbox, remove(customerId, target), [{}], { continueOnFail: true });
			expect(result.items[0].json).toMatchObject({ resCode: 404, description: expect.stringMatching(/cannot tell whether it deleted it/) });
			expect(result.items[0].json.deleted).toBeUndefined();
			expect(sandbox.requests.map((request) => request.status)).toEqual([null, 404]);
		},
	);

	it('a 503 then the card deleted: deleted: true, as it is', async () => {
		const { customerId, digitalCardId } = await storedCard();
		sandbox.injectFault({ match: '/digitalCards/', status: 503, retryAfter: 0 });
		const result = await runNode(sandbox, remove(customerId, digitalCardId));
		expect(result.items[0].json).toEqual({ customerId, digitalCardId, deleted: true });
	});
});
