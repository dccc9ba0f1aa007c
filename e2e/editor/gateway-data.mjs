// What the editor check finds in the sandbox before the editor shows it: a customer with two stored cards (paid with
// Secure Card on) and an order nobody has paid. Made with signed requests straight to the sandbox, the card details
// encrypted by the package's own built function, so that the editor is the only thing showing them.
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const { gatewayRequest, storedCards } = require('../lib/gateway');
const { paths } = require('../lib/package');

/** The package's card encryption, as built (required late: the check builds the package first). */
const builtCrypto = () => require(path.join(paths.ROOT, 'dist', 'nodes', 'PaymentGateway', 'transport', 'crypto'));

const CUSTOMER = { name: 'Cara Cards', email: 'cara.cards@example.com', phone: '91000077' };
/** The approved test cards, with what a person reads in the list: network and the last four digits only. */
const CARDS = [
	{ number: '4111111111111111', network: 'Visa' },
	{ number: '5186001700008785', network: 'Mastercard' },
];
const EXPIRY_YEAR = String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0');

async function call(sandbox, apiPath, body) {
	const { status, body: answer } = await gatewayRequest(sandbox, 'POST', apiPath, { body });
	if (status !== 200 || answer.status !== 'success') throw new Error(`POST ${apiPath} answered ${status}: ${answer.errMessage ?? answer.message}`);
	return answer.data;
}

/** A new order of the customer; resolves with its orderId. */
export async function createOrder(sandbox, receiptId) {
	const order = await call(sandbox, '/order', { amount: 20, currency: 'USD', uiMode: 'checkout', receiptId, customerFields: CUSTOMER });
	return order.orderId;
}

/**
 * Two orders paid with Secure Card on, one card each. Resolves with { customerId, cards: [{ digitalCardId, label }] },
 * `label` as the list must show it: network, type, the last four digits and the day the gateway stored it.
 */
export async function storeTwoCards(sandbox) {
	const { encryptCardDetails } = builtCrypto();
	let customerId;
	for (const [index, card] of CARDS.entries()) {
		const orderId = await createOrder(sandbox, `CARDS-${index}`);
		const payment = await call(sandbox, '/transaction/initiate', {
			orderId,
			encryptedCardDetails: encryptCardDetails(
				{ cardNumber: card.number, cardExpMonth: '12', cardExpYear: EXPIRY_YEAR, cardCVV: '123' },
				sandbox.cardEncryptionKey,
			),
			paymentMethod: 'card',
			cardHolderName: CUSTOMER.name,
			redirectionUrl: 'https://shop.example.com/payment/done',
			paymentMode: 'card',
			secureCard: true,
			skipCVVandOTP: true,
			skipCVVOnlyFlag: false,
			apiType: 'hosted',
		});
		customerId = payment.securedCardDetails?.customerId;
	}
	const stored = await storedCards(sandbox, customerId);
	const cards = stored.map((record) => {
		const card = CARDS.find((given) => given.number.endsWith(record.panLastFour));
		return {
			digitalCardId: record.digitalCardId,
			label: `${card?.network ?? record.network} ${record.cardType} •••• ${card?.number.slice(-4)}, stored ${record.createdAt.slice(0, 10)}`,
		};
	});
	return { customerId, cards };
}
