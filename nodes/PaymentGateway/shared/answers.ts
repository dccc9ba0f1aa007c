import type { Shape } from '../transport/outputs';

// The gateway's records as they may leave the node: every field the gateway's documents and public integrations show
// for them (gateway-notes: amounts as text or numbers, both spellings of two misspelt fields), each with its kind.
// An operation declares which of these its answer is; the trigger and Verify Signature declare a notification.

const PAYMENT_DETAILS: Shape = { paymentMethod: 'word', cardNetwork: 'word', cardType: 'word', cardUsageType: 'word' };

/** What a failure or a flat long-family answer says of itself beside its record. */
const ENVELOPE: Shape = { resCode: 'code', status: 'word', errMessage: 'message', message: 'message' };

/** Fields of a payment record that change with each event, where a gateway gives them (a refunded total, a time). */
export const PROGRESS_FIELDS: Shape = {
	refundedAmount: 'amount',
	totalRefunded: 'amount',
	refundedTotal: 'amount',
	amountRefunded: 'amount',
	totalRefundedAmount: 'amount',
	refundCount: 'count',
	updatedAt: 'time',
	lastUpdatedAt: 'time',
	modifiedAt: 'time',
	lastModifiedAt: 'time',
};

const REFUND_FIELDS: Shape = {
	refundId: 'id',
	paymentId: 'id',
	orderId: 'id',
	receiptId: 'receipt',
	status: 'word',
	paymentStatus: 'word',
	paymentMethod: 'word',
	amount: 'amount',
	currency: 'currency',
	initiatedAt: 'time',
	completedAt: 'time',
	compltedAt: 'time',
	signature: 'signature',
	signarture: 'signature',
};

/** Order → Create: `data` of POST /order. */
export const ORDER: Shape = { orderId: 'id', receiptId: 'receipt', amount: 'amount', currency: 'currency', status: 'word', description: 'message' };

/** Order → Create Checkout: the flat answer of create-checkout. */
export const CHECKOUT_ORDER: Shape = { ...ENVELOPE, orderId: 'id', receiptId: 'receipt', amount: 'amount', currency: 'currency' };

/** Transaction → Initiate: `data` of POST /transaction/initiate. */
export const PAYMENT: Shape = {
	paymentId: 'id',
	orderId: 'id',
	receiptId: 'receipt',
	paymentStatus: 'word',
	status: 'word',
	amount: 'amount',
	currency: 'currency',
	redirectionData: { method: 'word', formData: 'form', url: 'url' },
	securedCardDetails: { customerId: 'id', digitalCardId: 'id' },
	customerId: 'id',
};

/** Transaction → Refund: `data` of POST /transaction/refund. */
export const REFUND: Shape = REFUND_FIELDS;

/** The record of one payment, by its id (status by payment id): the status read, a refund's read, every re-check. */
export const PAYMENT_RECORD: Shape = {
	...REFUND_FIELDS,
	transactionType: 'word',
	timestamp: 'time',
	description: 'message',
	errMessage: 'message',
	paymentDetails: PAYMENT_DETAILS,
	refunds: { listOf: REFUND_FIELDS, max: 100 },
	...PROGRESS_FIELDS,
};

/** Status → Get by Order ID: the flat record of check-status, also of an order nobody has paid yet. */
export const ORDER_STATUS: Shape = {
	...ENVELOPE,
	orderId: 'id',
	paymentId: 'id',
	receiptId: 'receipt',
	paymentStatus: 'word',
	amount: 'amount',
	currency: 'currency',
	signature: 'signature',
	timestamp: 'time',
	paymentDetails: PAYMENT_DETAILS,
};

const DIGITAL_CARD: Shape = {
	digitalCardId: 'id',
	network: 'word',
	cardNetwork: 'word',
	cardType: 'word',
	status: 'word',
	panLastFour: 'lastFour',
	createdAt: 'time',
	updatedAt: 'time',
};

/** Digital Card → Get Many: a customer's stored cards (a customer stores five at most). */
export const CARD_LIST: Shape = { digitalCards: { listOf: DIGITAL_CARD, max: 100 }, remainingLimit: 'count' };

/** Digital Card → Get: one stored card. */
export const CARD: Shape = { digitalCard: DIGITAL_CARD, remainingLimit: 'count' };

/** Digital Card → Delete: the card removed. */
export const CARD_DELETED: Shape = { customerId: 'id', digitalCardId: 'id' };

/**
 * A notification, or a status record a customer's browser brings back, flat (a wrapped one's `data` with its
 * `eventType`, confirm.ts flatRecord): what the trigger and Status → Verify Signature output of it, as the sender's claims.
 */
export const NOTIFICATION: Shape = {
	eventType: 'word',
	orderId: 'id',
	paymentId: 'id',
	refundId: 'id',
	status: 'word',
	paymentStatus: 'word',
	receiptId: 'receipt',
	amount: 'amount',
	currency: 'currency',
	signature: 'signature',
	timestamp: 'time',
	paymentDetails: PAYMENT_DETAILS,
	failureReason: 'message',
	redirectType: 'word',
	redirectUrl: 'url',
	// A record the trigger emitted, checked again: its claims were set aside under these names already.
	notifiedStatus: 'word',
	notifiedPaymentStatus: 'word',
	notifiedAmount: 'amount',
	notifiedCurrency: 'currency',
	notifiedReceiptId: 'receipt',
};
