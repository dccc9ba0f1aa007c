'use strict';

const { fork } = require('node:child_process');
const path = require('node:path');

/** Peaks of one run over `orderIds` in a fresh process (see memory-child.js for `gcEveryMs`). */
function measureMemory(sandbox, orderIds, concurrency, gcEveryMs) {
	return new Promise((resolve, reject) => {
		const child = fork(path.join(__dirname, 'memory-child.js'), [], { execArgv: ['--expose-gc'] });
		let answer;
		child.once('message', (message) => {
			answer = message;
		});
		child.once('error', reject);
		child.once('exit', (code) => (answer ? resolve(answer) : reject(new Error(`the memory run exited with ${code}`))));
		child.send({ credentials: sandbox.credentials, orderIds, concurrency, gcEveryMs });
	});
}

module.exports = { measureMemory };
