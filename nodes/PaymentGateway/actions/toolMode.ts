import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { validateAmount } from '../validation/input';

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

/**
 * A call an AI agent's tool may not make. The message is the answer the agent gets, so it says what was refused and
 * what to do; the description is for the workflow's author.
 */
export class ToolRefusal extends Error {
	constructor(
		message: string,
		readonly advice: string,
	) {
		super(message);
	}
}

const NOTHING_SENT = 'Nothing was sent to the payment gateway.';
const LIMIT = 'Maximum Amount per Call';

const inToolMode = { show: { '@tool': [true] } };
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

/** The author's limit on the money one call of a tool may move; 0, the default, refuses every call. */
export function toolLimitFields(what: string): INodeProperties[] {
	return [
		{
			displayName: `This tool moves money when an AI agent calls it. Put it behind a human review step, and set ${LIMIT}: a call above it is refused before anything is sent, and 0 refuses every ${what}.`,
			name: 'toolMoneyNotice',
			type: 'notice',
			default: '',
			displayOptions: inToolMode,
		},
		{
			displayName: LIMIT,
			name: 'toolMaxAmount',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 3 },
			default: 0,
			noDataExpression: true,
			description: `The largest ${what} one call of this tool may make, in the payment's currency. Set by you, never by the agent; 0 refuses every call.`,
			displayOptions: inToolMode,
		},
	];
}

/** The limit as the author set it: one the model could fill in through $fromAI() would be no limit at all. */
function authorsLimit(ctx: IExecuteFunctions, itemIndex: number, what: string): number {
	const refusedLimit = (problem: string) =>
		new ToolRefusal(
			`Refused: this tool's ${LIMIT} ${problem}, so it may not make any ${what}. ${NOTHING_SENT} Ask a person to make this ${what}.`,
			`Set ${LIMIT} on this tool to a fixed number.`,
		);
	const raw = ctx.getNode().parameters.toolMaxAmount;
	if (typeof raw === 'string' && /\$fromai/i.test(raw)) throw refusedLimit('is left to the AI agent ($fromAI)');
	const limit = ctx.getNodeParameter('toolMaxAmount', itemIndex, 0);
	if (typeof limit !== 'number' || !Number.isFinite(limit) || limit < 0) throw refusedLimit('is not a number of 0 or more');
	return limit;
}

/**
 * In tool mode, the author's limit for one call; 0 refuses the call at once, before an amount is even looked for.
 * Outside tool mode there is none (undefined).
 */
export function toolLimit(ctx: IExecuteFunctions, itemIndex: number, what: string): number | undefined {
	if (!isToolMode(ctx)) return undefined;
	const limit = authorsLimit(ctx, itemIndex, what);
	if (limit === 0) {
		throw new ToolRefusal(
			`Refused: this tool's ${LIMIT} is 0 (not set), so it may not make any ${what}. ${NOTHING_SENT} Ask a person to make this ${what}.`,
			`The workflow's author allows ${what}s through this tool by setting ${LIMIT}; keep the tool behind a human review step.`,
		);
	}
	return limit;
}

/**
 * The amount that would be sent, refused when above the limit; without a limit (not a tool) nothing changes.
 * `afterReading`: the amount was read from the gateway first, so a read went out, but no money moved.
 */
export function assertWithinLimit(limit: number | undefined, amount: number, what: string, afterReading = false): void {
	if (limit !== undefined && amount > limit) {
		const sent = afterReading ? `No ${what} was sent; only the payment was read.` : NOTHING_SENT;
		throw new ToolRefusal(
			`Refused: a ${what} of ${amount} is above this tool's ${LIMIT} of ${limit}. ${sent} Ask a person to make this ${what}.`,
			`Only ${what}s of at most ${limit} may be made through this tool; a person makes larger ones.`,
		);
	}
}

/**
 * The amount a call states for what it pays, which the limit is checked against; a call that states none is refused as
 * one the limit cannot be checked for, since the gateway tells no order's amount before it is paid.
 */
export function statedAmount(value: unknown, digits: number, limit: number | undefined, what: string): number {
	if (limit !== undefined && (value === undefined || value === null || value === '' || value === 0)) {
		throw new ToolRefusal(
			`Refused: this tool checks every ${what} against its ${LIMIT} of ${limit}, and this call states no amount. ${NOTHING_SENT} Give the amount of the order, or ask a person to make this ${what}.`,
			"Give the tool the order's amount in Amount (e.g. through $fromAI()), so that the limit can be checked.",
		);
	}
	return validateAmount('Amount (amount)', value, digits);
}

/** Card numbers must never pass through a language model (PCI DSS): an agent pays with stored cards only. */
export function refuseCardDetails(): never {
	throw new ToolRefusal(
		`Refused: an AI agent's tool may not pay with card details (Payment Mode "New Card"), because card numbers must never pass through a language model. ${NOTHING_SENT} Ask a person to take this payment, or pay with a stored card (Payment Mode "Stored Card").`,
		'Set Payment Mode to Stored Card, or take card payments outside the agent (e.g. on the hosted checkout page).',
	);
}
