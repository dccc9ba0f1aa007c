/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

import type { IDataObject, IExecuteFunctions, NodeParameterValueType, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { runWorkflow } from '../support/engine';
import { standInDescription } from '../support/stand-in';

// The examples' own logic run as n8n runs it, where the package's tests can: the Filter of card-cleanup.json through
// n8n's engine (its filter parameter, expressions and Luxon), the Price List of checkout.json and card-payment.json
// as the Code node runs its JavaScript. `npm run e2e:examples` runs the whole files in a real n8n.

interface Node {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
}
const example = (file: string) =>
	JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'examples', file), 'utf8')) as { nodes: Node[] };
const nodeOf = (file: string, name: string) => example(file).nodes.find((node) => node.name === name)!;

/** A node with one filter parameter, as n8n's Filter node reads it: each item passes or not. */
class FilterStandIn implements INodeType {
	description: INodeTypeDescription = standInDescription('Filter Stand-In', "Keeps the items its conditions pass, as n8n's Filter node", {
		usableAsTool: true,
		properties: [{ displayName: 'Conditions', name: 'conditions', type: 'filter', default: {} }],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		return [items.filter((_, index) => this.getNodeParameter('conditions', index, false, { extractValue: true }) as boolean)];
	}
}

describe('card-cleanup.json: Older Than maxAgeDays', () => {
	// Settings' values in each item: the stand-in runs with no Settings node before it.
	const conditions = JSON.parse(
		JSON.stringify(nodeOf('card-cleanup.json', 'Older Than maxAgeDays').parameters.conditions).replaceAll("$('Settings').first().json.", '$json.'),
	) as NodeParameterValueType;
	const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
	const kept = async (items: IDataObject[]) => {
		const result = await runWorkflow({ nodeType: FilterStandIn, parameters: { conditions }, items });
		if (result.error) throw new Error(result.error.message);
		return result.items.map((item) => item.json.digitalCardId);
	};

	it('keeps the cards stored longer ago than maxAgeDays, and not the newer ones', async () => {
		expect(await kept([{ digitalCardId: 'old', createdAt: daysAgo(200), maxAgeDays: 180 }, { digitalCardId: 'new', createdAt: daysAgo(10), maxAgeDays: 180 }])).toEqual(['old']);
	});

	// A setting left empty (a Set node's number field cleared is 0), read from a Data table that lacks it, or typed as
	// 0 or below, is no age: without a check it puts the cut-off at now or later, and every stored card of every
	// customer passes to Delete Card.
	it.each([
		['0', 0],
		['null', null],
		['missing', undefined],
		['negative', -30],
	])('keeps no card when maxAgeDays is %s', async (_label, maxAgeDays) => {
		const cards = [{ digitalCardId: 'old', createdAt: daysAgo(200) }, { digitalCardId: 'new', createdAt: daysAgo(1) }].map((card) => ({ ...card, maxAgeDays }));
		expect(await kept(cards)).toEqual([]);
	});

	it('keeps no card without its createdAt, and goes on to the others', async () => {
		expect(await kept([{ digitalCardId: 'undated', maxAgeDays: 180 }, { digitalCardId: 'old', createdAt: daysAgo(200), maxAgeDays: 180 }])).toEqual(['old']);
	});
});

describe.each(['checkout.json', 'card-payment.json'])('%s: Order and Price List on what a customer posts', (file) => {
	const orderExpression = (nodeOf(file, 'Order').parameters.assignments as { assignments: Array<{ name: string; value: string }> }).assignments.find(
		(assignment) => assignment.name === 'productId',
	)!.value;
	const code = String(nodeOf(file, 'Price List').parameters.jsCode);

	/** The Order node's productId for a posted body, as its expression gives it; then the Price List's item. */
	function priced(body: unknown): IDataObject {
		const expression = /^=\{\{([\s\S]*)\}\}$/.exec(orderExpression)![1];
		let productId: unknown;
		try {
			productId = vm.runInNewContext(expression, { $json: { body } });
		} catch {
			return { refused: 'the expression failed: n8n answers with an error, no order' };
		}
		const input = [{ json: { productId: String(productId), customerName: 'Jane Doe' } }];
		const run = vm.runInNewContext(`(function () {\n${code}\n})()`, { $input: { all: () => input }, $execution: { id: '41' } }) as Array<{ json: IDataObject }>;
		// Copied out of the sandbox's realm, as n8n does with a Code node's items.
		return JSON.parse(JSON.stringify(run[0].json)) as IDataObject;
	}

	it("prices a listed product at the list's price, whatever else the form says", () => {
		expect(priced({ productId: 'tote-bag', amount: '0.01', currency: 'EUR', receiptId: 'MINE-1', quantity: '100' })).toEqual({
			productId: 'tote-bag',
			customerName: 'Jane Doe',
			known: true,
			description: 'Canvas tote bag',
			amount: '25.50',
			currency: 'USD',
			receiptId: 'WEB-41-1',
		});
		expect(priced({ productId: '  tote-bag\n' })).toMatchObject({ known: true, amount: '25.50', currency: 'USD' });
	});

	it.each([
		'__proto__',
		'constructor',
		'toString',
		'hasOwnProperty',
		'valueOf',
		'Tote-Bag',
		'TOTE-BAG',
		'tote-bag,travel-mug',
		'tote_bag',
		'',
		'x'.repeat(100_000),
		['tote-bag', 'travel-mug'],
		{ productId: 'tote-bag' },
		{ toString: 'tote-bag' },
		null,
		7,
		true,
	].map((productId) => [JSON.stringify(productId)?.slice(0, 40) ?? String(productId), productId]))('a product id of %s is no product of the list', (_label, productId) => {
		const item = priced({ productId, amount: '0.01', currency: 'EUR' });
		expect(item.refused ?? item).toEqual(item.refused ?? { known: false });
	});

	it('a form that names no product, or an empty one (the Webhook gives an empty body as {}), names no product of the list', () => {
		expect(priced({ amount: '1.00' })).toEqual({ known: false });
		expect(priced({})).toEqual({ known: false });
	});
});

/** A node with one text parameter, output as n8n resolves it for each item: what a Respond to Webhook node sends. */
class TextStandIn implements INodeType {
	description: INodeTypeDescription = standInDescription('Text Stand-In', 'Outputs its Response Body as n8n resolves it', {
		usableAsTool: true,
		properties: [{ displayName: 'Response Body', name: 'responseBody', type: 'string', default: '' }],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData().map((_, index) => ({ json: { text: this.getNodeParameter('responseBody', index) as string } }))];
	}
}

describe("card-payment.json: Payment Refused, a page of the shop's n8n", () => {
	// The error is the node's or the gateway's words (a gateway's message keeps < > = " of a sentence): a gateway or a
	// proxy that quotes what the customer posted (the card holder's name) would put the customer's HTML on n8n's
	// origin, where a logged-in n8n user's browser runs it.
	it('shows the reason as text, never as markup', async () => {
		const responseBody = String(nodeOf('card-payment.json', 'Payment Refused').parameters.responseBody);
		const error = 'Invalid holder <img src=x onerror=alert(document.cookie)> & "<script>x</script>"';
		const result = await runWorkflow({ nodeType: TextStandIn, parameters: { responseBody }, items: [{ error }] });
		if (result.error) throw new Error(result.error.message);
		const text = String(result.items[0].json.text);
		expect(text).toBe(
			'<!doctype html><title>Payment refused</title><p>The payment could not be started: Invalid holder &lt;img src=x onerror=alert(document.cookie)&gt; &amp; &quot;&lt;script&gt;x&lt;/script&gt;&quot;</p>',
		);
		const plain = await runWorkflow({ nodeType: TextStandIn, parameters: { responseBody }, items: [{ error: 'Card number (cardNumber) fails its check digit' }] });
		expect(String(plain.items[0].json.text)).toContain('could not be started: Card number (cardNumber) fails its check digit</p>');
	});
});
