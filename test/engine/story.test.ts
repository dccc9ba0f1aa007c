import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';

import { initiateParameters, orderParameters, runNode, useSandbox, withoutSubject } from '../support/fixtures';

// The checkout story, one node run per step, each step fed with the previous step's output items.

const sandbox = useSandbox();

const jsonOf = (result: { items: Array<{ json: IDataObject }> }) => result.items.map((item) => item.json);

it('create order → pay with a stored card → authenticate → status → list, delete and delete again', async () => {
	// 1. Create the order.
	const order = await runNode(
		sandbox,
		orderParameters({ amount: 49.99, additionalFields: { receiptId: '={{ $json.receipt }}' } }),
		[{ receipt: 'STORY-1' }],
	);
	expect(order.error).toBeUndefined();
	expect(order.items).toHaveLength(1);
	const { orderId } = order.items[0].json as { orderId: string };
	expect(order.items[0].json).toEqual({ orderId: expect.stringMatching(/^wb-/), receiptId: 'STORY-1', amount: 49.99, currency: 'USD' });

	// 2. Initiate with secureCard, the order id taken from the previous output.
	const initiated = await runNode(
		sandbox,
		initiateParameters('={{ $json.orderId }}', { secureCard: true }),
		jsonOf(order),
	);
	expect(initiated.error).toBeUndefined();
	const payment = initiated.items[0].json;
	expect(payment).toMatchObject({
		orderId,
		receiptId: 'STORY-1',
		paymentStatus: 'pending',
		paymentId: expect.any(String),
		securedCardDetails: { customerId: expect.stringMatching(/^cus_/), digitalCardId: expect.any(String) },
	});
	const paymentId = payment.paymentId as string;
	const { customerId, digitalCardId } = payment.securedCardDetails as { customerId: string; digitalCardId: string };
	expect((payment.redirectionData as IDataObject).formData).toEqual(expect.stringContaining(encodeURIComponent(paymentId)));

	// Before authentication the payment is pending.
	const before = await runNode(sandbox, { resource: 'status', operation: 'getByOrderId', orderId: '={{ $json.orderId }}' }, jsonOf(initiated));
	expect(before.items[0].json.status).toBe('pending');

	// 3. The customer authenticates: through the sandbox's control endpoint, as the hosted page would.
	const completed = await axios.post(`${sandbox.url}/__sandbox/payments/${encodeURIComponent(paymentId)}/complete`, {
		result: 'success',
	});
	expect(completed.status).toBe(200);
	expect(completed.data).toMatchObject({ orderId, paymentId, status: 'success' });

	// 4. Status by order id and by payment id, both from the initiate output.
	const byOrder = await runNode(
		sandbox,
		{ resource: 'status', operation: 'getByOrderId', orderId: '={{ $json.orderId }}' },
		jsonOf(initiated),
	);
	expect(byOrder.error).toBeUndefined();
	expect(byOrder.items[0].json).toMatchObject({
		orderId,
		paymentId,
		status: 'success',
		receiptId: 'STORY-1',
		amount: 49.99,
		paymentDetails: { paymentMethod: 'card', cardNetwork: 'visa', cardType: 'credit' },
	});
	const byPayment = await runNode(
		sandbox,
		{ resource: 'status', operation: 'getByPaymentId', paymentId: '={{ $json.paymentId }}' },
		jsonOf(initiated),
	);
	expect(byPayment.error).toBeUndefined();
	// The payment record carries the same facts as the order's status record, and more.
	const { timestamp, ...sameFacts } = byOrder.items[0].json;
	expect(byPayment.items[0].json).toMatchObject({ ...sameFacts, completedAt: timestamp });

	// 5. The stored card is listed for the customer.
	const listed = await runNode(
		sandbox,
		{ resource: 'digitalCard', operation: 'getMany', customerId: '={{ $json.securedCardDetails.customerId }}' },
		jsonOf(initiated),
	);
	expect(listed.error).toBeUndefined();
	expect(listed.items).toHaveLength(1);
	expect(listed.items[0].json).toMatchObject({
		customerId,
		digitalCardId,
		panLastFour: '1111',
		network: 'visa',
		status: 'ACTIVE',
		remainingLimit: 4,
	});

	// 6. Delete it, fed by the list output.
	const deleteParameters = {
		resource: 'digitalCard',
		operation: 'delete',
		customerId: '={{ $json.customerId }}',
		digitalCardId: '={{ $json.digitalCardId }}',
	};
	const deleted = await runNode(sandbox, deleteParameters, jsonOf(listed));
	expect(deleted.error).toBeUndefined();
	expect(jsonOf(deleted)).toEqual([{ customerId, digitalCardId, deleted: true }]);

	const afterDelete = await runNode(
		sandbox,
		{ resource: 'digitalCard', operation: 'getMany', customerId: '={{ $json.customerId }}' },
		jsonOf(deleted),
	);
	expect(afterDelete.error).toBeUndefined();
	expect(afterDelete.items).toEqual([]);

	// 7. Deleting again is the gateway's 404.
	const again = await runNode(sandbox, deleteParameters, jsonOf(listed));
	expect(again.status).toBe('error');
	expect(withoutSubject(again.error?.message)).toBe('Card not found or already deleted [item 0]');
	expect(again.error?.context?.resCode).toBe(404);

	// Every API request of the story was signed with the active client and accepted, except the last delete.
	const statuses = sandbox.requests.map((request) => request.status);
	expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
	expect(statuses[statuses.length - 1]).toBe(404);
	expect(new Set(sandbox.requests.map((request) => request.clientId))).toEqual(new Set([sandbox.clients.active.clientId]));
});
