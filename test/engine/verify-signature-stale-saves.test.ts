/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import type { StatusRecord } from '../support/fixtures';
import { settledPayment, useSandbox } from '../support/fixtures';
import type { StaticDataStore, WebhookServer } from '../support/webhook';
import { standInDescription } from '../support/stand-in';
import { postJson, startVerifyingWorkflow } from '../support/verify-workflow';

// A save of the workflow's static data by an execution that copied Verify Signature's memory earlier (it verified one
// record, then went on with a slow node) must not overwrite what executions that ended meanwhile saved: the process's
// memory holds it, but a restart reads only the store, and a customer replaying their own record after the restart
// would get `repeat: false` a second time. Found by an attack on issue 41's result; the memory is now saved as a view.

const sandbox = useSandbox({ reset: false });

/** A node after Verify Signature that takes its time for the record of `slowPaymentId` (an HTTP call, an agent...). */
const gates = new Map<string, Promise<void>>();
class SlowStep implements INodeType {
	description: INodeTypeDescription = standInDescription('Slow Step', 'Waits for the test to let its item pass');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		for (const item of items) await gates.get(String(item.json.paymentId));
		return [items];
	}
}

/** The node as a restarted n8n loads it: the same code, a fresh memory. */
function restartedNode(): typeof PaymentGateway {
	let loaded: typeof PaymentGateway | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		loaded = (require('../../nodes/PaymentGateway/PaymentGateway.node') as { PaymentGateway: typeof PaymentGateway }).PaymentGateway;
	});
	return loaded!;
}

const verifyingWorkflow = async (store: StaticDataStore, nodeType: typeof PaymentGateway) =>
	await startVerifyingWorkflow(sandbox, { store, nodeType, after: [{ nodeType: SlowStep, name: 'Slow Step', parameters: {} }] });

async function post(server: WebhookServer, record: StatusRecord): Promise<void> {
	expect(await postJson(server, record)).toBe(200);
}

const repeats = (server: WebhookServer) => server.executions.map((execution) => execution.outputOf('Verify Signature')[0]?.json.repeat);

it('ATTACK (failing before the fix): a slow execution’s save drops a record verified meanwhile; after a restart its replay says repeat: false again', async () => {
	const slow = await settledPayment(sandbox, 'success');
	const mine = await settledPayment(sandbox, 'success');
	const store: StaticDataStore = { staticData: {} };
	let release!: () => void;
	gates.set(slow.paymentId, new Promise<void>((resolve) => (release = resolve)));
	const first = await verifyingWorkflow(store, PaymentGateway);
	try {
		// X: verifies `slow`, copies the memory into its static data, then waits in Slow Step.
		await post(first, slow);
		await new Promise((resolve) => setTimeout(resolve, 1500));
		// Y: the customer's record, verified and saved while X is open.
		await post(first, mine);
		await new Promise((resolve) => setTimeout(resolve, 1500));
		// X ends last: its save is the store.
		release();
		await first.idle();
		expect(repeats(first)).toEqual([false, false]);
	} finally {
		release();
		await first.close();
	}
	// n8n restarts; the customer replays their record.
	const second = await verifyingWorkflow(store, restartedNode());
	try {
		await new Promise((resolve) => setTimeout(resolve, 1100));
		await post(second, mine);
		await second.idle();
		expect(repeats(second)).toEqual([true]);
	} finally {
		await second.close();
	}
}, 60_000);



it('a view of a memory the process forgot since (more than 100 nodes busy) is read, not trusted, and what is learnt next is saved too', () => {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { Repeats, repeatKey } = require('../../nodes/PaymentGateway/shared/repeats') as typeof import('../../nodes/PaymentGateway/shared/repeats');
	const staticData: IDataObject = {};
	const scope = `evicted-${Date.now()}`;
	expect(new Repeats(staticData, scope).handledBefore('PAY-A', 'success', '', 'paid')).toBe(false);
	new Repeats(staticData, scope).save();
	// The process's memory of this node is forgotten while the execution goes on.
	for (let other = 0; other < 101; other++) new Repeats({}, `${scope}-other-${other}`);
	const later = new Repeats(staticData, scope);
	expect(later.has(repeatKey('PAY-A', 'success'))).toBe(true);
	expect(later.handledBefore('PAY-B', 'success', '', 'paid')).toBe(false);
	later.save();
	const saved = (JSON.parse(JSON.stringify(staticData)) as IDataObject).handledNotifications as string;
	expect([saved.includes(repeatKey('PAY-A', 'success')), saved.includes(repeatKey('PAY-B', 'success'))]).toEqual([true, true]);
});
