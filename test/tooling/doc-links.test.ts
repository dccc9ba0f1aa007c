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
