import type { INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/**
 * The description of a node a test puts in a workflow beside the package's: one main input and output, version 1,
 * named after its display name ("Slow Step" is `slowStep`), `extra` for what it has more (credentials, fields).
 */
export function standInDescription(displayName: string, description: string, extra: Partial<INodeTypeDescription> = {}): INodeTypeDescription {
	const [first, ...rest] = displayName.split(/[\s-]+/);
	return {
		displayName,
		name: first.toLowerCase() + rest.map((word) => word[0].toUpperCase() + word.slice(1)).join(''),
		group: ['transform'],
		version: 1,
		description,
		defaults: { name: displayName },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
		...extra,
	};
}
