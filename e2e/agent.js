'use strict';

// The AI Agent check: the package's tool nodes (n8n-nodes-payment-gateway.paymentGatewayTool) used by n8n's own AI
// Agent in a real n8n, its OpenAI Chat Model pointed at a local stand-in model (agent/model.js) that scripts which
// tool to call with which arguments. `npm run e2e:agent`.
//
// Installs the packed package into a fresh user folder (.e2e/agent/user), starts the sandbox and the stand-in,
// imports the credentials and examples/support-agent.json (n8n import:workflow, as users do), starts n8n, creates
// and publishes the check's workflows over REST, then:
//   (a) a status read through the agent; (b) refunds above the limit, at the default limit 0 and under it;
//   (c) a card payment asked by the model; (d) the example, human review answered in the chat;
//   (e) the sandbox's requests from every refused call; (f) the leak search over what n8n stored and logged and over
//   everything the stand-in received.
// Prints PASS/FAIL lines; exits non-zero on any failure.
//
// Environment: E2E_SKIP_INSTALL=1 and E2E_SKIP_BUILD=1 as for npm run e2e.

const fs = require('node:fs');
const path = require('node:path');

const { startSandbox } = require('../sandbox/gateway');
const { supportAgent } = require('./agent/example');
const { startModel } = require('./agent/model');
const { modelRequestTexts, TOOL_CALL_ARGUMENTS } = require('./agent/stored');
const { cardPayment, refunds, statusRead } = require('./agent/tools');
const { CHAT_TRIGGER, CREDENTIALS, WORKFLOWS } = require('./agent/workflows');
const { EXAMPLES_DIR } = require('./lib/examples');
const { findLeaks, printLeaks, searchTexts, secretsToFind } = require('./lib/leaks');
const { createN8n } = require('./lib/n8n');
const { paths, preparePackage } = require('./lib/package');
const { onCleanUp, runCheck } = require('./lib/processes');
const { createReport, StepFailed } = require('./lib/report');
const { RestSession } = require('./lib/rest');

const USER_FOLDER = path.join(paths.ROOT, '.e2e', 'agent', 'user');
const EXAMPLE_FILE = path.join(EXAMPLES_DIR, 'support-agent.json');
/** The card the stand-in model gives in (c): the sandbox's approved test card, an expiry and CVV nothing else uses. */
const CARD = {
	given: 'by the stand-in model in (c)',
	cardNumber: '4111111111111111',
	cardExpMonth: '11',
	cardExpYear: '31',
	cardCVV: '987',
};

const report = createReport();
const log = (message) => console.log(`agent: ${message}`);

/** The check's workflows created over REST and published; resolves with their chat URLs, and keeps what was stored. */
async function deploy(t, stored) {
	for (const [key, workflow] of Object.entries(WORKFLOWS)) {
		const created = await t.session.createWorkflow(workflow);
		stored.push({ ...workflow, id: created.id });
		await t.session.activateWorkflow(created.id);
		t.urls[key] = t.server.webhookUrl(`${workflow.nodes.find((node) => node.type === CHAT_TRIGGER).webhookId}/chat`);
		await t.session.waitForWebhook(t.urls[key]);
	}
	report.pass(`the check's agent workflows created and published over REST; their chats answer (${Object.values(t.urls).join(', ')})`);
}

/** (e): every refused call, with what reached the sandbox meanwhile. */
function checkRefusedCalls(t) {
	console.log('\n(e) the sandbox\'s request log during each refused tool call');
	for (const { label, requests } of t.refused) console.log(`  ${label}: ${requests} requests`);
	report.check(
		t.refused.length === 5 && t.refused.every(({ requests }) => requests === 0),
		`0 requests at the sandbox from each of the ${t.refused.length} refused tool calls`,
		t.refused.map(({ label, requests }) => `${label}: ${requests}`).join('; '),
	);
}

/** (f): the leak search over n8n's database, logs and files, and over everything the stand-in model received. */
async function checkLeaks(t, stored) {
	console.log('\n(f) leaks: secrets and card data in what n8n stored (database, logs, files in .n8n) and what the model received');
	const result = await findLeaks(t.n8n, { secrets: t.secrets, workflows: stored, allowedIn: TOOL_CALL_ARGUMENTS });
	report.check(printLeaks(result), `leaks in n8n: ${t.secrets.length} secrets searched for`);
	const card = `card number ending ${CARD.cardNumber.slice(-4)}`;
	const kept = [...new Set(result.allowedElsewhere.filter((hit) => hit.what === card).map((hit) => hit.where))];
	console.log(
		`NOTE the card number the model gave in (c) is kept by n8n in ${kept.join(' and ') || 'no place'}, only where it ` +
			"keeps a model's tool-call arguments (execution data: the tool node's input, the agent's tool request, the chat " +
			"model's conversation; event log: the conversation of n8n.ai.llm.generated): n8n's doing, whatever the tool " +
			'does; the node refused the call and sent nothing',
	);

	const { texts, echoed } = modelRequestTexts(t.model.requests);
	const hits = searchTexts(texts, t.secrets);
	for (const hit of hits) console.log(`  LEAK ${hit.where} (${hit.row}): ${hit.what}`);
	report.check(
		texts.length > 0 && hits.length === 0,
		`leaks in what the stand-in model received: none in ${texts.length} requests (tool definitions, prompts, tool messages)`,
	);
	const own = searchTexts(echoed, t.secrets);
	console.log(
		`NOTE ${new Set(own.map((hit) => hit.row)).size} of its requests carry back what it gave itself as tool-call ` +
			`arguments in (c) (${[...new Set(own.map((hit) => hit.what))].join(', ')}): n8n sends the conversation back whole`,
	);
}

async function main() {
	const t = { report, urls: {}, refused: [], card: CARD };
	const stored = [];
	try {
		t.example = JSON.parse(fs.readFileSync(EXAMPLE_FILE, 'utf8'));
		await preparePackage(USER_FOLDER, { log });
		t.sandbox = await startSandbox({ port: 0 });
		onCleanUp(() => t.sandbox.close());
		t.model = await startModel();
		onCleanUp(() => t.model.close());
		log(`sandbox gateway on ${t.sandbox.url}, stand-in model on ${t.model.url}`);
		t.secrets = secretsToFind({
			clients: [t.sandbox.clients.active, t.sandbox.clients.inactive],
			cardEncryptionKey: t.sandbox.cardEncryptionKey,
			cards: [CARD],
		});

		t.n8n = await createN8n({ userFolder: USER_FOLDER, log });
		await t.n8n.importCredentials([
			{ ...CREDENTIALS.gateway, data: t.sandbox.credentialData() },
			{ ...CREDENTIALS.model, data: { apiKey: 'stand-in-model-key', url: t.model.url } },
		]);
		await t.n8n.mustCli('imported examples/support-agent.json (n8n import:workflow)', ['import:workflow', `--input=${EXAMPLE_FILE}`]);
		stored.push(t.example);
		t.server = await t.n8n.start();
		t.session = new RestSession(t.server.url);
		await t.session.setupOwner();
		await deploy(t, stored);

		await report.timed('(a) took', () => statusRead(t));
		await report.timed('(b) took', () => refunds(t));
		await report.timed('(c) took', () => cardPayment(t));
		await report.timed('(d) took', () => supportAgent(t));
		checkRefusedCalls(t);
	} catch (error) {
		if (!(error instanceof StepFailed)) report.fail(`unexpected error: ${error?.stack ?? error}`);
	}

	if (t.n8n?.server) {
		await t.n8n.stop();
		await report.timed('(f) took', () => checkLeaks(t, stored));
	}
	return report.summary('agent e2e');
}

runCheck(main);
