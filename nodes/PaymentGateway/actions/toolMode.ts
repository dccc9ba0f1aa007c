import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ToolRefusal } from '../shared/nodeError';
import { amountWithin, answerAmount, fieldAmount, GATEWAY_DECIMALS, NotAnAmount, readAmount } from '../validation/amount';
import { currencyCode, currencyDigits } from '../validation/input';
import { moneyField } from './fields';

/**
 * n8n offers the node to AI agents as `n8n-nodes-payment-gateway.paymentGatewayTool`: there, a language model fills
 * in the parameters. Money must not move on its say-so alone, and card data must never reach it.
 */
// getNode() copies the whole node: asked per item, it is answered once per execution's context.
const toolMode = new WeakMap<IExecuteFunctions, boolean>();

export function isToolMode(ctx: IExecuteFunctions): boolean {
	let known = toolMode.get(ctx);
	if (known === undefined) toolMode.set(ctx, (known = ctx.getNode().type.endsWith('Tool')));
	return known;
}


export const NOTHING_SENT = 'Nothing was sent to the payment gateway.';
const LIMIT = 'Maximum Amount per Call';
const CURRENCY = 'Limit Currency';
export const TOTAL = 'Maximum Total per Execution';
export const DAILY = 'Maximum Total per Day';

export const inToolMode = { show: { '@tool': [true] } };
export const outsideToolMode = { hide: { '@tool': [true] } };

/** What the agent reads about an operation: n8n uses a node's own `toolDescription` instead of adding its own. */
export function toolDescriptionField(text: string): INodeProperties {
	return {
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: text,
		description:
			'What the AI agent reads about this tool to decide when to call it: what it does, whether it moves money, what it needs and what it returns',
		displayOptions: inToolMode,
	};
}

/** The author's limits on the money a tool may move: per call, in one currency, and per execution. */
export function toolLimitFields(what: string): INodeProperties[] {
	// Set by the author, never by the agent: no expressions, and '0' (refusing every call) until set.
	const limit = (displayName: string, name: string, description: string) =>
		moneyField({ displayName, name, description, default: '0', noDataExpression: true, displayOptions: inToolMode });
	return [
		{
			displayName: `This tool moves money when an AI agent calls it. Put it behind a human review step and set its limits, all in the ${CURRENCY}: ${LIMIT} bounds one call; ${TOTAL} one execution (one chat message, one MCP call); ${DAILY} all its executions of the last 24 hours. A call beyond any of them, or in another currency, is refused before anything is sent; 0 refuses every ${what}.`,
			name: 'toolMoneyNotice',
			type: 'notice',
			default: '',
			displayOptions: inToolMode,
		},
		limit(LIMIT, 'toolMaxAmount', `The largest ${what} one call of this tool may make, in the ${CURRENCY}. Set by you, never by the agent; 0 refuses every call.`),
		{
			displayName: CURRENCY,
			name: 'toolLimitCurrency',
			type: 'string',
			default: '',
			placeholder: 'e.g. USD',
			noDataExpression: true,
			description: `The currency of ${LIMIT} and ${TOTAL} (three-letter ISO code): a ${what} in another currency is refused. Required once ${LIMIT} is above 0.`,
			displayOptions: inToolMode,
		},
		limit(
			TOTAL,
			'toolMaxTotal',
			`The most this tool may move in one execution, all calls together, also when the agent makes several at once; 0 means the same as ${LIMIT}. A chat agent runs one execution per message and an MCP client one per call: ${DAILY} bounds what they move over time.`,
		),
		limit(
			DAILY,
			'toolMaxDaily',
			`The most this tool may move in any 24 hours, across all its executions (every chat message, every MCP call), in the ${CURRENCY}; kept in the workflow's static data. Required once ${LIMIT} is above 0: 0 refuses every ${what}.`,
		),
	];
}

/** The limits a tool call is held to; set by the workflow's author only. */
export interface ToolLimits {
	/** The largest amount one call may move. */
	perCall: number;
	/** ISO code, upper case: the currency of both amounts. */
	currency: string;
	/** The most all calls of one execution may move together. */
	total: number;
	/** The most all calls of the last 24 hours may move together. */
	daily: number;
	/** Decimals an amount may have under these limits: the Limit Currency's, at most the gateway's. */
	digits: number;
	/** "payment" or "refund", for the words of a refusal. */
	what: string;
}

/** A refusal for want of a limit the author set: the message for the agent, the advice for the author. */
const authorsRefusal = (label: string, problem: string, what: string, advice: string) =>
	new ToolRefusal(`Refused: this tool's ${label} ${problem}, so it may not make any ${what}. ${NOTHING_SENT} Ask a person to make this ${what}.`, advice);

/** A parameter the model could fill in through $fromAI() would be no limit at all. */
function leftToTheAgent(ctx: IExecuteFunctions, name: string): boolean {
	const raw = ctx.getNode().parameters[name];
	return typeof raw === 'string' && /\$fromai/i.test(raw);
}

/** An amount the author set, by the one amount rule; `within`: the decimals and the currency it is in. */
function authorsAmount(ctx: IExecuteFunctions, itemIndex: number, name: string, label: string, what: string, within?: [number, string]): number {
	const advice = `Set ${label} on this tool to a fixed amount written with a decimal point, like 25.50.`;
	if (leftToTheAgent(ctx, name)) throw authorsRefusal(label, 'is left to the AI agent ($fromAI)', what, advice);
	const value = ctx.getNodeParameter(name, itemIndex, '0');
	const amount = within ? amountWithin(value, ...within) : readAmount(value);
	if (amount instanceof NotAnAmount) throw authorsRefusal(label, amount.problem, what, advice);
	return typeof amount === 'number' ? amount : amount.value;
}

function authorsCurrency(ctx: IExecuteFunctions, itemIndex: number, what: string): string {
	const refused = (problem: string) =>
		authorsRefusal(CURRENCY, problem, what, `Set ${CURRENCY} on this tool to the three-letter code of the currency its limits are in, e.g. USD.`);
	if (leftToTheAgent(ctx, 'toolLimitCurrency')) throw refused('is left to the AI agent ($fromAI)');
	const value = ctx.getNodeParameter('toolLimitCurrency', itemIndex, '');
	if (typeof value !== 'string' || value.trim() === '') throw refused('is not set');
	const code = currencyCode(value);
	if (!code) throw refused('is not a three-letter currency code');
	return code;
}

/**
 * In tool mode, the author's limits; a Maximum Amount per Call of 0 refuses the call at once, before an amount is even
 * looked for. Outside tool mode there are none (undefined).
 */
export function toolLimits(ctx: IExecuteFunctions, itemIndex: number, what: string): ToolLimits | undefined {
	if (!isToolMode(ctx)) return undefined;
	const limit = (name: string, label: string, within?: [number, string]) => authorsAmount(ctx, itemIndex, name, label, what, within);
	if (limit('toolMaxAmount', LIMIT) === 0) {
		throw authorsRefusal(
			LIMIT,
			'is 0 (not set)',
			what,
			`The workflow's author allows ${what}s through this tool by setting ${LIMIT} and ${CURRENCY}; keep the tool behind a human review step.`,
		);
	}
	const currency = authorsCurrency(ctx, itemIndex, what);
	// The limits are amounts in that currency: read in it, with no more decimals than it (and the gateway) has.
	const digits = Math.min(currencyDigits(currency), GATEWAY_DECIMALS);
	const perCall = limit('toolMaxAmount', LIMIT, [digits, currency]);
	const total = limit('toolMaxTotal', TOTAL, [digits, currency]);
	const daily = limit('toolMaxDaily', DAILY, [digits, currency]);
	if (daily === 0) {
		throw authorsRefusal(
			DAILY,
			'is 0 (not set)',
			what,
			`A chat agent runs one execution per message and an MCP client one per call: set ${DAILY} to bound what this tool moves over time.`,
		);
	}
	return { perCall, currency, total: total === 0 ? perCall : total, daily, digits, what };
}

/** What went out before a refusal: nothing, or only the read of the payment. */
export const sentBefore = (what: string, afterReading: boolean) =>
	afterReading ? `No ${what} was sent; only the payment was read.` : NOTHING_SENT;

/**
 * The amount that would be sent, refused when above the limit; without limits (not a tool) nothing changes.
 * `afterReading`: the amount was read from the gateway first, so a read went out, but no money moved.
 */
export function assertWithinLimit(limits: ToolLimits | undefined, amount: number, afterReading = false): void {
	if (limits !== undefined && amount > limits.perCall) {
		const { what, perCall, currency } = limits;
		throw new ToolRefusal(
			`Refused: a ${what} of ${amount} ${currency} is above this tool's ${LIMIT} of ${perCall} ${currency}. ${sentBefore(what, afterReading)} Ask a person to make this ${what}.`,
			`Only ${what}s of at most ${perCall} ${currency} may be made through this tool; a person makes larger ones.`,
		);
	}
}

/**
 * The currency of the payment or order must be the limits' one: 25 of a limit in USD are not 25 KWD. `whose` says
 * where the currency came from ("the payment", as the gateway gave it, or "the order", as the call states it).
 */
export function assertLimitCurrency(limits: ToolLimits | undefined, currency: unknown, whose: string, afterReading = false): void {
	if (limits === undefined) return;
	const { what } = limits;
	const code = currencyCode(currency);
	if (code === limits.currency) return;
	const problem = code === undefined ? `the currency of ${whose} is not known, or is no three-letter code` : `${whose} is in ${code}`;
	throw new ToolRefusal(
		`Refused: ${problem}, and this tool's limits are in ${limits.currency} (${CURRENCY}). ${sentBefore(what, afterReading)} Ask a person to make this ${what}.`,
		`Only ${what}s in ${limits.currency} may be made through this tool; a person makes those in other currencies.`,
	);
}

/**
 * The amount a call states for what it pays, in the Limit Currency, which the limit is checked against; a call that
 * states none is refused as one the limit cannot be checked for, since the gateway tells no order's amount before it
 * is paid.
 */
function statedAmount(value: unknown, limits: ToolLimits): number {
	if (value === undefined || value === null || value === 0 || (typeof value === 'string' && value.trim() === '')) {
		const { what, perCall, currency } = limits;
		throw new ToolRefusal(
			`Refused: this tool checks every ${what} against its ${LIMIT} of ${perCall} ${currency}, and this call states no amount. ${NOTHING_SENT} Give the amount of the order, or ask a person to make this ${what}.`,
			"Give the tool the order's amount in Amount (e.g. through $fromAI()), so that the limit can be checked.",
		);
	}
	return fieldAmount('Amount (amount)', value, limits.digits, limits.currency);
}

/** The currency a call states for the order it pays; none stated cannot be checked against the Limit Currency. */
function statedCurrency(value: unknown, limits: ToolLimits): string {
	const code = typeof value === 'string' ? value.trim() : '';
	if (code === '') {
		const { what, currency } = limits;
		throw new ToolRefusal(
			`Refused: this tool's limits are in ${currency}, and this call states no currency for the order. ${NOTHING_SENT} Give the order's currency, or ask a person to make this ${what}.`,
			"Give the tool the order's currency in Currency (e.g. through $fromAI()), so that it can be checked against Limit Currency.",
		);
	}
	return code;
}

/** Card numbers must never pass through a language model (PCI DSS): an agent pays with stored cards only. */
const cardDetailsRefusal = () =>
	new ToolRefusal(
		`Refused: an AI agent's tool may not pay with card details (Payment Mode "New Card"), because card numbers must never pass through a language model. ${NOTHING_SENT} Ask a person to take this payment, or pay with a stored card (Payment Mode "Stored Card").`,
		'Set Payment Mode to Stored Card, or take card payments outside the agent (e.g. on the hosted checkout page).',
	);

/** A CVV is card data: a tool never takes one, whether the model gave it or the workflow file carries it. */
const cvvRefusal = () =>
	new ToolRefusal(
		`Refused: an AI agent's tool takes no CVV, because card data must never pass through a language model. ${NOTHING_SENT} Call again without a CVV (the customer confirms with a one-time password), or ask a person to take this payment.`,
		'Leave CVV empty on this tool: it is hidden in tool mode, and a value that arrives anyway is refused.',
	);

/**
 * A stored card is charged the order's own amount, which the limit never sees: only the customer, confirming the real
 * amount with the bank by a one-time password, can stand behind it. Without a confirmation (`none`) the agent could
 * pay any order; with CVV (`cvvAndOtp`) the agent would have to hold the card's security code.
 */
function requireCustomerConfirmation(authentication: unknown): void {
	if (authentication === 'otpOnly') return;
	const why =
		authentication === 'cvvAndOtp'
			? 'CVV and OTP needs the card\'s security code, which an AI agent\'s tool never takes'
			: 'without it the customer does not confirm the amount the gateway charges, which this tool cannot see';
	throw new ToolRefusal(
		`Refused: an AI agent's tool pays with a stored card only when the customer confirms the payment with a one-time password (Customer Authentication "OTP Only"), and ${why}. ${NOTHING_SENT} Ask a person to take this payment.`,
		'Set Customer Authentication to OTP Only on this tool, and send the customer the confirmation page (redirectionData) from its answer.',
	);
}

/**
 * A payment as a tool may make it, checked on what the call states before any card field is read and before anything
 * is sent: a workflow file can carry card mode, card details or a CVV into the tool, whatever the editor hides there.
 */
export function storedCardCall(ctx: IExecuteFunctions, itemIndex: number, paymentMode: string): { limits: ToolLimits; amount: number } {
	const parameter = (name: string, fallback?: unknown) => ctx.getNodeParameter(name, itemIndex, fallback);
	if (paymentMode === 'card') throw cardDetailsRefusal();
	const cvv = ctx.getNode().parameters.cardCVV;
	if (cvv !== undefined && cvv !== null && String(cvv).trim() !== '') throw cvvRefusal();
	requireCustomerConfirmation(parameter('customerAuthentication', 'cvvAndOtp'));
	const limits = toolLimits(ctx, itemIndex, 'payment') as ToolLimits;
	assertLimitCurrency(limits, statedCurrency(parameter('currency'), limits), 'the order (as this call states it)');
	const amount = statedAmount(parameter('amount'), limits);
	assertWithinLimit(limits, amount);
	return { limits, amount };
}

/**
 * The gateway charges the order's own amount, which it tells only in its answer. Unless that shows the Limit Currency
 * and an amount no larger than the call stated, the confirmation page is withheld: the customer is never asked, and no
 * money moves. An answer without them proves nothing, so it is withheld too.
 */
export function assertAnswerMatches(payment: IDataObject, limits: ToolLimits, stated: number): void {
	const currency = currencyCode(payment.currency);
	// Read by the rule that reads amounts typed: empty, blank, negative or other text is no amount, and proves nothing.
	const amount = answerAmount(payment.amount);
	if (currency === limits.currency && amount !== undefined && amount <= stated) return;
	const paymentId = typeof payment.paymentId === 'string' ? payment.paymentId : 'without an id';
	const charged = [String(payment.amount), currency].filter((part) => part && part !== 'undefined').join(' ');
	throw new ToolRefusal(
		`Refused after the gateway answered: it started payment ${paymentId} for ${charged}, not the ${stated} ${limits.currency} this call stated. Its confirmation page is withheld, so the customer is not asked to confirm it and no money moves. Tell a person about payment ${paymentId}.`,
		"The order's amount or currency is not what the agent stated; have a person check the order and the payment.",
	);
}
