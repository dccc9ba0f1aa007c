import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { Endpoint } from './errors';
import { gatewayError, gatewayMessage } from './errors';

export const CREDENTIAL_NAME = 'paymentGatewayApi';

/** The provider's test environment was seen taking 30-40 s to create a checkout or check a status. */
export const DEFAULT_TIMEOUT_MS = 60_000;
const MAX_RETRY_WAIT_MS = 60_000;

export interface GatewayCall {
	endpoint: Endpoint;
	method: IHttpRequestMethods;
	/** Short family (`/order`, `/transaction/…`, `/customer/…`) or long family (`/nac/api/v1/pg/orders/…`). */
	family: 'short' | 'long';
	/** Endpoint path relative to its base URL, identifiers already encoded. It is what gets signed. */
	path: string;
	query?: IDataObject;
	body?: IDataObject;
}

export interface CallSettings {
	itemIndex: number;
	headers?: IDataObject;
	timeout?: number;
	/** Only reads and deletes may be retried: a retried order or payment could move money twice. */
	maxRetries?: number;
}

function trimBase(url: unknown): string {
	return typeof url === 'string' ? url.trim().replace(/\/+$/, '') : '';
}

function parseJson(text: unknown): IDataObject | undefined {
	if (text !== null && typeof text === 'object' && !Buffer.isBuffer(text)) return text as IDataObject;
	const raw = Buffer.isBuffer(text) ? text.toString('utf8') : typeof text === 'string' ? text : '';
	try {
		const parsed: unknown = JSON.parse(raw);
		return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as IDataObject) : undefined;
	} catch {
		return undefined;
	}
}

function numericResCode(body: IDataObject): number | undefined {
	const value = body.resCode;
	if (value === undefined || value === null || value === '') return undefined;
	const code = Number(value);
	return Number.isFinite(code) ? code : undefined;
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

function isRetryable(code: number): boolean {
	return code === 429 || code >= 500;
}

const NETWORK_CODES = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|ECONNABORTED|ENOTFOUND|EAI_AGAIN|EPIPE|socket hang up|timeout/i;

function networkErrorCode(error: unknown): string | undefined {
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		const candidate = current as { code?: unknown; message?: unknown; cause?: unknown };
		for (const value of [candidate.code, candidate.message]) {
			const match = typeof value === 'string' ? NETWORK_CODES.exec(value) : null;
			if (match) return match[0];
		}
		current = candidate.cause;
	}
	return undefined;
}

/** A body with both skip flags set is refused by the gateway; it must never leave the node. */
function assertSendable(ctx: IExecuteFunctions, call: GatewayCall, itemIndex: number) {
	if (call.body?.skipCVVandOTP === true && call.body?.skipCVVOnlyFlag === true) {
		throw new NodeOperationError(
			ctx.getNode(),
			'skipCVVandOTP and skipCVVOnlyFlag cannot both be true: choose one kind of customer authentication',
			{ itemIndex },
		);
	}
}

/**
 * The one way this package talks to the gateway. The credential signs the request; this function picks the base URL,
 * serializes the body once, maps every failure to a NodeApiError carrying the gateway's resCode and message, and
 * retries reads when the caller allows it. It returns the gateway's data without the envelope.
 */
export async function gatewayRequest(
	this: IExecuteFunctions,
	call: GatewayCall,
	settings: CallSettings,
): Promise<IDataObject> {
	const { itemIndex } = settings;
	assertSendable(this, call, itemIndex);

	const credentials = await this.getCredentials(CREDENTIAL_NAME, itemIndex);
	const shortBase = trimBase(credentials.baseUrl);
	const baseURL = call.family === 'long' ? trimBase(credentials.checkoutBaseUrl) || shortBase : shortBase;
	if (!/^https?:\/\//i.test(baseURL)) {
		throw new NodeOperationError(
			this.getNode(),
			'The Base URL in the Payment Gateway API credential must start with https:// or http://',
			{ itemIndex },
		);
	}

	const options: IHttpRequestOptions = {
		method: call.method,
		baseURL,
		url: call.path,
		headers: { Accept: 'application/json', ...(settings.headers ?? {}) },
		timeout: settings.timeout ?? DEFAULT_TIMEOUT_MS,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		encoding: 'text',
		json: false,
	};
	if (call.query) options.qs = call.query;
	if (call.body) {
		options.body = JSON.stringify(call.body);
		(options.headers as IDataObject)['Content-Type'] = 'application/json';
	}

	const maxRetries = Math.max(0, Math.floor(settings.maxRetries ?? 0));
	for (let attempt = 0; ; attempt++) {
		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_NAME,
				{ ...options, headers: { ...options.headers } },
			)) as IN8nHttpFullResponse;
		} catch (error) {
			const code = networkErrorCode(error);
			if (code && attempt < maxRetries) {
				await sleep(retryDelayMs(attempt, undefined));
				continue;
			}
			// The original error can hold the signed request (and its Authorization header): only its code goes on.
			throw gatewayError(this.getNode(), call.endpoint, itemIndex, {
				message: code
					? `Could not reach the payment gateway (${code})`
					: 'The request to the payment gateway failed before an answer arrived',
				description:
					call.method === 'POST'
						? 'The request may or may not have reached the gateway. Check the order status before sending it again, so that nothing is charged twice.'
						: 'Check the Base URL in the credential and that the gateway is reachable, then run again.',
			});
		}

		const httpStatus = response.statusCode;
		const body = parseJson(response.body);
		// A 429 or 5xx may be told by the HTTP status or, under HTTP 200, by the body's resCode.
		const bodyCode = body ? numericResCode(body) : undefined;
		if ((isRetryable(httpStatus) || (bodyCode !== undefined && isRetryable(bodyCode))) && attempt < maxRetries) {
			await sleep(retryDelayMs(attempt, response.headers?.['retry-after']));
			continue;
		}

		if (!body) {
			throw gatewayError(this.getNode(), call.endpoint, itemIndex, {
				resCode: httpStatus >= 400 ? httpStatus : undefined,
				httpStatus,
				message: `The gateway answered with something other than JSON (HTTP ${httpStatus})`,
			});
		}
		const resCode = numericResCode(body);
		const nested = body.data;
		const record =
			body.orderId === undefined && nested !== null && typeof nested === 'object' && !Array.isArray(nested)
				? (nested as IDataObject)
				: body;
		// Failures can come with HTTP 200: the body decides. In the flat long-family answers `status` can be a
		// payment's status, so a `failure` there is an error only when the body is not about an order.
		const failed =
			httpStatus >= 400 ||
			(resCode !== undefined && resCode !== 200) ||
			(body.status === 'failure' && (call.family === 'short' || record.orderId === undefined));
		if (failed) {
			throw gatewayError(this.getNode(), call.endpoint, itemIndex, {
				resCode: resCode ?? httpStatus,
				httpStatus,
				message: gatewayMessage(body, httpStatus),
				body,
			});
		}
		if (call.family === 'short') {
			return nested !== null && typeof nested === 'object' && !Array.isArray(nested) ? (nested as IDataObject) : {};
		}
		// Check-status is documented flat, but one sample integration reads it under `data`.
		return record;
	}
}
