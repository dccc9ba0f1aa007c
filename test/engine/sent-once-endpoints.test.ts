import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { PaymentGatewayApi } from '../../credentials/PaymentGatewayApi.credentials';
import { operation as getByPaymentId } from '../../nodes/PaymentGateway/actions/status/getByPaymentId.operation';
import type { Endpoint } from '../../nodes/PaymentGateway/transport/request';
import { openGateway } from '../../nodes/PaymentGateway/transport/request';
import { runWorkflow } from '../support/engine';
import { runNode, sandboxCredentials, settledPayment, useSandbox } from '../support/fixtures';
import { standInDescription } from '../support/stand-in';

// What is sent once rests on one flag, the operation's `sendsOnce`, carried by its endpoint; a refund's read of its
// payment is a read inside a write. A POST declared anything else is not sent at all.

const sandbox = useSandbox();

const posts = () => sandbox.requests.filter((request) => request.method === 'POST' && request.apiPath === '/transaction/refund');

describe('Transaction → Refund: the read inside the write', () => {
	it('a 404 on the read is named as the refund’s read, with the unknown-identifier advice, and nothing is refunded', async () => {
		const result = await runNode(sandbox, { resource: 'transaction', operation: 'refund', paymentId: 'PAY_NOPE', refundType: 'full' });
		expect(result.error?.description).toBe('The gateway does not know this identifier. Check that it comes from this credential’s merchant account.');
		expect(posts()).toHaveLength(0);
	});

	it('a 503 on the read is retried as a read, then the payment is refunded once', async () => {
		const payment = await settledPayment(sandbox, 'success');
		sandbox.injectFault({ match: `/transaction/status/${payment.paymentId}`, status: 503, count: 1, retryAfter: 0 });
		sandbox.clearLog();
		const result = await runNode(sandbox, { resource: 'transaction', operation: 'refund', paymentId: payment.paymentId, refundType: 'full' });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.status)).toEqual([503, 200, 200]);
		expect(posts()).toHaveLength(1);
	});

	it('a 500 on the read is retried as a read (3 times), then says no refund was sent', async () => {
		const payment = await settledPayment(sandbox, 'success');
		sandbox.clearLog();
		sandbox.injectFault({ match: '/transaction/status/', kind: 'status', status: 500, count: 10 });
		const result = await runNode(sandbox, { resource: 'transaction', operation: 'refund', paymentId: payment.paymentId, refundType: 'full' });
		expect(sandbox.requests.filter((request) => request.apiPath?.startsWith('/transaction/status/'))).toHaveLength(4);
		expect(result.error?.description).toMatch(/^The gateway had a temporary error while the payment was read\. No refund was sent/);
		expect(posts()).toHaveLength(0);
	});

	it('a 500 on the refund itself: one POST, and the check-first advice', async () => {
		const payment = await settledPayment(sandbox, 'success');
		sandbox.clearLog();
		sandbox.injectFault({ match: '/transaction/refund', kind: 'status', status: 500, count: 10 });
		const result = await runNode(sandbox, { resource: 'transaction', operation: 'refund', paymentId: payment.paymentId, refundType: 'full' });
		expect(posts()).toHaveLength(1);
		expect(result.error?.description).toMatch(/Check the payment with Status → Get by Payment ID before refunding again/);
	});
});

/** A caller of the transport that names a read's endpoint on a POST. */
function probe(endpoint: Endpoint, paymentId: string) {
	return class Probe implements INodeType {
		description: INodeTypeDescription = standInDescription('Probe', 'POSTs a refund under a read endpoint', {
			credentials: [{ name: 'paymentGatewayApi', required: true }],
		});

		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const gateway = await openGateway(this, endpoint);
			const body: IDataObject = { paymentId, amount: 1 };
			const data = await gateway.request({ method: 'POST', family: 'short', path: '/transaction/refund', body }, { itemIndex: 0, maxRetries: 3 });
			return [[{ json: data, pairedItem: { item: 0 } }]];
		}
	};
}

it('a POST under an endpoint that is not sent once is refused before it leaves, whatever Max Retries says', async () => {
	const payment = await settledPayment(sandbox, 'success');
	sandbox.clearLog();
	sandbox.injectFault({ match: '/transaction/refund', kind: 'status', status: 500, count: 1 });
	const result = await runWorkflow({
		nodeType: probe(getByPaymentId.endpoint, payment.paymentId),
		credentialType: PaymentGatewayApi,
		credentials: sandboxCredentials(sandbox),
	});
	expect(result.error?.message).toMatch(/^Status → Get by Payment ID: a POST must be of an operation that is sent once/);
	expect(posts()).toHaveLength(0);
});
