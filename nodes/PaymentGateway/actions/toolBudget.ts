import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { DailyLedger, ledgerScope, MAX_ENTRIES } from '../shared/toolLedger';
import { inThousandths } from '../validation/amount';
import type { ToolLimits } from './toolMode';
import { ToolRefusal } from '../shared/nodeError';
import { DAILY, NOTHING_SENT, sentBefore, TOTAL } from './toolMode';

/** What one tool node moved in one execution, and what its calls still in flight may move, in thousandths. */
interface Tally {
	moved: number;
	held: number;
}

const shown = (value: number) => String(value / 1000);

/**
 * The tally lives in the execution's own context data for this node (n8n keys it by execution and node name): every
 * tool call of the execution sees it, also calls made at once, and it goes away with the execution. n8n saves it with
 * the execution, so an execution that waits for a review and resumes keeps its tally. Nothing is kept in the module.
 */
function tallyOf(ctx: IExecuteFunctions, limits: ToolLimits): Tally {
	let context: IDataObject | undefined;
	try {
		context = ctx.getContext('node');
	} catch {
		context = undefined;
	}
	if (context === undefined) {
		throw new ToolRefusal(
			`Refused: this tool cannot keep count of its ${TOTAL} here, so it may not make any ${limits.what}. ${NOTHING_SENT} Ask a person to make this ${limits.what}.`,
			'n8n gave this tool call no execution context to count in; run the tool under an AI Agent or MCP Server Trigger.',
		);
	}
	const kept = context.toolBudget as Partial<Tally> | undefined;
	if (kept && typeof kept.moved === 'number' && typeof kept.held === 'number') return kept as Tally;
	const tally: Tally = { moved: 0, held: 0 };
	context.toolBudget = tally as unknown as IDataObject;
	return tally;
}

/**
 * The gateway's own refusal of the call, nothing moved: a failure in its shape whose resCode is a 4xx other than a
 * time-out (408). Anything else may hide a call that acted: no answer, a 5xx (also one under HTTP 200), a page that is
 * not the gateway's.
 */
function certainlyNotSent(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	const { code, resCode, httpStatus, unreadAnswer } = error.context;
	if (code !== undefined || unreadAnswer === true) return false;
	const refusal = (status: unknown) => typeof status === 'number' && status >= 400 && status < 500 && status !== 408;
	return refusal(resCode) && (refusal(httpStatus) || httpStatus === 200);
}

/** Money a call may move, held against the execution's budget until the gateway answers. */
export interface BudgetHold {
	/** A step before the write (a read, a check): when it fails, the write is not sent and the amount is given back. */
	before<T>(step: () => Promise<T>): Promise<T>;
	/** Sends the write: the amount counts as moved unless the gateway's answer says it was refused. */
	send<T>(write: () => Promise<T>): Promise<T>;
}

/**
 * The tool node's spending of the last 24 hours, across executions (toolLedger.ts), in the workflow's static data for
 * this node and in its global static data.
 */
function ledgerOf(ctx: IExecuteFunctions, limits: ToolLimits): DailyLedger {
	let staticData: IDataObject | undefined;
	let global: IDataObject | undefined;
	try {
		staticData = ctx.getWorkflowStaticData('node');
		global = ctx.getWorkflowStaticData('global');
	} catch {
		staticData = undefined;
	}
	const workflowId = ctx.getWorkflow().id ?? '';
	const ledger =
		staticData === undefined || global === undefined
			? undefined
			: new DailyLedger(staticData, ledgerScope(workflowId, ctx.getNode().name), Date.now, { staticData: global, workflowId });
	if (ledger === undefined || !ledger.readable) {
		throw new ToolRefusal(
			`Refused: this tool cannot keep count of its ${DAILY} here, so it may not make any ${limits.what}. ${NOTHING_SENT} Ask a person to make this ${limits.what}.`,
			"n8n gave this tool call no workflow state to count in, or the workflow's static data holds what is not its count (toolSpentLast24h): run the tool under an AI Agent or MCP Server Trigger, and leave its static data to it.",
		);
	}
	return ledger;
}

/** What is left of the day's budget, and when more frees up, in words for a refusal. */
function dailyRefusal(ledger: DailyLedger, limits: ToolLimits, amount: number | undefined, sent: string): ToolRefusal {
	const { what, currency } = limits;
	const daily = inThousandths(limits.daily);
	const { moved, held } = ledger.spent();
	const left = Math.max(0, daily - moved - held);
	const wanted = amount === undefined ? 1 : inThousandths(amount);
	const freesAt = ledger.freesUpAt(wanted - left);
	const when =
		wanted > daily
			? ` It is more than the whole ${DAILY}: this tool can never make it.`
			: freesAt !== undefined
				? ` Enough for it frees up at ${new Date(freesAt).toISOString().slice(0, 16).replace('T', ' ')} UTC, 24 hours after it was moved.`
				: ' The rest is held by calls still under way: ask again once they have ended.';
	const underWay = held > 0 ? `, and ${shown(held)} ${currency} in calls still under way` : '';
	const call = amount === undefined ? `any ${what}` : `a ${what} of ${amount} ${currency}`;
	return new ToolRefusal(
		`Refused: ${call} would take this tool above its ${DAILY} of ${shown(daily)} ${currency}: it has moved ${shown(moved)} ${currency} in the last 24 hours${underWay}, ${shown(left)} ${currency} left.${when} ${sent} Ask a person to make this ${what}.`,
		`This tool moves at most ${shown(daily)} ${currency} in any 24 hours, all its executions together; a person makes the rest.`,
	);
}

/**
 * The ledger holds as many counters as it may (toolLedger.ts, MAX_ENTRIES): it refuses to move more rather than forget
 * one of the last 24 hours.
 */
function refuseWhenFull(ledger: DailyLedger, limits: ToolLimits, sent: string): void {
	const full = ledger.full();
	if (full === undefined) return;
	const { what } = limits;
	const when = full.freesAt === undefined ? ' ask again once the calls under way have ended' : ` it frees up at ${new Date(full.freesAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
	throw new ToolRefusal(
		`Refused: this tool's count for its ${DAILY} is full: it holds ${full.entries} entries of the last 24 hours${full.open > 0 ? `, and calls under way (${full.open}) may each need one more` : ''}, its bound of ${MAX_ENTRIES}, and it forgets none of them, so it may not make any ${what} now;${when}. ${sent} Ask a person to make this ${what}.`,
		`The count of this tool's ${DAILY} holds at most ${MAX_ENTRIES} entries (one per n8n process and ten minutes); at the bound it refuses rather than forget what moved. So many entries mean n8n restarted very often in the last 24 hours.`,
	);
}

/** Refuses a call before it reads anything when the execution's or the day's budget is spent already. */
export function refuseWhenSpent(ctx: IExecuteFunctions, limits: ToolLimits | undefined): void {
	if (limits === undefined) return;
	const tally = tallyOf(ctx, limits);
	const { what, currency } = limits;
	if (tally.moved + tally.held >= inThousandths(limits.total)) {
		throw new ToolRefusal(
			`Refused: this tool has used its ${TOTAL} of ${limits.total} ${currency} in this execution, so it may not make any ${what}. ${NOTHING_SENT} Ask a person to make this ${what}.`,
			`This tool moves at most ${limits.total} ${currency} per execution, all calls together; a person makes the rest.`,
		);
	}
	const ledger = ledgerOf(ctx, limits);
	const { moved, held } = ledger.spent();
	if (moved + held >= inThousandths(limits.daily)) throw dailyRefusal(ledger, limits, undefined, NOTHING_SENT);
	refuseWhenFull(ledger, limits, NOTHING_SENT);
}

/**
 * Holds `amount` of the execution's budget, or refuses the call. Checked and taken in one step, with no await between:
 * calls the agent makes at once run in one process and cannot both take the last of the budget.
 * `afterReading`: the payment was read first, so a read went out, but no money moved.
 */
export function holdBudget(ctx: IExecuteFunctions, limits: ToolLimits | undefined, amount: number, afterReading = false): BudgetHold {
	if (limits === undefined) return { before: async (step) => await step(), send: async (write) => await write() };
	const tally = tallyOf(ctx, limits);
	const wanted = inThousandths(amount);
	const total = inThousandths(limits.total);
	const { what, currency } = limits;
	if (tally.moved + tally.held + wanted > total) {
		const sent = sentBefore(what, afterReading);
		const underWay = tally.held > 0 ? `, and ${shown(tally.held)} ${currency} in calls still under way` : '';
		throw new ToolRefusal(
			`Refused: a ${what} of ${amount} ${currency} would take this tool above its ${TOTAL} of ${shown(total)} ${currency}: it has moved ${shown(tally.moved)} ${currency} in this execution${underWay}. ${sent} Ask a person to make this ${what}.`,
			`This tool moves at most ${shown(total)} ${currency} per execution, all calls together; a person makes the rest.`,
		);
	}
	// The day's budget, across executions: checked and held in the same step, with no wait between.
	const ledger = ledgerOf(ctx, limits);
	const day = ledger.spent();
	if (day.moved + day.held + wanted > inThousandths(limits.daily)) {
		throw dailyRefusal(ledger, limits, amount, sentBefore(what, afterReading));
	}
	refuseWhenFull(ledger, limits, sentBefore(what, afterReading));
	const settleDay = ledger.hold(wanted);
	tally.held += wanted;
	let open = true;
	const settle = (moved: boolean) => {
		if (!open) return;
		open = false;
		tally.held -= wanted;
		if (moved) tally.moved += wanted;
		settleDay(moved);
	};
	// The outcome is settled by a reaction of its own; the caller still gets the result or the error as it was.
	return {
		async before(step) {
			const attempt = Promise.resolve().then(step);
			attempt.then(undefined, () => settle(false));
			return await attempt;
		},
		async send(write) {
			const attempt = Promise.resolve().then(write);
			attempt.then(
				() => settle(true),
				(error: unknown) => settle(!certainlyNotSent(error)),
			);
			return await attempt;
		},
	};
}

/**
 * What is left of the day's budget once a call settled, for the tool's answer (the agent, and a person reading the
 * chat, learn it).
 */
export function leftToday(ctx: IExecuteFunctions, limits: ToolLimits): IDataObject {
	const { moved, held } = ledgerOf(ctx, limits).spent();
	return { amount: Math.max(0, inThousandths(limits.daily) - moved - held) / 1000, currency: limits.currency };
}
