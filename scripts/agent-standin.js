'use strict';

// `npm run agent:standin`: the stand-in model that `npm run e2e:agent` uses (e2e/agent/model.js), on a fixed local
// port, so that examples/support-agent.json can be tried without an OpenAI key. It is no language model: it answers
// n8n's OpenAI Chat Model node (Chat Completions, Responses API off) by reading two sentences, and stops on Ctrl+C or
// SIGTERM. Nothing leaves the machine.

const { startModel, UNDERSTOOD } = require('../e2e/agent/model');

const PORT = Number(process.env.AGENT_STANDIN_PORT || 8788);

async function main() {
	let model;
	try {
		model = await startModel({ port: PORT });
	} catch (error) {
		console.error(`agent:standin: cannot listen on 127.0.0.1:${PORT} (${error.code ?? error.message}); set AGENT_STANDIN_PORT to another port`);
		process.exit(1);
	}
	console.log(`
The stand-in model answers on ${model.url}
In n8n's OpenAI credential (the one support-agent.json's OpenAI Chat Model uses):
  API Key    anything, e.g. stand-in
  Base URL   ${model.url}
Keep the OpenAI Chat Model's "Use Responses API" off (support-agent.json has it off).
It understands, in a chat message:
${UNDERSTOOD.map((rule) => `  ${rule.example}`).join('\n')}
and answers with what the tool gave back. Anything else gets the list above. Ctrl+C stops it.
`);
	let seen = 0;
	// One line per request, so that a user sees n8n reach it.
	const timer = setInterval(() => {
		for (const request of model.requests.slice(seen)) console.log(`agent:standin: ${request.method} ${request.path}`);
		seen = model.requests.length;
	}, 500);
	const stop = async () => {
		clearInterval(timer);
		await model.close();
		process.exit(0);
	};
	for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, stop);
}

main();
