/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { setTimeout as sleep } from 'node:timers/promises';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

import { deadlineClock } from '../../nodes/PaymentGateway/transport/deadline';

// Attempts that start close together share one timer. What must hold: no attempt is given up before its whole
// time-out. Timers never fire early by more than the event loop's cached clock lags (a few ms here), so only that
// bound is asserted, with 10 ms allowed for it; how late a deadline passes depends on the machine's load.
const LAG_MS = 10;

function passing(deadline: { watch(onPassed: () => void): () => void }): Promise<number> {
	return new Promise((resolve) => deadline.watch(() => resolve(performance.now())));
}

describe('deadlineClock', () => {
	it('gives attempts started within the slack the same deadline, and a later attempt its own', async () => {
		const deadlineIn = deadlineClock();
		const first = deadlineIn(5000);
		expect(deadlineIn(5000)).toBe(first);
		expect(deadlineIn(4000)).not.toBe(first);
		// The slack of a 5 s time-out is 100 ms.
		await sleep(150);
		expect(deadlineIn(5000)).not.toBe(first);
	});

	it('never passes before the whole time-out of the last attempt that shares it', async () => {
		const deadlineIn = deadlineClock();
		const firstStarted = performance.now();
		const first = deadlineIn(2000);
		// 30 ms later, within the 40 ms slack: it shares the first attempt's timer, which must wait for it too.
		const until = Date.now() + 30;
		while (Date.now() < until);
		const secondStarted = performance.now();
		const second = deadlineIn(2000);
		const [firstPassed, secondPassed] = await Promise.all([passing(first), passing(second)]);
		expect(first.passed && second.passed).toBe(true);
		expect(firstPassed - firstStarted).toBeGreaterThanOrEqual(2000 - LAG_MS);
		expect(secondPassed - secondStarted).toBeGreaterThanOrEqual(2000 - LAG_MS);
	});

	it('calls a watcher at once when the deadline has passed, and not at all once it stopped watching', async () => {
		const deadlineIn = deadlineClock();
		const deadline = deadlineIn(50);
		const stopped = jest.fn();
		deadline.watch(stopped)();
		await passing(deadline);
		expect(stopped).not.toHaveBeenCalled();
		const late = jest.fn();
		deadline.watch(late);
		expect(late).toHaveBeenCalledTimes(1);
	});

	it('is not fooled by the wall clock going back: a later attempt still gets a deadline of its own', async () => {
		const deadlineIn = deadlineClock();
		const first = deadlineIn(5000);
		await sleep(150);
		const now = Date.now();
		const clockSetBack = jest.spyOn(Date, 'now').mockReturnValue(now - 60_000);
		try {
			expect(deadlineIn(5000)).not.toBe(first);
		} finally {
			clockSetBack.mockRestore();
		}
	});

	it('keeps nothing in memory once its attempts are over, though its time-out has long to run', async () => {
		v8.setFlagsFromString('--expose_gc');
		const gc = vm.runInNewContext('gc') as () => void;
		const deadlines = (() => {
			const deadlineIn = deadlineClock();
			return Array.from({ length: 20 }, (_, index) => {
				// A time-out of its own for each: each gets its own timer, watched and let go as an attempt does.
				const deadline = deadlineIn(3_600_000 + index);
				deadline.watch(() => undefined)();
				return new WeakRef(deadline);
			});
		})();
		for (let round = 0; round < 5 && deadlines.some((ref) => ref.deref()); round++) {
			await sleep(20);
			gc();
		}
		expect(deadlines.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
	});
});
