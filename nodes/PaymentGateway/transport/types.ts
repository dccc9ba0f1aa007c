import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import type { Shape } from './outputs';
import type { CardData, Funnel } from './redact';

/** The node, its card list in the editor and the trigger all talk to the gateway; this is what the transport needs. */
export type GatewayHost = IExecuteFunctions | ILoadOptionsFunctions | IWebhookFunctions;

/** Advice for a failure with this resCode (and a message like this), said in the error's description. */
export interface Advice {
	resCode: number;
	message?: RegExp;
	description: string;
}

/**
 * What a call is, as its failures and the retry policy see it. Each operation's is derived from its descriptor
 * (actions/operation.ts); the trigger and the editor's card list declare their own.
 */
export type Endpoint = {
	/** How messages name it: the node's resource and operation, e.g. "Order → Create". */
	readonly label: string;
	/** Advice for this endpoint's failures, looked up before the general advice. */
	readonly advice?: readonly Advice[];
	/** The fields of its answer that may leave the node, each with its kind: nothing else of the answer does. */
	readonly answer: Shape;
} & (
	| {
			/** An order, a payment or a refund: sent at most once, never retried or paced, since it could move money twice. */
			readonly sendsOnce: true;
			/** What to check before sending it again when its outcome is unknown. */
			readonly checkFirst: string;
	  }
	| {
			readonly sendsOnce: false;
			/** Whether the node offers Max Retries for it, so that advice may suggest raising it. */
			readonly offersRetries: boolean;
	  }
);

export const offersRetries = (endpoint: Endpoint): boolean => !endpoint.sendsOnce && endpoint.offersRetries;

export interface GatewayCall {
	endpoint: Endpoint;
	method: IHttpRequestMethods;
	/** Short family (`/order`, `/transaction/…`, `/customer/…`) or long family (`/nac/api/v1/pg/orders/…`). */
	family: 'short' | 'long';
	/** Endpoint path relative to its base URL, identifiers already encoded. It is what gets signed. */
	path: string;
	query?: IDataObject;
	body?: IDataObject;
	/** The card data `body` carries encrypted: nothing of its answer may show it, in any form. */
	cardData?: CardData;
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
	readonly funnel: Funnel;
	readonly clientId: string;
	readonly clientSecret: string;
	/** The hosted checkout page, when the credential names one; throws InvalidCredential when it is not one to send customers to. */
	checkoutPage(): string | undefined;
	/** The decoded card encryption key; throws InvalidCredential when it is not 64 hexadecimal characters. */
	cardKey(): Buffer;
	/** What this gateway's calls are, unless a call names another (a refund's read of its payment). */
	readonly endpoint: Endpoint;
	/**
	 * Sends one call and returns the declared fields of the gateway's data without the envelope (its endpoint's
	 * `answer`), with `droppedFields` naming what was left out, or throws a NodeApiError.
	 */
	request(call: Call, settings: CallSettings): Promise<IDataObject>;
}

/** A call as an operation makes it: of the gateway's own endpoint unless it names one. */
export type Call = Omit<GatewayCall, 'endpoint'> & { endpoint?: Endpoint };
