'use strict';

// Prints every table of an n8n sqlite database as JSON, [{ table, primaryKey, rows }], read-only with node:sqlite.
// Runs under n8n's own Node.js (22.13 or later): `node sqlite-tables.js <database file>`.

const { DatabaseSync } = require('node:sqlite');

const db = new DatabaseSync(process.argv[2], { readOnly: true });
const all = (sql, ...values) => db.prepare(sql).all(...values);
const tables = all("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map(({ name }) => {
	const keys = all('SELECT name, pk FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk', name).map((column) => column.name);
	// A table without a primary key still has a rowid to tell its rows apart.
	const primaryKey = keys.length ? keys : ['rowid'];
	const rows = all(`SELECT ${keys.length ? '' : 'rowid, '}* FROM "${name.replaceAll('"', '""')}"`);
	// Blobs as text: a secret in one must be found too.
	for (const row of rows) {
		for (const [column, value] of Object.entries(row)) if (value instanceof Uint8Array) row[column] = Buffer.from(value).toString('latin1');
	}
	return { table: name, primaryKey, rows };
});
db.close();
process.stdout.write(JSON.stringify(tables));
