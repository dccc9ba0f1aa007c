import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_TIMEOUT_MS } from '../transport/request';

/** The Timeout option of the node and the trigger, the same everywhere but for what it waits for. */
export function timeoutOption(description: string): INodeProperties {
	return {
		displayName: 'Timeout (Ms)',
		name: 'timeout',
		type: 'number',
		typeOptions: { minValue: 1000 },
		default: DEFAULT_TIMEOUT_MS,
		description,
	};
}

/** A field the editor shows as a list, each choice as [name, value, description] in the order it shows them. */
export function listField(
	field: Pick<INodeProperties, 'displayName' | 'name' | 'default' | 'description' | 'displayOptions'> & { multiple?: boolean },
	choices: Array<[name: string, value: string, description: string]>,
): INodeProperties {
	const { displayName, name, multiple, displayOptions } = field;
	return {
		displayName,
		name,
		type: multiple ? 'multiOptions' : 'options',
		options: choices.map(([choice, value, description]) => ({ name: choice, value, description })),
		default: field.default,
		description: field.description,
		...(displayOptions ? { displayOptions } : {}),
	};
}
