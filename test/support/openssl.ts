/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import { execFileSync } from 'node:child_process';

/** The openssl CLI: the independent implementation the package's cryptography is checked against. */
export function openssl(args: string[], input: string | Buffer): string {
	return execFileSync('openssl', args, { input }).toString('utf8');
}

/** Lowercase hex HMAC-SHA256 of `data` keyed with `secret`, as `openssl dgst -sha256 -hmac` prints it. */
export function opensslHmacHex(secret: string, data: string): string {
	const printed = openssl(['dgst', '-sha256', '-hmac', secret], data).trim();
	// "SHA2-256(stdin)= <hex>" or "(stdin)= <hex>", depending on the openssl version.
	return printed.split(/\s+/).pop() ?? '';
}
