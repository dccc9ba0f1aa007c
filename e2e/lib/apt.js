'use strict';

// Debian packages a check needs (Chromium, Redis, PostgreSQL), installed when missing: as root, or through sudo.

const { mustRun } = require('./processes');

let updated;

/** `apt-get update` (once per process), then `apt-get install -y <packages>`; waits for another apt to finish. */
async function aptInstall(what, packages, { log = console.log } = {}) {
	const apt = (label, args) =>
		process.getuid?.() === 0
			? mustRun(label, 'apt-get', args, { log, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
			: mustRun(label, 'sudo', ['DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args], { log });
	const lockWait = ['-o', 'DPkg::Lock::Timeout=600'];
	await (updated ??= apt('apt-get update', [...lockWait, 'update', '-qq']));
	await apt(`installed ${what} (apt-get install ${packages.join(' ')})`, [...lockWait, 'install', '-y', '-qq', ...packages]);
}

module.exports = { aptInstall };
