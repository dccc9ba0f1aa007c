import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	IN8nHttpFullResponse,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { PaymentGatewayApi } from '../../credentials/PaymentGatewayApi.credentials';
import { isPlainObject } from './helpers/json';
import { stringText } from './helpers/text';
import { parseAnswer, readAnswer, UnreadableAnswer } from './transport/answer';
import { secretsOf } from './transport/credential';
import { beforeDeadline, deadlineClock, DEFAULT_TIMEOUT_MS, helperTimeoutMs } from './transport/deadline';
import { gatewayMessage } from './transport/errors';
import type { NoAnswer } from './transport/network';
import { droppedRedirect, isRedirect, NETWORK_PHRASES, noAnswerOf } from './transport/network';
import { funnelFor } from './transport/redact';
import { isGatewayShaped, numericResCode } from './transport/result';
import { baseAddresses, checkCredentialFields, InvalidCredential } from './validation/credential';

/** The name the nodes' `testedBy` gives n8n to find this test among their `methods.credentialTest`. */
export const CREDENTIAL_TEST_NAME = 'paymentGatewayApiTest';

const credentialType = new PaymentGatewayApi();

/** A failure in the gateway's shape: its status word or a resCode other than 200. */
const isFailure = (body: IDataObject) => body.status === 'failure' || (numericResCode(body) ?? 200) !== 200;
const FIELD_NAMES = new Map(credentialType.properties.map((field) => [field.displayName, field.name]));

/** A field as a user finds it in the dialog and in a saved credential: "Checkout Base URL (checkoutBaseUrl)". */
const named = (displayName: string) => `${displayName} (${FIELD_NAMES.get(displayName) ?? displayName})`;

/**
 * One harmless read per path family, about an id no gateway gives out (its ids look like `wb-<uuid>` and
 * `PAY<hex>`): the gateway's own failure about that id (or an empty list) proves that the address leads to the
 * endpoint and that the client was accepted; nothing is created or changed.
 */
interface Probe {
	family: 'short' | 'long';
	field: 'Base URL' | 'Checkout Base URL';
	path: string;
	qs?: IDataObject;
	/** Where the field should end, said to a user whose field does not lead to the endpoint. */
	advice: string;
	/** Whether an answer (past the credentials' own checks) is this endpoint's, and what was expected instead. */
	answers(body: IDataObject): boolean;
	expected: string;
}

/** The id the probes read: no gateway gives one out. */
const PROBE_ID = 'n8n-credential-test';

const PROBES: Probe[] = [
	{
		family: 'short',
		field: 'Base URL',
		path: `/customer/${PROBE_ID}/digitalCards`,
		advice:
			'It should end where the endpoint paths (/order, /customer/…) begin, e.g. https://gateway.example.com/nac/api/v1/merchant-host.',
		// An unknown customer has no stored cards: the gateway answers an empty list, never a 404.
		answers: (body) => !isFailure(body) && isPlainObject(body.data) && Array.isArray(body.data.digitalCards),
		expected: 'a stored-card list was expected (an unknown customer has an empty one)',
	},
	{
		family: 'long',
		field: 'Checkout Base URL',
		path: '/nac/api/v1/pg/orders/check-status',
		qs: { orderId: PROBE_ID },
		advice: 'It should be the address in front of /nac/api/v1/pg/orders/…, usually the host alone, e.g. https://gateway.example.com.',
		// The gateway's answer about an order it does not know names the order, or says what of it is unknown.
		answers: (body) =>
			numericResCode(body) !== undefined &&
			(body.orderId === PROBE_ID || (isPlainObject(body.data) && body.data.orderId === PROBE_ID) || /order|transaction|payment/i.test(gatewayMessage(body, 0))),
		expected: 'an answer about the order read was expected',
	},
];

interface Answer {
	statusCode?: number;
	body?: IDataObject;
	noAnswer?: NoAnswer;
}

/**
 * Sends one probe: signed by the credential's own authenticate(), as every request of the node is. A credential
 * test gets only n8n's request helper (no helper that authenticates), hence the explicit call.
 */
async function send(host: ICredentialTestFunctions, probe: Probe, baseURL: string, data: ICredentialDataDecryptedObject): Promise<Answer> {
	const signed = await credentialType.authenticate(data, {
		method: 'GET',
		baseURL,
		url: probe.path,
		qs: probe.qs,
		headers: { Accept: 'application/json' },
	});
	const deadline = deadlineClock()(DEFAULT_TIMEOUT_MS);
	try {
		const response = await beforeDeadline(
			host.helpers.request({
				...signed,
				timeout: helperTimeoutMs(DEFAULT_TIMEOUT_MS),
				json: false,
				useStream: true,
				// An answer in any HTTP status is read; a redirect is not followed with the Basic header.
				simple: false,
				followRedirect: false,
				resolveWithFullResponse: true,
			}) as Promise<IN8nHttpFullResponse>,
			deadline,
		);
		if (droppedRedirect(response)) return { statusCode: response.statusCode };
		const parsed = parseAnswer(await readAnswer(response.body, deadline));
		// An answer out of bounds was not read: it is no answer of the gateway's.
		return { statusCode: response.statusCode, body: isPlainObject(parsed) && !(parsed instanceof UnreadableAnswer) ? parsed : undefined };
	} catch (error) {
		return { noAnswer: noAnswerOf(error, deadline) };
	}
}

/** The gateway's message through the redaction funnel (a proxy may echo what it was sent), cut short. */
function gatewaySaid(body: IDataObject, statusCode: number, data: ICredentialDataDecryptedObject): string {
	return funnelFor(secretsOf(data)).text(gatewayMessage(body, statusCode));
}

/** What is wrong with the field a probe went to, in words a user can act on; undefined when the answer is fine. */
function problemOfProbe(probe: Probe, answer: Answer, data: ICredentialDataDecryptedObject): string | undefined {
	const borrowed = probe.family === 'long' && !stringText(data.checkoutBaseUrl);
	const address = borrowed
		? `${named('Checkout Base URL')} is empty, so /nac/api/v1/pg/orders/… went to the ${named('Base URL')}, which`
		: named(probe.field);
	const fix = borrowed ? `Set ${named('Checkout Base URL')}: ${probe.advice.replace(/^It should be/, 'it is')}` : probe.advice;
	if (answer.noAnswer) {
		const { code, timedOut } = answer.noAnswer;
		const what = timedOut
			? `did not answer within ${DEFAULT_TIMEOUT_MS / 1000} s`
			: `could not be reached (${NETWORK_PHRASES[code] ?? 'the request failed'})`;
		return `${address} ${what}. Check the address, and that n8n can reach the gateway.`;
	}
	const statusCode = answer.statusCode ?? 0;
	if (isRedirect(statusCode)) {
		return `${address} answered with a redirect (HTTP ${statusCode}) to another address, which was not followed: nothing was sent there. ${fix}`;
	}
	const body = answer.body;
	const message = body ? gatewaySaid(body, statusCode, data) : '';
	if (!body || !isGatewayShaped(body) || /^no route found$/i.test(message)) {
		const what = body && isGatewayShaped(body) ? `"${message}"` : 'not an answer of the gateway';
		return `${address} does not lead to the gateway's ${probe.family === 'short' ? 'merchant API' : 'checkout endpoints'} (HTTP ${statusCode}, ${what}). ${fix}`;
	}
	const resCode = numericResCode(body) ?? statusCode;
	if (resCode === 401 || statusCode === 401) {
		return probe.family === 'short'
			? `The gateway refused the credentials (401, "${message}"): check ${named('Client ID')} and ${named('Client Secret')}, and that the client is active.`
			: `The gateway at the ${named('Checkout Base URL')} refused the client (401, "${message}") that the ${named('Base URL')} accepted: check that both addresses belong to the same gateway (test or live environment).`;
	}
	// Reading an order that does not exist may well be a 400 on the long family; a complaint about headers is not.
	if (resCode === 400 && (probe.family === 'short' || /header/i.test(message))) {
		return `The gateway refused the request (400, "${message}"): check ${named('Merchant Domain')}, ${named('Merchant IP')} and the default header fields (${named('Default Browser Fingerprint')}, ${named('Default User Agent')}, ${named('Default Accept-Language')}).`;
	}
	// A server that wraps every error in the gateway's envelope answers any path: only the answer to this read tells.
	if (!probe.answers(body)) {
		return `${address} does not lead to the gateway's ${probe.family === 'short' ? 'merchant API' : 'checkout endpoints'} (HTTP ${statusCode}, "${message}": ${probe.expected}). ${fix}`;
	}
	return undefined;
}

/**
 * The credential's Test (n8n's dialog and POST /rest/credentials/test): the form of every field, then one read on
 * each path family. The first problem found is the answer, naming the field to fix; nothing is sent after it.
 */
export async function testGatewayCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	try {
		checkCredentialFields(data);
	} catch (error) {
		// The checks throw nothing else; a field they could not read is still not one to send.
		const problem = error instanceof InvalidCredential ? `${named(error.field)} ${error.problem}` : 'A field of the credential could not be read';
		return { status: 'Error', message: `${problem}. Nothing was sent to the gateway.` };
	}
	const bases = baseAddresses(data);
	for (const probe of PROBES) {
		const problem = problemOfProbe(probe, await send(this, probe, bases[probe.family], data), data);
		if (problem) return { status: 'Error', message: problem };
	}
	return { status: 'OK', message: 'Connection successful: the Base URL and the Checkout Base URL reach the gateway, which accepted the client' };
}
