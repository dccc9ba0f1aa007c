'use strict';

// What real n8n adds to every getCredentials call that the in-memory harness does not: decrypting the stored
// credential with n8n-core's Cipher (Credentials.getData). The key provider here is in memory; n8n's own reads its
// keys from the database, and n8n reads the credential row itself from the database on every call too.

const path = require('node:path');

const coreDir = path.dirname(require.resolve('n8n-core/package.json'));
const { Container } = require(require.resolve('@n8n/di', { paths: [coreDir] }));
const core = require('n8n-core');
const { EncryptionKeyProxy } = require(path.join(coreDir, 'dist/encryption/encryption-key-proxy.js'));

/** Microseconds per Credentials.getData() of `data`, after a warm-up (harness set-up must have run). */
async function decryptMicroseconds(data, calls = 5000) {
	const cipher = Container.get(core.Cipher);
	const instanceKey = Container.get(core.InstanceSettings).encryptionKey;
	const legacyKey = {
		id: 'legacy',
		value: cipher.encryptDEKWithInstanceKey(instanceKey),
		algorithm: 'aes-256-cbc',
		format: 'no-prefix',
	};
	Container.get(EncryptionKeyProxy).setProvider({
		getActiveKey: async () => legacyKey,
		getLegacyKey: async () => legacyKey,
		getKeyById: async () => legacyKey,
	});
	const credentials = new core.Credentials({ id: 'bench', name: 'bench' }, 'paymentGatewayApi');
	await credentials.setData(data);
	for (let index = 0; index < 500; index++) await credentials.getData();
	const start = process.hrtime.bigint();
	for (let index = 0; index < calls; index++) await credentials.getData();
	return Number(process.hrtime.bigint() - start) / 1000 / calls;
}

module.exports = { decryptMicroseconds };
