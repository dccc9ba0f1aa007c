import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { SentRequest } from './execute-host';
import type { FieldCase } from './input-cases';

// The check of a batch of generated values, shared by the fast path and the engine: each item's outcome against
// what a careful user expects of its value.

/** The output paired to each input item (every operation gives one here). */
export function outputsByItem(items: INodeExecutionData[], count: number): IDataObject[] {
	return Array.from({ length: count }, (_, index) => {
		const outputs = items.filter((item) => (item.pairedItem as { item: number } | undefined)?.item === index);
		expect(outputs).toHaveLength(1);
		return outputs[0].json;
	});
}

const escaped = (text: string) => text.replace(/[()[\].]/g, '\\$&');

/**
 * Checks the outputs of items that each carried one value of the field, and the requests that were sent, in item
 * order. A refused value must give an error naming the field and the item (a NodeOperationError: Continue On Fail
 * keeps its itemIndex) and send nothing; an accepted one must reach the request as expected. `gatewayMayRefuse`:
 * the request went to a real gateway, which may refuse what the node rightly sent.
 */
export function checkBatch(fieldCase: FieldCase, values: unknown[], outputs: IDataObject[], requests: SentRequest[], gatewayMayRefuse = false) {
	let nextRequest = 0;
	values.forEach((value, index) => {
		const output = outputs[index];
		const refusedByNode = output.itemIndex !== undefined;
		const request = refusedByNode || (!gatewayMayRefuse && output.error !== undefined) ? undefined : requests[nextRequest++];
		const expected = fieldCase.expected(value);
		if ('refused' in expected) {
			const named = new RegExp(`^${escaped(expected.refused)} .* \\[item ${index}\\]$`);
			expect({ value, error: output.error, itemIndex: output.itemIndex, sent: request !== undefined }).toEqual({
				value,
				error: expect.stringMatching(named),
				itemIndex: index,
				sent: false,
			});
		} else {
			expect({ value, refusedByNode, error: gatewayMayRefuse ? undefined : output.error }).toEqual({ value, refusedByNode: false, error: undefined });
			expect({ value, sent: fieldCase.read(request!, output) }).toEqual({ value, sent: expected.sent });
		}
	});
	expect(nextRequest).toBe(requests.length);
}
