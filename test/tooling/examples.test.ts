/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import fs from 'node:fs';
import path from 'node:path';

// Teams copy the example workflows into production as they are. So an example never lets a value the customer
// controls decide money (what an order costs, its currency, the receipt number an order is marked paid by), and a
// scheduled one goes on past an item that fails. This reads the files; `npm run e2e:examples` runs them in a real n8n
// (a checkout form posting another amount, a customer whose cards cannot be listed) and checks the same by outcome.

interface Node {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
	onError?: string;
}
interface Workflow {
	nodes: Node[];
	connections: Record<string, Record<string, Array<Array<{ node: string }>>>>;
}

const DIR = path.join(__dirname, '..', '..', 'examples');
const examples = fs
	.readdirSync(DIR)
	.filter((file) => file.endsWith('.json'))
	.map((file) => [file, JSON.parse(fs.readFileSync(path.join(DIR, file), 'utf8')) as Workflow] as const);

const isPaymentGateway = (node: Node) => node.type.startsWith('n8n-nodes-payment-gateway.paymentGateway') && !node.type.endsWith('Trigger');
/** Parameters that decide money, or which order a payment pays. */
const MONEY = ['amount', 'currency', 'receiptId', 'toolMaxAmount', 'toolMaxTotal', 'toolMaxDaily', 'toolLimitCurrency'];
/** What a customer's request is, in a Webhook's (or Chat Trigger's) item. */
const REQUEST = /\b(?:body|query|headers|params|chatInput)\b/;

/** Every string of a node's parameters with its path. */
function strings(value: unknown, at = ''): Array<[string, string]> {
	if (typeof value === 'string') return [[at, value]];
	if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, inner]) => strings(inner, at ? `${at}.${key}` : key));
	return [];
}

/** The nodes that feed `name` (main connections), nearest first. */
function ancestors(workflow: Workflow, name: string): Node[] {
	const parents = (child: string) =>
		Object.entries(workflow.connections)
			.filter(([, outputs]) => (outputs.main ?? []).some((output) => output.some((link) => link.node === child)))
			.map(([parent]) => parent);
	const seen: string[] = [];
	for (let queue = parents(name); queue.length; ) {
		const next = queue.shift()!;
		if (seen.includes(next)) continue;
		seen.push(next);
		queue.push(...parents(next));
	}
	return seen.map((found) => workflow.nodes.find((node) => node.name === found)!);
}

const startedByACustomer = (workflow: Workflow) => workflow.nodes.some((node) => /\.(webhook|chatTrigger|formTrigger)$/.test(node.type));

describe.each(examples)('%s', (_file, workflow) => {
	it('takes no amount, price, total or currency from what the customer sent', () => {
		const taken = workflow.nodes.flatMap((node) =>
			strings(node.parameters)
				// body.amount, body?.amount, body['amount'], body?.["amount"], ['body'].amount, body[`amount`]
				.filter(([, text]) => /\b(?:body|query)\b\s*['"]?\s*\]?\s*(?:\?\.\s*\[?|\.|\[)\s*['"`]?\s*(?:amount|price|total|currency)/i.test(text))
				.map(([at]) => `${node.name} → ${at}`),
		);
		expect(taken).toEqual([]);
	});

	it("every money parameter of its Payment Gateway nodes is the shop's: a value typed in, its Price List's, or a tool's argument within limits a person reviews", () => {
		const problems: string[] = [];
		for (const node of workflow.nodes.filter(isPaymentGateway)) {
			for (const [at, text] of strings(node.parameters).filter(([key]) => MONEY.includes(key.split('.').at(-1)!))) {
				if (!text.startsWith('=')) continue;
				const where = `${node.name} → ${at}`;
				if (text.includes('$fromAI(')) {
					// A tool's argument: bounded by limits typed in, and behind a person's review.
					const { toolMaxAmount, toolMaxDaily, toolLimitCurrency } = node.parameters;
					const reviewed = Object.values(workflow.connections[node.name]?.ai_tool ?? []).flat().some((link) => /HitlTool$/.test(workflow.nodes.find((candidate) => candidate.name === link.node)?.type ?? ''));
					if (!(Number(toolMaxAmount) > 0 && Number(toolMaxDaily) > 0 && /^[A-Z]{3}$/.test(String(toolLimitCurrency)) && reviewed)) problems.push(`${where}: a model's value without limits and review`);
					continue;
				}
				const field = /^=\{\{\s*\$json\.(\w+)\s*\}\}$/.exec(text)?.[1];
				// The nearest node before it that writes the field decides it: the Price List, whose values are its own.
				const source = ancestors(workflow, node.name).find((candidate) => strings(candidate.parameters).some(([, value]) => field !== undefined && value.includes(field)));
				const code = String(source?.parameters.jsCode ?? '');
				const fromPriceList = source?.name === 'Price List' && /const priceList = \[/.test(code) && !REQUEST.test(code);
				if (!fromPriceList) problems.push(`${where}: ${text} from ${source ? `"${source.name}"` : 'nowhere'}, not from a Price List of the shop's own`);
			}
		}
		expect(problems).toEqual([]);
	});

	it('started by a customer, copies nothing of the request into a money field on its way to the gateway', () => {
		if (!startedByACustomer(workflow)) return;
		const copied = workflow.nodes
			.filter((node) => node.type === 'n8n-nodes-base.set')
			.flatMap((node) => ((node.parameters.assignments as { assignments: Array<{ name: string; value: unknown }> } | undefined)?.assignments ?? []).map((assignment) => ({ node, assignment })))
			.filter(({ assignment }) => MONEY.includes(assignment.name) && REQUEST.test(String(assignment.value)))
			.map(({ node, assignment }) => `${node.name} → ${assignment.name}`);
		expect(copied).toEqual([]);
	});

	it("puts no value into an HTML page as markup: each one a Respond to Webhook interpolates into text/html is escaped, or is the payment form the node rebuilt", () => {
		// A page of the shop's n8n: markup in it runs on n8n's origin, where a logged-in n8n user's browser is.
		const escaped = (expression: string) => ['&amp;', '&lt;', '&gt;', '&quot;'].every((entity) => expression.includes(entity));
		const unescaped = workflow.nodes
			.filter((node) => node.type === 'n8n-nodes-base.respondToWebhook')
			.filter((node) => strings(node.parameters.options).some(([, text]) => /text\/html/i.test(text)))
			.flatMap((node) =>
				[...String(node.parameters.responseBody ?? '').matchAll(/\{\{([\s\S]*?)\}\}/g)]
					.map(([, expression]) => expression.trim())
					.filter((expression) => expression !== '$json.redirectionData.formData' && !escaped(expression))
					.map((expression) => `${node.name}: {{ ${expression} }}`),
			);
		expect(unescaped).toEqual([]);
	});

	it('run on a schedule, goes on past an item that fails: every Payment Gateway node continues on error, its error output leading somewhere', () => {
		if (!workflow.nodes.some((node) => node.type === 'n8n-nodes-base.scheduleTrigger')) return;
		const stopping = workflow.nodes.filter(isPaymentGateway).flatMap((node) => {
			if (node.onError === 'continueRegularOutput') return [];
			if (node.onError === 'continueErrorOutput' && (workflow.connections[node.name]?.main?.[1] ?? []).length > 0) return [];
			return [`${node.name}: On Error ${node.onError ?? 'Stop Workflow'}`];
		});
		expect(stopping).toEqual([]);
	});
});
