import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { isPlainObject } from '../helpers/json';
import type { Pace, PaceOutcome } from './adaptiveLimit';
import { parseAnswer, readAnswer, UnreadableAnswer } from './answer';
import type { GatewayCredential } from './credential';
import { CREDENTIAL_NAME, readCredential } from './credential';
import type { Deadline } from './deadline';
import { beforeDeadline, deadlineClock, DEFAULT_TIMEOUT_MS, helperTimeoutMs } from './deadline';
import { droppedRedirect, isRedirect, NoAnswer, noAnswerError, noAnswerOf, redirectError } from './network';
import { paceKey, paceMemory } from './paceMemory';
import { funnelFor } from './redact';
import { asKind } from './outputs';
import { dataOfAnswerOrThrow, unreadableAnswerError } from './result';
import { asksForRetry, isRateLimited, nextRetryWaitMs, paceOutcome, retriesAllowed } from './retry';
import type { Call, CallSettings, Endpoint, Gateway, GatewayCall, GatewayHost } from './types';

export { CREDENTIAL_NAME } from './credential';
export { DEFAULT_TIMEOUT_MS } from './deadline';
export type { Advice, Call, CallSettings, Endpoint, Gateway, GatewayCall, GatewayHost } from './types';

/**
 * A body with both skip flags set is refused by the gateway; it must never leave the node. A POST makes an order, a
 * payment or a refund: declared anything but sent once, it would be retried, so it is not sent at all.
 */
function assertSendable(node: INode, call: GatewayCall, itemIndex: number) {
	if (call.method === 'POST' && !call.endpoint.sendsOnce) {
		throw new NodeOperationError(node, `${call.endpoint.label}: a POST must be of an operation that is sent once`, { itemIndex });
	}
	if (call.body?.skipCVVandOTP === true && call.body?.skipCVVOnlyFlag === true) {
		throw new NodeOperationError(
			node,
			'skipCVVandOTP and skipCVVOnlyFlag cannot both be true: choose one kind of customer authentication',
			{ itemIndex },
		);
	}
}

const decoded = (segment: string) => {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
};

/**
 * What a call is about, as a person finds it in their data: the payment, the order, the customer or card. A failure
 * names it beside `[item N]`, so that a reconciliation's flagged order says which order it was. `shown` says how an id
 * may be shown (an id typed by mistake may be card data).
 */
function subjectOf(call: GatewayCall, shown: (id: string) => string): string | undefined {
	const { body = {}, query = {} } = call;
	if (typeof body.paymentId === 'string' && body.paymentId) return `payment ${shown(body.paymentId)}`;
	if (typeof body.orderId === 'string' && body.orderId) return `order ${shown(body.orderId)}`;
	if (typeof query.orderId === 'string' && query.orderId) return `order ${shown(query.orderId)}`;
	const payment = /^\/transaction\/status\/([^/]+)$/.exec(call.path);
	if (payment) return `payment ${shown(decoded(payment[1]))}`;
	const card = /^\/customer\/([^/]+)\/digitalCards(?:\/([^/]+))?$/.exec(call.path);
	if (card) return card[2] ? `card ${shown(decoded(card[2]))} of customer ${shown(decoded(card[1]))}` : `customer ${shown(decoded(card[1]))}`;
	return undefined;
}

/** The request as n8n's helper sends it; the body is serialized once, so that what is signed is what is sent. */
function requestOptions(credential: GatewayCredential, call: GatewayCall, settings: CallSettings, timeout: number) {
	const options: IHttpRequestOptions = {
		method: call.method,
		baseURL: credential.bases()[call.family],
		url: call.path,
		headers: { Accept: 'application/json', ...credential.headers, ...(settings.headers ?? {}) },
		timeout: helperTimeoutMs(timeout),
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// No redirect is followed: n8n's helper would send the Basic header and the signed body to its address.
		disableFollowRedirect: true,
		encoding: 'stream',
		json: false,
	};
	if (call.query) options.qs = call.query;
	if (call.body) {
		options.body = JSON.stringify(call.body);
		(options.headers as IDataObject)['Content-Type'] = 'application/json';
	}
	return options;
}

/**
 * The run's pace starts from what earlier runs in this process learned of the same addresses with the same credential.
 * Addresses the credential cannot give (refused when the first request is made) have no memory.
 */
function recallPace(pace: Pace, credential: GatewayCredential) {
	let bases: { short: string; long: string };
	try {
		bases = credential.bases();
	} catch {
		return;
	}
	pace.recall(paceMemory, paceKey([bases.short, bases.long], credential.clientId, credential.credentialId));
}

/**
 * The one way this package talks to the gateway. The credential signs each request in its authenticate(); this
 * picks the base URL, serializes the body once, bounds the whole exchange by the time-out and the answer's size,
 * maps every failure to a NodeApiError carrying the gateway's resCode and message, and retries repeatable calls
 * when allowed. With a `pace` (the item runner's), repeatable calls wait for a place under its limit. `endpoint` is
 * what its calls are unless one names another.
 */
export async function openGateway(host: GatewayHost, endpoint: Endpoint, pace?: Pace): Promise<Gateway> {
	// getNode() copies the node on every call: once per execution is enough.
	const node = host.getNode();
	const credential = await readCredential(host, node);
	const deadlineIn = deadlineClock();
	// Every text of an answer leaves through this funnel: it may quote the request (a proxy's error page) or card data.
	const funnel = funnelFor(credential.secrets);
	if (pace) recallPace(pace, credential);

	async function attempt(options: IHttpRequestOptions, deadline: Deadline) {
		const response = await beforeDeadline(
			host.helpers.httpRequestWithAuthentication.call(
				host,
				CREDENTIAL_NAME,
				{ ...options, headers: { ...options.headers } },
				credential.helperOptions,
			) as Promise<IN8nHttpFullResponse>,
			deadline,
		);
		if (droppedRedirect(response)) return { response, raw: '' };
		return { response, raw: await readAnswer(response.body, deadline) };
	}

	/** One attempt through the run's pace, when it has one: its place is held from sending to the answer's end. */
	async function pacedAttempt(options: IHttpRequestOptions, timeout: number, paced: boolean) {
		const ticket = paced && pace ? await pace.acquire() : undefined;
		// The time-out starts when the request may go, not while it waits for a place.
		const deadline = deadlineIn(timeout);
		let outcome: PaceOutcome = { kind: 'other' };
		try {
			const exchange = await attempt(options, deadline);
			// A redirect is no answer of the gateway's: it says nothing of its pace.
			if (isRedirect(exchange.response.statusCode)) return { ...exchange, parsed: undefined, body: undefined };
			const parsed = parseAnswer(exchange.raw);
			const body = isPlainObject(parsed) && !(parsed instanceof UnreadableAnswer) ? parsed : undefined;
			outcome = paceOutcome(exchange.response.statusCode, body, exchange.response.headers?.['retry-after']);
			return { ...exchange, parsed, body };
		} catch (error) {
			const failure = error instanceof UnreadableAnswer ? error : noAnswerOf(error, deadline);
			// No answer within the time-out is the gateway at its limit too, without a pause asked for.
			if (failure instanceof NoAnswer && failure.timedOut) outcome = { kind: 'refused' };
			return { failure };
		} finally {
			if (ticket) pace?.release(ticket, outcome);
		}
	}

	/** A failure names what the call was about: an id as ids leave the node, anything else as any text does. */
	async function request(given: Call, settings: CallSettings): Promise<IDataObject> {
		const call: GatewayCall = { ...given, endpoint: given.endpoint ?? endpoint };
		return await send(call, settings).catch(async (error: unknown) => {
			const subject = subjectOf(call, (id) => String(asKind('id', id, funnel) ?? funnel.text(id)));
			if (error instanceof NodeApiError && subject) error.message = `${error.message} (${subject})`;
			return await Promise.reject(error);
		});
	}

	async function send(call: GatewayCall, settings: CallSettings): Promise<IDataObject> {
		const { itemIndex } = settings;
		assertSendable(node, call, itemIndex);
		const timeout = settings.timeout ?? DEFAULT_TIMEOUT_MS;
		const options = requestOptions(credential, call, settings, timeout);
		const maxRetries = retriesAllowed(call, settings);
		// Writes never wait for the pace: they go one at a time, once.
		const paced = !call.endpoint.sendsOnce;

		let uncertain = false;
		let waitedMs = 0;
		const waitBeforeRetry = async (wait: number, mayHaveActed = true) => {
			uncertain ||= mayHaveActed;
			waitedMs += wait;
			await sleep(wait);
		};
		for (let attemptIndex = 0; ; attemptIndex++) {
			const result = await pacedAttempt(options, timeout, paced);
			if (result.failure) {
				const wait = nextRetryWaitMs(attemptIndex, maxRetries, waitedMs, settings, undefined);
				if (wait !== undefined) {
					await waitBeforeRetry(wait);
					continue;
				}
				const { failure } = result;
				throw failure instanceof UnreadableAnswer
					? unreadableAnswerError(node, call, itemIndex, failure.message)
					: noAnswerError(node, call, itemIndex, failure, timeout);
			}

			const { response, parsed, body } = result;
			const httpStatus = response.statusCode;
			// Never followed and never sent again: a write is sent at most once, a read would only be redirected again.
			if (isRedirect(httpStatus)) throw redirectError(node, call, itemIndex, httpStatus, credential.fieldOf(call.family));
			const wait = asksForRetry(httpStatus, body)
				? nextRetryWaitMs(attemptIndex, maxRetries, waitedMs, settings, response.headers?.['retry-after'])
				: undefined;
			if (wait !== undefined) {
				// A rate limit (429) is the gateway's word that it did not act; any other failure may hide one that did.
				await waitBeforeRetry(wait, !isRateLimited(httpStatus, body));
				continue;
			}

			if (!body) {
				const what = parsed instanceof UnreadableAnswer ? parsed.message : `an answer that is not JSON (HTTP ${httpStatus})`;
				throw unreadableAnswerError(node, call, itemIndex, what, httpStatus);
			}
			const answered = call.cardData ? funnelFor({ ...credential.secrets, card: call.cardData }) : funnel;
			return dataOfAnswerOrThrow(node, call, itemIndex, body, httpStatus, uncertain, answered);
		}
	}

	return {
		funnel,
		clientId: credential.clientId,
		clientSecret: credential.clientSecret,
		checkoutPage: credential.checkoutPage,
		cardKey: credential.cardKey,
		endpoint,
		request,
	};
}
