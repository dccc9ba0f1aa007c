'use strict';

// Prints every table of an n8n sqlite database as JSON: [{ table, primaryKey, rows }].
// Runs under n8n's Node.js with the sqlite3 module of the n8n install (compiled for that Node), read-only.
//
//   node sqlite-tables.js <n8n install dir> <database file>

const { createRequire } = require('node:module');
const path = require('node:path');

const [n8nDir, databaseFile] = process.argv.slice(2);
const sqlite3 = createRequire(path.join(n8nDir, 'package.json'))('sqlite3');

const db = new sqlite3.Database(databaseFile, sqlite3.OPEN_READONLY);
const all = (sql) => new Promise((resolve, reject) => db.all(sql, (error, rows) => (error ? reject(error) : resolve(rows))));
const identifier = (name) => `"${name.replaceAll('"', '""')}"`;
const literal = (text) => `'${text.replaceAll("'", "''")}'`;

async function main() {
	const tables = [];
	for (const { name } of await all("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
		const columns = await all(`SELECT name, pk FROM pragma_table_info(${literal(name)})`);
		let primaryKey = columns
			.filter((column) => column.pk > 0)
			.sort((a, b) => a.pk - b.pk)
			.map((column) => column.name);
		// A table without a primary key still has a rowid to tell its rows apart.
		if (primaryKey.length === 0) primaryKey = ['rowid'];
		const rows = await all(`SELECT ${primaryKey[0] === 'rowid' ? 'rowid, ' : ''}* FROM ${identifier(name)}`);
		// Blobs as text: a secret in one must be found too.
		for (const row of rows) {
			for (const [column, value] of Object.entries(row)) if (Buffer.isBuffer(value)) row[column] = value.toString('latin1');
		}
		tables.push({ table: name, primaryKey, rows });
	}
	return tables;
}

main().then(
	(tables) => {
		process.stdout.write(JSON.stringify(tables));
		db.close();
	},
	(error) => {
		console.error(error?.stack ?? error);
		process.exit(1);
	},
);
