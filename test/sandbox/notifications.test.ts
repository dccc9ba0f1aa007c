/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { execFileSync } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox } from '../../sandbox/gateway';
import { until } from '../support/until';
import { axios, call, cardOf, checkout, control, createOrder, DECLINED, initiate, initiateBody, ISO_TIME, orderBody, paidOrder, PAYMENT_ID, refund, REFUND_ID, useSandbox } from './support';

// A merchant endpoint in the test receives the notifications; openssl checks their signatures.

const sb = useSandbox();

interface Received {
	headers: http.IncomingHttpHeaders;
	method: string;
	text: string;
}

/** A local merchant endpoint; `answer` decides the HTTP status, or leaves the request hanging with null. */
async function receiver(answer: (r: Received) => number | null = () => 200) {
	const received: Received[] = [];
	const open = new Set<http.ServerResponse>();
	const server = http.createServer((req, res) => {
		let text = '';
		req.on('data', (c) => (text += c));
		req.on('end', () => {
			const r = { headers: req.headers, method: req.method ?? '', text };
			received.push(r);
			const status = answer(r);
			if (status === null) open.add(res);
			else res.writeHead(status).end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/payment`;
	return {
		url,
		received,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

let merchant: Awaited<ReturnType<typeof receiver>>;

/** The first notification the merchant received, once it has, as JSON. */
async function firstNotification() {
	await sb().waitForNotifications(1);
	return JSON.parse(merchant.received[0].text);
}

/** A wrapped notification of this payment, signed as the gateway signs it, with `data` beside the ids. */
const wrappedOf = (eventType: string, orderId: string, paymentId: string, data: object) => ({
	eventType,
	data: { orderId, paymentId, signature: opensslHmac(secret(), `${orderId}|${paymentId}`), failureReason: null, ...data },
});
afterEach(async () => {
	await merchant?.close();
});

function opensslHmac(secret: string, data: string): string {
	return execFileSync('openssl', ['dgst', '-sha256', '-hmac', secret], { input: data }).toString().trim().split(/\s+/).pop()!;
}

const secret = () => sb().clients.active.clientSecret;

describe('flat notifications', () => {
	test('a payment completed through the control API: compact JSON POSTed once, signature as openssl computes it', async () => {
		merchant = await receiver();
		sb().setNotifications({ url: merchant.url });
		const orderId = await createOrder();
		const paymentId = (await initiate(orderId)).data.data.paymentId;
		await axios.post(control(`/payments/${paymentId}/complete`), { result: 'success' });

		const [delivery] = await sb().waitForNotifications(1);
		expect(merchant.received).toHaveLength(1);
		const [got] = merchant.received;
		expect(got.method).toBe('POST');
		expect(got.headers['content-type']).toBe('application/json');
		expect(got.text).toBe(delivery.body);
		const body = JSON.parse(got.text);
		expect(got.text).toBe(JSON.stringify(body));
		expect(body).toEqual({
			orderId,
			paymentId: expect.stringMatching(PAYMENT_ID),
			status: 'success',
			receiptId: 'rcpt-1',
			amount: 10.5,
			signature: opensslHmac(secret(), `${orderId}|${paymentId}`),
			timestamp: expect.stringMatching(ISO_TIME),
			paymentDetails: { paymentMethod: 'card', cardNetwork: 'visa', cardType: 'credit' },
		});
		expect(delivery).toEqual({
			time: expect.stringMatching(ISO_TIME),
			event: 'TRANSACTION_COMPLETED',
			url: merchant.url,
			body: got.text,
			status: 200,
			error: null,
			durationMs: expect.any(Number),
		});
		expect((await axios.get(control('/notifications'))).data).toEqual([delivery]);
	});

	test('a refund: refundId, the refunded amount and the new payment status', async () => {
		merchant = await receiver();
		const { orderId, paymentId } = await paidOrder({ amount: 20 });
		sb().setNotifications({ url: merchant.url });
		const refundId = (await refund(paymentId, 5.25)).data.data.refundId;
		const body = await firstNotification();
		expect(body).toMatchObject({
			orderId,
			paymentId,
			refundId: expect.stringMatching(REFUND_ID),
			status: 'partially_refunded',
			amount: 5.25,
			signature: opensslHmac(secret(), `${orderId}|${paymentId}`),
		});
		expect(body.refundId).toBe(refundId);
		expect(sb().notifications[0].event).toBe('REFUND_SUCCESS');

		await refund(paymentId, 14.75);
		await sb().waitForNotifications(2);
		expect(JSON.parse(merchant.received[1].text)).toMatchObject({ status: 'refunded', amount: 14.75 });
	});

	test('the immediate settle of skipCVVandOTP notifies too, without delaying the API answer', async () => {
		merchant = await receiver(() => null); // never answers: the sandbox gives up after 10 s
		sb().setNotifications({ url: merchant.url });
		const orderId = await createOrder();
		const init = await initiate(orderId, { skipCVVandOTP: true });
		expect(init.status).toBe(200);
		// Answered while the delivery was still waiting for the merchant, which only its 10 s time-out ends.
		expect(sb().notifications).toHaveLength(0);
		await until(() => merchant.received.length > 0, 'the notification to reach the merchant');
		expect(merchant.received).toHaveLength(1);
		expect(JSON.parse(merchant.received[0].text)).toMatchObject({ orderId, status: 'success' });
		expect(sb().notifications).toHaveLength(0); // still waiting for the merchant
	});

	test('the authentication page completes the payment and notifies; no URL, no notification', async () => {
		merchant = await receiver();
		const orderId = await createOrder();
		const first = (await initiate(orderId)).data.data.paymentId;
		await axios.post(control(`/authenticate/${first}`), 'result=failure', {
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		});
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(merchant.received).toHaveLength(0);

		await axios.post(control('/notifications'), { url: merchant.url });
		const second = (await initiate(orderId)).data.data.paymentId;
		await axios.post(control(`/authenticate/${second}`), 'result=success', {
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		});
		await sb().waitForNotifications(1);
		expect(JSON.parse(merchant.received[0].text)).toMatchObject({ paymentId: second, status: 'success' });

		await axios.post(control('/notifications'), { url: null });
		expect(sb().notificationSettings.url).toBeNull();
	});
});

describe('wrapped notifications', () => {
	test('payment: TRANSACTION_COMPLETED with failureReason, redirectType and redirectUrl', async () => {
		merchant = await receiver();
		sb().setNotifications({ url: merchant.url, format: 'wrapped' });
		const orderId = await createOrder();
		const paymentId = (await initiate(orderId)).data.data.paymentId;
		sb().completeAuthentication(paymentId, 'success');
		expect(await firstNotification()).toEqual(
			wrappedOf('TRANSACTION_COMPLETED', orderId, paymentId, {
				status: 'success',
				receiptId: 'rcpt-1',
				amount: 10.5,
				timestamp: expect.stringMatching(ISO_TIME),
				paymentDetails: { paymentMethod: 'card', cardNetwork: 'visa', cardType: 'credit' },
				redirectType: null,
				redirectUrl: 'https://shop.example.com/return',
			}),
		);
	});

	test('an order made by create-checkout carries its redirectType', async () => {
		merchant = await receiver();
		sb().setNotifications({ url: merchant.url, format: 'wrapped' });
		const orderId = (await checkout({ redirectType: 'redirect' })).data.orderId;
		await initiate(orderId, { skipCVVandOTP: true });
		const [delivery] = await sb().waitForNotifications(1);
		expect(JSON.parse(delivery.body).data).toMatchObject({ orderId, redirectType: 'redirect' });
	});

	test('failed payment: TRANSACTION_FAILED with a reason', async () => {
		merchant = await receiver();
		sb().setNotifications({ url: merchant.url, format: 'wrapped' });
		const orderId = await createOrder();
		await initiate(orderId, { skipCVVandOTP: true }, cardOf(DECLINED));
		const [delivery] = await sb().waitForNotifications(1);
		expect(delivery.event).toBe('TRANSACTION_FAILED');
		expect(JSON.parse(delivery.body)).toMatchObject({
			eventType: 'TRANSACTION_FAILED',
			data: { orderId, status: 'failure', failureReason: 'Card declined' },
		});
	});

	test('refund: REFUND_SUCCESS, with OMR amounts as three-decimal strings', async () => {
		merchant = await receiver();
		const { orderId, paymentId } = await paidOrder({ amount: 1.119, currency: 'OMR' });
		sb().setNotifications({ url: merchant.url, format: 'wrapped' });
		await refund(paymentId, 1.119);
		expect(await firstNotification()).toMatchObject(
			wrappedOf('REFUND_SUCCESS', orderId, paymentId, { refundId: expect.stringMatching(REFUND_ID), status: 'refunded', amount: '1.119' }),
		);
	});

	test('padding: every string carries stray spaces; the signature is over the unpadded ids', async () => {
		merchant = await receiver();
		sb().setNotifications({ url: merchant.url, format: 'wrapped', pad: true });
		const { orderId, paymentId } = await paidOrder();
		const body = await firstNotification();
		expect(body.eventType).toBe(' TRANSACTION_COMPLETED ');
		expect(body.data.status).toBe(' success ');
		expect(body.data.orderId).toBe(` ${orderId} `);
		expect(body.data.paymentDetails.cardNetwork).toBe(' visa ');
		expect(body.data.amount).toBe(10.5);
		expect(body.data.failureReason).toBeNull();
		const trimmedIds = `${body.data.orderId.trim()}|${body.data.paymentId.trim()}`;
		expect(trimmedIds).toBe(`${orderId}|${paymentId}`);
		expect(body.data.signature.trim()).toBe(opensslHmac(secret(), trimmedIds));
	});
});

describe('sending again, forgeries and delivery failures', () => {
	test('send: the same notification again, or with a forged signature, answered after delivery', async () => {
		const secretNow = secret();
		// The merchant checks the signature as integrations do and answers 401 to a bad one.
		merchant = await receiver((r) => {
			const parsed = JSON.parse(r.text);
			const body = parsed.data ?? parsed;
			return body.signature === opensslHmac(secretNow, `${body.orderId}|${body.paymentId}`) ? 200 : 401;
		});
		sb().setNotifications({ url: merchant.url });
		const { paymentId } = await paidOrder();
		await sb().waitForNotifications(1);

		const again = await axios.post(control('/notifications/send'), { paymentId });
		expect(again.data).toEqual({ status: 200, error: null, body: merchant.received[0].text });

		const forged = await axios.post(control('/notifications/send'), { paymentId, signature: 'f'.repeat(64) });
		expect(forged.data.status).toBe(401);
		expect(JSON.parse(forged.data.body).signature).toBe('f'.repeat(64));
		expect(merchant.received).toHaveLength(3);

		const wrapped = await sb().sendNotification({ paymentId, format: 'wrapped' });
		expect(JSON.parse(wrapped.body).eventType).toBe('TRANSACTION_COMPLETED');
		expect(sb().notifications.map((n) => n.status)).toEqual([200, 200, 401, 200]);
	});

	test('send: a refunded payment sends its latest refund; unknown or pending payments are refused', async () => {
		merchant = await receiver();
		sb().setNotifications({ url: merchant.url });
		const { paymentId } = await paidOrder();
		await refund(paymentId, 1);
		const sent = await sb().sendNotification({ paymentId });
		expect(JSON.parse(sent.body)).toMatchObject({ status: 'partially_refunded', amount: 1, refundId: expect.any(String) });

		const opts = { validateStatus: () => true };
		expect((await axios.post(control('/notifications/send'), { paymentId: 'PAY0' }, opts)).status).toBe(404);
		const pending = (await initiate(await createOrder())).data.data.paymentId;
		expect((await axios.post(control('/notifications/send'), { paymentId: pending }, opts)).status).toBe(409);
		sb().setNotifications({ url: '' });
		expect((await axios.post(control('/notifications/send'), { paymentId }, opts)).data.error).toMatch(/No notification URL/);
	});

	test('a refused connection is logged with its error code; DELETE clears the log', async () => {
		merchant = await receiver();
		const deadUrl = merchant.url;
		await merchant.close();
		sb().setNotifications({ url: deadUrl });
		await paidOrder();
		const [delivery] = await sb().waitForNotifications(1);
		expect(delivery).toMatchObject({ status: null, error: 'ECONNREFUSED', url: deadUrl });
		await axios.delete(control('/notifications'));
		expect(sb().notifications).toHaveLength(0);
	});

	test('waitForNotifications rejects on time-out', async () => {
		await expect(sb().waitForNotifications(1, 50)).rejects.toThrow(/0 of 1 notifications/);
	});

	test('a merchant that never answers: one attempt, given up after 10 s', async () => {
		merchant = await receiver(() => null);
		sb().setNotifications({ url: merchant.url });
		await paidOrder();
		const [delivery] = await sb().waitForNotifications(1, 20_000);
		expect(delivery).toMatchObject({ status: null, error: 'ETIMEDOUT' });
		// The merchant never answers: the 10 s time-out ended it (ETIMEDOUT, not a reset or a close), after no less.
		expect(delivery.durationMs).toBeGreaterThanOrEqual(10000);
		expect(merchant.received).toHaveLength(1);
	}, 30_000);

	test('close() drops a delivery in flight and rejects waiters', async () => {
		merchant = await receiver(() => null);
		const other = await startSandbox({ notificationUrl: merchant.url });
		const order = await call('POST', '/order', orderBody(), { sandbox: other });
		await call('POST', '/transaction/initiate', initiateBody(order.data.data.orderId, { skipCVVandOTP: true }), {
			sandbox: other,
		});
		const waiting = other.waitForNotifications(1, 15000);
		await until(() => merchant.received.length > 0, 'the notification to reach the merchant');
		expect(merchant.received).toHaveLength(1); // delivered, and waiting for an answer that never comes
		await other.close();
		// By close(), not by the delivery's time-out (10 s, which would log it) or the waiter's (15 s, "0 of 1").
		await expect(waiting).rejects.toThrow(/closed/);
		expect(other.notifications).toHaveLength(0);
	});
});
