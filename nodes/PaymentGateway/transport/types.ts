import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import type { Endpoint } from './errors';
import type { Redactor } from './redact';

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
	/** The longest the waits between attempts may take in all; a retry that would wait longer is not made. */
	maxTotalRetryWaitMs?: number;
}

/** The gateway as one execution sees it: the credential is read, checked and decoded once, not per item. */
export interface Gateway {
	/** The one funnel for texts from the gateway, with this credential's secrets: what an item may show of them. */
	readonly redactor: Redactor;
	readonly clientId: string;
	readonly clientSecret: string;
	/** The hosted checkout page, when the credential names one. */
	readonly checkoutPageUrl: string | undefined;
	/** The decoded card encryption key; throws InvalidCredential when it is not 64 hexadecimal characters. */
	cardKey(): Buffer;
	/** Sends one call and returns the gateway's data without the envelope, or throws a NodeApiError. */
	request(call: GatewayCall, settings: CallSettings): Promise<IDataObject>;
}

/** An order, a payment or a refund: sent once, since sending it again could move money twice. */
export function isWrite(call: GatewayCall): boolean {
	return call.method === 'POST';
}
