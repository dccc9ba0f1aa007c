/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

// The first `npm run dev` (and the first real-n8n check) installs n8n for minutes, with npm silent: e2e/install-n8n.sh
// runs its two long steps through with_progress (e2e/lib/progress.sh), which says what it does and for how long.

const root = path.join(__dirname, '..', '..');
const PROGRESS = path.join(root, 'e2e', 'lib', 'progress.sh');

const bash = (script: string, env: NodeJS.ProcessEnv = {}) => spawnSync('bash', ['-c', `. "${PROGRESS}"; ${script}`], { encoding: 'utf8', env: { ...process.env, ...env } });

it('says, while a long command runs, what it is doing, for how long so far and how much the folder holds; then returns its status', () => {
	const folder = mkdtempSync(path.join(tmpdir(), 'pg-progress-'));
	try {
		writeFileSync(path.join(folder, 'written'), Buffer.alloc(3 * 1024 * 1024));
		const run = bash(`with_progress "installing n8n (npm install)" "${folder}" sh -c 'sleep 3; exit 3'; echo "status $?"`, { PROGRESS_SECONDS: '1' });
		const lines = run.stdout.trim().split('\n');
		expect(lines.at(-1)).toBe('status 3');
		const progress = lines.slice(0, -1);
		expect(progress.length).toBeGreaterThanOrEqual(1);
		for (const line of progress) expect(line).toMatch(new RegExp(`^install-n8n: still installing n8n \\(npm install\\): \\d s so far, [34] MB in ${folder}$`));
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
});

it('writes times as a person reads them', () => {
	expect(bash('elapsed 7; elapsed 75; elapsed 689').stdout).toBe('7 s\n1 min 15 s\n11 min 29 s\n');
});

it("e2e/install-n8n.sh runs n8n's install and the sqlite3 build through it, and says so before each", () => {
	const script = readFileSync(path.join(root, 'e2e', 'install-n8n.sh'), 'utf8');
	expect(script).toContain('. "$ROOT/e2e/lib/progress.sh"');
	expect(script).toMatch(/with_progress "installing n8n \(npm install\)" "\$DEST\/node_modules" npm install /);
	expect(script).toMatch(/with_progress "building sqlite3 \(npm rebuild\)" "" npm rebuild sqlite3 /);
	expect(script).toMatch(/echo "install-n8n: installing n8n \$VERSION .*a line every/);
	expect(spawnSync('bash', ['-n', path.join(root, 'e2e', 'install-n8n.sh')]).status).toBe(0);
});
