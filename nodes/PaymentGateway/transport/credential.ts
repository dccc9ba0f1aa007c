import type { IAdditionalCredentialOptions, ICredentialDataDecryptedObject, INode } from 'n8n-workflow';

import { anyText, stringText } from '../helpers/text';
import { baseAddresses, cardEncryptionKey, checkedCheckoutPageAddress } from '../validation/credential';
import { merchantHeaders } from './headers';
import type { SecretValues } from './redact';
import type { GatewayHost } from './types';

export const CREDENTIAL_NAME = 'paymentGatewayApi';

/** The Payment Gateway API credential as one execution uses it, read once for every item and worker. */
export interface GatewayCredential {
	readonly clientId: string;
	readonly clientSecret: string;
	/** n8n's id of the credential: another credential with the same client id is another one. */
	readonly credentialId: string;
	/**
	 * The hosted checkout page, when the credential names one; throws InvalidCredential when it breaks the Base URLs'
	 * rules, so it is checked where it is used, not only by the credential's Test.
	 */
	checkoutPage(): string | undefined;
	/** What no text shown may quote, in any encoding. */
	readonly secrets: SecretValues;
	/** The merchant headers every request carries unless an item overrides one. */
	readonly headers: Record<string, string>;
	/** Handing the decrypted credential to the request helper saves decrypting it again for every request. */
	readonly helperOptions: IAdditionalCredentialOptions;
	/** Where each path family is sent; throws InvalidCredential, so it is checked when the first request is made. */
	bases(): { short: string; long: string };
	/** The credential field that gives a path family's address, as a user finds it in the dialog. */
	fieldOf(family: 'short' | 'long'): string;
	/** The decoded card encryption key; throws InvalidCredential when it is not 64 hexadecimal characters. */
	cardKey(): Buffer;
}

/** The credential's values no text may show, as the credential's authenticate() signs with them. */
export function secretsOf(credentials: ICredentialDataDecryptedObject): SecretValues {
	return {
		clientId: anyText(credentials.clientId),
		clientSecret: anyText(credentials.clientSecret),
		cardEncryptionKey: anyText(credentials.cardEncryptionKey),
	};
}

export async function readCredential(host: GatewayHost, node: INode): Promise<GatewayCredential> {
	const credentials: ICredentialDataDecryptedObject = await host.getCredentials(CREDENTIAL_NAME);
	const credentialRef = node.credentials?.[CREDENTIAL_NAME];
	let bases: { short: string; long: string } | undefined;
	let cardKey: Buffer | undefined;
	let checkoutPage: { address: string | undefined } | undefined;
	return {
		clientId: stringText(credentials.clientId),
		clientSecret: stringText(credentials.clientSecret),
		credentialId: credentialRef?.id ?? '',
		secrets: secretsOf(credentials),
		headers: merchantHeaders(credentials),
		helperOptions: {
			credentialsDecrypted: {
				id: credentialRef?.id ?? '',
				name: credentialRef?.name ?? '',
				type: CREDENTIAL_NAME,
				data: credentials,
			},
		},
		bases: () => (bases ??= baseAddresses(credentials)),
		fieldOf: (family) => (family === 'long' && stringText(credentials.checkoutBaseUrl) ? 'Checkout Base URL' : 'Base URL'),
		cardKey: () => (cardKey ??= cardEncryptionKey(credentials.cardEncryptionKey)),
		checkoutPage: () => (checkoutPage ??= { address: checkedCheckoutPageAddress(credentials) }).address,
	};
}
