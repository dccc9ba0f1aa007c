'use strict';

// n8n's REST API as the editor uses it (a session cookie bound to a browser id), and what the checks that drive a
// running n8n share: publishing a workflow until its production webhook is live, calling webhooks, waiting for the
// executions a call started and reading a node's items out of them.

const { requireFromN8n } = require('./package');
const { parseJson, sleep, waitUntil } = require('./processes');

const OWNER = { email: 'owner@example.com', firstName: 'End', lastName: 'Check', password: 'EndCheck1234' };
const BROWSER_ID = 'payment-gateway-e2e';
const COOKIE = 'n8n-auth';

/** POSTs JSON, or a string as it is; redirects are not followed, so that a check sees them. */
async function post(url, body, { contentType = 'application/json', headers = {} } = {}) {
	const res = await fetch(url, {
		method: 'POST',
		redirect: 'manual',
		headers: { 'content-type': contentType, ...headers },
		body: typeof body === 'string' ? body : JSON.stringify(body),
	});
	const text = await res.text();
	return { status: res.status, headers: res.headers, text, json: parseJson(text) };
}

/** Where a workflow's first webhook listens under /webhook/: a Webhook node's path; a trigger's under its webhook id. */
function webhookPathOf(workflow) {
	const hook = workflow.nodes.find((node) => node.webhookId);
	if (!hook) throw new Error(`"${workflow.name}" has no webhook`);
	if (hook.type === 'n8n-nodes-base.webhook') return hook.parameters.path;
	return `${hook.webhookId}/${hook.type.endsWith('.chatTrigger') ? 'chat' : 'webhook'}`;
}

/** A REST answer's `data`; anything other than 2xx throws. */
function dataOf(method, apiPath, res) {
	if (res.status < 200 || res.status > 299) throw new Error(`${method} ${apiPath} answered HTTP ${res.status}: ${res.text.slice(0, 300)}`);
	return res.body?.data;
}

/** The JSON of every item a node output in a run (its last run, main output `output`); [] when it did not run. */
const nodeItems = (runData, node, output = 0) => (runData?.[node]?.at(-1)?.data?.main?.[output] ?? []).map((item) => item.json);

class RestSession {
	/** @param {string} url  n8n's main address, e.g. http://127.0.0.1:5678 */
	constructor(url) {
		this.url = url;
		this.browserId = BROWSER_ID;
	}

	/** The session cookie, for a browser that should share this session. */
	get cookie() {
		return this.token && { name: COOKIE, value: this.token, url: this.url };
	}

	/** One call; resolves with { status, body (parsed JSON), text } whatever the status. */
	async call(method, apiPath, data) {
		const res = await fetch(`${this.url}${apiPath}`, {
			method,
			headers: {
				'browser-id': this.browserId,
				...(data === undefined ? {} : { 'content-type': 'application/json' }),
				...(this.token ? { cookie: `${COOKIE}=${this.token}` } : {}),
			},
			body: data === undefined ? undefined : JSON.stringify(data),
		});
		// n8n renews the cookie now and then: keep the latest.
		for (const header of res.headers.getSetCookie()) {
			const [name, value] = header.split(';')[0].split('=');
			if (name.trim() === COOKIE && value) this.token = value;
		}
		const text = await res.text();
		return { status: res.status, body: parseJson(text), text };
	}

	/** `call`, but anything other than 2xx throws; resolves with the answer's `data`. */
	async data(method, apiPath, body) {
		return dataOf(method, apiPath, await this.call(method, apiPath, body));
	}

	/** POST /rest/owner/setup (its answer carries the session cookie), retried while n8n is still starting. */
	async setupOwner(owner = OWNER) {
		let res;
		await waitUntil(async () => {
			res = await this.call('POST', '/rest/owner/setup', owner);
			return !(res.status === 404 || res.status >= 500 || res.text.includes('starting up'));
		}, { timeoutMs: 30_000, intervalMs: 500 });
		if (res.status !== 200 || !res.text.includes(owner.email) || !this.token) throw new Error(`owner setup answered HTTP ${res.status}: ${res.text.slice(0, 300)}`);
		return res.body.data;
	}

	async login(owner = OWNER) {
		this.token = undefined;
		const user = await this.data('POST', '/rest/login', { emailOrLdapLoginId: owner.email, password: owner.password });
		if (!this.token) throw new Error('login answered without a session cookie');
		return user;
	}

	/** The stored workflow, under n8n's own id; `active: false` because n8n 1.x's database requires it (2.x ignores it). */
	createWorkflow({ name, nodes, connections, settings = {}, pinData = {} }) {
		return this.data('POST', '/rest/workflows', { name, nodes, connections, settings, pinData, active: false });
	}

	/**
	 * What the editor's Publish button sends: POST /rest/workflows/<id>/activate with the current versionId.
	 * n8n 2.0 keeps no version of a workflow imported with `n8n import:workflow` and answers 404 "Version not found":
	 * there a person saves it once in the editor after a change, which is done here by moving its first node by one
	 * pixel (a save without a change keeps no version either).
	 */
	async activateWorkflow(id) {
		const workflow = await this.data('GET', `/rest/workflows/${id}`);
		const activate = `/rest/workflows/${id}/activate`;
		const published = await this.call('POST', activate, { versionId: workflow.versionId });
		if (published.status !== 404 || !/Version not found/.test(published.text)) return dataOf('POST', activate, published);
		const [first, ...rest] = workflow.nodes;
		const moved = { ...first, position: [first.position[0] + 1, first.position[1]] };
		const saved = await this.data('PATCH', `/rest/workflows/${id}`, { versionId: workflow.versionId, nodes: [moved, ...rest] });
		return this.data('POST', activate, { versionId: saved.versionId });
	}

	/**
	 * Activates a stored workflow; resolves once its production webhook is registered, with { id, url, stored }. Only a
	 * CORS pre-flight tells: n8n looks the webhook up for an OPTIONS with an Origin (204 with its methods once registered,
	 * 404 before); a GET answers 404 for a POST webhook.
	 */
	async publish(id, workflow, server) {
		await this.activateWorkflow(id);
		const url = server.webhookUrl(webhookPathOf(workflow));
		let answer;
		const live = await waitUntil(async () => {
			const res = await fetch(url, { method: 'OPTIONS', headers: { origin: this.url, 'access-control-request-method': 'POST' } });
			const allowed = res.headers.get('access-control-allow-methods') ?? '';
			answer = `${res.status}, methods "${allowed}"`;
			return res.status === 204 && allowed.split(/,\s*/).includes('POST');
		});
		if (!live) throw new Error(`the production webhook ${url} is not live after 30 s (OPTIONS: ${answer})`);
		return { id, url, stored: { ...workflow, id } };
	}

	/** Creates the workflow, then publishes it. */
	async deploy(workflow, server) {
		return this.publish((await this.createWorkflow(workflow)).id, workflow, server);
	}

	/** GET /rest/executions, newest first, the most n8n gives at once (100). */
	async executions({ workflowId } = {}) {
		const filter = workflowId ? `&filter=${encodeURIComponent(JSON.stringify({ workflowId }))}` : '';
		return (await this.data('GET', `/rest/executions?limit=100${filter}`)).results;
	}

	/** GET /rest/executions/<id>, its data parsed (n8n answers it in the `flatted` format). */
	async execution(id) {
		const execution = await this.data('GET', `/rest/executions/${id}`);
		return { ...execution, data: typeof execution.data === 'string' ? requireFromN8n('flatted').parse(execution.data) : execution.data };
	}

	async runData(id) {
		return (await this.execution(id)).data?.resultData?.runData ?? {};
	}

	/** The workflow's finished executions but `seen` (ids), once there are `count`: a webhook answers before n8n stores it. */
	async finishedExecutions(workflowId, count, { timeoutMs = 30_000, seen = new Set() } = {}) {
		let done = [];
		await waitUntil(async () => {
			done = (await this.executions({ workflowId })).filter((execution) => execution.stoppedAt && !seen.has(execution.id));
			return done.length >= count;
		}, { timeoutMs });
		return done;
	}

	/** `finishedExecutions`, then `quietMs` more in which no other may come: "exactly one" gives a second time to show up. */
	async settledExecutions(workflowId, count, { quietMs = 1500, ...options } = {}) {
		const finished = await this.finishedExecutions(workflowId, count, options);
		if (finished.length < count) return finished;
		await sleep(quietMs);
		return this.finishedExecutions(workflowId, 0, { ...options, timeoutMs: 0 });
	}
}

module.exports = { RestSession, OWNER, post, webhookPathOf, nodeItems };
