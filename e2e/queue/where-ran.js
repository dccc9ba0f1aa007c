'use strict';

// Which worker ran which execution, from the processes' own logs. The execution record names no worker, and the
// worker id n8n reports is the same for every worker in a container, so: each worker's log says "Worker started
// execution <id> (job <job>)", and the process that put it on the queue says "Enqueued execution <id> (job <job>)".

const fs = require('node:fs');
const path = require('node:path');

const { parseJson } = require('../lib/processes');

const ENQUEUED = /^Enqueued execution (\d+) \(job (\S+)\)/;
const STARTED = /^Worker started execution (\d+) \(job (\S+)\)/;
const FINISHED = /^Execution \d+ \(job \S+\) finished/;

/** The entries of one n8n log file (JSON lines, N8N_LOG_FORMAT=json); a line that is not JSON gives undefined. */
const entries = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n') : []).map(parseJson);

/** [{ executionId, job }] of the messages matching `pattern` in one n8n log file. */
const logged = (file, pattern) =>
	entries(file).map((entry) => pattern.exec(String(entry?.message ?? ''))).filter(Boolean).map(([, executionId, job]) => ({ executionId, job }));

/**
 * The executions that kept the process of `role` from stopping, split into those n8n lost and the rest. n8n's queue
 * (Bull, completed jobs removed) loses the end of an execution whose worker finishes the job before the enqueuing
 * process starts waiting for it: that process logs "Execution <id> (job <job>) finished" and still waits for it at
 * shutdown until it is killed (n8n's debug lines: "Execution added", "Execution removed"). Only those are n8n's; any
 * other execution still active is a real hang.
 */
function heldAtStop(logDir, role) {
	const lines = entries(path.join(logDir, `n8n-${role}.log`));
	const idsOf = (matches) => new Set(lines.filter((line) => matches(String(line?.message ?? ''))).map((line) => String(line.metadata?.executionId)));
	const removed = idsOf((message) => message === 'Execution removed');
	const active = [...idsOf((message) => message === 'Execution added')].filter((id) => !removed.has(id));
	const finished = idsOf((message) => FINISHED.test(message));
	return { lostByN8n: active.filter((id) => finished.has(id)), others: active.filter((id) => !finished.has(id)) };
}

/**
 * Where each of `executionIds` ran: { byWorker: { role: [ids] }, problems: [text] }. A problem is an execution not
 * enqueued exactly once, not started by exactly one worker, or started under another job than it was enqueued as.
 *
 * @param {string} logDir  n8n's log directory (n8n-<role>.log)
 * @param {string[]} workers  worker roles, e.g. ['worker-1', 'worker-2']
 */
function whereRan(logDir, executionIds, { workers }) {
	const file = (role) => path.join(logDir, `n8n-${role}.log`);
	// The webhook processor and main put executions on the queue.
	const enqueued = ['webhook', 'main'].flatMap((role) => logged(file(role), ENQUEUED));
	const started = workers.flatMap((role) => logged(file(role), STARTED).map((entry) => ({ ...entry, role })));
	const byWorker = Object.fromEntries(workers.map((role) => [role, []]));
	const problems = [];
	for (const id of executionIds.map(String)) {
		const queued = enqueued.filter((entry) => entry.executionId === id);
		const ran = started.filter((entry) => entry.executionId === id);
		if (queued.length !== 1) problems.push(`execution ${id} enqueued ${queued.length} times`);
		if (ran.length !== 1) problems.push(`execution ${id} started by ${ran.length} workers`);
		if (queued.length === 1 && ran.length === 1 && queued[0].job !== ran[0].job) {
			problems.push(`execution ${id} enqueued as job ${queued[0].job} but started as job ${ran[0].job}`);
		}
		for (const entry of ran) byWorker[entry.role].push(id);
	}
	return { byWorker, problems };
}

module.exports = { heldAtStop, whereRan };
