/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
import type { INode, INodeParameters, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import fs from 'node:fs';
import path from 'node:path';

import { OPERATIONS } from '../../nodes/PaymentGateway/actions/description';
import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import { PaymentGatewayTrigger } from '../../nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node';

// The node's description as the editor shows it: one typeVersion and the defaults it fills in, subtitles that say
// what the node does, in the words of each operation's action, and the identifiers shared by several operations
// defined once.

const { description } = new PaymentGateway();

function actions(): Record<string, string> {
	const found: Record<string, string> = {};
	for (const property of description.properties) {
		const resource = property.name === 'operation' ? property.displayOptions?.show?.resource?.[0] : undefined;
		for (const option of (resource ? property.options : []) as INodePropertyOptions[]) {
			found[`${String(resource)}:${String(option.value)}`] = option.action!;
		}
	}
	return found;
}

describe('one typeVersion, and what the editor fills in', () => {
	const trigger = new PaymentGatewayTrigger().description;
	const node = { typeVersion: 1 } as INode;

	/** What the editor fills in for these choices, as n8n computes it. */
	const editorDefaults = (choices: INodeParameters) =>
		NodeHelpers.getNodeParameters(description.properties, choices, true, false, node, description) ?? {};

	/** An option of the Options collection the editor shows for these choices. */
	function option(choices: INodeParameters, name: string): INodeProperties | undefined {
		const shown = description.properties.filter(
			(property) => property.name === 'options' && NodeHelpers.displayParameter(choices, property, node, description),
		);
		expect(shown).toHaveLength(1);
		return (shown[0].options as INodeProperties[]).find((entry) => entry.name === name);
	}

	it('the node and the trigger declare typeVersion 1 only, and no field depends on a typeVersion', () => {
		for (const { version, defaultVersion } of [description, trigger]) expect([version, defaultVersion]).toEqual([1, undefined]);
		expect(JSON.stringify([description, trigger])).not.toContain('@version');
	});

	it('Status → Verify Signature: Confirm With Gateway starts on', () => {
		expect(editorDefaults({ resource: 'status', operation: 'verifySignature' }).confirmWithGateway).toBe(true);
	});

	it("Order → Create Checkout: Redirect Type starts at redirect (the live gateway's clients send it)", () => {
		expect(editorDefaults({ resource: 'order', operation: 'createCheckout' }).redirectType).toBe('redirect');
	});

	it('an order and a refund amount start empty', () => {
		expect(editorDefaults({ resource: 'order', operation: 'create' }).amount).toBe('');
		expect(editorDefaults({ resource: 'order', operation: 'createCheckout' }).amount).toBe('');
		expect(editorDefaults({ resource: 'transaction', operation: 'refund' }).amount).toBe('');
	});

	// Every read with Options: the router's list, so that a new one is checked as it is added.
	const reads = OPERATIONS.filter((operation) => !operation.sendsOnce && operation.options !== false);
	it.each(reads.map(({ resource, value }) => ({ resource, operation: value })))('$resource → $operation: Concurrency, added, starts at 50 and says that leaving it out adapts; Max Retries starts at 3', (choices) => {
		const concurrency = option(choices, 'concurrency');
		expect(concurrency?.default).toBe(50);
		expect(concurrency?.description).toMatch(/^Leave this option out and the node finds the gateway's pace itself/);
		expect(concurrency?.description).toMatch(/never above 100\. Set, exactly this many go at once/);
		expect(option(choices, 'maxRetries')?.default).toBe(3);
	});

	it('the trigger: Ignore Repeats starts on', () => {
		const options = trigger.properties.find((property) => property.name === 'options')?.options as INodeProperties[];
		expect(options.find((entry) => entry.name === 'ignoreRepeats')?.default).toBe(true);
	});
});

describe('the subtitle', () => {
	it("is the chosen operation's action, for every operation", () => {
		const map = /^=\{\{ (\{.*\})\[\$parameter\["resource"\] \+ ":" \+ \$parameter\["operation"\]\] \}\}$/.exec(description.subtitle!);
		expect(map).not.toBeNull();
		expect(JSON.parse(map![1])).toEqual(actions());
	});

	it('every action is a sentence that says what the operation does', () => {
		for (const action of Object.values(actions())) expect(action).toMatch(/^[A-Z][a-z]+ [a-z]/);
		expect(Object.keys(actions())).toHaveLength(OPERATIONS.length);
	});
});

describe('identifiers several operations ask for are defined once', () => {
	const definitions = (name: string) => description.properties.filter((property) => property.name === name);
	const shape = ({ displayName, type, placeholder, modes }: INodeProperties) => ({ displayName, type, placeholder, modes });

	it.each(['orderId', 'paymentId', 'customerId', 'digitalCardId'])('%s looks the same wherever it is asked', (name) => {
		const found = definitions(name);
		expect(found.length).toBeGreaterThan(1);
		for (const definition of found) expect(shape(definition)).toEqual(shape(found[0]));
	});

	it('Digital Card is a resource locator: From list first, then By ID', () => {
		for (const definition of definitions('digitalCardId')) {
			expect(definition.type).toBe('resourceLocator');
			expect(definition.modes?.map((mode) => mode.name)).toEqual(['list', 'id']);
			expect(definition.modes?.[0].typeOptions?.searchListMethod).toBe('searchStoredCards');
		}
		expect(new PaymentGateway().methods.listSearch.searchStoredCards).toEqual(expect.any(Function));
	});
});

describe('money fields keep what is typed', () => {
	// The editor rounds a number field to its numberPrecision as it is typed (1.2345 became 1.235, and an order for
	// 1.235 OMR was made) and puts back the old value for one below minValue (-5): the check when running refuses both.
	const money = description.properties.filter((property) => ['amount', 'toolMaxAmount', 'toolMaxTotal'].includes(property.name));

	it('no money field has a display precision or a minimum', () => {
		expect(money.length).toBeGreaterThanOrEqual(6);
		for (const field of money) {
			expect([field.name, field.typeOptions?.numberPrecision, field.typeOptions?.minValue]).toEqual([field.name, undefined, undefined]);
		}
	});
});

describe('the operations', () => {
	it('every operation file is listed in actions/operations.ts', async () => {
		const actionsDir = path.join(__dirname, '../../nodes/PaymentGateway/actions');
		const files = fs.readdirSync(actionsDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.operation.ts'));
		const listed = new Set<unknown>(OPERATIONS);
		expect(files.length).toBe(OPERATIONS.length);
		for (const file of files) {
			const module = (await import(path.join(actionsDir, file))) as { operation: unknown };
			expect({ file, listed: listed.has(module.operation) }).toEqual({ file, listed: true });
		}
	});
});

describe('the node picker', () => {
	// n8n 2.41's node picker lists a node and its trigger (the same name, "Trigger" added) as one entry and shows the
	// trigger's description for it (its editor's generateMergedNodesAndActions), "What happens next?" after a trigger
	// included: `npm run e2e:editor` reads it there and under "What triggers this workflow?".
	it("shows, for the one entry it makes of the node and the trigger, the node's own description first, then the trigger's part", () => {
		const trigger = new PaymentGatewayTrigger().description;
		expect(trigger.name.replace('Trigger', '')).toBe(description.name);
		expect(trigger.description.startsWith(`${description.description}; `)).toBe(true);
		expect(trigger.description.slice(description.description.length)).toMatch(/start a workflow when it notifies a payment or a refund$/);
		expect(description.description).toMatch(/refunds/);
	});
});
