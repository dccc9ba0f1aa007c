import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { nodeProperties, subtitle } from './actions/description';
import { router } from './actions/router';
import { searchStoredCards } from './listSearch/storedCards';
import { CREDENTIAL_TEST_NAME, testGatewayCredential } from './transport/credentialTest';

export class PaymentGateway implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payment Gateway',
		name: 'paymentGateway',
		icon: { light: 'file:paymentGateway.svg', dark: 'file:paymentGateway.dark.svg' },
		group: ['transform'],
		version: 1,
		// What the node does, in the words of the chosen operation's action.
		subtitle,
		description:
			'Take card payments through the payment gateway: create orders, initiate card or stored-card payments, check payment status and manage stored cards',
		defaults: { name: 'Payment Gateway' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'paymentGatewayApi', required: true, testedBy: 'paymentGatewayApiTest' }],
		properties: nodeProperties,
	};

	methods = {
		listSearch: { searchStoredCards },
		credentialTest: { [CREDENTIAL_TEST_NAME]: testGatewayCredential },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
