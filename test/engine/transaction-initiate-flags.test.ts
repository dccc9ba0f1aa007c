import { createDecipheriv } from 'node:crypto';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { PaymentGatewayApi } from '../../credentials/PaymentGatewayApi.credentials';
import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import { encryptCardDetails } from '../../nodes/PaymentGateway/transport/crypto';
import { operation as initiate } from '../../nodes/PaymentGateway/actions/transaction/initiate.operation';
import { openGateway } from '../../nodes/PaymentGateway/transport/request';
import { runWorkflow } from '../support/engine';
import { createOrder, futureYear, initiateParameters, runNode, sandboxCredentials, useSandbox } from '../support/fixtures';
import { standInDescription } from '../support/stand-in';

// The spec's flag table for Transaction → Initiate: every row the node lets a user choose, read back from the
// request the sandbox received, with the encrypted card details decrypted here; and the refused row
// (both skip flags true), which the node cannot choose and the transport will not send.

const sandbox = useSandbox();

function initiateRequests() {
	return sandbox.requests.filter((request) => request.apiPath === '/transaction/initiate');
}

function decryptCardDetails(encrypted: string): IDataObject {
	const match = /^([0-9a-f]{32})\.([0-9a-f]+)$/.exec(encrypted);
	if (!match) throw new Error('encryptedCardDetails is not ivHex.cipherHex');
	const decipher = createDecipheriv('aes-256-cbc', Buffer.from(sandbox.cardEncryptionKey, 'hex'), Buffer.from(match[1], 'hex'));
	const plain = Buffer.concat([decipher.update(Buffer.from(match[2], 'hex')), decipher.final()]);
	return JSON.parse(plain.toString('utf8')) as IDataObject;
}

/** Runs one initiation and returns the body the sandbox received (and the node's output). */
async function initiateAndReadBody(orderId: string, overrides: IDataObject) {
	sandbox.clearLog();
	const result = await runNode(sandbox, initiateParameters(orderId, overrides));
	expect(result.error).toBeUndefined();
	const sent = initiateRequests();
	expect(sent).toHaveLength(1);
	expect(sent[0].status).toBe(200);
	return { body: JSON.parse(sent[0].body) as IDataObject, output: result.items[0].json };
}

/** A card stored for the fixture customer, for the token rows. */
async function storedDigitalCardId(): Promise<string> {
	const orderId = await createOrder(sandbox);
	const result = await runNode(sandbox, initiateParameters(orderId, { secureCard: true }));
	expect(result.error).toBeUndefined();
	return (result.items[0].json.securedCardDetails as IDataObject).digitalCardId as string;
}

const rows = [
	{ customerAuthentication: 'cvvAndOtp', skipCVVandOTP: false, skipCVVOnlyFlag: false },
	{ customerAuthentication: 'none', skipCVVandOTP: true, skipCVVOnlyFlag: false },
	{ customerAuthentication: 'otpOnly', skipCVVandOTP: false, skipCVVOnlyFlag: true },
] as const;

describe('transaction.initiate: flag table, card mode with Secure Card', () => {
	it.each(rows)(
		'customerAuthentication $customerAuthentication → skipCVVandOTP $skipCVVandOTP, skipCVVOnlyFlag $skipCVVOnlyFlag',
		async ({ customerAuthentication, skipCVVandOTP, skipCVVOnlyFlag }) => {
			const orderId = await createOrder(sandbox);
			const { body, output } = await initiateAndReadBody(orderId, {
				customerAuthentication,
				secureCard: true,
				cardNumber: '4111-1111 1111-1111',
				cardExpMonth: '3',
				cardExpYear: `20${futureYear}`,
				cardCVV: '321',
				cardHolderName: 'Jane Q. Doe',
				redirectionUrl: 'https://shop.example.com/payment/done?order=42',
			});

			expect(body).toEqual({
				orderId,
				encryptedCardDetails: expect.stringMatching(/^[0-9a-f]{32}\.[0-9a-f]+$/),
				paymentMethod: 'card',
				cardHolderName: 'Jane Q. Doe',
				redirectionUrl: 'https://shop.example.com/payment/done?order=42',
				paymentMode: 'card',
				secureCard: true,
				skipCVVandOTP,
				skipCVVOnlyFlag,
				apiType: 'hosted',
			});
			expect(decryptCardDetails(body.encryptedCardDetails as string)).toEqual({
				cardNumber: '4111111111111111',
				cardExpMonth: '03',
				cardExpYear: futureYear,
				cardCVV: '321',
			});
			expect(output.securedCardDetails).toEqual({
				customerId: expect.stringMatching(/^cus_/),
				digitalCardId: expect.stringMatching(/^dc_/),
			});
		},
	);

	it('Secure Card off sends secureCard false and outputs no securedCardDetails', async () => {
		const orderId = await createOrder(sandbox);
		const { body, output } = await initiateAndReadBody(orderId, { secureCard: false });
		expect(body).toMatchObject({ paymentMode: 'card', secureCard: false, skipCVVandOTP: false, skipCVVOnlyFlag: false });
		expect(output).not.toHaveProperty('securedCardDetails');
	});

	it('every initiation gets a fresh IV', async () => {
		const first = await initiateAndReadBody(await createOrder(sandbox), {});
		const second = await initiateAndReadBody(await createOrder(sandbox), {});
		const ivOf = (body: IDataObject) => (body.encryptedCardDetails as string).split('.')[0];
		expect(ivOf(first.body)).not.toBe(ivOf(second.body));
		expect(decryptCardDetails(first.body.encryptedCardDetails as string)).toEqual(
			decryptCardDetails(second.body.encryptedCardDetails as string),
		);
	});
});

describe('transaction.initiate: flag table, token mode', () => {
	it.each(rows)(
		'customerAuthentication $customerAuthentication → skipCVVandOTP $skipCVVandOTP, skipCVVOnlyFlag $skipCVVOnlyFlag',
		async ({ customerAuthentication, skipCVVandOTP, skipCVVOnlyFlag }) => {
			const digitalCardId = await storedDigitalCardId();
			const orderId = await createOrder(sandbox, { amount: 9.99 });
			const { body, output } = await initiateAndReadBody(orderId, {
				paymentMode: 'token',
				digitalCardId,
				customerAuthentication,
				cardCVV: '456',
			});

			expect(body).toEqual({
				orderId,
				encryptedCardDetails: expect.stringMatching(/^[0-9a-f]{32}\.[0-9a-f]+$/),
				paymentMethod: 'card',
				cardHolderName: 'Jane Doe',
				redirectionUrl: 'https://shop.example.com/payment/done',
				paymentMode: 'token',
				secureCard: false,
				skipCVVandOTP,
				skipCVVOnlyFlag,
				apiType: 'hosted',
			});
			expect(decryptCardDetails(body.encryptedCardDetails as string)).toEqual({ cardCVV: '456', digitalCardId });
			expect(output).toMatchObject({ orderId, paymentStatus: 'pending', amount: 9.99 });
			expect(output).not.toHaveProperty('securedCardDetails');
		},
	);

	it('without authentication the stored-card payment settles at once (status says success)', async () => {
		const digitalCardId = await storedDigitalCardId();
		const orderId = await createOrder(sandbox);
		const { output } = await initiateAndReadBody(orderId, {
			paymentMode: 'token',
			digitalCardId,
			customerAuthentication: 'none',
			cardCVV: '',
		});
		const status = await runNode(sandbox, { resource: 'status', operation: 'getByOrderId', orderId });
		expect(status.error).toBeUndefined();
		expect(status.items[0].json).toMatchObject({ orderId, paymentId: output.paymentId, status: 'success' });
	});
});

describe('transaction.initiate: both skip flags true cannot be sent', () => {
	const authenticationProperty = () => {
		const properties = new PaymentGateway().description.properties;
		const matches = properties.filter((property) => property.name === 'customerAuthentication');
		// The second is the tool's (shown only with '@tool', OTP Only alone), checked in tool-mode.test.ts.
		expect(matches.map((property) => Object.keys(property.displayOptions?.show ?? {}).includes('@tool'))).toEqual([false, true]);
		return { properties, property: matches[0] };
	};

	it('the node offers exactly three authentication choices, one option, no way to set the flags directly', () => {
		const { properties, property } = authenticationProperty();
		expect(property.type).toBe('options');
		expect(property.displayOptions?.show).toMatchObject({ resource: ['transaction'], operation: ['initiate'] });
		const values = (property.options as INodePropertyOptions[]).map((option) => option.value);
		expect(values.sort()).toEqual(['cvvAndOtp', 'none', 'otpOnly']);
		const names = properties.map((entry) => entry.name);
		expect(names).not.toContain('skipCVVandOTP');
		expect(names).not.toContain('skipCVVOnlyFlag');
	});

	it('each choice sets at most one skip flag (read from the requests sent)', async () => {
		const { property } = authenticationProperty();
		const seen: Record<string, [boolean, boolean]> = {};
		for (const option of property.options as INodePropertyOptions[]) {
			const orderId = await createOrder(sandbox);
			const { body } = await initiateAndReadBody(orderId, { customerAuthentication: option.value });
			seen[option.value as string] = [body.skipCVVandOTP as boolean, body.skipCVVOnlyFlag as boolean];
		}
		expect(seen).toEqual({ cvvAndOtp: [false, false], otpOnly: [false, true], none: [true, false] });
		for (const flags of Object.values(seen)) expect(flags.filter(Boolean).length).toBeLessThanOrEqual(1);
	});

	it('an expression giving another value is refused before anything is sent', async () => {
		const orderId = await createOrder(sandbox);
		sandbox.clearLog();
		const result = await runNode(sandbox, initiateParameters(orderId, { customerAuthentication: '={{ $json.auth }}' }), [
			{ auth: 'both' },
		]);
		expect(result.error).toMatchObject({ name: 'NodeOperationError' });
		expect(result.error?.message).toContain('customerAuthentication');
		expect(result.error?.message).toContain('[item 0]');
		expect(sandbox.requests).toEqual([]);
	});

	/** A throwaway node that sends an initiation body through the package's one transport. */
	function probeNode(flags: { skipCVVandOTP: boolean; skipCVVOnlyFlag: boolean }, orderId: string) {
		return class TransportProbe implements INodeType {
			description: INodeTypeDescription = standInDescription('Transport Probe', 'Sends one initiation body through the transport', {
				credentials: [{ name: 'paymentGatewayApi', required: true }],
			});

			async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
				const body: IDataObject = {
					orderId,
					encryptedCardDetails: encryptCardDetails(
						{ cardNumber: '4111111111111111', cardExpMonth: '12', cardExpYear: futureYear, cardCVV: '123' },
						sandbox.cardEncryptionKey,
					),
					paymentMethod: 'card',
					cardHolderName: 'Jane Doe',
					redirectionUrl: 'https://shop.example.com/payment/done',
					paymentMode: 'card',
					secureCard: true,
					...flags,
					apiType: 'hosted',
				};
				const gateway = await openGateway(this, initiate.endpoint);
				const data = await gateway.request(
					{ method: 'POST', family: 'short', path: '/transaction/initiate', body },
					{ itemIndex: 0 },
				);
				return [[{ json: data, pairedItem: { item: 0 } }]];
			}
		};
	}

	const runProbe = async (flags: { skipCVVandOTP: boolean; skipCVVOnlyFlag: boolean }, orderId: string) =>
		await runWorkflow({
			nodeType: probeNode(flags, orderId),
			credentialType: PaymentGatewayApi,
			credentials: sandboxCredentials(sandbox),
		});

	it('the transport refuses a body with both flags true and sends nothing', async () => {
		const orderId = await createOrder(sandbox);
		sandbox.clearLog();

		const result = await runProbe({ skipCVVandOTP: true, skipCVVOnlyFlag: true }, orderId);

		expect(result.status).toBe('error');
		expect(result.items).toEqual([]);
		expect(result.error).toMatchObject({
			name: 'NodeOperationError',
			message: expect.stringContaining('skipCVVandOTP and skipCVVOnlyFlag cannot both be true'),
			context: expect.objectContaining({ itemIndex: 0 }),
		});
		expect(sandbox.requests).toEqual([]);
	});

	it('the same probe with one flag reaches the gateway (so the refusal above is the transport’s)', async () => {
		const orderId = await createOrder(sandbox);
		sandbox.clearLog();

		const result = await runProbe({ skipCVVandOTP: false, skipCVVOnlyFlag: true }, orderId);

		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ orderId, paymentStatus: 'pending' });
		expect(sandbox.requests).toHaveLength(1);
		expect(JSON.parse(sandbox.requests[0].body)).toMatchObject({ skipCVVandOTP: false, skipCVVOnlyFlag: true });
	});
});
