import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as digitalCard from './actions/digitalCard';
import type { ResourceOption } from './actions/node.type';
import * as order from './actions/order';
import { router } from './actions/router';
import { NEWEST_VERSION, NODE_VERSIONS } from './actions/versions';
import * as status from './actions/status';
import * as transaction from './actions/transaction';
import { searchStoredCards } from './listSearch/storedCards';
import { CREDENTIAL_TEST_NAME, testGatewayCredential } from './transport/credentialTest';

const resourceOptions: ResourceOption[] = [
	{ name: 'Digital Card', value: 'digitalCard', description: "A customer's stored (tokenized) card" },
	{ name: 'Order', value: 'order', description: 'An amount to be paid by a customer' },
	{ name: 'Status', value: 'status', description: 'The payment status of an order or payment' },
	{ name: 'Transaction', value: 'transaction', description: 'A payment of an order with a card' },
];

export class PaymentGateway implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payment Gateway',
		name: 'paymentGateway',
		icon: { light: 'file:paymentGateway.svg', dark: 'file:paymentGateway.dark.svg' },
		group: ['transform'],
		version: NODE_VERSIONS,
		defaultVersion: NEWEST_VERSION,
		// What the node does, in the words of the chosen operation's action (a test keeps the two the same).
		subtitle:
			'={{ {"order:create": "Create an order", "order:createCheckout": "Create an order for the hosted checkout page", "transaction:initiate": "Charge a card for an order", "transaction:refund": "Refund a payment", "status:getByOrderId": "Get the payment status of an order", "status:getByPaymentId": "Get the status of a payment", "status:verifySignature": "Verify a payment signature", "digitalCard:getMany": "Get many stored cards", "digitalCard:get": "Get a stored card", "digitalCard:delete": "Delete a stored card"}[$parameter["resource"] + ":" + $parameter["operation"]] }}',
		description:
			'Take card payments through the payment gateway: create orders, initiate card or stored-card payments, check payment status and manage stored cards',
		defaults: { name: 'Payment Gateway' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'paymentGatewayApi', required: true, testedBy: 'paymentGatewayApiTest' }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: resourceOptions,
				default: 'order',
			},
			...order.description,
			...transaction.description,
			...status.description,
			...digitalCard.description,
		],
	};

	methods = {
		listSearch: { searchStoredCards },
		credentialTest: { [CREDENTIAL_TEST_NAME]: testGatewayCredential },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
