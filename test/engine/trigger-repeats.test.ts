import type { IDataObject } from 'n8n-workflow';

import { PaymentGatewayTrigger } from '../../nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node';
import { REMEMBERED, Repeats, repeatKey } from '../../nodes/PaymentGatewayTrigger/repeats';
import { runNode } from '../support/fixtures';
import { PAYMENT_STATUS, useTriggerBench } from '../support/trigger';
import type { StaticDataStore, WebhookServer } from '../support/webhook';

// Repeats: gateways deliver at least once, and repeat. A payment in a confirmed status starts the workflow once.
// The store is the workflow's static data, which the harness keeps as n8n does: read whole as each request starts,
// saved whole after webhook() when it changed, the last save winning. A second n8n process is a second copy of the
// node's module (its own memory) on the same store.

const bench = useTriggerBench();
const { notify, paid, settled } = bench;

/** The trigger's class as a second process loads it: the same code, a memory of its own. */
function triggerOfAnotherProcess(): typeof PaymentGatewayTrigger {
	let loaded: typeof PaymentGatewayTrigger | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		loaded = (require('../../nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node') as { PaymentGatewayTrigger: typeof PaymentGatewayTrigger })
			.PaymentGatewayTrigger;
	});
	return loaded!;
}

/** Posts every body at the same moment; every answer must be 200. */
async function allAtOnce(target: WebhookServer, bodies: object[]): Promise<void> {
	const answers = await Promise.all(bodies.map(async (body) => await notify(target, body)));
	expect(answers.map((answer) => answer.status)).toEqual(bodies.map(() => 200));
}

const startedFor = (target: WebhookServer) => target.executions.map((execution) => execution.items[0].json.paymentId);

/** The handled notifications the saved static data holds (17 characters each). */
const storedEntries = (store: StaticDataStore) =>
	String((store.staticData['node:Payment Gateway Trigger'] as IDataObject | undefined)?.handledNotifications ?? '')
		.length / 17;

describe('the same notification again', () => {
	it('three in a row: one execution, every delivery answered 200, each re-checked', async () => {
		const record = await paid();
		for (let delivery = 0; delivery < 3; delivery++) {
			expect((await notify(bench.server, record)).status).toBe(200);
			await bench.server.idle();
		}
		expect(startedFor(bench.server)).toEqual([record.paymentId]);
		expect(bench.recheckRequests()).toHaveLength(3);
		expect(storedEntries(bench.server.store)).toBeGreaterThanOrEqual(1);
	});

	it('three at the very same moment (one process): one execution', async () => {
		const record = await paid();
		bench.sandbox.setLatency(200);
		await allAtOnce(bench.server, [record, record, record]);
		await settled();
		expect(startedFor(bench.server)).toEqual([record.paymentId]);
	});

	it('wrapped or flat, with stray spaces or another claimed status: still the same payment in the same status', async () => {
		const record = await paid();
		const bodies = [record, { eventType: 'TRANSACTION_COMPLETED', data: { ...record, status: ' success ' } }, { ...record, status: 'pending', amount: 1 }];
		for (const body of bodies) {
			await notify(bench.server, body);
			await bench.server.idle();
		}
		expect(startedFor(bench.server)).toEqual([record.paymentId]);
	});

	it('the payment in a new confirmed status (refunded since) is news: one execution more', async () => {
		const record = await paid();
		await notify(bench.server, record);
		await bench.server.idle();
		const refund = await runNode(bench.sandbox, { resource: 'transaction', operation: 'refund', paymentId: record.paymentId, amount: 25.5 });
		expect(refund.error).toBeUndefined();
		await notify(bench.server, { ...record, refundId: refund.items[0].json.refundId, status: 'refunded' });
		await notify(bench.server, record);
		await settled();
		expect(bench.server.executions.map((execution) => execution.items[0].json.status)).toEqual(['success', 'refunded']);
	});

	it('an unconfirmed delivery is not remembered: the next one, confirmed, starts the workflow, its repeat does not', async () => {
		const record = await paid();
		bench.sandbox.injectFault({ match: PAYMENT_STATUS, status: 503 });
		for (let delivery = 0; delivery < 3; delivery++) {
			await notify(bench.server, record);
			await bench.server.idle();
		}
		expect(bench.server.executions.map((execution) => execution.items[0].json.statusVerified)).toEqual([false, true]);
	});

	it.each([
		['typeVersion 1 by default emits every one', 1, {}, 3],
		['typeVersion 1 with Ignore Repeats on', 1, { ignoreRepeats: true }, 1],
		['typeVersion 1.1 with Ignore Repeats off', 1.1, { ignoreRepeats: false }, 3],
		['typeVersion 1.1 with the re-check off goes by the claimed status', 1.1, { recheckStatus: false }, 1],
	])('%s: %p option(s) %j, %p executions of three deliveries', async (_label, typeVersion, options, executions) => {
		const record = await paid();
		await bench.withServer(
			{ options },
			async (own) => {
				for (let delivery = 0; delivery < 3; delivery++) {
					await notify(own, record);
					await own.idle();
				}
				expect(own.executions).toHaveLength(executions);
			},
			{ typeVersion },
		);
	});

	it('a notification the Outcomes leave out is not remembered', async () => {
		const record = await paid();
		await bench.withServer({ outcomes: ['failed'] }, async (own) => {
			await notify(own, record);
			await own.idle();
			expect(own.executions).toHaveLength(0);
			expect(storedEntries(own.store)).toBe(0);
			expect(own.store.staticData).toEqual({});
		});
	});
});

describe('notifications handled at the same time do not make the trigger forget one (last save wins)', () => {
	it('ten different at once, then each again: ten executions, then none; the store holds all ten', async () => {
		const records = await Promise.all(Array.from({ length: 10 }, async () => await paid()));
		bench.sandbox.setLatency(300);
		await allAtOnce(bench.server, records);
		await settled();
		expect(new Set(startedFor(bench.server))).toEqual(new Set(records.map((record) => record.paymentId)));
		expect(storedEntries(bench.server.store)).toBeGreaterThanOrEqual(10);
		bench.server.reset();
		await allAtOnce(bench.server, records);
		await settled();
		expect(startedFor(bench.server)).toEqual([]);
	});

	it('two processes on one store, each saving over the other: what one learned survives the other’s save', async () => {
		const store: StaticDataStore = { staticData: {} };
		const records = await Promise.all(Array.from({ length: 22 }, async () => await paid()));
		const [mine, theirs, lastOfMine, lastOfTheirs] = [records.slice(0, 10), records.slice(10, 20), records[20], records[21]];
		await bench.withServer(
			{},
			async (a) => {
				await bench.withServer(
					{},
					async (b) => {
						// The requests read the store before the others saved (the re-checks are slow): the last save holds
						// what its process learned, not what the other one did.
						bench.sandbox.setLatency(300);
						await Promise.all([allAtOnce(a, mine), allAtOnce(b, theirs)]);
						await Promise.all([a.idle(), b.idle()]);
						expect([a.executions.length, b.executions.length]).toEqual([10, 10]);
						expect(storedEntries(store)).toBeGreaterThanOrEqual(10);

						// The next save of each merges what it learned into what it read.
						bench.sandbox.setLatency(0);
						await notify(a, lastOfMine);
						await a.idle();
						await notify(b, lastOfTheirs);
						await b.idle();
						expect(storedEntries(store)).toBe(22);

						a.reset();
						b.reset();
						await Promise.all([allAtOnce(a, records), allAtOnce(b, records)]);
						await Promise.all([a.idle(), b.idle()]);
						expect([a.executions.length, b.executions.length]).toEqual([0, 0]);
					},
					{ nodeType: triggerOfAnotherProcess(), store },
				);
			},
			{ nodeType: triggerOfAnotherProcess(), store },
		);

		// A third process, which learned nothing itself, finds all 22 in the store.
		await bench.withServer(
			{},
			async (c) => {
				await allAtOnce(c, records);
				await c.idle();
				expect(c.executions).toHaveLength(0);
			},
			{ nodeType: triggerOfAnotherProcess(), store },
		);
	});

	it('identical deliveries at the very same moment to two processes: one execution each (measured, documented)', async () => {
		const store: StaticDataStore = { staticData: {} };
		const record = await paid();
		bench.sandbox.setLatency(300);
		const processes = [triggerOfAnotherProcess(), triggerOfAnotherProcess()];
		const servers: WebhookServer[] = [];
		await bench.withServer(
			{},
			async (a) => {
				servers.push(a);
				await bench.withServer(
					{},
					async (b) => {
						servers.push(b);
						await Promise.all([allAtOnce(a, [record, record]), allAtOnce(b, [record, record])]);
						await Promise.all([a.idle(), b.idle()]);
						expect([a.executions.length, b.executions.length]).toEqual([1, 1]);
						// Once either has saved, a third delivery to either is a repeat.
						bench.sandbox.setLatency(0);
						await notify(a, record);
						await notify(b, record);
						await Promise.all([a.idle(), b.idle()]);
						expect([a.executions.length, b.executions.length]).toEqual([1, 1]);
					},
					{ nodeType: processes[1], store },
				);
			},
			{ nodeType: processes[0], store },
		);
		expect(servers).toHaveLength(2);
	});
});

describe('the store', () => {
	/** A process's view of a node's store, as n8n hands it to one request: a copy of the saved static data. */
	const requestOn = (saved: { data: IDataObject }, scope: string) => {
		const staticData = JSON.parse(JSON.stringify(saved.data)) as IDataObject;
		return { repeats: new Repeats(staticData, scope), staticData };
	};

	it(`keeps the newest ${REMEMBERED} handled notifications, 17 characters each, in one string`, () => {
		const saved = { data: {} as IDataObject };
		const scope = `bounded-${Date.now()}`;
		const keys = Array.from({ length: REMEMBERED + 50 }, (_, index) => repeatKey(`PAY${index}`, 'success'));
		for (const key of keys) {
			const { repeats, staticData } = requestOn(saved, scope);
			expect(repeats.has(key)).toBe(false);
			repeats.remember(key);
			repeats.save();
			// Saved only when it changed, as n8n does.
			saved.data = staticData;
			if (key === keys[10]) break;
		}
		// The rest in one request: the same process learning them one after another.
		const { repeats, staticData } = requestOn(saved, scope);
		for (const key of keys.slice(11)) repeats.remember(key);
		repeats.save();
		const stored = staticData.handledNotifications as string;
		expect(typeof stored).toBe('string');
		expect(stored.length).toBe(REMEMBERED * 17);

		// Another process sees exactly the newest REMEMBERED in the store.
		const other = requestOn({ data: staticData }, `other-${Date.now()}`).repeats;
		const seen = keys.map((key) => other.has(key));
		expect(seen.slice(0, 50).filter(Boolean)).toHaveLength(0);
		expect(seen.slice(50).every(Boolean)).toBe(true);
	});

	it('a request that learns nothing new changes nothing, so n8n saves nothing', () => {
		const scope = `unchanged-${Date.now()}`;
		const first = requestOn({ data: {} }, scope);
		first.repeats.remember(repeatKey('PAY1', 'success'));
		first.repeats.save();
		const second = requestOn({ data: first.staticData }, scope);
		const before = JSON.stringify(second.staticData);
		expect(second.repeats.has(repeatKey('PAY1', 'success'))).toBe(true);
		second.repeats.save();
		expect(JSON.stringify(second.staticData)).toBe(before);
	});

	it('something that is not the store’s own (an older or hand-edited value) counts as empty, and is replaced', () => {
		for (const value of [42, 'not a store', '!'.repeat(17), { keys: [] }]) {
			const { repeats, staticData } = requestOn({ data: { handledNotifications: value } }, `odd-${Date.now()}-${String(value)}`);
			expect(repeats.has(repeatKey('PAY1', 'success'))).toBe(false);
			repeats.remember(repeatKey('PAY1', 'success'));
			repeats.save();
			expect(String(staticData.handledNotifications)).toHaveLength(17);
		}
	});

	it('a payment’s key depends on its status, trimmed and in any case', () => {
		expect(repeatKey('PAY1', 'success')).toBe(repeatKey('PAY1', ' SUCCESS '));
		expect(repeatKey('PAY1', 'success')).not.toBe(repeatKey('PAY1', 'refunded'));
		expect(repeatKey('PAY1', 'success')).not.toBe(repeatKey('PAY2', 'success'));
	});
});

it('no secret in any answer, item, run or error of this file', () => {
	bench.expectNoSecrets();
});
