'use strict';

// The Payment Gateway node's own CPU time on one run through n8n's engine, measured in a process of its own, where no
// other test, sandbox or collector of a jest worker runs beside it: only the node's execute() is timed, not the engine
// around it. The parent sends the run's options and how to build its input (`items`: what each item is made of, built
// here so that megabytes need not cross the process boundary); this process runs once to warm up, then once measured,
// and answers with the CPU milliseconds of the measured execute() and the run's error.

require('./load-ts');

const { PaymentGatewayApi } = require('../../credentials/PaymentGatewayApi.credentials.ts');
const { PaymentGateway } = require('../../nodes/PaymentGateway/PaymentGateway.node.ts');
const { runWorkflow } = require('./engine');

/** Input items: `{ fields, text }` makes `fields` plus one text field of `text.bytes`; `{ fields, many, size }` adds `many` fields of `size` characters. */
function itemsOf(spec) {
	return spec.map(({ fields, text, many, size = 1 }) => {
		const item = { ...fields };
		if (text) item[text.name] = 'x'.repeat(text.bytes);
		if (many) for (let index = 0; index < many; index++) item[`f${index}`] = 'v'.repeat(size);
		return item;
	});
}

let cpuMs = 0;
const node = new PaymentGateway();
const timed = {
	description: node.description,
	methods: node.methods,
	async execute() {
		const started = process.cpuUsage();
		try {
			return await node.execute.call(this);
		} finally {
			const used = process.cpuUsage(started);
			cpuMs = (used.user + used.system) / 1000;
		}
	},
};

process.on('message', async ({ options, items }) => {
	const run = async () => await runWorkflow({ nodeType: timed, credentialType: PaymentGatewayApi, ...options, items: itemsOf(items) });
	await run();
	const result = await run();
	process.send({ cpuMs, error: result.error && { message: result.error.message } });
	process.disconnect();
});
