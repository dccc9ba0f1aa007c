import type { IDataObject } from 'n8n-workflow';

import { PaymentGatewayApi } from '../../credentials/PaymentGatewayApi.credentials';
import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import type { RunAsToolOptions } from './agent';
import { runAsTool } from './agent';
import type { Sandbox, StatusRecord } from './fixtures';
import { createOrder, initiateParameters, initiatePayment, runNode, sandboxCredentials } from './fixtures';

// The node as an AI agent's tool, as the engine tests set it up: parameters a model fills in, a run of its calls
// against the sandbox, and what the sandbox holds beforehand, made outside the agent.

/** A parameter the model fills in. */
export const fromAI = (key: string, description: string, type = 'string') => `={{ $fromAI('${key}', '${description}', '${type}') }}`;

/** A refund tool: the model names the payment and the amount; `extra` sets its limits. */
export const refundTool = (extra: IDataObject = {}): IDataObject => ({
	resource: 'transaction',
	operation: 'refund',
	paymentId: fromAI('paymentId', 'The paymentId of the payment to refund'),
	amount: fromAI('amount', 'How much to give back', 'number'),
	...extra,
});

/** One run of the node as a tool, with these calls, against the sandbox. */
export async function runPaymentTool(sandbox: Sandbox, parameters: IDataObject, calls: RunAsToolOptions['calls'], extra: Partial<RunAsToolOptions> = {}) {
	return await runAsTool({
		nodeType: PaymentGateway,
		credentialType: PaymentGatewayApi,
		credentials: sandboxCredentials(sandbox),
		parameters: parameters as RunAsToolOptions['parameters'],
		calls,
		...extra,
	});
}

/** A successful card payment made outside the agent (25.50 USD unless the order says otherwise); its paymentId. */
export async function paidPayment(sandbox: Sandbox, order: IDataObject = {}): Promise<string> {
	return (await paidRecord(sandbox, order)).paymentId;
}

/** The same payment's status record, signed. */
export async function paidRecord(sandbox: Sandbox, order: IDataObject = {}): Promise<StatusRecord> {
	const orderId = await createOrder(sandbox, order);
	const record = await sandbox.completeAuthentication(await initiatePayment(sandbox, orderId), 'success');
	sandbox.clearLog();
	return record;
}

/** A card stored by a payment made outside the agent, and a new order to pay with it (25.50 USD unless `order` says). */
export async function storedCardAndOrder(sandbox: Sandbox, order: IDataObject = {}): Promise<{ orderId: string; digitalCardId: string }> {
	const stored = await runNode(sandbox, initiateParameters(await createOrder(sandbox), { secureCard: true }));
	const { digitalCardId } = stored.items[0].json.securedCardDetails as IDataObject;
	const orderId = await createOrder(sandbox, order);
	sandbox.clearLog();
	return { orderId, digitalCardId: digitalCardId as string };
}
