import type {
	IDataObject,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { timeoutOption } from '../PaymentGateway/actions/common';
import { stringText } from '../PaymentGateway/helpers/text';
import type { Confirmation } from '../PaymentGateway/actions/status/confirm';
import { confirmedItem, confirmPayment, failureOf } from '../PaymentGateway/actions/status/confirm';
import { isAuthenticSignature } from '../PaymentGateway/transport/crypto';
import { CREDENTIAL_TEST_NAME, testGatewayCredential } from '../PaymentGateway/transport/credentialTest';
import { CREDENTIAL_NAME, DEFAULT_TIMEOUT_MS, openGateway } from '../PaymentGateway/transport/request';
import { validateTimeout } from '../PaymentGateway/validation/input';
import type { Notification, Outcome } from './notification';
import { claimedOutcome, confirmedOutcome, readNotification } from './notification';
import { Repeats, repeatKey } from './repeats';

/** Writes the answer itself, so that the gateway hears back before a slow status re-check has finished. */
function answer(ctx: IWebhookFunctions, statusCode: number, body: IDataObject): void {
	const response = ctx.getResponseObject();
	response.statusCode = statusCode;
	response.setHeader('Content-Type', 'application/json; charset=utf-8');
	response.end(JSON.stringify(body));
}

const NOT_CONFIRMED =
	'The gateway did not confirm this payment: its status, amount, currency and receipt are unknown (the notification’s claims are under notifiedStatus, notifiedAmount, notifiedCurrency and notifiedReceiptId). Check the payment with Status → Get by Payment ID before acting on it.';

/**
 * The notification as the gateway confirms it: the payment it names, read by its id. When the re-check fails, nothing
 * is confirmed and the item says why. It is emitted all the same: the gateway had its 200 long before, and a
 * delivery that does not come again would be a payment lost.
 */
async function confirmed(ctx: IWebhookFunctions, notification: Notification, timeoutOption: unknown): Promise<IDataObject> {
	let confirmation: Confirmation;
	try {
		const timeout = validateTimeout('Timeout (options.timeout)', timeoutOption) ?? DEFAULT_TIMEOUT_MS;
		confirmation = await confirmPayment(await openGateway(ctx), notification, { itemIndex: 0, timeout });
	} catch (error) {
		// The node's advice names options the trigger does not have; what to do here is the same every time.
		confirmation = { verified: false, failure: failureOf(error) };
	}
	const item = confirmedItem(notification, confirmation);
	if (!confirmation.verified) item.recheckError = { ...confirmation.failure, description: NOT_CONFIRMED };
	return item;
}

/** With the re-check off: typeVersion 1 keeps the claims where it had them; later ones set them aside all the same. */
function unchecked(notification: Notification, version: number): IDataObject {
	return version < 1.1
		? { ...notification, notifiedStatus: notification.status, statusVerified: false }
		: confirmedItem(notification, undefined);
}

export class PaymentGatewayTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payment Gateway Trigger',
		name: 'paymentGatewayTrigger',
		icon: { light: 'file:paymentGatewayTrigger.svg', dark: 'file:paymentGatewayTrigger.dark.svg' },
		group: ['trigger'],
		version: [1, 1.1],
		defaultVersion: 1.1,
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
					'Which notifications start the workflow, judged by the status the gateway confirms (a notification it did not confirm is Other). Leave empty for every authentic notification.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Ignore Repeats',
						name: 'ignoreRepeats',
						type: 'boolean',
						default: true,
						description:
							'Whether a notification delivered again (same payment, same confirmed status) after the first started the workflow starts nothing. Gateways deliver at least once, and repeat. Off by default in trigger nodes added before version 1.1.',
					},
					{
						displayName: 'Re-Check Status',
						name: 'recheckStatus',
						type: 'boolean',
						default: true,
						description:
							"Whether to read the payment from the gateway (status by payment ID) before starting the workflow. A notification's signature proves only its orderId and paymentId: the item's status, amount, currency and receiptId are then the gateway's, and the notification's claims stay under notifiedStatus, notifiedAmount, notifiedCurrency and notifiedReceiptId.",
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
		const node = this.getNode();
		const recheck = options.recheckStatus !== false;
		const item = recheck ? await confirmed(this, notification, options.timeout) : unchecked(notification, node.typeVersion);
		// An unconfirmed notification is Other: it never passes Succeeded or Refunded on a claim.
		const outcome = recheck
			? item.statusVerified === true
				? confirmedOutcome(item.status)
				: 'other'
			: claimedOutcome(notification);
		const outcomes = this.getNodeParameter('outcomes', []) as Outcome[];
		if (outcomes.length > 0 && !outcomes.includes(outcome)) return { noWebhookResponse: true };

		const ignoreRepeats = typeof options.ignoreRepeats === 'boolean' ? options.ignoreRepeats : node.typeVersion >= 1.1;
		// Only what was confirmed (or, unchecked, claimed) counts as handled: an unconfirmed one may be news next time.
		if (ignoreRepeats && (item.statusVerified === true || !recheck)) {
			const repeats = new Repeats(this.getWorkflowStaticData('node'), `${this.getWorkflow().id ?? ''}\u0000${node.name}`);
			const key = repeatKey(notification.paymentId, recheck ? item.status : notification.status);
			const repeat = repeats.has(key);
			if (!repeat) repeats.remember(key);
			repeats.save();
			if (repeat) return { noWebhookResponse: true };
		}
		return { workflowData: [[{ json: item }]], noWebhookResponse: true };
	}
}
