import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isPlainObject } from '../helpers/json';
import { expressionProblem } from '../validation/amount';
import { InvalidInput } from '../validation/input';
import { MONEY_FIELDS } from './fields';

/**
 * The longest text any parameter takes: a redirect URL, at 2,048 characters, is the longest real one. Parameters come
 * from expressions over webhook bodies and from a model's tool arguments, so they can be anything; a longer text is
 * refused here, naming the field, before any check or pattern of an operation reads it.
 */
export const MAX_PARAMETER_CHARS = 4096;

/** "Display Name (name)" for each parameter and collection option of an operation, as its messages name fields. */
function labelsOf(properties: INodeProperties[]): Map<string, string> {
	const labels = new Map<string, string>();
	for (const property of properties) {
		labels.set(property.name, `${property.displayName} (${property.name})`);
		for (const option of property.options ?? []) {
			if ('displayName' in option && typeof option.displayName === 'string' && 'name' in option) {
				labels.set(`${property.name}.${option.name}`, `${option.displayName} (${property.name}.${option.name})`);
			}
		}
	}
	return labels;
}

/** The first text in `value` longer than the bound, by its path; walked without copying. */
function overlongPath(value: unknown, path: string, depth = 0): string | undefined {
	if (typeof value === 'string') return value.length > MAX_PARAMETER_CHARS ? path : undefined;
	if (depth > 16 || value === null || typeof value !== 'object') return undefined;
	const entries: Array<[string, unknown]> = Array.isArray(value)
		? value.map((entry, index) => [`${path}[${index}]`, entry])
		: isPlainObject(value)
			? Object.entries(value).map(([key, entry]) => [`${path}.${key}`, entry])
			: [];
	for (const [entryPath, entry] of entries) {
		const found = overlongPath(entry, entryPath, depth + 1);
		if (found) return found;
	}
	return undefined;
}

/**
 * The execution context as an operation sees it: the same in every way but that each parameter it reads is bounded.
 * Every operation reads its parameters through this one entry.
 */
export function withBoundedParameters(ctx: IExecuteFunctions, properties: INodeProperties[]): IExecuteFunctions {
	const labels = labelsOf(properties);
	// A money field's expression as written, once per execution (getNode() copies the node): its digits decide.
	const rewrites = new Map<string, string | undefined>();
	const rewriteOf = (name: string) => {
		if (!rewrites.has(name)) rewrites.set(name, expressionProblem(ctx.getNode().parameters[name]));
		return rewrites.get(name);
	};
	const getNodeParameter = ((name: string, itemIndex: number, ...rest: unknown[]) => {
		const rewrite = MONEY_FIELDS.has(name) ? rewriteOf(name) : undefined;
		if (rewrite) throw new InvalidInput(labels.get(name) ?? name, rewrite);
		const value = (ctx.getNodeParameter as (...args: unknown[]) => unknown)(name, itemIndex, ...rest);
		const path = overlongPath(value, name);
		if (path !== undefined) {
			const label = labels.get(path) ?? labels.get(path.split(/[.[]/, 1)[0]) ?? `The parameter ${path}`;
			throw new InvalidInput(label, `is longer than ${MAX_PARAMETER_CHARS} characters`);
		}
		return value;
	}) as IExecuteFunctions['getNodeParameter'];
	return new Proxy(ctx, {
		get(target, property) {
			if (property === 'getNodeParameter') return getNodeParameter;
			const value: unknown = Reflect.get(target, property, target);
			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
		},
	});
}
