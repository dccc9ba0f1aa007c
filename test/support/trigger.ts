import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { PaymentGatewayApi } from '../../credentials/PaymentGatewayApi.credentials';
import { PaymentGatewayTrigger } from '../../nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node';
import type { Sandbox, StatusRecord } from './fixtures';
import { sandboxCredentials, settledPayment, startSandbox } from './fixtures';
import type { WebhookServer, WebhookServerOptions } from './webhook';
import { startWebhookServer } from './webhook';

// What the trigger's engine tests share: a sandbox gateway, the trigger served as a production webhook, paid
// orders to notify, and a sweep of everything the trigger produced for secrets.

export const CVV = '9731';
export const CARD = '4111111111111111';
export const DECLINED_CARD = '4393570006367857';
export const CHECK_STATUS = '/nac/api/v1/pg/orders/check-status';
/** The trigger's re-check reads the payment by its id (status by payment id). */
export const PAYMENT_STATUS = '/transaction/status/';

/**
 * A notification's values as the trigger's item keeps them beside the gateway's: its status, amount, currency and
 * receiptId only under names that say they are claims.
 */
export function claimsAside(notification: IDataObject): IDataObject {
	const { status, amount, currency, receiptId, ...rest } = notification;
	const claims: IDataObject = {
		notifiedStatus: status,
		notifiedAmount: amount,
		notifiedCurrency: currency,
		notifiedReceiptId: receiptId,
	};
	for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
	return { ...rest, ...claims };
}

export interface Answer {
	status: number;
	text: string;
	json: IDataObject;
	/** Date.now() as the request was sent. */
	started: number;
}

/**
 * Registers the jest hooks of a trigger test file: one sandbox and one trigger server with default parameters
 * for the whole file, both reset before each test. Use the returned object's members inside tests only.
 */
export function useTriggerBench() {
	let sandbox: Sandbox;
	let server: WebhookServer;
	/** Every answer body, execution and webhook error of the file, searched for secrets by expectNoSecrets(). */
	const collected: unknown[] = [];
	const signingInputs = new Set<string>();
	const collect = (target: WebhookServer) =>
		collected.push(
			[...target.executions],
			target.calls.map((call) => call.webhookError),
		);

	async function triggerServer(parameters: INodeParameters = {}, extra: Partial<WebhookServerOptions> = {}) {
		return await startWebhookServer({
			nodeType: PaymentGatewayTrigger,
			credentialType: PaymentGatewayApi,
			credentials: sandboxCredentials(sandbox),
			parameters,
			...extra,
		});
	}

	beforeAll(async () => {
		sandbox = await startSandbox();
		server = await triggerServer();
	});
	afterAll(async () => {
		await server.close();
		await sandbox.close();
	});
	beforeEach(() => {
		sandbox.reset();
		sandbox.setLatency(0);
		sandbox.setNotifications({ url: null });
		collect(server);
		server.reset();
	});

	/** Posts `body` as it is; see notify() for JSON. */
	async function post(target: WebhookServer, body: string, contentType = 'application/json'): Promise<Answer> {
		const started = Date.now();
		const response = await fetch(target.url, { method: 'POST', headers: { 'Content-Type': contentType }, body });
		const text = await response.text();
		collected.push(text);
		return { status: response.status, text, json: JSON.parse(text) as IDataObject, started };
	}

	return {
		get sandbox() {
			return sandbox;
		},
		/** The trigger with default parameters. */
		get server() {
			return server;
		},

		/** Runs `body` against a trigger server of its own (other parameters or credential), then closes it. */
		async withServer(
			parameters: INodeParameters,
			body: (own: WebhookServer) => Promise<void>,
			extra: Partial<WebhookServerOptions> = {},
		) {
			const own = await triggerServer(parameters, extra);
			try {
				await body(own);
			} finally {
				await own.close();
				collect(own);
			}
		},

		/** Notes `orderId|paymentId` of a notification made outside paid(), for the secrets sweep. */
		signed(orderId: string, paymentId: string) {
			signingInputs.add(`${orderId}|${paymentId}`);
		},

		/** A settled card payment's status record, as the gateway notifies it. The request log is cleared after. */
		async paid(result: 'success' | 'failure' = 'success', card = CARD): Promise<StatusRecord> {
			const record = await settledPayment(sandbox, result, { cardNumber: card, cardCVV: CVV });
			signingInputs.add(`${record.orderId}|${record.paymentId}`);
			sandbox.clearLog();
			return record;
		},

		post,
		async notify(target: WebhookServer, body: unknown): Promise<Answer> {
			return await post(target, JSON.stringify(body));
		},

		/** Waits until every call made so far is handled and its execution finished; the executions. */
		async settled(target: WebhookServer = server) {
			await target.idle();
			return target.executions;
		},

		checkStatusRequests() {
			return sandbox.requests.filter((request) => request.path.startsWith(CHECK_STATUS));
		},

		/** The re-checks the trigger sent: reads of one payment by its id. */
		recheckRequests() {
			return sandbox.requests.filter((request) => request.path.includes(PAYMENT_STATUS));
		},

		/** No client secret, Basic header value, encryption key, signing input or card data in anything collected. */
		expectNoSecrets() {
			collect(server);
			const { clientId, clientSecret } = sandbox.clients.active;
			const text = JSON.stringify(collected, (_key, value: unknown) =>
				value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value,
			);
			expect(text.length).toBeGreaterThan(10_000);
			expect(signingInputs.size).toBeGreaterThan(5);
			const secrets = [
				clientSecret,
				Buffer.from(`${clientId}:${clientSecret}`).toString('base64'),
				sandbox.cardEncryptionKey,
				CARD,
				DECLINED_CARD,
				`"${CVV}"`,
				...signingInputs,
			];
			for (const secret of secrets) expect([secret, text.includes(secret)]).toEqual([secret, false]);
			expect(text).not.toMatch(/cardNumber|cardCVV|cardExp/);
		},
	};
}
