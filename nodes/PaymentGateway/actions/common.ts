import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isPlainObject } from '../helpers/json';
import { stringText } from '../helpers/text';
import { timeoutOption } from '../shared/options';
import { MERCHANT_HEADER } from '../transport/headers';
import type { CallSettings } from '../transport/request';
import { InvalidInput, MAX_RETRIES, validateHeaderValue, validateRetries, validateTimeout } from '../validation/input';

const headerOptions: INodeProperties[] = [
	{
		displayName: 'Accept-Language',
		name: 'acceptLanguage',
		type: 'string',
		default: '',
		placeholder: 'en-US',
		description: "The customer's locale (BCP 47). Empty means the credential's default.",
	},
	{
		displayName: 'Browser Fingerprint',
		name: 'browserFingerprint',
		type: 'string',
		default: '',
		description:
			"Fingerprint hash of the customer's browser, if your checkout collects one. Empty means the credential's default.",
	},
	{
		displayName: 'Merchant IP',
		name: 'merchantIp',
		type: 'string',
		default: '',
		placeholder: '203.0.113.10',
		description: "Overrides the credential's Merchant IP for this request",
	},
	timeoutOption(
		'How long to wait for the gateway, in milliseconds. Its test environment can take 30-40 seconds on some calls.',
	),
	{
		displayName: 'User Agent',
		name: 'userAgent',
		type: 'string',
		default: '',
		description: "The customer's browser user agent. Empty means the credential's default.",
	},
];

/**
 * Past 100 requests in flight the gateway's rate limits (undocumented) are the likelier bound than the waiting:
 * 1,000 status reads at 40 s each take 13 minutes at 50 and 7 at 100. A 429 is retried with Max Retries. It is also
 * the most the adaptive limit (Concurrency not set) ever reaches.
 */
export const MAX_CONCURRENCY = 100;

/**
 * A rate limit (429) or a gateway error is waited out, as its Retry-After asks, instead of failing the item: a read or
 * a card delete may be sent again.
 */
const DEFAULT_RETRIES = 3;

/**
 * Offered where a call may be sent again: the reads, and deleting a stored card (a second attempt that finds the card
 * gone after a lost answer is reported as such, not as a deletion).
 */
const repeatableOptions: INodeProperties[] = [
	{
		displayName: 'Concurrency',
		name: 'concurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
		// Only the value the option starts at when added: left out, the run finds the gateway's pace itself.
		default: 50,
		description:
			"Leave this option out and the node finds the gateway's pace itself: it starts at 50 requests in flight (or at the pace an earlier run on the same credential learned), adds more while answers come back without a rate limit and as fast as before, and backs off at once on a 429, a 503 or slower answers, never above 100. Set, exactly this many go at once (up to 100) and the node does not adapt. A Retry-After from the gateway pauses every request of the run either way.",
	},
	{
		displayName: 'Max Retries',
		name: 'maxRetries',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_RETRIES },
		default: DEFAULT_RETRIES,
		description:
			'How often to retry after a rate limit (429), a gateway error (5xx) or a network error, waiting as the gateway asks (Retry-After)',
	},
];

/**
 * The `options` collection: header overrides and timeout everywhere; concurrency and retries only for calls that are
 * `repeatable`, not for orders, payments and refunds, which are `sentOnce`.
 */
export function optionsCollection(kind: 'sentOnce' | 'repeatable', extra: INodeProperties[] = []): INodeProperties {
	const options = [...headerOptions, ...(kind === 'repeatable' ? repeatableOptions : []), ...extra];
	options.sort((a, b) => a.displayName.localeCompare(b.displayName));
	return { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options };
}

const HEADER_OPTIONS = ['acceptLanguage', 'browserFingerprint', 'userAgent', 'merchantIp'] as const;

const holdsExpression = (value: unknown): boolean =>
	typeof value === 'string'
		? value.startsWith('=')
		: Array.isArray(value)
			? value.some(holdsExpression)
			: isPlainObject(value) && Object.values(value).some(holdsExpression);

// Options without an expression are the same for every item: they are read and checked once per execution (n8n's
// parameter read copies and resolves the whole collection each time), keyed by the execution's context.
const sameForEveryItem = new WeakMap<IExecuteFunctions, { options: IDataObject; settings?: Omit<CallSettings, 'itemIndex'> }>();

/** An item's options; shared between items when they hold no expression, so callers only read them. */
export function itemOptions(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const known = sameForEveryItem.get(ctx);
	if (known) return known.options;
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	if (!holdsExpression(ctx.getNode().parameters.options)) sameForEveryItem.set(ctx, { options });
	return options;
}

/** Per-item request settings; the credential fills in whichever header an item leaves empty. */
export function callSettings(ctx: IExecuteFunctions, itemIndex: number): CallSettings {
	const options = itemOptions(ctx, itemIndex);
	const known = sameForEveryItem.get(ctx);
	if (known?.settings) return { ...known.settings, itemIndex };
	const settings = checkedSettings(options, itemIndex);
	// Only settings that passed their checks are kept: a refusal names every item it applies to.
	if (known) known.settings = { headers: settings.headers, timeout: settings.timeout, maxRetries: settings.maxRetries };
	return settings;
}

// Max Retries applies to reads only (a write is never sent twice), so its default can be set for every operation.
function checkedSettings(options: IDataObject, itemIndex: number): CallSettings {
	const headers: IDataObject = {};
	for (const option of HEADER_OPTIONS) {
		const label = headerOptions.find(({ name }) => name === option)?.displayName;
		const field = `${label} (options.${option})`;
		const given = options[option];
		// A value that is not text (an object from an expression) would otherwise be dropped for the default, unsaid.
		if (given !== undefined && given !== null && typeof given !== 'string' && typeof given !== 'number') {
			throw new InvalidInput(field, 'must be text');
		}
		const value = stringText(typeof given === 'number' ? String(given) : given);
		if (value) headers[MERCHANT_HEADER[option]] = validateHeaderValue(field, value);
	}
	const timeout = validateTimeout('Timeout (options.timeout)', options.timeout);
	const maxRetries = validateRetries('Max Retries (options.maxRetries)', options.maxRetries, DEFAULT_RETRIES);
	return { itemIndex, headers, timeout, maxRetries };
}
