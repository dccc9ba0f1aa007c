import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { PaymentGatewayApi } from '../../credentials/PaymentGatewayApi.credentials';
import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import { PaymentGatewayTrigger } from '../../nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node';
import type { Sandbox, StatusRecord } from '../../sandbox/gateway';
import { startSandbox } from '../../sandbox/gateway';
import type { CountingProxy } from './counting-proxy';
import { startCountingProxy } from './counting-proxy';
import type { CredentialTestResult, RunWorkflowOptions, RunWorkflowResult } from './engine';
import { runWorkflow, testCredential } from './engine';

export { startSandbox };
export type { Sandbox, StatusRecord };

/** A handle on what a test file's set-up makes before its tests: reached through it once they run. */
function handle<T extends object>(current: () => T | undefined): T {
	const target = () => {
		const value = current();
		if (!value) throw new Error('Reached only once the tests run');
		return value;
	};
	return new Proxy({} as T, {
		get(_target, key) {
			const value: unknown = Reflect.get(target(), key, target());
			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target()) : value;
		},
		set: (_target, key, value) => Reflect.set(target(), key, value, target()),
	});
}

type UseSandboxOptions = Parameters<typeof startSandbox>[0] & { reset?: boolean };

/**
 * One sandbox for the test file: started before its tests, closed after them, its log and state reset before each
 * one unless `reset` is false.
 */
export function useSandbox(options: UseSandboxOptions = {}): Sandbox {
	return useSandboxBehindProxy(options, false).sandbox;
}

/** One sandbox for the test file, as useSandbox, and (unless `proxied` is false) a counting proxy in front of it. */
export function useSandboxBehindProxy(options: UseSandboxOptions = {}, proxied = true): { sandbox: Sandbox; proxy: CountingProxy } {
	const { reset = true, ...sandboxOptions } = options;
	let sandbox: Sandbox | undefined;
	let proxy: CountingProxy | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox(sandboxOptions);
		if (proxied) proxy = await startCountingProxy(sandbox.url);
	});
	afterAll(async () => {
		await proxy?.close();
		await sandbox?.close();
	});
	if (reset) beforeEach(() => sandbox!.reset());
	return { sandbox: handle(() => sandbox), proxy: handle(() => proxy) };
}

/** The credential as a user would fill it in for the sandbox. */
export function sandboxCredentials(
	sandbox: Sandbox,
	overrides: ICredentialDataDecryptedObject = {},
): ICredentialDataDecryptedObject {
	return sandbox.credentialData({
		merchantIp: '',
		browserFingerprint: '',
		userAgent: '',
		acceptLanguage: 'en-US',
		...overrides,
	});
}

/** The credential's Test as n8n runs it: the function that the package's nodes name with `testedBy`. */
export async function testGatewayCredential(credentials: ICredentialDataDecryptedObject): Promise<CredentialTestResult> {
	return await testCredential(PaymentGatewayApi, credentials, { nodeTypes: [PaymentGatewayTrigger, PaymentGateway] });
}

/**
 * Runs the Payment Gateway node through n8n's engine against the sandbox, at the typeVersion a node added in the
 * editor gets unless `extra.typeVersion` names another.
 */
export async function runNode(
	sandbox: Sandbox,
	parameters: IDataObject,
	items: IDataObject[] = [{}],
	extra: Partial<RunWorkflowOptions> = {},
): Promise<RunWorkflowResult> {
	return await runWorkflow({
		nodeType: PaymentGateway,
		credentialType: PaymentGatewayApi,
		...extra,
		credentials: sandboxCredentials(sandbox, extra.credentials ?? {}),
		parameters: parameters as RunWorkflowOptions['parameters'],
		items,
	});
}

export const customer = {
	customerName: 'Jane Doe',
	customerEmail: 'jane@example.com',
	customerPhone: '91234567',
};

export function orderParameters(overrides: IDataObject = {}): IDataObject {
	return { resource: 'order', operation: 'create', amount: 25.5, currency: 'USD', uiMode: 'checkout', ...customer, ...overrides };
}

/** Two years ahead, so the test cards never expire. */
export const futureYear = String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0');

export function initiateParameters(orderId: string, overrides: IDataObject = {}): IDataObject {
	return {
		resource: 'transaction',
		operation: 'initiate',
		orderId,
		paymentMode: 'card',
		cardNumber: '4111111111111111',
		cardExpMonth: '12',
		cardExpYear: futureYear,
		cardCVV: '123',
		cardHolderName: 'Jane Doe',
		redirectionUrl: 'https://shop.example.com/payment/done',
		secureCard: false,
		customerAuthentication: 'cvvAndOtp',
		...overrides,
	};
}

/** Creates an order through the node and returns its orderId. */
export async function createOrder(sandbox: Sandbox, overrides: IDataObject = {}): Promise<string> {
	const result = await runNode(sandbox, orderParameters(overrides));
	if (result.error) throw new Error(`order creation failed: ${result.error.message}`);
	return result.items[0].json.orderId as string;
}

/** Starts a card payment for the order through the node; returns its paymentId. */
export async function initiatePayment(sandbox: Sandbox, orderId: string, overrides: IDataObject = {}): Promise<string> {
	const result = await runNode(sandbox, initiateParameters(orderId, overrides));
	if (result.error) throw new Error(`initiate failed: ${result.error.message}`);
	return result.items[0].json.paymentId as string;
}

/**
 * An order paid by card through the node, its authentication finished with the control API: the status record
 * the gateway then gives (and notifies), `signature` included.
 */
export async function settledPayment(
	sandbox: Sandbox,
	result: 'success' | 'failure',
	initiateOverrides: IDataObject = {},
): Promise<StatusRecord> {
	const orderId = await createOrder(sandbox);
	return sandbox.completeAuthentication(await initiatePayment(sandbox, orderId, initiateOverrides), result);
}

/** A sandbox with a proxy in front that counts the requests in flight; `credentials` send the node through the proxy. */
export interface SandboxBehindProxy {
	sandbox: Sandbox;
	proxy: CountingProxy;
	credentials: ICredentialDataDecryptedObject;
	close(): Promise<void>;
}

export async function startSandboxBehindProxy(): Promise<SandboxBehindProxy> {
	const sandbox = await startSandbox();
	const proxy = await startCountingProxy(sandbox.url);
	return {
		sandbox,
		proxy,
		credentials: { baseUrl: proxy.url + new URL(sandbox.baseUrl).pathname, checkoutBaseUrl: proxy.url },
		close: async () => {
			await proxy.close();
			await sandbox.close();
		},
	};
}

/**
 * A failure's message without what it was about ("(order wb-…)", "(payment PAY…)", "(card … of customer …)"), which
 * the transport puts before `[item N]`: for tests about the rest of it; test/engine/subjects.test.ts checks the subject.
 */
export function withoutSubject<T extends string | undefined>(message: T): T {
	return (message === undefined ? message : message.replace(/ \((?:order|payment|customer|card) [^()]*\)(?=( \[item \d+\])?$)/, '')) as T;
}
