'use strict';

// The processes a command started and the ports they listen on, read from /proc (Linux), so that a check can tell that
// stopping the command left nothing behind. Taken while the command runs: once a parent is gone, its children are
// adopted by another process and can no longer be told apart.

const fs = require('node:fs');

function read(file) {
	try {
		return fs.readFileSync(file, 'utf8');
	} catch {
		return undefined;
	}
}

/** The fields of /proc/<pid>/stat after the command name, which may itself hold spaces and parentheses. */
function statFields(pid) {
	const stat = read(`/proc/${pid}/stat`);
	return stat && stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Every process: its parent, and its start time (clock ticks since boot), which tells a reused pid apart. */
function allProcesses() {
	const list = [];
	for (const name of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		const fields = statFields(name);
		if (fields) list.push({ pid: Number(name), ppid: Number(fields[1]), start: fields[19] });
	}
	return list;
}

/** `rootPid` and all its descendants, each with the command it runs. */
function processTree(rootPid) {
	const all = allProcesses();
	const found = [];
	const queue = [rootPid];
	while (queue.length > 0) {
		const pid = queue.shift();
		const entry = all.find((candidate) => candidate.pid === pid);
		if (!entry) continue;
		found.push({ ...entry, command: (read(`/proc/${pid}/cmdline`) ?? '').split('\0').join(' ').trim() });
		for (const child of all) if (child.ppid === pid) queue.push(child.pid);
	}
	return found;
}

/** Those of `processes` that still run: same pid, same start time, not a zombie waiting to be reaped. */
function stillRunning(processes) {
	return processes.filter(({ pid, start }) => {
		const fields = statFields(pid);
		return fields !== undefined && fields[19] === start && fields[0] !== 'Z';
	});
}

/** Every listening TCP socket of this network namespace: { port, inode }. */
function listeningSockets() {
	const sockets = [];
	for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
		for (const line of (read(file) ?? '').split('\n').slice(1)) {
			const columns = line.trim().split(/\s+/);
			// State 0A is LISTEN.
			if (columns.length > 9 && columns[3] === '0A') {
				sockets.push({ port: parseInt(columns[1].split(':')[1], 16), inode: columns[9] });
			}
		}
	}
	return sockets;
}

/** The TCP ports the processes listen on. */
function listeningPorts(processes) {
	const inodes = new Set();
	for (const { pid } of processes) {
		let descriptors = [];
		try {
			descriptors = fs.readdirSync(`/proc/${pid}/fd`);
		} catch {
			continue;
		}
		for (const descriptor of descriptors) {
			let target = '';
			try {
				target = fs.readlinkSync(`/proc/${pid}/fd/${descriptor}`);
			} catch {
				continue;
			}
			const socket = /^socket:\[(\d+)\]$/.exec(target);
			if (socket) inodes.add(socket[1]);
		}
	}
	return [...new Set(listeningSockets().filter(({ inode }) => inodes.has(inode)).map(({ port }) => port))].sort((a, b) => a - b);
}

/** Whether anything listens on `port` now. */
const isListening = (port) => listeningSockets().some((socket) => socket.port === port);

module.exports = { processTree, stillRunning, listeningPorts, isListening };
