import { KEEP_MS, PaceMemory, paceKey } from '../../nodes/PaymentGateway/transport/paceMemory';

// The memory of paces on its own, on a clock the test moves: its bound, its day, its keys.

const pace = (limit: number, confirms = true) => ({ limit, slowStart: false, refusedAt: Infinity, probeInMs: 0, confirms });

describe('PaceMemory', () => {
	it('keeps at most its bound, dropping the least recently kept', () => {
		const memory = new PaceMemory(3);
		for (const key of ['a', 'b', 'c']) memory.keep(key, pace(10));
		memory.keep('a', pace(11));
		memory.keep('d', pace(12));
		expect(memory.size).toBe(3);
		expect(memory.recall('b')).toBeUndefined();
		expect(memory.recall('a')).toEqual(pace(11));
		expect(memory.contents().map(([key]) => key)).toEqual(['c', 'a', 'd']);
	});

	it('forgets a pace a day and an hour after it was kept', () => {
		expect(KEEP_MS).toBe(25 * 60 * 60 * 1000);
		let now = 0;
		const memory = new PaceMemory(10, KEEP_MS, () => now);
		memory.keep('a', pace(10));
		now = KEEP_MS - 1;
		expect(memory.recall('a')).toEqual(pace(10));
		now = KEEP_MS;
		expect(memory.recall('a')).toBeUndefined();
		expect(memory.size).toBe(0);
	});

	it('a run that confirms the pace renews its day: a daily schedule finds it every day, also a little late', () => {
		let now = 0;
		const memory = new PaceMemory(10, KEEP_MS, () => now);
		const day = 24 * 60 * 60 * 1000;
		memory.keep('a', pace(100));
		// Thirty days of a run at 02:00 that starts up to half an hour late and ends ten minutes later.
		for (let run = 1; run <= 30; run++) {
			now = run * day + (run % 2) * 30 * 60 * 1000;
			expect(memory.recall('a')).toEqual(pace(100));
			now += 10 * 60 * 1000;
			memory.keep('a', pace(100));
		}
	});

	it('runs that cut it do not renew it: it is forgotten a day and an hour after it was last confirmed', () => {
		let now = 0;
		const memory = new PaceMemory(10, KEEP_MS, () => now);
		memory.keep('a', pace(40));
		// A rate window met by every run's first request, every hour: each run is cut, down to 1 and there held.
		for (let limit = 20, hour = 1; hour < 25; hour++, limit = Math.max(1, limit / 2)) {
			now = hour * 60 * 60 * 1000;
			memory.keep('a', pace(limit, false));
		}
		now = KEEP_MS - 1;
		expect(memory.recall('a')).toEqual(pace(1, false));
		now = KEEP_MS;
		expect(memory.recall('a')).toBeUndefined();
	});

	it('counts the wait before a refused level on between runs: what is left is what the time of day leaves', () => {
		let now = 0;
		const memory = new PaceMemory(10, KEEP_MS, () => now);
		memory.keep('a', { limit: 10, slowStart: false, refusedAt: 11, probeInMs: 20_000, confirms: true });
		now = 15_000;
		expect(memory.recall('a')).toMatchObject({ refusedAt: 11, probeInMs: 5_000 });
		now = 60_000;
		expect(memory.recall('a')).toMatchObject({ probeInMs: 0 });
	});

	it('keys a gateway and credential by a hash: another address, client id or credential is another key, no text of either in it', () => {
		const addresses = ['https://gw.example.com/api', 'https://pay.example.com'];
		const key = paceKey(addresses, 'client-1', 'cred-1');
		expect(key).toMatch(/^[0-9a-f]{32}$/);
		expect(paceKey(addresses, 'client-1', 'cred-1')).toBe(key);
		expect(paceKey(addresses, 'client-2', 'cred-1')).not.toBe(key);
		// Someone else's credential with the same client id neither shares nor cuts this one's pace.
		expect(paceKey(addresses, 'client-1', 'cred-2')).not.toBe(key);
		expect(paceKey(['https://gw2.example.com/api', 'https://pay.example.com'], 'client-1', 'cred-1')).not.toBe(key);
		expect(paceKey(['https://gw.example.com/api', 'https://pay2.example.com'], 'client-1', 'cred-1')).not.toBe(key);
	});
});
