/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

// The Docker image installs the package with the script every end-to-end check installs it with, so that the checks
// (which run a real n8n, as Docker cannot run here) prove the image's steps. This holds the three files together.

const root = path.join(__dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

it('the image starts through n8n\'s own entrypoint after installing the baked tarball with docker/install-package.sh', () => {
	const dockerfile = read('docker/Dockerfile');
	expect(dockerfile).toMatch(/^FROM n8nio\/n8n:\$\{N8N_VERSION\}$/m);
	expect(dockerfile).toMatch(/^ARG N8N_VERSION=2\.41\.1$/m);
	expect(dockerfile).toContain('COPY --chown=node:node docker/install-package.sh docker/entrypoint.sh /opt/payment-gateway/');
	expect(dockerfile).toMatch(/^ENTRYPOINT \["tini", "--", "\/opt\/payment-gateway\/entrypoint\.sh"\]$/m);
	expect(dockerfile).toMatch(/^ENV N8N_UNVERIFIED_PACKAGES_ENABLED=true$/m);
	const entrypoint = read('docker/entrypoint.sh');
	expect(entrypoint).toContain('sh /opt/payment-gateway/install-package.sh /opt/payment-gateway/n8n-nodes-payment-gateway.tgz "${N8N_USER_FOLDER:-$HOME}/.n8n/nodes"');
	expect(entrypoint).toContain('exec /docker-entrypoint.sh "$@"');
});

it('every end-to-end check installs the package with the same script', () => {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { INSTALL_SCRIPT } = require('../../e2e/lib/package') as { INSTALL_SCRIPT: string };
	expect(path.relative(root, INSTALL_SCRIPT)).toBe(path.join('docker', 'install-package.sh'));
	expect(read('e2e/lib/package.js')).toContain("'sh', [INSTALL_SCRIPT, tarball, nodesDir]");
});

it.each(['docker/install-package.sh', 'docker/entrypoint.sh'])('%s is a valid POSIX shell script', (script) => {
	expect(() => execFileSync('sh', ['-n', path.join(root, script)])).not.toThrow();
});
