'use strict';

// The node in n8n's engine (test/support/engine.js runs WorkflowExecute), built from dist/, against a sandbox.

const path = require('node:path');

const { runWorkflow } = require('../../test/support/engine');
const { plainClient } = require('./plain-client');
const { pool, timed } = require('./pool');

const dist = path.join(__dirname, '..', '..', 'dist');
const { PaymentGateway } = require(path.join(dist, 'nodes/PaymentGateway/PaymentGateway.node.js'));
const { PaymentGatewayApi } = require(path.join(dist, 'credentials/PaymentGatewayApi.credentials.js'));
const { paceMemory } = require(path.join(dist, 'nodes/PaymentGateway/transport/paceMemory.js'));

/**
 * Empties the memory of gateways' paces this process holds, as a fresh n8n process starts: every bench section that
 * compares an untuned run as a first run calls it (the sandbox is one address whose capacity the sections change).
 */
const forgetPaces = () => paceMemory.forget();

const ORDER = { amount: 10, currency: 'USD', uiMode: 'checkout' };
const CUSTOMER = { customerName: 'Bench Customer', customerEmail: 'bench@example.com', customerPhone: '91234567' };

/** Transaction → Initiate of each item's orderId with a test card; without authentication it settles at once. */
function payParameters(overrides = {}) {
	return {
		resource: 'transaction',
		operation: 'initiate',
		orderId: '={{ $json.orderId }}',
		paymentMode: 'card',
		cardNumber: '4111111111111111',
		cardExpMonth: '12',
		cardExpYear: String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0'),
		cardHolderName: 'Bench Customer',
		redirectionUrl: 'https://shop.example.com/done',
		customerAuthentication: 'none',
		...overrides,
	};
}

async function runNode(sandbox, parameters, items, extra = {}) {
	const result = await runWorkflow({
		nodeType: PaymentGateway,
		credentialType: PaymentGatewayApi,
		...extra,
		credentials: sandbox.credentials,
		parameters,
		items,
	});
	if (result.error) throw new Error(`the node failed: ${result.error.message}`);
	return result.items;
}

/** What a run of status reads must give back: one status per order, in input order; `who` names the runner. */
function statusesInOrder(who, items, orderIds) {
	if (items.length !== orderIds.length || items.some((item, index) => item.json.orderId !== orderIds[index])) {
		throw new Error(`${who} did not return one status per order, in order`);
	}
	return items;
}

/** Status → Get by Order ID for every order id, as a user wires it: the id from each item by an expression. */
async function statusOfAll(sandbox, orderIds, concurrency) {
	const items = await runNode(
		sandbox,
		{ resource: 'status', operation: 'getByOrderId', orderId: '={{ $json.orderId }}', options: { concurrency } },
		orderIds.map((orderId) => ({ orderId })),
	);
	return statusesInOrder('the node', items, orderIds);
}

/**
 * `count` paid orders for the status reads (the gateway answers the status of an unpaid order with a failure). The
 * first order is created by the node, which shows the headers it sends; the plain client creates the rest with those
 * headers (faster than the node: order creation runs one at a time); the node pays them all.
 */
async function paidOrders(sandbox, count) {
	await sandbox.takeLog();
	const [first] = await runNode(sandbox, { resource: 'order', operation: 'create', ...ORDER, ...CUSTOMER }, [{}]);
	const { first: logged } = await sandbox.takeLog();
	const client = plainClient(sandbox, logged.headers);
	const customerFields = { name: CUSTOMER.customerName, email: CUSTOMER.customerEmail, phone: CUSTOMER.customerPhone };
	const rest = await pool(count - 1, 20, () => client.createOrder({ ...ORDER, customerFields }));
	const orderIds = [first.json.orderId, ...rest];
	await runNode(sandbox, payParameters(), orderIds.map((orderId) => ({ orderId })));
	await sandbox.takeLog();
	return { orderIds, nodeHeaders: logged.headers };
}

/** Luhn-valid 16-digit Visa numbers, distinct per index (a card already stored keeps its id, so each must differ). */
function cardNumber(index) {
	const body = `4111111111${String(index).padStart(5, '0')}`;
	let sum = 0;
	for (let position = 0; position < body.length; position++) {
		let digit = Number(body[body.length - 1 - position]);
		if (position % 2 === 0) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
		sum += digit;
	}
	return body + String((10 - (sum % 10)) % 10);
}

/** Stores `cardsEach` cards for each of `customers` customers (an order and a payment with Secure Card per card). */
async function storeCards(sandbox, customers, cardsEach) {
	const orderItems = [];
	for (let customer = 0; customer < customers; customer++) {
		for (let card = 0; card < cardsEach; card++) {
			orderItems.push({ email: `cleanup-${customer}@example.com`, phone: String(90000000 + customer), card: cardNumber(card) });
		}
	}
	const orders = await runNode(
		sandbox,
		{ resource: 'order', operation: 'create', ...ORDER, ...CUSTOMER, customerEmail: '={{ $json.email }}', customerPhone: '={{ $json.phone }}' },
		orderItems,
	);
	const payments = await runNode(
		sandbox,
		payParameters({ cardNumber: '={{ $json.card }}', secureCard: true }),
		orders.map((order, index) => ({ orderId: order.json.orderId, card: orderItems[index].card })),
	);
	await sandbox.takeLog();
	return [...new Set(payments.map((payment) => payment.json.securedCardDetails.customerId))];
}

/** The clean-up: Digital Card → Get Many for every customer, then Delete for every card listed; times each. */
async function cleanUpCards(sandbox, customerIds, concurrency) {
	const options = { concurrency };
	const { ms: listMs, result: cards } = await timed(() =>
		runNode(
			sandbox,
			{ resource: 'digitalCard', operation: 'getMany', customerId: '={{ $json.customerId }}', options },
			customerIds.map((customerId) => ({ customerId })),
		),
	);
	const { ms: deleteMs, result: deleted } = await timed(() => runNode(
		sandbox,
		{
			resource: 'digitalCard',
			operation: 'delete',
			customerId: '={{ $json.customerId }}',
			digitalCardId: '={{ $json.digitalCardId }}',
			options,
		},
		cards.map((card) => card.json),
	));
	if (deleted.some((item) => item.json.deleted !== true)) throw new Error('a card was not deleted');
	return { listed: cards.length, deleted: deleted.length, listMs, deleteMs };
}

module.exports = {
	forgetPaces, PaymentGatewayApi, runNode, statusesInOrder, statusOfAll, paidOrders, storeCards, cleanUpCards };
