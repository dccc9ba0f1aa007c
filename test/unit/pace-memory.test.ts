import { KEEP_MS, PaceMemory, paceKey } from '../../nodes/PaymentGateway/transport/paceMemory';

// The memory of paces on its own, on a clock the test moves: its bound, its day, its keys.

const pace = (limit: number) => ({ limit, slowStart: false, refusedAt: Infinity, probeInMs: 0 });

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

	it('forgets a pace a day after it was kept', () => {
		let now = 0;
		const memory = new PaceMemory(10, KEEP_MS, () => now);
		memory.keep('a', pace(10));
		now = KEEP_MS - 1;
		expect(memory.recall('a')).toEqual(pace(10));
		now = KEEP_MS;
		expect(memory.recall('a')).toBeUndefined();
		expect(memory.size).toBe(0);
	});

	it('forgets a pace a day after it was first learned, however often runs kept it since', () => {
		let now = 0;
		const memory = new PaceMemory(10, KEEP_MS, () => now);
		for (now = 0; now < KEEP_MS; now += KEEP_MS / 24) memory.keep('a', pace(1));
		now = KEEP_MS - 1;
		expect(memory.recall('a')).toEqual(pace(1));
		now = KEEP_MS;
		expect(memory.recall('a')).toBeUndefined();
	});

	it('counts the wait before a refused level on between runs: what is left is what the time of day leaves', () => {
		let now = 0;
		const memory = new PaceMemory(10, KEEP_MS, () => now);
		memory.keep('a', { limit: 10, slowStart: false, refusedAt: 11, probeInMs: 20_000 });
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
