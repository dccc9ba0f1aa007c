import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from './fixtures';
import { createOrder, orderParameters } from './fixtures';

// What the tests of a gateway's worst answers share (test/engine/bad-answers.test.ts, large-answers.test.ts).

export const TIMEOUT = 1500;

/**
 * Longer than any run of these tests takes on a busy 2-core machine, where timers fire seconds late; far shorter
 * than the faults last when nothing ends them: a hang and a trickle never end, the slow body takes 15 s and more,
 * and the node's default time-out is 60 s.
 */
export const ENDLESS_MS = 10_000;

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
