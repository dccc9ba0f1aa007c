// Records of the gateway as the tests expect them, where the sandbox's tests and the node's agree on one.

/** A stored Visa test card (4111 1111 1111 1111) as the gateway lists it. */
export const storedVisa = (digitalCardId: unknown) => ({
	digitalCardId,
	network: 'visa',
	cardType: 'credit',
	status: 'ACTIVE',
	panLastFour: '1111',
	createdAt: expect.any(String),
	updatedAt: expect.any(String),
});
