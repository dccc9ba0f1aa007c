import type { IDataObject, IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';

import { linkLedgers } from './toolLedger';
import { linkVerified } from './repeats';

/**
 * n8n saves an execution's static data whole (every node's and the global part) when anything in it changed, the last
 * save winning: an execution that loaded the store early and changed only one node's part writes every other part
 * back as it loaded it. So wherever a node of this package runs (the node's router, the trigger), the views of what this
 * process keeps for the workflow (the tools' daily ledgers, Verify Signature's repeats) are put into the execution's
 * global static data, having read what it holds: any save of an execution this package took part in holds them.
 */
export function linkWorkflowState(ctx: IExecuteFunctions | IWebhookFunctions): void {
	let global: IDataObject;
	try {
		global = ctx.getWorkflowStaticData('global');
	} catch {
		return;
	}
	const workflowId = ctx.getWorkflow().id ?? '';
	// Too many counters to read leaves the ledgers' field as it is; the tool itself then refuses (toolBudget.ts).
	linkLedgers(global, workflowId);
	linkVerified(global, workflowId);
}
