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
