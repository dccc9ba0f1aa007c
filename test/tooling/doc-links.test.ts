/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
// Every link from one of the project's documents to a section (`file.md#section`, or `#section` within the same file)
// names a section that file has, as GitHub makes the anchors from its headings; and every file it names exists.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const SKIP = new Set(['node_modules', 'dist', '.e2e', '.git']);

function documents(dir: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		if (SKIP.has(entry.name)) return [];
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return documents(full);
		return entry.name.endsWith('.md') ? [full] : [];
	});
}

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`, repeats numbered. */
function anchorsOf(file: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	let fenced = false;
	for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
		if (line.startsWith('```')) fenced = !fenced;
		const heading = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
		if (!heading) continue;
		const slug = heading[1].trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-');
		const count = seen.get(slug);
		seen.set(slug, (count ?? -1) + 1);
		anchors.add(count === undefined ? slug : `${slug}-${count + 1}`);
	}
	return anchors;
}

test("links to a document's section name a section it has", () => {
	const broken: string[] = [];
	const files = documents(ROOT);
	expect(files.length).toBeGreaterThan(5);
	for (const file of files) {
		for (const [, target, anchor] of fs.readFileSync(file, 'utf8').matchAll(/\]\(([^()\s#]*\.md)?#([^()\s]+)\)/g)) {
			const linked = target ? path.resolve(path.dirname(file), target) : file;
			const where = `${path.relative(ROOT, file)} → ${path.relative(ROOT, linked)}#${anchor}`;
			if (!fs.existsSync(linked)) broken.push(`${where} (no such file)`);
			else if (!anchorsOf(linked).has(anchor)) broken.push(where);
		}
	}
	expect(broken).toEqual([]);
});

test('every relative link of a document (a file, an image, a folder) names one that exists', () => {
	const broken: string[] = [];
	for (const file of documents(ROOT)) {
		const text = fs.readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
		for (const [, target] of text.matchAll(/\]\(([^()\s#]+)(?:#[^()\s]*)?\)/g)) {
			if (/^[a-z]+:/i.test(target)) continue;
			const linked = path.resolve(path.dirname(file), target);
			if (!fs.existsSync(linked)) broken.push(`${path.relative(ROOT, file)} → ${target}`);
		}
	}
	expect(broken).toEqual([]);
});

// The repository's own address, as package.json's `repository` gives it: where the nodes' Docs links and the
// credential's documentation link lead, and the links of the documents to the repository itself.
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { repository: { url: string } };
const REPOSITORY = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');

/** What a link to the repository's address names in this clone: README.md, or a file or folder on main; '' for other pages (compare, releases). */
function inClone(url: string): { file: string; anchor?: string } | undefined {
	const [address, anchor] = url.split('#');
	if (address === REPOSITORY) return { file: 'README.md', anchor };
	const onMain = /^\/(?:blob|tree)\/main\/(.+)$/.exec(address.slice(REPOSITORY.length));
	return address.startsWith(`${REPOSITORY}/`) && onMain ? { file: onMain[1], anchor } : undefined;
}

/** Why the link does not lead where it says, or '' when it does. */
function brokenLink(url: string): string {
	if (!url.startsWith(REPOSITORY)) return `not on the repository's address ${REPOSITORY}`;
	const target = inClone(url);
	if (!target) return `names no file of the repository (${REPOSITORY}/blob/main/<file>#<heading>)`;
	const file = path.join(ROOT, target.file);
	if (!fs.existsSync(file)) return `${target.file}: no such file`;
	if (target.anchor === undefined) return '';
	if (!file.endsWith('.md') || !anchorsOf(file).has(target.anchor)) return `${target.file} has no heading #${target.anchor}`;
	return '';
}

test("the nodes' Docs links and the credential's documentation link name a heading of the repository's documents, on the address package.json gives", () => {
	const codex = ['nodes/PaymentGateway/PaymentGateway.node.json', 'nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node.json'].flatMap((file) => {
		const { resources } = JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as { resources: Record<string, Array<{ url: string }>> };
		return Object.entries(resources).flatMap(([kind, links]) => links.map(({ url }) => ({ where: `${file} ${kind}`, url })));
	});
	const credential = /documentationUrl = '([^']+)'/.exec(fs.readFileSync(path.join(ROOT, 'credentials/PaymentGatewayApi.credentials.ts'), 'utf8'))?.[1] ?? '';
	const links = [...codex, { where: 'credentials/PaymentGatewayApi.credentials.ts documentationUrl', url: credential }];
	expect(links.map(({ where }) => where)).toEqual(expect.arrayContaining([expect.stringMatching(/PaymentGateway\.node\.json primaryDocumentation/), expect.stringMatching(/PaymentGatewayTrigger\.node\.json primaryDocumentation/)]));
	expect(links.map(({ where, url }) => [where, url, brokenLink(url)]).filter(([, , problem]) => problem)).toEqual([]);
	// Each node leads to its own page first.
	expect(codex.filter(({ where }) => where.endsWith('primaryDocumentation')).map(({ url }) => url.slice(REPOSITORY.length))).toEqual([
		'/blob/main/docs/operations.md#operations-inputs-and-outputs',
		'/blob/main/docs/trigger.md#payment-gateway-trigger',
	]);
});

test("a document's link to the repository's own address names a file, and a heading, that exist", () => {
	const broken: string[] = [];
	for (const file of documents(ROOT)) {
		for (const [url] of fs.readFileSync(file, 'utf8').matchAll(/https:\/\/github\.com\/[^\s)\]>`'"]+/g)) {
			const own = url.replace(/\.git$/, '');
			if (!own.startsWith(REPOSITORY) || (own !== REPOSITORY && !inClone(own))) continue;
			const problem = brokenLink(own);
			if (problem) broken.push(`${path.relative(ROOT, file)} → ${url}: ${problem}`);
		}
	}
	expect(broken).toEqual([]);
});
