import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as digitalCard from './actions/digitalCard';
import * as order from './actions/order';
import { router } from './actions/router';
import * as status from './actions/status';
import * as transaction from './actions/transaction';

export class PaymentGateway implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payment Gateway',
		name: 'paymentGateway',
		icon: { light: 'file:paymentGateway.svg', dark: 'file:paymentGateway.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Take card payments through the payment gateway: create orders, initiate card or stored-card payments, check payment status and manage stored cards',
		defaults: { name: 'Payment Gateway' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'paymentGatewayApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Digital Card', value: 'digitalCard', description: "A customer's stored (tokenized) card" },
					{ name: 'Order', value: 'order', description: 'An amount to be paid by a customer' },
					{ name: 'Status', value: 'status', description: 'The payment status of an order or payment' },
					{ name: 'Transaction', value: 'transaction', description: 'A payment of an order with a card' },
				],
				default: 'order',
			},
			...order.description,
			...transaction.description,
			...status.description,
			...digitalCard.description,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
