import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from './fixtures';
import { createOrder, orderParameters } from './fixtures';

// What the tests of a gateway's worst answers share (test/engine/bad-answers.test.ts, large-answers.test.ts).

export const TIMEOUT = 1500;

export interface FaultedOperation {
	label: string;
	/** Where its request's path takes a fault. */
	match: string;
	parameters(on: Sandbox): Promise<IDataObject>;
}

export const READ: FaultedOperation = {
	label: 'Status → Get by Order ID',
	match: 'check-status',
	parameters: async (on) => ({ resource: 'status', operation: 'getByOrderId', orderId: await createOrder(on) }),
};
export const WRITE: FaultedOperation = { label: 'Order → Create', match: '/order', parameters: async () => orderParameters() };
