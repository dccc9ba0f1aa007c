import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * Every resource and its operations. The description's Resource and Operation lists may offer only these, and the
 * router must run each of them: an operation offered but not run fails to compile.
 */
export type PaymentGatewayMap = {
	order: 'create' | 'createCheckout';
	transaction: 'initiate' | 'refund';
	status: 'getByOrderId' | 'getByPaymentId' | 'verifySignature';
	digitalCard: 'getMany' | 'get' | 'delete';
};

export type Resource = keyof PaymentGatewayMap;

/** An entry of the Resource list. */
export type ResourceOption = INodePropertyOptions & { value: Resource };

/** An entry of a resource's Operation list. */
export type OperationOption<R extends Resource> = INodePropertyOptions & { value: PaymentGatewayMap[R] };
