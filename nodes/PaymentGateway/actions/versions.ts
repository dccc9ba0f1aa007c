import type { INodeProperties } from 'n8n-workflow';

/**
 * typeVersions 1.1 and 1.2 changed defaults only; 1.3 requires a tool's Maximum Total per Day. A saved workflow keeps
 * the typeVersion it was made with, and so the defaults it ran with; a node added in the editor gets the newest.
 */
export const NODE_VERSIONS = [1, 1.1, 1.2, 1.3];
export const NEWEST_VERSION = 1.3;

/** As a tool, the node keeps a budget across executions (Maximum Total per Day) since 1.3. */
export const keepsDailyBudget = (version: number): boolean => version >= 1.3;

/** The same field as typeVersion 1 shows it and as later versions do. */
export function versioned(v1: INodeProperties, later: INodeProperties): INodeProperties[] {
	return [withShow(v1, { '@version': [1] }), withShow(later, { '@version': [{ _cnd: { gte: 1.1 } }] })];
}

/** The same field in each of its forms, each given with the first typeVersion that shows it, oldest first. */
export function versionedFrom(forms: Array<[number, INodeProperties]>): INodeProperties[] {
	return forms.map(([from, property], index) => {
		const until = forms[index + 1]?.[0];
		const versions = NODE_VERSIONS.filter((version) => version >= from && (until === undefined || version < until));
		return withShow(property, { '@version': until === undefined ? [{ _cnd: { gte: from } }] : versions });
	});
}

/** Status → Verify Signature asks the gateway to confirm the payment a valid signature names, since 1.2. */
export const confirmsWithGateway = (version: number): boolean => version >= 1.2;

function withShow(property: INodeProperties, show: NonNullable<INodeProperties['displayOptions']>['show']): INodeProperties {
	const displayOptions = property.displayOptions ?? {};
	return { ...property, displayOptions: { ...displayOptions, show: { ...displayOptions.show, ...show } } };
}

/**
 * Concurrency and Max Retries of the repeatable calls when a workflow sets none. Since 1.1 an untuned reconciliation
 * is not one request at a time: at the live gateway's 30-40 s an answer, 1,000 orders take about 12 minutes at 50 in
 * flight instead of 10 hours at 1, and a rate limit (429) is waited out, as its Retry-After asks, instead of failing
 * the item. Bounded all the same: n8n's HTTP Request node sends every item at once by default.
 *
 * Since 1.2 no fixed number: 50 lost items to a gateway serving 10 at once and left a faster one idle. The run finds
 * the gateway's pace (transport/adaptiveLimit.ts), and a Retry-After pauses all of its requests (`pacedRun`), also
 * when the workflow sets Concurrency. `concurrency` is then the value the option starts at when added.
 */
export function repeatableDefaults(version: number): {
	concurrency: number;
	maxRetries: number;
	adaptive: boolean;
	pacedRun: boolean;
} {
	if (version >= 1.2) return { concurrency: 50, maxRetries: 3, adaptive: true, pacedRun: true };
	if (version >= 1.1) return { concurrency: 50, maxRetries: 3, adaptive: false, pacedRun: false };
	return { concurrency: 1, maxRetries: 0, adaptive: false, pacedRun: false };
}

/** An amount that starts empty since 1.1: typeVersion 1 starts it at 0, which running refuses. */
export function amountFields(field: INodeProperties, later: Partial<INodeProperties> = {}): INodeProperties[] {
	return versioned(field, { ...field, default: null, ...later });
}
