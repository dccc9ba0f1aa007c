'use strict';

// The processes a command started and the ports they listen on, read from /proc (Linux), so that a check can tell
// that stopping the command left nothing behind. Taken while the command runs: once a parent is gone, its children
// are adopted by another process and can no longer be told apart.

const fs = require('node:fs');

const { attempt } = require('./processes');

const read = (file) => attempt(() => fs.readFileSync(file, 'utf8'));

/** The fields of /proc/<pid>/stat after the command name, which may itself hold spaces and parentheses. */
const statFields = (pid) => {
	const stat = read(`/proc/${pid}/stat`);
	return stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
};
const pids = () => fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
const commandOf = (pid) => (read(`/proc/${pid}/cmdline`) ?? '').split('\0').join(' ').trim();
// A process gone reads as a zombie: neither runs.
const alive = (pid) => (statFields(pid)?.[0] ?? 'Z') !== 'Z';

/** `rootPid` and all its descendants: pid, parent, start time (which tells a reused pid apart) and command. */
function processTree(rootPid) {
	const all = pids().map((pid) => ({ pid: Number(pid), fields: statFields(pid) })).filter((p) => p.fields);
	const found = [];
	for (const queue = [rootPid]; queue.length; ) {
		const pid = queue.shift();
		const entry = all.find((candidate) => candidate.pid === pid);
		if (!entry) continue;
		found.push({ pid, ppid: Number(entry.fields[1]), start: entry.fields[19], command: commandOf(pid) });
		queue.push(...all.filter((child) => Number(child.fields[1]) === pid).map((child) => child.pid));
	}
	return found;
}

/** Those of `processes` that still run: same pid, same start time, not a zombie waiting to be reaped. */
const stillRunning = (processes) => processes.filter(({ pid, start }) => statFields(pid)?.[19] === start && alive(pid));

/**
 * Every running process whose environment holds `name=value`, wherever it was re-parented to: what a command
 * started, also what it started after it was told to stop, is told by a variable given only to that command.
 */
const processesWithEnv = (name, value) =>
	pids()
		.filter((pid) => (read(`/proc/${pid}/environ`) ?? '').split('\0').includes(`${name}=${value}`) && alive(pid))
		.map((pid) => ({ pid: Number(pid), command: commandOf(pid) }));

/** Every listening TCP socket of this network namespace (state 0A): { port, inode }. */
const listeningSockets = () =>
	['/proc/net/tcp', '/proc/net/tcp6']
		.flatMap((file) => (read(file) ?? '').split('\n').slice(1).map((line) => line.trim().split(/\s+/)))
		.filter((columns) => columns.length > 9 && columns[3] === '0A')
		.map((columns) => ({ port: parseInt(columns[1].split(':')[1], 16), inode: columns[9] }));

/** The TCP ports the processes listen on. */
function listeningPorts(processes) {
	const sockets = ({ pid }) =>
		attempt(() => fs.readdirSync(`/proc/${pid}/fd`), []).map((fd) => /^socket:\[(\d+)\]$/.exec(attempt(() => fs.readlinkSync(`/proc/${pid}/fd/${fd}`), ''))?.[1]);
	const inodes = new Set(processes.flatMap(sockets));
	return [...new Set(listeningSockets().filter(({ inode }) => inodes.has(inode)).map(({ port }) => port))].sort((a, b) => a - b);
}

const isListening = (port) => listeningSockets().some((socket) => socket.port === port);

module.exports = { processTree, stillRunning, processesWithEnv, listeningPorts, isListening };
