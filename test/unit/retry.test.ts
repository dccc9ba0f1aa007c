import { retryDelayMs } from '../../nodes/PaymentGateway/transport/retry';

// The wait before a read is sent again, exactly: the engine tests measure only that a retry waited at least this
// long, since how much longer it took depends on how busy the machine is.

describe('retryDelayMs', () => {
	it('waits as many seconds as Retry-After asks', () => {
		expect(retryDelayMs(0, '1')).toBe(1000);
		expect(retryDelayMs(3, '2.5')).toBe(2500);
		expect(retryDelayMs(0, ['3'])).toBe(3000);
		expect(retryDelayMs(0, '0')).toBe(0);
	});

	it('waits until a Retry-After date, not less than nothing', () => {
		const now = Date.UTC(2026, 0, 1, 12, 0, 0);
		jest.useFakeTimers({ now });
		try {
			expect(retryDelayMs(0, new Date(now + 4000).toUTCString())).toBe(4000);
			expect(retryDelayMs(0, new Date(now - 4000).toUTCString())).toBe(0);
		} finally {
			jest.useRealTimers();
		}
	});

	it('without a usable Retry-After, doubles from half a second', () => {
		for (const header of [undefined, '', '  ', 'soon', null, 5]) {
			expect([0, 1, 2, 3].map((attempt) => retryDelayMs(attempt, header))).toEqual([500, 1000, 2000, 4000]);
		}
	});

	it('never waits more than a minute', () => {
		expect(retryDelayMs(0, '3600')).toBe(60_000);
		expect(retryDelayMs(20, undefined)).toBe(60_000);
	});
});
