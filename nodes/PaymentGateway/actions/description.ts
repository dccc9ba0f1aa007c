import type { INodeProperties } from 'n8n-workflow';

import type { Operation, Resource } from './operation';
import { RESOURCES } from './operation';
import * as registry from './operations';

/** Every operation, in the order of the node's fields; two of the same resource and value would run the wrong one. */
export const OPERATIONS: readonly Operation[] = Object.values(registry);
const keys = OPERATIONS.map((operation) => `${operation.resource}:${operation.value}`);
const repeated = keys.find((key, index) => keys.indexOf(key) !== index);
if (repeated) throw new Error(`Two operations are registered as ${repeated}`);

type Registered = (typeof registry)[keyof typeof registry];

/** The operations of each resource, by value: a resource's default operation that it does not have fails to compile. */
export type PaymentGatewayMap = { [R in Resource]: Extract<Registered, { resource: R }>['value'] };
const defaults: { [R in Resource]: PaymentGatewayMap[R] } = {
	order: RESOURCES.order.defaultOperation,
	transaction: RESOURCES.transaction.defaultOperation,
	status: RESOURCES.status.defaultOperation,
	digitalCard: RESOURCES.digitalCard.defaultOperation,
};

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
const resources = Object.keys(RESOURCES) as Resource[];

/** The Resource list, then each resource's Operation list and the fields of its operations. */
export const nodeProperties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: resources.map((value) => ({ name: RESOURCES[value].name, value, description: RESOURCES[value].description })).sort(byName),
		default: 'order',
	},
	...resources.flatMap((resource): INodeProperties[] => {
		const operations = OPERATIONS.filter((operation) => operation.resource === resource);
		const defaultOperation = defaults[resource];
		return [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				default: defaultOperation,
				displayOptions: { show: { resource: [resource] } },
				options: operations
					.map(({ name, value, description, action }) => ({ name, value, description, action }))
					.sort(byName),
			},
			...operations.flatMap((operation) => operation.fields),
		];
	}),
];

/** The node's subtitle: the chosen operation's action. */
export const subtitle = `={{ ${JSON.stringify(
	Object.fromEntries(OPERATIONS.map((operation) => [`${operation.resource}:${operation.value}`, operation.action])),
)}[$parameter["resource"] + ":" + $parameter["operation"]] }}`;
