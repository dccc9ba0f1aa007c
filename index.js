'use strict';

// Entry point for code that requires the package: the node and credential
// classes n8n loads through the "n8n" block of package.json. n8n itself reads
// that block and never this file. Only relative requires here: the package
// scan lints every .js file of the published tarball with n8n Cloud's rules.

const { PaymentGateway } = require('./dist/nodes/PaymentGateway/PaymentGateway.node.js');
const { PaymentGatewayApi } = require('./dist/credentials/PaymentGatewayApi.credentials.js');

const TRIGGER = './dist/nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node.js';

module.exports = { PaymentGateway, PaymentGatewayApi };

// A build without the trigger still loads; a trigger that fails to load is an error.
if (isBuilt(TRIGGER)) {
	module.exports.PaymentGatewayTrigger = require(TRIGGER).PaymentGatewayTrigger;
}

function isBuilt(file) {
	try {
		require.resolve(file);
		return true;
	} catch (error) {
		if (error.code === 'MODULE_NOT_FOUND') return false;
		throw error;
	}
}
