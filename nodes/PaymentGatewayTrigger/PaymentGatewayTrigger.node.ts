import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { stringText } from '../PaymentGateway/helpers/text';
import { NODE_DESCRIPTION } from '../PaymentGateway/PaymentGateway.node';
import type { Confirmation } from '../PaymentGateway/shared/confirm';
import { claimsOf, confirmedItem, confirmPayment, failureOf } from '../PaymentGateway/shared/confirm';
import { listField, timeoutOption } from '../PaymentGateway/shared/options';
import { isAuthenticSignature } from '../PaymentGateway/transport/crypto';
import { UNKNOWN_ID } from '../PaymentGateway/transport/errors';
import { PAYMENT_RECORD } from '../PaymentGateway/shared/answers';
import { funnelFor } from '../PaymentGateway/transport/redact';
import { CREDENTIAL_TEST_NAME, testGatewayCredential } from '../PaymentGateway/credentialTest';
import type { Endpoint } from '../PaymentGateway/transport/request';
import { secretsOf } from '../PaymentGateway/transport/credential';
import { CREDENTIAL_NAME, DEFAULT_TIMEOUT_MS, openGateway } from '../PaymentGateway/transport/request';
import { MAX_RETRIES, validateRetries, validateTimeout } from '../PaymentGateway/validation/input';
import type { Notification, Outcome } from './notification';
import { claimedOutcome, confirmedOutcome, readNotification, RefusedNotification } from './notification';
import { claimOf, explainedClaim, Rechecks } from '../PaymentGateway/shared/rechecks';
import { repeatKindOf, Repeats } from '../PaymentGateway/shared/repeats';
import { linkWorkflowState } from '../PaymentGateway/shared/workflowState';

/** Writes the answer itself, so that the gateway hears back before a slow status re-check has finished. */
function answer(ctx: IWebhookFunctions, statusCode: number, body: IDataObject): void {
	const response = ctx.getResponseObject();
	response.statusCode = statusCode;
	response.setHeader('Content-Type', 'application/json; charset=utf-8');
	response.end(JSON.stringify(body));
}

/**
 * The re-check is a read: it is retried on a rate limit, a gateway error or a network error, as Retry-After asks, so
 * that one 503 does not leave a paid order unconfirmed. The waits are bounded in all, so that the workflow still
 * starts soon; a Retry-After past the bound is not waited out.
 */
const RECHECK_RETRIES = 3;
const RECHECK_MAX_TOTAL_WAIT_MS = 30_000;

/**
 * The re-check as its failures name it: the read Status → Get by Payment ID makes, so that a person finds it in the
 * node; retried as the trigger's own Max Retries says.
 */
const RECHECK: Endpoint = {
	label: 'Status → Get by Payment ID',
	answer: PAYMENT_RECORD,
	sendsOnce: false,
	offersRetries: true,
	advice: [UNKNOWN_ID],
};

const NOT_CONFIRMED =
	'The gateway did not confirm this payment: its status, amount, currency and receipt are unknown (the notification’s claims are under notifiedStatus, notifiedAmount, notifiedCurrency and notifiedReceiptId). Check the payment with Status → Get by Payment ID before acting on it.';

/**
 * The gateway's word on the payment a notification names, read by its id. When the re-check fails, nothing is
 * confirmed and the failure says why. The item is emitted all the same: the gateway had its 200 long before, and a
 * delivery that does not come again would be a payment lost.
 */
async function confirmation(ctx: IWebhookFunctions, notification: Notification, options: IDataObject): Promise<Confirmation> {
	try {
		const timeout = validateTimeout('Timeout (options.timeout)', options.timeout) ?? DEFAULT_TIMEOUT_MS;
		const maxRetries = validateRetries('Max Retries (options.maxRetries)', options.maxRetries, RECHECK_RETRIES);
		return await confirmPayment(await openGateway(ctx, RECHECK), notification, {
			itemIndex: 0,
			timeout,
			maxRetries,
			maxTotalRetryWaitMs: RECHECK_MAX_TOTAL_WAIT_MS,
		});
	} catch (error) {
		// The node's advice names options the trigger does not have; what to do here is the same every time.
		return { verified: false, failure: failureOf(error) };
	}
}

/** The notification and its credential when it is authentic; otherwise the refusal is answered and nothing returned. */
async function authenticNotification(
	ctx: IWebhookFunctions,
): Promise<{ notification: Notification; credentials: ICredentialDataDecryptedObject } | undefined> {
	const notification = readNotification(ctx.getBodyData(), ctx.getRequestObject().rawBody);
	if (notification instanceof RefusedNotification) {
		answer(ctx, notification.statusCode, { error: notification.message });
		return undefined;
	}
	const credentials = await ctx.getCredentials(CREDENTIAL_NAME);
	const secret = stringText(credentials.clientSecret);
	if (!secret) {
		answer(ctx, 500, { error: 'The trigger cannot verify notifications: its credential has no Client Secret' });
		return undefined;
	}
	if (!isAuthenticSignature(secret, notification.orderId, notification.paymentId, notification.signature)) {
		answer(ctx, 401, { error: 'Missing or invalid signature' });
		return undefined;
	}
	return { notification, credentials };
}

interface Handling {
	options: IDataObject;
	/** The workflow and the trigger node whose reads and repeats these are. */
	scope: string;
	recheck: boolean;
	ignoreRepeats: boolean;
}

/** The item, and how far the confirmed payment has got (for the repeat key; '' when nothing was confirmed). */
interface CheckedItem {
	item: IDataObject;
	progress: string;
}

/**
 * The item with the gateway's word on the payment, or with the claims alone when the re-check is off; undefined when
 * this delivery starts nothing.
 */
async function checkedItem(ctx: IWebhookFunctions, notification: Notification, claims: IDataObject & { orderId: string; paymentId: string }, handling: Handling): Promise<CheckedItem | undefined> {
	// With the re-check off nothing is confirmed, and the claims stay under claim names all the same.
	if (!handling.recheck) return { item: confirmedItem(claims, undefined), progress: '' };
	// Replays of one payment share and space its reads (rechecks.ts): a claim already explained reads nothing.
	const rechecks = new Rechecks(handling.scope);
	const claim = claimOf(notification);
	const shared = await rechecks.recheck(notification.paymentId, claim, async () => await confirmation(ctx, notification, handling.options), !handling.ignoreRepeats);
	// An unconfirmed read shared by many deliveries starts one execution, unless the author asked for every one.
	if (shared.kind === 'dropped' || (handling.ignoreRepeats && !shared.first)) return undefined;
	const { confirmation: confirmed } = shared;
	const item = confirmedItem(claims, confirmed);
	if (!confirmed.verified) {
		item.recheckError = { ...confirmed.failure, description: NOT_CONFIRMED };
		return { item, progress: '' };
	}
	rechecks.learnt(notification.paymentId, confirmed, explainedClaim(confirmed.values.status, notification.status, claim));
	return { item, progress: confirmed.progress };
}

/** An unconfirmed notification is Other: it never passes Succeeded or Refunded on a claim. */
function outcomeOf(item: IDataObject, notification: Notification, recheck: boolean): Outcome {
	if (!recheck) return claimedOutcome(notification);
	return item.statusVerified === true ? confirmedOutcome(item.status) : 'other';
}

/** Whether the payment was handled before in the state confirmed now; that state is remembered for next time. */
function handledBefore(repeats: Repeats, notification: Notification, { item, progress }: CheckedItem, recheck: boolean): boolean {
	// Only what was confirmed counts as handled: an unconfirmed one may be news next time.
	if (recheck && item.statusVerified !== true) return false;
	// The key holds confirmed values only: a refundId, an event type, a time or a status the sender wrote makes
	// nothing new. With the re-check off nothing is confirmed, so a payment starts the workflow once, and its
	// claims never reach the store of paid payments.
	const status = recheck ? item.status : '';
	const repeat = repeats.handledBefore(notification.paymentId, status, progress, recheck ? repeatKindOf(status) : 'unpaid');
	repeats.save();
	return repeat;
}

export class PaymentGatewayTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payment Gateway Trigger',
		name: 'paymentGatewayTrigger',
		icon: { light: 'file:paymentGatewayTrigger.svg', dark: 'file:paymentGatewayTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: 'Payment notifications',
		// n8n's node picker lists this trigger and the Payment Gateway node as one entry, "Payment Gateway", and shows this
		// description for it, after a trigger ("What happens next?") too: so it says what the node does first.
		description: `${NODE_DESCRIPTION}; start a workflow when it notifies a payment or a refund`,
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
			listField(
				{
					displayName: 'Outcomes',
					name: 'outcomes',
					multiple: true,
					default: [],
					description:
						'Which notifications start the workflow, judged by the status the gateway confirms (a notification it did not confirm is Other). Leave empty for every authentic notification.',
				},
				[
					['Failed', 'failed', 'Payments that did not go through (status failure)'],
					['Other', 'other', 'Anything else, e.g. a payment still pending'],
					['Refunded', 'refunded', 'Refunds, full or partial'],
					['Succeeded', 'succeeded', 'Payments that went through (status success)'],
				],
			),
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
							'Whether a notification of a payment in a state already notified (same payment, same status confirmed by the gateway) starts nothing. Gateways deliver at least once, and anyone holding a notification can post it again. What the notification itself says (a refundId, a time) does not make it new: where the gateway\'s record cannot tell two partial refunds apart, the second starts nothing.',
					},
					{
						displayName: 'Max Retries',
						name: 'maxRetries',
						type: 'number',
						typeOptions: { minValue: 0, maxValue: MAX_RETRIES },
						default: RECHECK_RETRIES,
						description:
							'How often to retry the status re-check after a rate limit (429), a gateway error (5xx) or a network error, waiting as the gateway asks (Retry-After), 30 seconds of waiting at most in all. A notification still unconfirmed after that is Other.',
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
		const authentic = await authenticNotification(this);
		if (!authentic) return { noWebhookResponse: true };
		const { notification, credentials } = authentic;
		answer(this, 200, { received: true });
		// A signed notification's save must not drop what this process keeps for the workflow (shared/workflowState.ts);
		// after the signature, so that unsigned requests cost no save.
		linkWorkflowState(this);

		// Of what the notification carries, only a notification's declared fields reach the item, each of its kind.
		const funnel = funnelFor(secretsOf(credentials));
		const ids = { orderId: notification.orderId, paymentId: notification.paymentId };
		const claims = { ...claimsOf(notification, funnel, ids), ...ids };
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const scope = `${this.getWorkflow().id ?? ''}\u0000${this.getNode().name}`;
		const recheck = options.recheckStatus !== false;
		const ignoreRepeats = options.ignoreRepeats !== false;
		// A test event ("Listen for test event") teaches nothing: its store is not the active workflow's.
		// Read at once, before any wait for the gateway: what other processes saved meanwhile is learnt at every request.
		const repeats = ignoreRepeats && this.getMode() !== 'manual' ? new Repeats(this.getWorkflowStaticData('node'), scope) : undefined;
		const checked = await checkedItem(this, notification, claims, { options, scope, recheck, ignoreRepeats });
		if (!checked) return { noWebhookResponse: true };

		const outcomes = this.getNodeParameter('outcomes', []) as Outcome[];
		if (outcomes.length > 0 && !outcomes.includes(outcomeOf(checked.item, notification, recheck))) return { noWebhookResponse: true };
		if (repeats && handledBefore(repeats, notification, checked, recheck)) return { noWebhookResponse: true };
		return { workflowData: [[{ json: checked.item }]], noWebhookResponse: true };
	}
}
