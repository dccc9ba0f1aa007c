/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
// `npm run demo` as a newcomer runs it, each story in its own node process. The demo is run against a fresh build of
// the sources in a temporary folder (scripts/demo.js copied next to it, the rest of the repository linked), so that
// neither a stale nor a missing dist/ decides the outcome and the repository's own dist/ is not touched.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
let copy: string;

beforeAll(() => {
	copy = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-demo-'));
	const tsc = require.resolve('typescript/bin/tsc');
	execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--outDir', path.join(copy, 'dist')], { cwd: ROOT, stdio: 'pipe' });
	for (const dir of ['node_modules', 'sandbox', 'test']) fs.symlinkSync(path.join(ROOT, dir), path.join(copy, dir), 'dir');
	fs.mkdirSync(path.join(copy, 'scripts'));
	fs.copyFileSync(path.join(ROOT, 'scripts', 'demo.js'), path.join(copy, 'scripts', 'demo.js'));
}, 120_000);

afterAll(() => {
	if (copy) fs.rmSync(copy, { recursive: true, force: true });
});

function demo(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		execFile(process.execPath, [path.join(copy, 'scripts', 'demo.js'), ...args], { timeout: 60_000 }, (error, stdout, stderr) =>
			resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
		);
	});
}

const headings = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('── '));
const nextSteps = (stdout: string) => stdout.slice(stdout.indexOf('\nNext:\n'));

test('by default, the hosted-checkout story: paid on the hosted page, partly refunded, with the amounts left', async () => {
	const { code, stdout } = await demo();
	expect(code).toBe(0);
	expect(stdout).toMatch(/^Demo story: hosted checkout\./);
	expect(headings(stdout)).toEqual([
		"── 1. Order → Create Checkout: an order the customer pays on the gateway's hosted page",
		'── 2. The customer pays on the hosted page (the sandbox plays the customer, with its approved test card)',
		"── 3. Payment Gateway Trigger: the gateway's notification, signature checked and status re-checked",
		'── 4. Status → Get by Order ID: the workflow confirms the payment before fulfilling the order',
		'── 5. Transaction → Refund: 4.100 OMR back to the customer for a returned item',
		"── 6. Payment Gateway Trigger: the refund's notification",
		'── 7. Status → Get by Order ID: the payment, partially refunded',
	]);
	expect(stdout).toMatch(/^ {3}checkoutUrl +"https:\/\/merchant\.example\.com\/cpbs\/pg\?actionType=checkout&orderId=wb-/m);
	expect(stdout).toMatch(/→ the gateway sends the customer back to https:\/\/shop\.example\.com\/payment\/done\?paymentId=PAY\w{32}\n/);
	// 12.3 - 4.1 is 8.200000000000001 in floating point.
	expect(stdout).toContain('   → paid 12.300 OMR, refunded 4.100 OMR, remaining 8.200 OMR\n');
	expect(stdout).toContain('Every step did what it should: the sandbox received 6 API requests and sent 2 notifications.');
	expect(nextSteps(stdout)).toMatch(/^\nNext:\n {3}npm run demo -- card +the other story/);
	expect(nextSteps(stdout)).toMatch(/\n {3}npm run dev +a real n8n.*\n {3}npm test +.+\n {3}README\.md, "Install" +.+\n$/);
	// The section the demo names is one the README has.
	const sections = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').filter((line) => /^#{2,3} /.test(line));
	for (const [, name] of nextSteps(stdout).matchAll(/README\.md, "([^"]+)"/g)) {
		expect(sections.filter((heading) => heading.replace(/^#+ /, '').startsWith(name))).toHaveLength(1);
	}
}, 60_000);

test('the card story: taken on the merchant\'s page, authenticated, no hosted checkout in it', async () => {
	const { code, stdout } = await demo('card');
	expect(code).toBe(0);
	expect(stdout).toMatch(/^Demo story: card on your own page\./);
	expect(headings(stdout)).toEqual([
		'── 1. Order → Create: an order to be paid with a card your own page collects',
		"── 2. Transaction → Initiate: the card (the sandbox's approved test card), encrypted by the node",
		'── 3. The customer confirms with CVV and OTP on the authentication page (the sandbox plays the customer)',
		"── 4. Payment Gateway Trigger: the gateway's notification, signature checked and status re-checked",
		'── 5. Status → Get by Payment ID: the workflow confirms the payment before fulfilling the order',
	]);
	expect(stdout).not.toMatch(/checkoutUrl|Create Checkout/);
	expect(stdout).toMatch(/formData":"<\d+ characters of auto-submitting HTML form>"/);
	expect(stdout).not.toMatch(/4111 ?1111 ?1111 ?1111/);
	expect(stdout).toMatch(/^ {3}paymentStatus +"success"$/m);
	expect(nextSteps(stdout)).toMatch(/^\nNext:\n {3}npm run demo +the other story: the gateway's hosted checkout page/);
}, 60_000);

test('an unknown story is refused with the ones there are', async () => {
	const { code, stdout, stderr } = await demo('refund');
	expect(code).toBe(2);
	expect(stdout).toBe('');
	expect(stderr).toContain('npm run demo -- checkout (the default) or npm run demo -- card');
});
