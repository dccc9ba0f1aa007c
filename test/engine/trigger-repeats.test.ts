import type { IDataObject } from 'n8n-workflow';

import { PaymentGatewayTrigger } from '../../nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node';
import { REMEMBERED, Repeats, repeatKey } from '../../nodes/PaymentGateway/shared/repeats';
import type { CountingProxy } from '../support/counting-proxy';
import { startCountingProxy } from '../support/counting-proxy';
import type { StatusRecord } from '../support/fixtures';
import { runNode, sandboxCredentials } from '../support/fixtures';
import { PAYMENT_STATUS, useTriggerBench } from '../support/trigger';
import type { StaticDataStore, WebhookServer, WebhookServerOptions } from '../support/webhook';

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

/** The handled notifications the saved static data holds (17 characters each, paid and unpaid kept apart). */
const storedEntries = (store: StaticDataStore) => {
	const kept = (store.staticData['node:Payment Gateway Trigger'] ?? {}) as IDataObject;
	return String(kept.handledNotifications ?? '').length / 17 + String(kept.handledUnpaidNotifications ?? '').length / 17;
};

/** The payments of `records` the saved store holds, as a process that learned nothing itself would find them. */
const inStore = (store: StaticDataStore, records: StatusRecord[]) => {
	const staticData = JSON.parse(JSON.stringify(store.staticData['node:Payment Gateway Trigger'] ?? {})) as IDataObject;
	const repeats = new Repeats(staticData, `fresh-${Math.random()}`);
	return records.filter((record) => repeats.has(repeatKey(record.paymentId, 'success'))).map((record) => record.paymentId);
};

describe('the same notification again', () => {
	it('three in a row: one execution, every delivery answered 200, only the first re-checked', async () => {
		const record = await paid();
		for (let delivery = 0; delivery < 3; delivery++) {
			expect((await notify(bench.server, record)).status).toBe(200);
			await bench.server.idle();
		}
		expect(startedFor(bench.server)).toEqual([record.paymentId]);
		// The same claim, explained by the first confirmation, is answered from it: no read.
		expect(bench.recheckRequests()).toHaveLength(1);
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

	it('a second partial refund: news only where the gateway’s record tells it apart (a refunded total); a refundId alone never is', async () => {
		const record = await paid();
		await notify(bench.server, record);
		await bench.server.idle();
		const refundIds: unknown[] = [];
		for (const [index, amount] of [10, 5].entries()) {
			const refund = await runNode(bench.sandbox, { resource: 'transaction', operation: 'refund', paymentId: record.paymentId, amount });
			expect(refund.error).toBeUndefined();
			refundIds.push(refund.items[0].json.refundId);
			const body = { eventType: 'REFUND_SUCCESS', data: { ...record, refundId: ` ${String(refund.items[0].json.refundId)} `, status: 'partially_refunded', amount } };
			// The second refund's re-check reads a record with a refunded total: a gateway whose record has one.
			if (index === 1) {
				const data = { paymentId: record.paymentId, orderId: record.orderId, status: 'partially_refunded', amount: 25.5, currency: 'USD', refundedAmount: 15 };
				bench.sandbox.injectFault({ match: PAYMENT_STATUS, status: 200, body: { resCode: 200, status: 'success', data } });
			}
			await notify(bench.server, body);
			await bench.server.idle();
			await notify(bench.server, body);
			await bench.server.idle();
		}
		const items = bench.server.executions.map((execution) => execution.items[0].json);
		expect(items.map((item) => [item.status, item.refundId ?? null])).toEqual([
			['success', null],
			['partially_refunded', refundIds[0]],
			['partially_refunded', refundIds[1]],
		]);
		// On a refund the top-level amount is the payment's, as the gateway reads it; the refund's own is a claim.
		expect(items.slice(1).map((item) => [item.amount, item.notifiedAmount])).toEqual([
			[25.5, 10],
			[25.5, 5],
		]);
	});

	it('a second partial refund the gateway’s record cannot tell from the first (the live record has no refunded total) starts nothing', async () => {
		const record = await paid();
		for (const amount of [10, 5]) {
			const refund = await runNode(bench.sandbox, { resource: 'transaction', operation: 'refund', paymentId: record.paymentId, amount });
			expect(refund.error).toBeUndefined();
			await notify(bench.server, { ...record, refundId: refund.items[0].json.refundId, status: 'partially_refunded', amount });
			await bench.server.idle();
		}
		expect(bench.server.executions.map((execution) => execution.items[0].json.status)).toEqual(['partially_refunded']);
	});

	it('an unconfirmed delivery is not remembered: the next one, confirmed, starts the workflow, its repeat does not', async () => {
		const record = await paid();
		// 503 to the first delivery's re-check and its three retries.
		bench.sandbox.injectFault({ match: PAYMENT_STATUS, status: 503, retryAfter: 0, count: 4 });
		for (let delivery = 0; delivery < 3; delivery++) {
			await notify(bench.server, record);
			await bench.server.idle();
		}
		expect(bench.server.executions.map((execution) => execution.items[0].json.statusVerified)).toEqual([false, true]);
	});

	it.each([
		['Ignore Repeats off emits every one', { ignoreRepeats: false }, 3],
		['with the re-check off goes by the claimed status', { recheckStatus: false }, 1],
	])('%s: option(s) %j, %p executions of three deliveries', async (_label, options, executions) => {
		const record = await paid();
		await bench.withServer({ options }, async (own) => {
			for (let delivery = 0; delivery < 3; delivery++) {
				await notify(own, record);
				await own.idle();
			}
			expect(own.executions).toHaveLength(executions);
		});
	});

	it('a test event ("Listen for test event", execution mode manual) teaches neither the store nor the process', async () => {
		const record = await paid();
		await bench.withServer(
			{},
			async (test) => {
				for (let delivery = 0; delivery < 2; delivery++) {
					await notify(test, record);
					await test.idle();
				}
				expect(test.executions).toHaveLength(2);
				expect(test.store.staticData).toEqual({});
			},
			{ mode: 'manual' },
		);
		// The production URL, in the same process: the first delivery starts the workflow.
		await notify(bench.server, record);
		await notify(bench.server, record);
		await settled();
		expect(startedFor(bench.server)).toEqual([record.paymentId]);
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
	// Each request reads the store as it starts and saves after its re-check's answer. Where a test needs every read
	// before any save, the proxy holds the re-checks until all are out, however busy the machine (a slow sandbox did
	// not make sure of it under load).
	let proxy: CountingProxy;
	beforeAll(async () => {
		proxy = await startCountingProxy(bench.sandbox.url);
	});
	afterAll(async () => await proxy.close());
	/** A process on `store` that reaches the gateway through the proxy. */
	const throughProxy = (store: StaticDataStore): Partial<WebhookServerOptions> => ({
		nodeType: triggerOfAnotherProcess(),
		store,
		credentials: sandboxCredentials(bench.sandbox, { baseUrl: proxy.url + new URL(bench.sandbox.baseUrl).pathname, checkoutBaseUrl: proxy.url }),
	});

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

	it('a process keeps what it read in another’s save, though a later save overwrote it in the store', async () => {
		const store: StaticDataStore = { staticData: {} };
		const [slow, first, second] = await Promise.all([paid(), paid(), paid()]);
		await bench.withServer(
			{},
			async (a) => {
				await bench.withServer(
					{},
					async (b) => {
						// b's first request reads the empty store, then its re-check is held while the others are handled.
						const slowRecheck = proxy.holdMatching(slow.paymentId);
						const slowAnswer = notify(b, slow);
						await slowRecheck.arrived;
						await notify(a, first);
						await a.idle();
						expect(inStore(store, [first])).toEqual([first.paymentId]);
						// b reads a's save with this one.
						await notify(b, second);
						await b.waitForExecutions(1);
						expect(inStore(store, [first, second])).toEqual([first.paymentId, second.paymentId]);
						// The slow request saves last: it read the empty store, and still carries what b read since.
						slowRecheck.release();
						await slowAnswer;
						await b.idle();
						expect(b.executions).toHaveLength(2);
						expect(inStore(store, [slow, first, second])).toEqual([slow, first, second].map((r) => r.paymentId));
					},
					throughProxy(store),
				);
			},
			throughProxy(store),
		);
		// Both processes gone: a new one finds the three in the store.
		await bench.withServer(
			{},
			async (c) => {
				await allAtOnce(c, [slow, first, second]);
				await c.idle();
				expect(c.executions).toHaveLength(0);
			},
			throughProxy(store),
		);
	});

	describe('two processes, ten different notifications each at once (every request reads the store before any saves)', () => {
		/** Runs the ten and ten at once; the store then holds only the last saver's ten. */
		async function tenEachAtOnce(a: WebhookServer, b: WebhookServer, records: StatusRecord[]) {
			const [ofA, ofB] = [records.slice(0, 10), records.slice(10)];
			proxy.resetCount();
			proxy.holdUntilInFlight(20);
			await Promise.all([allAtOnce(a, ofA), allAtOnce(b, ofB)]);
			await Promise.all([a.idle(), b.idle()]);
			expect([a.executions.length, b.executions.length]).toEqual([10, 10]);
			const lastSaverIsA = inStore(store(a), ofA).length === 10;
			expect(inStore(store(a), lastSaverIsA ? ofB : ofA)).toEqual([]);
			a.reset();
			b.reset();
			return lastSaverIsA
				? { last: a, other: b, ofLast: ofA, ofOther: ofB }
				: { last: b, other: a, ofLast: ofB, ofOther: ofA };
		}
		const store = (server: WebhookServer) => server.store;

		it('each repeat sent to the other process, one after another: the other process saves next, and none starts again', async () => {
			const shared: StaticDataStore = { staticData: {} };
			const records = await Promise.all(Array.from({ length: 20 }, async () => await paid()));
			await bench.withServer(
				{},
				async (a) => {
					await bench.withServer(
						{},
						async (b) => {
							const { last, other, ofLast, ofOther } = await tenEachAtOnce(a, b, records);
							// The one that did not save last reads the last saver's ten, and its save carries all twenty.
							for (const record of ofLast) {
								await notify(other, record);
								await other.idle();
							}
							expect(inStore(shared, records)).toHaveLength(20);
							for (const record of ofOther) {
								await notify(last, record);
								await last.idle();
							}
							expect([last.executions.length, other.executions.length]).toEqual([0, 0]);
						},
						throughProxy(shared),
					);
				},
				throughProxy(shared),
			);
		});

		/** The two processes on `shared`; `then` runs before both go. */
		async function twoProcesses(shared: StaticDataStore, records: StatusRecord[], then: (other: WebhookServer) => Promise<void>) {
			let ofOther: StatusRecord[] = [];
			await bench.withServer(
				{},
				async (a) => {
					await bench.withServer(
						{},
						async (b) => {
							const run = await tenEachAtOnce(a, b, records);
							ofOther = run.ofOther;
							await then(run.other);
						},
						throughProxy(shared),
					);
				},
				throughProxy(shared),
			);
			return ofOther;
		}
		async function atANewProcess(shared: StaticDataStore, records: StatusRecord[]) {
			let started: unknown[] = [];
			await bench.withServer(
				{},
				async (c) => {
					await allAtOnce(c, records);
					await c.idle();
					started = startedFor(c);
				},
				{ nodeType: triggerOfAnotherProcess(), store: shared },
			);
			return started;
		}

		it('both restart after the other process saved again (any confirmed notification): none starts again', async () => {
			const shared: StaticDataStore = { staticData: {} };
			const records = await Promise.all(Array.from({ length: 21 }, async () => await paid()));
			await twoProcesses(shared, records.slice(0, 20), async (other) => {
				await notify(other, records[20]);
				await other.idle();
				expect(inStore(shared, records)).toHaveLength(21);
			});
			expect(await atANewProcess(shared, records)).toEqual([]);
		});

		it('both restart before the other process saved again: its ten start again (measured, documented)', async () => {
			const shared: StaticDataStore = { staticData: {} };
			const records = await Promise.all(Array.from({ length: 20 }, async () => await paid()));
			const ofOther = await twoProcesses(shared, records, async () => {});
			const started = await atANewProcess(shared, records);
			expect(new Set(started)).toEqual(new Set(ofOther.map((record) => record.paymentId)));
		});
	});

	it('identical deliveries at the very same moment to two processes: one execution each (measured, documented)', async () => {
		const store: StaticDataStore = { staticData: {} };
		const record = await paid();
		// One re-check per process (a process's identical deliveries share one): both read the store before either saves.
		proxy.resetCount();
		proxy.holdUntilInFlight(2);
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
						await notify(a, record);
						await notify(b, record);
						await Promise.all([a.idle(), b.idle()]);
						expect([a.executions.length, b.executions.length]).toEqual([1, 1]);
					},
					throughProxy(store),
				);
			},
			throughProxy(store),
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
	/** A field of the static data as n8n saves it (JSON): the store holds a view of the process's memory until then. */
	const savedField = (staticData: IDataObject, field: string) => (JSON.parse(JSON.stringify(staticData)) as IDataObject)[field];

	it(`keeps the newest ${REMEMBERED} handled notifications, 17 characters each, in one string`, () => {
		const saved = { data: {} as IDataObject };
		const scope = `bounded-${Date.now()}`;
		const keys = Array.from({ length: REMEMBERED + 50 }, (_, index) => repeatKey(`PAY${index}`, 'success'));
		for (const key of keys) {
			const { repeats, staticData } = requestOn(saved, scope);
			expect(repeats.has(key)).toBe(false);
			repeats.remember(key, 'paid');
			repeats.save();
			// Saved only when it changed, as n8n does.
			saved.data = staticData;
			if (key === keys[10]) break;
		}
		// The rest in one request: the same process learning them one after another.
		const { repeats, staticData } = requestOn(saved, scope);
		for (const key of keys.slice(11)) repeats.remember(key, 'paid');
		repeats.save();
		const stored = savedField(staticData, 'handledNotifications') as string;
		expect(typeof stored).toBe('string');
		expect(stored.length).toBe(REMEMBERED * 17);

		// Another process sees exactly the newest REMEMBERED in the store.
		const other = requestOn({ data: staticData }, `other-${Date.now()}`).repeats;
		const seen = keys.map((key) => other.has(key));
		expect(seen.slice(0, 50).filter(Boolean)).toHaveLength(0);
		expect(seen.slice(50).every(Boolean)).toBe(true);
	});

	it(`${REMEMBERED} declined or pending payments, which cost nothing, push no paid one out: not from the store, not from memory`, () => {
		const scope = `flood-${Date.now()}`;
		let saved = { data: {} as IDataObject };
		const handle = (keys: string[], kind: 'paid' | 'unpaid') => {
			const { repeats, staticData } = requestOn(saved, scope);
			for (const key of keys) {
				expect(repeats.has(key)).toBe(false);
				repeats.remember(key, kind);
			}
			repeats.save();
			saved = { data: staticData };
		};
		handle([repeatKey('PAY-PAID', 'success')], 'paid');
		handle([repeatKey('PAY-REFUNDED', 'refunded', 'RFD1')], 'paid');
		const declined = Array.from({ length: REMEMBERED + 10 }, (_, index) => repeatKey(`PAY-DECLINED-${index}`, 'failure'));
		for (let at = 0; at < declined.length; at += 500) handle(declined.slice(at, at + 500), 'unpaid');
		expect(String(savedField(saved.data, 'handledUnpaidNotifications'))).toHaveLength(REMEMBERED * 17);
		expect(String(savedField(saved.data, 'handledNotifications'))).toHaveLength(2 * 17);
		for (const view of [requestOn(saved, scope).repeats, requestOn(saved, `restarted-${Date.now()}`).repeats]) {
			expect(view.has(repeatKey('PAY-PAID', 'success'))).toBe(true);
			expect(view.has(repeatKey('PAY-REFUNDED', 'refunded', 'RFD1'))).toBe(true);
			expect(view.has(repeatKey('PAY-DECLINED-0', 'failure'))).toBe(false);
			expect(view.has(repeatKey(`PAY-DECLINED-${REMEMBERED + 9}`, 'failure'))).toBe(true);
		}
	});

	it('a new notification at a full store is appended, the oldest dropped: nothing else is rewritten', () => {
		const scope = `append-${Date.now()}`;
		const full = requestOn({ data: {} }, scope);
		for (let index = 0; index < REMEMBERED; index++) full.repeats.remember(repeatKey(`PAY${index}`, 'success'), 'paid');
		full.repeats.save();
		const before = savedField(full.staticData, 'handledNotifications') as string;
		const next = requestOn({ data: full.staticData }, scope);
		next.repeats.remember(repeatKey('PAY-NEW', 'success'), 'paid');
		next.repeats.save();
		const after = savedField(next.staticData, 'handledNotifications') as string;
		expect(after).toHaveLength(before.length);
		expect(after.startsWith(before.slice(17))).toBe(true);
		expect(after.slice(-17, -6)).toBe(repeatKey('PAY-NEW', 'success'));
	});

	it('another confirmed state of the same payment (a refunded total the record gives) has a key of its own', () => {
		expect(repeatKey('PAY1', 'partially_refunded', 'refundedAmount=1')).not.toBe(repeatKey('PAY1', 'partially_refunded', 'refundedAmount=2'));
		expect(repeatKey('PAY1', 'partially_refunded', 'refundedAmount=1')).not.toBe(repeatKey('PAY1', 'partially_refunded'));
	});

	it('a request that learns nothing new changes nothing, so n8n saves nothing', () => {
		const scope = `unchanged-${Date.now()}`;
		const first = requestOn({ data: {} }, scope);
		first.repeats.remember(repeatKey('PAY1', 'success'), 'paid');
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
			repeats.remember(repeatKey('PAY1', 'success'), 'paid');
			repeats.save();
			expect(String(savedField(staticData, 'handledNotifications'))).toHaveLength(17);
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
