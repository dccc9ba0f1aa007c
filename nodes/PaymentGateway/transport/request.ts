import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse, INode } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { isPlainObject } from '../helpers/json';
import { parseAnswer, readAnswer, UnreadableAnswer } from './answer';
import type { GatewayCredential } from './credential';
import { CREDENTIAL_NAME, readCredential } from './credential';
import type { Deadline } from './deadline';
import { beforeDeadline, deadlineClock, DEFAULT_TIMEOUT_MS, helperTimeoutMs } from './deadline';
import { noAnswerError, noAnswerOf } from './network';
import { dataOfAnswer, unreadableAnswerError } from './result';
import { asksForRetry, nextRetryWaitMs, retriesAllowed } from './retry';
import type { CallSettings, Gateway, GatewayCall, GatewayHost } from './types';

export { CREDENTIAL_NAME } from './credential';
export { DEFAULT_TIMEOUT_MS } from './deadline';
export type { CallSettings, Gateway, GatewayCall, GatewayHost } from './types';

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
 * The one way this package talks to the gateway. The credential signs each request in its authenticate(); this
 * picks the base URL, serializes the body once, bounds the whole exchange by the time-out and the answer's size,
 * maps every failure to a NodeApiError carrying the gateway's resCode and message, and retries repeatable calls
 * when allowed.
 */
export async function openGateway(host: GatewayHost): Promise<Gateway> {
	// getNode() copies the node on every call: once per execution is enough.
	const node = host.getNode();
	const credential = await readCredential(host, node);
	const deadlineIn = deadlineClock();

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
		return { response, raw: await readAnswer(response.body, deadline) };
	}

	async function request(call: GatewayCall, settings: CallSettings): Promise<IDataObject> {
		const { itemIndex } = settings;
		assertSendable(node, call, itemIndex);
		const timeout = settings.timeout ?? DEFAULT_TIMEOUT_MS;
		const options = requestOptions(credential, call, settings, timeout);
		const maxRetries = retriesAllowed(call, settings);

		let uncertain = false;
		let waitedMs = 0;
		const waitBeforeRetry = async (wait: number) => {
			uncertain = true;
			waitedMs += wait;
			await sleep(wait);
		};
		for (let attemptIndex = 0; ; attemptIndex++) {
			const deadline = deadlineIn(timeout);
			let response: IN8nHttpFullResponse;
			let raw: string;
			try {
				({ response, raw } = await attempt(options, deadline));
			} catch (error) {
				const failure = error instanceof UnreadableAnswer ? error : noAnswerOf(error, deadline);
				const wait = nextRetryWaitMs(attemptIndex, maxRetries, waitedMs, settings, undefined);
				if (wait !== undefined) {
					await waitBeforeRetry(wait);
					continue;
				}
				throw failure instanceof UnreadableAnswer
					? unreadableAnswerError(node, call, itemIndex, failure.message)
					: noAnswerError(node, call, itemIndex, failure, timeout);
			}

			const httpStatus = response.statusCode;
			const parsed = parseAnswer(raw);
			const body = isPlainObject(parsed) && !(parsed instanceof UnreadableAnswer) ? parsed : undefined;
			const wait = asksForRetry(httpStatus, body)
				? nextRetryWaitMs(attemptIndex, maxRetries, waitedMs, settings, response.headers?.['retry-after'])
				: undefined;
			if (wait !== undefined) {
				await waitBeforeRetry(wait);
				continue;
			}

			if (!body) {
				const what = parsed instanceof UnreadableAnswer ? parsed.message : `an answer that is not JSON (HTTP ${httpStatus})`;
				throw unreadableAnswerError(node, call, itemIndex, what, httpStatus);
			}
			return dataOfAnswer(node, call, itemIndex, body, httpStatus, uncertain);
		}
	}

	return {
		clientId: credential.clientId,
		clientSecret: credential.clientSecret,
		checkoutPageUrl: credential.checkoutPageUrl,
		cardKey: credential.cardKey,
		request,
	};
}
