'use strict';

// n8n's REST API as the editor uses it: a session cookie bound to a browser id, owner setup and login, workflows
// (create, activate, wait for the production webhook), executions with their data, and plain calls for the rest.

const { requireFromN8n } = require('./package');
const { sleep } = require('./processes');

const OWNER = { email: 'owner@example.com', firstName: 'End', lastName: 'Check', password: 'EndCheck1234' };
const BROWSER_ID = 'payment-gateway-e2e';
const COOKIE = 'n8n-auth';

class RestSession {
	/** @param {string} url  n8n's main address, e.g. http://127.0.0.1:5678 */
	constructor(url, { browserId = BROWSER_ID } = {}) {
		this.url = url;
		this.browserId = browserId;
		this.token = undefined;
	}

	/** The session cookie, for a browser that should share this session ({ name, value, url }). */
	get cookie() {
		return this.token && { name: COOKIE, value: this.token, url: this.url };
	}

	/** One call; resolves with { status, body (parsed JSON or undefined), text } whatever the status. */
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
			const [pair] = header.split(';');
			const [name, value] = pair.split('=');
			if (name.trim() === COOKIE && value) this.token = value;
		}
		const text = await res.text();
		let body;
		try {
			body = JSON.parse(text);
		} catch {
			body = undefined;
		}
		return { status: res.status, body, text };
	}

	/** `call`, but anything other than 2xx throws; resolves with the answer's `data`. */
	async data(method, apiPath, body) {
		const res = await this.call(method, apiPath, body);
		if (res.status < 200 || res.status > 299) {
			throw new Error(`${method} ${apiPath} answered HTTP ${res.status}: ${res.text.slice(0, 300)}`);
		}
		return res.body?.data;
	}

	/** POST /rest/owner/setup (its answer carries the session cookie); n8n may still be starting: retried 30 s. */
	async setupOwner(owner = OWNER) {
		const deadline = Date.now() + 30_000;
		for (;;) {
			const res = await this.call('POST', '/rest/owner/setup', owner);
			const starting = res.status === 404 || res.status >= 500 || res.text.includes('starting up');
			if (!starting || Date.now() > deadline) {
				if (res.status !== 200 || !res.text.includes(owner.email) || !this.token) {
					throw new Error(`owner setup answered HTTP ${res.status}: ${res.text.slice(0, 300)}`);
				}
				return res.body.data;
			}
			await sleep(500);
		}
	}

	/** POST /rest/login. */
	async login(owner = OWNER) {
		this.token = undefined;
		const user = await this.data('POST', '/rest/login', { emailOrLdapLoginId: owner.email, password: owner.password });
		if (!this.token) throw new Error('login answered without a session cookie');
		return user;
	}

	/**
	 * POST /rest/workflows; resolves with the stored workflow (n8n gives it its own id). `active: false` as the editor
	 * of n8n 1.x sends it (its database requires the column; 2.x publishes instead and ignores it).
	 */
	createWorkflow(workflow) {
		const { name, nodes, connections, settings = {}, pinData = {} } = workflow;
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
		const published = await this.call('POST', `/rest/workflows/${id}/activate`, { versionId: workflow.versionId });
		if (published.status !== 404 || !/Version not found/.test(published.text)) {
			if (published.status < 200 || published.status > 299) {
				throw new Error(`POST /rest/workflows/${id}/activate answered HTTP ${published.status}: ${published.text.slice(0, 300)}`);
			}
			return published.body?.data;
		}
		const [first, ...rest] = workflow.nodes;
		const moved = { ...first, position: [first.position[0] + 1, first.position[1]] };
		const saved = await this.data('PATCH', `/rest/workflows/${id}`, { versionId: workflow.versionId, nodes: [moved, ...rest] });
		return this.data('POST', `/rest/workflows/${id}/activate`, { versionId: saved.versionId });
	}

	/**
	 * Waits until a production webhook is registered, with a CORS pre-flight: n8n looks the webhook up only for an
	 * OPTIONS request that carries an Origin (204 with the webhook's methods once registered, 404 before); without
	 * one it answers 204 at once. A GET cannot tell: it answers 404 for a POST-only webhook either way.
	 */
	async waitForWebhook(webhookUrl, { method = 'POST', timeoutMs = 30_000 } = {}) {
		const deadline = Date.now() + timeoutMs;
		let answer;
		while (Date.now() < deadline) {
			const res = await fetch(webhookUrl, {
				method: 'OPTIONS',
				headers: { origin: this.url, 'access-control-request-method': method },
			});
			const allowed = res.headers.get('access-control-allow-methods') ?? '';
			answer = `${res.status}, methods "${allowed}"`;
			if (res.status === 204 && allowed.split(/,\s*/).includes(method)) return;
			await sleep(250);
		}
		throw new Error(`the production webhook ${webhookUrl} is not live after ${timeoutMs / 1000} s (OPTIONS: ${answer})`);
	}

	/** GET /rest/executions (newest first; n8n accepts a limit of 1 to 100). */
	async executions({ workflowId, limit = 100 } = {}) {
		const filter = workflowId ? `&filter=${encodeURIComponent(JSON.stringify({ workflowId }))}` : '';
		const { results } = await this.data('GET', `/rest/executions?limit=${limit}${filter}`);
		return results;
	}

	/** GET /rest/executions/<id>, its `data` parsed: `execution.data.resultData.runData` holds every node's output. */
	async execution(id) {
		const execution = await this.data('GET', `/rest/executions/${id}`);
		return { ...execution, data: typeof execution.data === 'string' ? requireFromN8n('flatted').parse(execution.data) : execution.data };
	}

	/** Waits until `count` executions of the workflow have finished (a webhook answers before n8n stores it). */
	async finishedExecutions(workflowId, count, timeoutMs = 30_000) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const done = (await this.executions({ workflowId })).filter((execution) => execution.stoppedAt);
			if (done.length >= count || Date.now() > deadline) return done;
			await sleep(250);
		}
	}
}

module.exports = { RestSession, OWNER, BROWSER_ID };
