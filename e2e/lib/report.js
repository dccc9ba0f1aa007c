'use strict';

// PASS/FAIL lines of a check, counted: `check` records a result and goes on, `must` stops the check when a step the
// rest depends on failed (the check's main catches StepFailed), `timed` prints how long a step took.

const { seconds } = require('./processes');

class StepFailed extends Error {}

function createReport() {
	const report = {
		started: Date.now(),
		passes: 0,
		failures: 0,
		pass(message) {
			report.passes++;
			console.log(`PASS ${message}`);
		},
		fail(message) {
			report.failures++;
			console.log(`FAIL ${message}`);
		},
		check(condition, message, detail = '') {
			if (condition) report.pass(message);
			else report.fail(detail ? `${message} (${detail})` : message);
			return condition;
		},
		must(condition, message, detail) {
			if (!report.check(condition, message, detail)) throw new StepFailed(message);
		},
		async timed(label, action) {
			const from = Date.now();
			const result = await action();
			console.log(`  ${label}: ${seconds(from)}`);
			return result;
		},
		/** The closing line; resolves to the exit code. */
		summary(name) {
			const ok = report.failures === 0;
			console.log(
				`${ok ? 'PASS' : 'FAIL'} ${name}: ${report.passes} passed, ${report.failures} failed (${seconds(report.started)})`,
			);
			return ok ? 0 : 1;
		},
	};
	return report;
}

module.exports = { createReport, StepFailed };
