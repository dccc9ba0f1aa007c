// Headless Chromium for the editor check: Debian's package (installed when missing), launched through playwright-core,
// with a context that shares the REST session of the harness (same session cookie, same browser id).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

import { chromium, selectors } from 'playwright-core';

const require = createRequire(import.meta.url);
const { aptInstall } = require('../lib/apt');

export const CHROMIUM = process.env.EDITOR_CHROMIUM ?? '/usr/bin/chromium';

/** Installs Debian's Chromium when it is missing (apt-get, as root or through sudo). */
export async function ensureChromium(log) {
	if (existsSync(CHROMIUM)) return;
	await aptInstall('Chromium (Debian package)', ['chromium'], { log });
}

export function launchBrowser() {
	// n8n's editor marks its elements with data-test-id.
	selectors.setTestIdAttribute('data-test-id');
	return chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
		],
	});
}

/**
 * A browser context logged in as the REST session: its cookie, and the browser id the session cookie is bound to
 * (the editor sends localStorage's n8n-browserId as the browser-id header).
 */
export async function editorContext(browser, session, { viewport }) {
	const context = await browser.newContext({ viewport, baseURL: session.url });
	context.setDefaultTimeout(20_000);
	await context.addCookies([session.cookie]);
	await context.addInitScript((id) => window.localStorage.setItem('n8n-browserId', id), session.browserId);
	return context;
}
