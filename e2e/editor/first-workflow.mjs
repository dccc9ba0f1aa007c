// The README's "A first workflow in five minutes", step by step in the editor as a newcomer does it against the
// sandbox (as with `npm run dev`): the credential with a Hosted Checkout Page URL tested, Create Checkout executed and
// its output pinned, Get by Order ID before and after paying on the hosted page, then again after the editor is
// reloaded, on the same order and with no new one made. Registered as checks of the editor check (editor.mjs).
import assert from 'node:assert/strict';

import * as editor from './page.mjs';

const NODE_NAME = 'Payment Gateway';
const CREATE = 'Create an order for the hosted checkout page';
const STATUS = 'Get the payment status of an order';
/** The README's values. */
const ORDER = { amount: '1', currency: 'OMR', customerName: 'Jane Doe', customerEmail: 'jane@example.com', customerPhone: '91234567' };
const RETURN_PAGE = 'https://shop.example.com/payment/done';

const seen = new Set();
/** The workflow's execution the editor just ran (a finished one not read before): each node's output items. */
async function lastRun(session, workflowId) {
	const [newest] = await waitFor(async () => (await session.executions({ workflowId })).filter((execution) => execution.stoppedAt && !seen.has(execution.id)));
	assert.ok(newest, 'the run is stored');
	seen.add(newest.id);
	const runData = await session.runData(newest.id);
	return Object.fromEntries(Object.entries(runData).map(([name, runs]) => [name, (runs.at(-1)?.data?.main?.[0] ?? []).map((item) => item.json)]));
}

export function firstWorkflowChecks(s, { step, check, log }) {
	const r = {};
	const sent = (since) => s.sandbox.requests.slice(since).map((request) => `${request.method} ${request.apiPath}`);
	const workflowId = () => new URL(s.page.url()).pathname.split('/')[2];

	step('README, first workflow, step 1: the credential with a Hosted Checkout Page URL; its Test says "Connection successful"', async () => {
		const data = s.sandbox.credentialData({ checkoutPageUrl: `${s.sandbox.url}/__sandbox/cpbs/pg` });
		// The newest credential of its type: the nodes added below get it.
		const { id, name } = await s.session.data('POST', '/rest/credentials', { name: 'Payment Gateway test environment', type: 'paymentGatewayApi', data });
		const tested = (await s.session.data('POST', '/rest/credentials/test', { credentials: { id, name, type: 'paymentGatewayApi', data } })) ?? {};
		log(`README step 1: credential test ${tested.status} "${tested.message}"`);
		assert.equal(tested.status, 'OK');
		assert.match(tested.message, /^Connection successful\b/);
	});

	step('README step 2: Create Checkout with the README\'s values, Redirect Type Redirect by default, executed: orderId and checkoutUrl; the output pinned and the workflow saved', async () => {
		await s.page.setViewportSize({ width: 1400, height: 1000 });
		await editor.openNewWorkflow(s.page);
		const added = await editor.addNodeAction(s.page, NODE_NAME, CREATE);
		assert.ok(added.ndv, `"${CREATE}" added`);
		const parameters = added.ndv.getByTestId('node-parameters');
		for (const [name, value] of Object.entries(ORDER)) await editor.fillParameter(parameters, name, value);
		assert.equal(await editor.selectedOptionText(parameters, 'redirectType'), 'Redirect');
		await editor.addToCollection(s.page, parameters, 'Additional Fields', 'Redirect URL');
		await editor.fillParameter(parameters, 'redirectUrl', RETURN_PAGE);
		r.since = s.sandbox.requests.length;
		const run = await editor.executeStep(added.ndv);
		assert.deepEqual([run.error, run.data], ['', true], run.error);
		const [order] = (await lastRun(s.session, workflowId()))[CREATE] ?? [];
		log(`README step 2: ${JSON.stringify(order)}`);
		assert.ok(order?.orderId && order.checkoutUrl?.startsWith(`${s.sandbox.url}/__sandbox/cpbs/pg?actionType=checkout&orderId=${encodeURIComponent(order.orderId)}&redirectUrl=`), 'orderId and checkoutUrl');
		r.order = order;
		assert.ok(await editor.pinOutput(added.ndv), 'the output pane says the output is pinned');
		await editor.saveWorkflow(s.page);
		assert.ok(await waitFor(async () => Object.keys((await s.session.data('GET', `/rest/workflows/${workflowId()}`)).pinData ?? {}).includes(CREATE)), 'saved with its pinned output');
	});

	step('README step 4, before paying: Get by Order ID of {{ $json.orderId }}, executed alone: "failure", "Transaction not initiated", as data; no new order', async () => {
		const added = await editor.addNodeAction(s.page, NODE_NAME, STATUS);
		assert.ok(added.ndv, `"${STATUS}" added`);
		await editor.fillParameter(added.ndv.getByTestId('node-parameters'), 'orderId', '{{ $json.orderId }}');
		const run = await editor.executeStep(added.ndv);
		assert.deepEqual([run.error, run.data], ['', true], run.error);
		const [status] = (await lastRun(s.session, workflowId()))[STATUS] ?? [];
		assert.deepEqual([status?.orderId, status?.status, status?.errMessage], [r.order.orderId, 'failure', 'Transaction not initiated']);
		await editor.saveWorkflow(s.page);
		const saved = await s.session.data('GET', `/rest/workflows/${workflowId()}`);
		assert.equal(saved.nodes.find((node) => node.name === STATUS)?.parameters.orderId, '={{ $json.orderId }}', 'typed with its braces, the field became an expression');
	});

	step('README step 3: checkoutUrl opened in a browser, Pay on the hosted page: the browser lands on the Redirect URL with ?paymentId=…', async () => {
		const shop = await s.page.context().newPage();
		try {
			let landed;
			await shop.route('https://shop.example.com/**', (route) => {
				landed = route.request().url();
				return route.fulfill({ status: 200, contentType: 'text/html', body: '<p>Thank you</p>' });
			});
			await shop.goto(r.order.checkoutUrl);
			await shop.getByRole('button', { name: 'Pay' }).click();
			await shop.getByText('Thank you').waitFor();
			log(`README step 3: landed on ${landed}`);
			r.paymentId = new URL(landed).searchParams.get('paymentId');
			assert.ok(landed.startsWith(`${RETURN_PAGE}?paymentId=`) && r.paymentId, landed);
		} finally {
			await shop.close();
		}
	});

	check('README step 4, after paying: Execute step on Get by Order ID: "success" and the paymentId, for the pinned order; no new order', async () => {
		const ndv = await editor.openNode(s.page, STATUS);
		const run = await editor.executeStep(ndv);
		assert.deepEqual([run.error, run.data], ['', true], run.error);
		const [status] = (await lastRun(s.session, workflowId()))[STATUS] ?? [];
		assert.deepEqual([status?.orderId, status?.status, status?.paymentId], [r.order.orderId, 'success', r.paymentId]);
		assert.deepEqual(sent(r.since).filter((request) => request.includes('create-checkout')), ['POST /nac/api/v1/pg/orders/create-checkout'], 'one order in all');
		await editor.saveWorkflow(s.page);
	});

	check('README step 4 after the editor is reloaded (a new session): Execute step on Get by Order ID reads the same, paid order; no new order', async () => {
		await s.page.reload();
		await s.page.getByTestId('canvas-node').first().waitFor({ state: 'visible', timeout: 60_000 });
		const since = s.sandbox.requests.length;
		const ndv = await editor.openNode(s.page, STATUS);
		const run = await editor.executeStep(ndv);
		assert.deepEqual([run.error, run.data], ['', true], run.error);
		const [status] = (await lastRun(s.session, workflowId()))[STATUS] ?? [];
		log(`README step 4 after a reload: ${JSON.stringify([status?.orderId, status?.status, status?.paymentId])}; the sandbox got ${sent(since).join(', ')}`);
		assert.deepEqual([status?.orderId, status?.status, status?.paymentId], [r.order.orderId, 'success', r.paymentId]);
		assert.deepEqual(sent(since), ['GET /nac/api/v1/pg/orders/check-status'], 'the status read alone: no new order');
		await ndv.getByTestId('ndv-close-button').click().catch(() => {});
	});
}

/** Polls `probe` every 250 ms for up to 10 s, until it answers something (a list: not empty); resolves with its last answer. */
async function waitFor(probe) {
	for (let tries = 0; tries < 40; tries++) {
		const answer = await probe();
		if (Array.isArray(answer) ? answer.length : answer) return answer;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	return probe();
}
