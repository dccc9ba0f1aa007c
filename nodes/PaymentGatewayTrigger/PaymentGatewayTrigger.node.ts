import type {
	IDataObject,
	NodeApiError,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { timeoutOption } from '../PaymentGateway/actions/common';
import { stringText } from '../PaymentGateway/helpers/text';
import { fetchOrderStatus } from '../PaymentGateway/actions/status/orderStatus';
import { isAuthenticSignature } from '../PaymentGateway/transport/crypto';
import { CREDENTIAL_TEST_NAME, testGatewayCredential } from '../PaymentGateway/transport/credentialTest';
import { CREDENTIAL_NAME, DEFAULT_TIMEOUT_MS, openGateway } from '../PaymentGateway/transport/request';
import { validateTimeout } from '../PaymentGateway/validation/input';
import type { Notification, Outcome } from './notification';
import { outcomeOf, readNotification } from './notification';

/** Writes the answer itself, so that the gateway hears back before a slow status re-check has finished. */
function answer(ctx: IWebhookFunctions, statusCode: number, body: IDataObject): void {
	const response = ctx.getResponseObject();
	response.statusCode = statusCode;
	response.setHeader('Content-Type', 'application/json; charset=utf-8');
	response.end(JSON.stringify(body));
}

const NOT_CONFIRMED =
	'The gateway did not confirm the status: check the payment with Status → Get by Order ID or Get by Payment ID before acting on this notification.';

/** The notification's claim kept, marked as not confirmed, with why and what to do. */
function unconfirmed(
	notification: Notification,
	why: { message: string; resCode: number | null; code: string | null },
): IDataObject {
	return {
		...notification,
		notifiedStatus: notification.status,
		statusVerified: false,
		recheckError: { ...why, description: NOT_CONFIRMED },
	};
}

/** The notification with the status the gateway confirms; when the re-check fails, the claim stays, marked so. */
async function confirmed(ctx: IWebhookFunctions, notification: Notification, timeoutOption: unknown): Promise<IDataObject> {
	const notifiedStatus = notification.status;
	try {
		const timeout = validateTimeout('Timeout (options.timeout)', timeoutOption) ?? DEFAULT_TIMEOUT_MS;
		const gateway = await openGateway(ctx);
		const record = await fetchOrderStatus(gateway, notification.orderId, { itemIndex: 0, timeout });
		// check-status tells the order's latest payment: another payment's status says nothing about this one.
		if (String(record.paymentId ?? '').trim() !== notification.paymentId) {
			return unconfirmed(notification, {
				message: "The gateway's latest payment of this order is another one: this payment's status is not confirmed",
				resCode: null,
				code: null,
			});
		}
		return {
			...notification,
			status: record.status,
			notifiedStatus,
			statusVerified: true,
			statusMismatch: record.status !== notifiedStatus,
		};
	} catch (error) {
		const failure = error as Partial<NodeApiError>;
		// The node's advice names options the trigger does not have; what to do here is the same every time.
		return unconfirmed(notification, {
			message: failure.message ?? 'The status re-check failed',
			resCode: (failure.context?.resCode as number | undefined) ?? null,
			code: (failure.context?.code as string | undefined) ?? null,
		});
	}
}

export class PaymentGatewayTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payment Gateway Trigger',
		name: 'paymentGatewayTrigger',
		icon: { light: 'file:paymentGatewayTrigger.svg', dark: 'file:paymentGatewayTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: 'Payment notifications',
		description: 'Starts the workflow when the payment gateway notifies a completed payment or a refund',
		defaults: { name: 'Payment Gateway Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_NAME, required: true, testedBy: CREDENTIAL_TEST_NAME }],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: [
			{
				displayName:
					'Give the gateway the Production URL above as your notification (webhook) URL when you onboard: it is registered with the gateway, not through its API. Only notifications signed with your client secret start the workflow; others get 401.',
				name: 'registrationNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Outcomes',
				name: 'outcomes',
				type: 'multiOptions',
				options: [
					{ name: 'Failed', value: 'failed', description: 'Payments that did not go through (status failure)' },
					{ name: 'Other', value: 'other', description: 'Anything else, e.g. a payment still pending' },
					{ name: 'Refunded', value: 'refunded', description: 'Refunds, full or partial' },
					{ name: 'Succeeded', value: 'succeeded', description: 'Payments that went through (status success)' },
				],
				default: [],
				description:
					'Which notifications start the workflow, judged by the confirmed status. Leave empty for every authentic notification.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Re-Check Status',
						name: 'recheckStatus',
						type: 'boolean',
						default: true,
						description:
							"Whether to confirm the status with the gateway (check-status of the order) before starting the workflow. The item's status is then the gateway's answer, and the notification's claim stays in notifiedStatus.",
					},
					timeoutOption(
						'How long the status re-check may wait for the gateway, in milliseconds. The gateway has already had its answer by then.',
					),
				],
			},
		],
	};

	// n8n looks for the credential's Test in whichever node using the credential it finds first.
	methods = { credentialTest: { [CREDENTIAL_TEST_NAME]: testGatewayCredential } };

	// Nothing to register through the gateway's API: the merchant gives it the URL at onboarding.
	webhookMethods = {
		default: {
			async checkExists(): Promise<boolean> {
				return true;
			},
			async create(): Promise<boolean> {
				return true;
			},
			async delete(): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const notification = readNotification(this.getBodyData(), this.getRequestObject().rawBody);
		if (!notification) {
			answer(this, 400, { error: 'Not a payment notification: a JSON object with orderId and paymentId is expected' });
			return { noWebhookResponse: true };
		}

		const secret = stringText((await this.getCredentials(CREDENTIAL_NAME)).clientSecret);
		if (!secret) {
			answer(this, 500, { error: 'The trigger cannot verify notifications: its credential has no Client Secret' });
			return { noWebhookResponse: true };
		}
		if (!isAuthenticSignature(secret, notification.orderId, notification.paymentId, notification.signature)) {
			answer(this, 401, { error: 'Missing or invalid signature' });
			return { noWebhookResponse: true };
		}

		answer(this, 200, { received: true });

		const options = this.getNodeParameter('options', {}) as IDataObject;
		const item =
			options.recheckStatus === false
				? { ...notification, notifiedStatus: notification.status, statusVerified: false }
				: await confirmed(this, notification, options.timeout);

		const outcomes = this.getNodeParameter('outcomes', []) as Outcome[];
		if (outcomes.length > 0 && !outcomes.includes(outcomeOf(item))) return { noWebhookResponse: true };
		return { workflowData: [[{ json: item }]], noWebhookResponse: true };
	}
}
