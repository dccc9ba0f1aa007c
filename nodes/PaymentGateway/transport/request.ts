import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	INode,
	IWebhookFunctions,
	NodeApiError,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { isPlainObject } from '../helpers/json';
import { stringText } from '../helpers/text';
import { baseAddresses, cardEncryptionKey } from '../validation/credential';
import { merchantHeaders } from './headers';
import type { Endpoint } from './errors';
import { checkFirstAdvice, ENDPOINT_LABELS, gatewayError, gatewayMessage, offersRetries } from './errors';
import { parseAnswer, readAnswer, UnreadableAnswer } from './answer';

export const CREDENTIAL_NAME = 'paymentGatewayApi';

/** The provider's test environment was seen taking 30-40 s to create a checkout or check a status. */
export const DEFAULT_TIMEOUT_MS = 60_000;
const MAX_RETRY_WAIT_MS = 60_000;

/** The node, its card list in the editor and the trigger all talk to the gateway; this is what the transport needs. */
export type GatewayHost = IExecuteFunctions | ILoadOptionsFunctions | IWebhookFunctions;

export interface GatewayCall {
	endpoint: Endpoint;
	method: IHttpRequestMethods;
	/** Short family (`/order`, `/transaction/…`, `/customer/…`) or long family (`/nac/api/v1/pg/orders/…`). */
	family: 'short' | 'long';
	/** Endpoint path relative to its base URL, identifiers already encoded. It is what gets signed. */
	path: string;
	query?: IDataObject;
	body?: IDataObject;
	/** A failure answer that is a result for this operation (an order not paid yet), not an error. */
	failureIsData?: (body: IDataObject) => boolean;
}

export interface CallSettings {
	itemIndex: number;
	headers?: IDataObject;
	timeout?: number;
	/** Only reads and deletes may be retried: a retried order or payment could move money twice. */
	maxRetries?: number;
}

/** The gateway as one execution sees it: the credential is read, checked and decoded once, not per item. */
export interface Gateway {
	readonly clientId: string;
	readonly clientSecret: string;
	/** The hosted checkout page, when the credential names one. */
	readonly checkoutPageUrl: string | undefined;
	/** The decoded card encryption key; throws InvalidCredential when it is not 64 hexadecimal characters. */
	cardKey(): Buffer;
	/** Sends one call and returns the gateway's data without the envelope, or throws a NodeApiError. */
	request(call: GatewayCall, settings: CallSettings): Promise<IDataObject>;
}

function retryDelayMs(attempt: number, retryAfter: unknown): number {
	const header = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
	if (typeof header === 'string' && header.trim()) {
		const seconds = Number(header);
		const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
		if (Number.isFinite(ms)) return Math.min(Math.max(ms, 0), MAX_RETRY_WAIT_MS);
	}
	return Math.min(500 * 2 ** attempt, MAX_RETRY_WAIT_MS);
}

function isRetryable(code: number | undefined): boolean {
	return code !== undefined && (code === 429 || code >= 500);
}

function numericResCode(body: IDataObject): number | undefined {
	const value = body.resCode;
	if (value === undefined || value === null || value === '') return undefined;
	const code = Number(value);
	return Number.isFinite(code) ? code : undefined;
}

/** No answer arrived: the request may or may not have reached the gateway. */
class NoAnswer extends Error {
	constructor(
		readonly code: string,
		readonly timedOut: boolean,
	) {
		super(code);
	}
}

/** Said in words: n8n replaces a message that names a network code with its own generic text. */
const NETWORK_PHRASES: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused',
	ECONNRESET: 'the connection closed before an answer',
	ENOTFOUND: 'its host name was not found',
	EAI_AGAIN: 'its host name could not be looked up',
	EHOSTUNREACH: 'its host is unreachable',
	ENETUNREACH: 'its network is unreachable',
	EPIPE: 'the connection broke while sending',
};

const NETWORK_CODES = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|ECONNABORTED|ENOTFOUND|EAI_AGAIN|EPIPE|EHOSTUNREACH|ENETUNREACH|socket hang up|aborted|timeout/i;

/** Only the code of a failed request goes on: the error itself can hold the signed request and its headers. */
function noAnswerOf(error: unknown, deadline: AbortSignal): NoAnswer {
	if (error instanceof NoAnswer) return error;
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		const candidate = current as { code?: unknown; message?: unknown; cause?: unknown };
		for (const value of [candidate.code, candidate.message]) {
			const match = typeof value === 'string' ? NETWORK_CODES.exec(value) : null;
			if (!match) continue;
			const timedOut = /ECONNABORTED|ETIMEDOUT|timeout/i.test(match[0]);
			const code = timedOut ? 'ETIMEDOUT' : /hang up|aborted/i.test(match[0]) ? 'ECONNRESET' : match[0];
			return new NoAnswer(code, timedOut);
		}
		current = candidate.cause;
	}
	return new NoAnswer(deadline.aborted ? 'ETIMEDOUT' : 'EREQUEST', deadline.aborted);
}

/** Settles with the work or with a time-out at the deadline; a response that arrives too late is closed. */
function beforeDeadline(
	work: Promise<IN8nHttpFullResponse>,
	deadline: AbortSignal,
): Promise<IN8nHttpFullResponse> {
	return new Promise((resolve, reject) => {
		let settled = false;
		const onDeadline = () => {
			settled = true;
			reject(new NoAnswer('ETIMEDOUT', true));
		};
		if (deadline.aborted) onDeadline();
		else deadline.addEventListener('abort', onDeadline, { once: true });
		work.then(
			(response) => {
				deadline.removeEventListener('abort', onDeadline);
				if (!settled) resolve(response);
				else (response.body as { destroy?: () => void } | undefined)?.destroy?.();
			},
			(error: unknown) => {
				deadline.removeEventListener('abort', onDeadline);
				if (!settled) reject(error);
			},
		);
	});
}

const CHECK_BASE_URLS =
	'Check that the Base URL and Checkout Base URL in the credential reach the gateway’s merchant API.';

/** An answer came but is not one of the gateway's: its HTTP status, or `EBADANSWER` when that says nothing. */
function unreadableAnswerError(
	node: INode,
	call: GatewayCall,
	itemIndex: number,
	what: string,
	httpStatus?: number,
): NodeApiError {
	const isWrite = call.method === 'POST';
	const failedHttp = httpStatus !== undefined && httpStatus >= 400;
	return gatewayError(node, call.endpoint, itemIndex, {
		resCode: failedHttp ? httpStatus : undefined,
		httpStatus,
		code: failedHttp ? undefined : 'EBADANSWER',
		message: `${ENDPOINT_LABELS[call.endpoint]}: the gateway sent ${what}`,
		description: isWrite
			? `Whether the gateway acted on the request is unknown. ${checkFirstAdvice(call.endpoint)} If every request ends like this: ${CHECK_BASE_URLS}`
			: httpStatus !== undefined && httpStatus >= 500
				? `The gateway or a proxy in front of it failed. Run again later${offersRetries(call.endpoint) ? ', or raise Max Retries in the options' : ''}.`
				: `${CHECK_BASE_URLS} Then run again.`,
	});
}

/** The gateway's answers all carry a `status` word or a `resCode`; another server's JSON does not. */
function isGatewayShaped(body: IDataObject): boolean {
	return typeof body.status === 'string' || numericResCode(body) !== undefined;
}

/** No answer came: the network's code, and for a write the advice to check before sending it again. */
function noAnswerError(node: INode, call: GatewayCall, itemIndex: number, failure: NoAnswer, timeout: number) {
	const label = ENDPOINT_LABELS[call.endpoint];
	return gatewayError(node, call.endpoint, itemIndex, {
		message: failure.timedOut
			? `${label}: the gateway did not answer within the time-out of ${timeout} ms`
			: `${label}: could not reach the payment gateway (${NETWORK_PHRASES[failure.code] ?? 'the request failed'})`,
		code: failure.code,
		description:
			call.method === 'POST'
				? `The request may or may not have reached the gateway. ${checkFirstAdvice(call.endpoint)}`
				: failure.timedOut
					? `The gateway was slow to answer. Raise Timeout in the options (its test environment can take 30-40 s)${offersRetries(call.endpoint) ? ', or Max Retries' : ''}.`
					: 'Check the Base URL in the credential and that the gateway is reachable, then run again.',
	});
}

/**
 * The data of a JSON answer, or the error it reports. Failures can come with HTTP 200: the body decides. In the flat
 * long-family answers `status` can be a payment's status, so a `failure` there is an error only when the body is not
 * about an order.
 */
function judged(
	node: INode,
	call: GatewayCall,
	itemIndex: number,
	body: IDataObject,
	httpStatus: number,
	uncertain: boolean,
): IDataObject {
	const resCode = numericResCode(body);
	const nested = body.data;
	const record = body.orderId === undefined && isPlainObject(nested) ? nested : body;
	const failed =
		httpStatus >= 400 ||
		(resCode !== undefined && resCode !== 200) ||
		(body.status === 'failure' && (call.family === 'short' || record.orderId === undefined));
	if (failed) {
		if (call.failureIsData?.(body)) return body;
		// A retried delete whose first attempt went unanswered may have removed the card already.
		if (uncertain && call.method === 'DELETE' && (resCode ?? httpStatus) === 404) return {};
		throw gatewayError(node, call.endpoint, itemIndex, {
			resCode: resCode ?? httpStatus,
			httpStatus,
			message: gatewayMessage(body, httpStatus),
			body,
			// Another server's JSON error (a framework's 404) is not the gateway's: the address is what to fix.
			description: isGatewayShaped(body) ? undefined : CHECK_BASE_URLS,
		});
	}
	if (!isGatewayShaped(body)) {
		throw gatewayError(node, call.endpoint, itemIndex, {
			httpStatus,
			code: 'EBADANSWER',
			message: `${ENDPOINT_LABELS[call.endpoint]}: the answer does not come from the gateway's merchant API (no status in it)`,
			description: CHECK_BASE_URLS,
		});
	}
	if (call.family === 'short') return isPlainObject(nested) ? nested : {};
	// Check-status is documented flat, but one sample integration reads it under `data`.
	return record;
}

/** A body with both skip flags set is refused by the gateway; it must never leave the node. */
function assertSendable(node: INode, call: GatewayCall, itemIndex: number) {
	if (call.body?.skipCVVandOTP === true && call.body?.skipCVVOnlyFlag === true) {
		throw new NodeOperationError(
			node,
			'skipCVVandOTP and skipCVVOnlyFlag cannot both be true: choose one kind of customer authentication',
			{ itemIndex },
		);
	}
}

/**
 * The one way this package talks to the gateway. The credential signs each request in its authenticate(); this
 * picks the base URL, serializes the body once, bounds the whole exchange by the time-out and the answer's size,
 * maps every failure to a NodeApiError carrying the gateway's resCode and message, and retries reads when allowed.
 */
export async function openGateway(host: GatewayHost): Promise<Gateway> {
	const credentials: ICredentialDataDecryptedObject = await host.getCredentials(CREDENTIAL_NAME);
	const clientId = stringText(credentials.clientId);
	const clientSecret = stringText(credentials.clientSecret);
	// getNode() copies the node on every call: once per execution is enough.
	const node = host.getNode();
	const credentialRef = node.credentials?.[CREDENTIAL_NAME];
	// Handing the decrypted credential to the helper saves decrypting it again for every request.
	const credentialOptions = {
		credentialsDecrypted: {
			id: credentialRef?.id ?? '',
			name: credentialRef?.name ?? '',
			type: CREDENTIAL_NAME,
			data: credentials,
		},
	};
	const defaultHeaders = merchantHeaders(credentials);
	let bases: { short: string; long: string } | undefined;
	let cardKey: Buffer | undefined;

	const basesOf = () => (bases ??= baseAddresses(credentials));

	async function attempt(options: IHttpRequestOptions, deadline: AbortSignal) {
		const response = await beforeDeadline(
			host.helpers.httpRequestWithAuthentication.call(
				host,
				CREDENTIAL_NAME,
				{ ...options, headers: { ...options.headers } },
				credentialOptions,
			) as Promise<IN8nHttpFullResponse>,
			deadline,
		);
		return { response, raw: await readAnswer(response.body, deadline) };
	}

	async function request(call: GatewayCall, settings: CallSettings): Promise<IDataObject> {
		const { itemIndex } = settings;
		assertSendable(node, call, itemIndex);
		const base = basesOf();
		const timeout = settings.timeout ?? DEFAULT_TIMEOUT_MS;
		const isWrite = call.method === 'POST';
		const maxRetries = isWrite ? 0 : Math.max(0, Math.floor(settings.maxRetries ?? 0));

		const options: IHttpRequestOptions = {
			method: call.method,
			baseURL: call.family === 'long' ? base.long : base.short,
			url: call.path,
			headers: { Accept: 'application/json', ...defaultHeaders, ...(settings.headers ?? {}) },
			timeout,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			encoding: 'stream',
			json: false,
		};
		if (call.query) options.qs = call.query;
		if (call.body) {
			options.body = JSON.stringify(call.body);
			(options.headers as IDataObject)['Content-Type'] = 'application/json';
		}

		let uncertain = false;
		for (let attemptIndex = 0; ; attemptIndex++) {
			const canRetry = attemptIndex < maxRetries;
			const deadline = AbortSignal.timeout(timeout);
			let response: IN8nHttpFullResponse;
			let raw: string;
			try {
				({ response, raw } = await attempt(options, deadline));
			} catch (error) {
				const failure = error instanceof UnreadableAnswer ? error : noAnswerOf(error, deadline);
				if (canRetry) {
					uncertain = true;
					await sleep(retryDelayMs(attemptIndex, undefined));
					continue;
				}
				throw failure instanceof UnreadableAnswer
					? unreadableAnswerError(node, call, itemIndex, failure.message)
					: noAnswerError(node, call, itemIndex, failure, timeout);
			}

			const httpStatus = response.statusCode;
			const parsed = parseAnswer(raw);
			const body = isPlainObject(parsed) && !(parsed instanceof UnreadableAnswer) ? parsed : undefined;
			// A 429 or 5xx may be told by the HTTP status or, under HTTP 200, by the body's resCode.
			const bodyCode = body ? numericResCode(body) : undefined;
			if (canRetry && (isRetryable(httpStatus) || isRetryable(bodyCode) || (!body && httpStatus < 300))) {
				uncertain = true;
				await sleep(retryDelayMs(attemptIndex, response.headers?.['retry-after']));
				continue;
			}

			if (!body) {
				const what = parsed instanceof UnreadableAnswer ? parsed.message : `an answer that is not JSON (HTTP ${httpStatus})`;
				throw unreadableAnswerError(node, call, itemIndex, what, httpStatus);
			}
			return judged(node, call, itemIndex, body, httpStatus, uncertain);
		}
	}

	return {
		clientId,
		clientSecret,
		checkoutPageUrl: stringText(credentials.checkoutPageUrl) || undefined,
		cardKey() {
			return (cardKey ??= cardEncryptionKey(credentials.cardEncryptionKey));
		},
		request,
	};
}
