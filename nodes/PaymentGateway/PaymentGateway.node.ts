import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { nodeProperties, subtitle } from './actions/description';
import { router } from './actions/router';
import { searchStoredCards } from './listSearch/storedCards';
import { CREDENTIAL_TEST_NAME, testGatewayCredential } from './credentialTest';

/** What the node does, in the node picker and where n8n offers it as an AI Agent's tool. */
export const NODE_DESCRIPTION =
	'Take card payments through the payment gateway: orders, hosted checkout, card and stored-card payments, refunds, payment status and stored cards';

export class PaymentGateway implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payment Gateway',
		name: 'paymentGateway',
		icon: { light: 'file:paymentGateway.svg', dark: 'file:paymentGateway.dark.svg' },
		group: ['transform'],
		version: 1,
		// What the node does, in the words of the chosen operation's action.
		subtitle,
		description: NODE_DESCRIPTION,
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
