'use strict';

const { fork } = require('node:child_process');
const path = require('node:path');

/** Peaks of one run over `orderIds` in a fresh process (see memory-child.js for `gcEveryMs` and `floor`). */
function measureMemory(sandbox, orderIds, concurrency, { gcEveryMs, floor } = {}) {
	return new Promise((resolve, reject) => {
		const child = fork(path.join(__dirname, 'memory-child.js'), [], { execArgv: ['--expose-gc'] });
		let answer;
		child.once('message', (message) => {
			answer = message;
		});
		child.once('error', reject);
		child.once('exit', (code) => (answer ? resolve(answer) : reject(new Error(`the memory run exited with ${code}`))));
		const { credentials, checkoutBaseUrl } = sandbox;
		child.send({ credentials, checkoutBaseUrl, orderIds, concurrency, gcEveryMs, floor });
	});
}

module.exports = { measureMemory };
