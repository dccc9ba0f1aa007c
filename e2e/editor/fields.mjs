// What the editor must show: the public parameter and credential field names (saved workflows use them) with their labels.

/** Contract parameter names with the labels the editor shows for them. */
export const CARD_MODE_FIELDS = [
	['orderId', 'Order ID'],
	['paymentMode', 'Payment Mode'],
	['cardNumber', 'Card Number'],
	['cardExpMonth', 'Expiry Month'],
	['cardExpYear', 'Expiry Year'],
	['cardCVV', 'CVV'],
	['cardHolderName', 'Card Holder Name'],
	['redirectionUrl', 'Redirection URL'],
	['secureCard', 'Secure Card'],
	['customerAuthentication', 'Customer Authentication'],
];
/** Digital Card is a resource locator (From List, By ID) rather than a plain input. */
export const TOKEN_ONLY_FIELDS = [['digitalCardId', 'Digital Card']];
export const CARD_ONLY_FIELDS = [
	['cardNumber', 'Card Number'],
	['cardExpMonth', 'Expiry Month'],
	['cardExpYear', 'Expiry Year'],
	['secureCard', 'Secure Card'],
];
export const TOKEN_MODE_FIELDS = CARD_MODE_FIELDS.filter(([name]) => !CARD_ONLY_FIELDS.some(([card]) => card === name)).concat(
	TOKEN_ONLY_FIELDS,
);
export const CREDENTIAL_FIELDS = [
	['baseUrl', 'Base URL'],
	['checkoutBaseUrl', 'Checkout Base URL'],
	['clientId', 'Client ID'],
	['clientSecret', 'Client Secret'],
	['cardEncryptionKey', 'Card Encryption Key'],
	['merchantDomain', 'Merchant Domain'],
	['merchantIp', 'Merchant IP'],
	['browserFingerprint', 'Default Browser Fingerprint'],
	['userAgent', 'Default User Agent'],
	['acceptLanguage', 'Default Accept-Language'],
];
