/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { axios, checkout, checkStatus, control, PAYMENT_ID, statusByPayment, useSandbox } from './support';

// The customer's side of the hosted checkout page: the link is built here as the gateway's notes describe it
// (`<page>?actionType=checkout&orderId&redirectUrl&clientId`), independently of the node's code.

const sb = useSandbox();

const RETURN = 'https://shop.example.com/payment/done?cart=7';

function link(orderId: string, overrides: Record<string, string | null> = {}) {
	const query = new URLSearchParams();
	const fields = { actionType: 'checkout', orderId, redirectUrl: RETURN, clientId: sb().clients.active.clientId, ...overrides };
	for (const [key, value] of Object.entries(fields)) if (value !== null) query.set(key, value);
	return `https://merchant.example.com/cpbs/pg?${query}`;
}

async function checkoutOrder() {
	const res = await checkout({ amount: 12.5, currency: 'OMR', redirectType: 'redirect' });
	expect(res.status).toBe(200);
	return res.data.orderId as string;
}

const pay = (body: object) => axios.post(control('/checkout/pay'), body, { validateStatus: () => true });

test('paying through the link completes the order with the approved card, notifies, and sends the customer back', async () => {
	const received: string[] = [];
	const merchant = http.createServer((req, res) => {
		let text = '';
		req.on('data', (chunk) => (text += chunk));
		req.on('end', () => (received.push(text), res.writeHead(204).end()));
	});
	await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve));
	try {
		sb().setNotifications({ url: `http://127.0.0.1:${(merchant.address() as AddressInfo).port}/hook`, format: 'wrapped' });
		const orderId = await checkoutOrder();

		const res = await pay({ checkoutUrl: link(orderId) });
		expect(res.status).toBe(200);
		const paymentId = res.data.paymentId;
		expect(paymentId).toMatch(PAYMENT_ID);
		expect(res.data).toMatchObject({ orderId, status: 'success', amount: '12.500', paymentDetails: { cardNetwork: 'visa' } });
		expect(res.data.redirectTo).toBe(`https://shop.example.com/payment/done?cart=7&paymentId=${paymentId}`);

		expect((await checkStatus(orderId)).data).toMatchObject({ orderId, paymentId, status: 'success', amount: '12.500' });
		expect((await statusByPayment(paymentId)).data.data).toMatchObject({ paymentStatus: 'success', currency: 'OMR' });

		const [delivery] = await sb().waitForNotifications(1);
		expect(delivery.event).toBe('TRANSACTION_COMPLETED');
		expect(JSON.parse(received[0]).data).toMatchObject({ orderId, paymentId, redirectType: 'redirect', redirectUrl: RETURN });
	} finally {
		merchant.closeAllConnections();
		await new Promise((resolve) => merchant.close(resolve));
	}
});

test('a failed payment on the page, then a second try; a paid order cannot be paid again', async () => {
	const orderId = await checkoutOrder();
	const failed = sb().payCheckout(link(orderId), 'failure');
	expect(failed.status).toBe('failure');
	const paid = sb().payCheckout(link(orderId));
	expect(paid.status).toBe('success');
	expect(paid.paymentId).not.toBe(failed.paymentId);
	expect((await checkStatus(orderId)).data.paymentId).toBe(paid.paymentId);

	const again = await pay({ checkoutUrl: link(orderId) });
	expect(again.status).toBe(409);
	expect(again.data).toEqual({ error: 'Transaction is already in progress' });
});

test('bad links, unknown or foreign orders and a bad result change nothing', async () => {
	const orderId = await checkoutOrder();
	const cases: Array<[object, number, string]> = [
		[{ checkoutUrl: 'not a url' }, 400, 'checkoutUrl must be an absolute URL'],
		[{ checkoutUrl: link(orderId, { actionType: null }) }, 400, 'checkoutUrl must carry actionType=checkout'],
		[{ checkoutUrl: link(orderId, { redirectUrl: null }) }, 400, 'checkoutUrl must carry an absolute http(s) redirectUrl'],
		[{ checkoutUrl: link(orderId, { redirectUrl: '/done' }) }, 400, 'checkoutUrl must carry an absolute http(s) redirectUrl'],
		[{ checkoutUrl: link(orderId), result: 'maybe' }, 400, 'result must be "success" or "failure"'],
		[{ checkoutUrl: link('wb-00000000-0000-4000-8000-000000000000') }, 404, 'Order not found'],
		[{ checkoutUrl: link(orderId, { clientId: sb().clients.inactive.clientId }) }, 404, 'Order not found'],
		[{ checkoutUrl: link(orderId, { clientId: null }) }, 404, 'Order not found'],
	];
	for (const [body, status, error] of cases) {
		const res = await pay(body);
		expect([res.status, res.data]).toEqual([status, { error }]);
	}
	expect((await checkStatus(orderId)).data).toMatchObject({ status: 'failure', errMessage: 'Transaction not initiated' });
});

describe('the hosted checkout page a browser opens', () => {
	const pageLink = (orderId: string) => link(orderId).replace('https://merchant.example.com/cpbs/pg', `${sb().url}/__sandbox/cpbs/pg`);

	test('shows the order, and Pay completes it and sends the browser back with the paymentId', async () => {
		const orderId = await checkoutOrder();
		const page = await axios.get(pageLink(orderId), { validateStatus: () => true });
		expect(page.status).toBe(200);
		expect(page.headers['content-type']).toMatch(/^text\/html/);
		expect(page.data).toContain(orderId);
		expect(page.data).toContain('12.500 OMR');

		const paid = await axios.post(pageLink(orderId), 'result=success', { maxRedirects: 0, validateStatus: () => true });
		expect(paid.status).toBe(303);
		const back = new URL(paid.headers.location);
		expect(`${back.origin}${back.pathname}`).toBe('https://shop.example.com/payment/done');
		const paymentId = back.searchParams.get('paymentId')!;
		expect(paymentId).toMatch(PAYMENT_ID);
		expect((await checkStatus(orderId)).data).toMatchObject({ orderId, paymentId, status: 'success' });
	});

	test('Decline leaves a failed payment; a link to another client’s or no order shows no buttons', async () => {
		const orderId = await checkoutOrder();
		const declined = await axios.post(pageLink(orderId), 'result=failure', { maxRedirects: 0, validateStatus: () => true });
		expect(declined.status).toBe(303);
		expect((await checkStatus(orderId)).data).toMatchObject({ orderId, status: 'failure' });

		const unknown = await axios.get(pageLink('wb-00000000-0000-0000-0000-000000000000'), { validateStatus: () => true });
		expect(unknown.status).toBe(200);
		expect(unknown.data).toContain('names no order of this client');
		expect(unknown.data).not.toContain('<button');
	});
});
