'use strict';

// The leak search: after n8n ran workflows, secrets and card data in everything n8n stored. Where: every table of its
// database, its log files and the other files it keeps in <user folder>/.n8n (event log, settings). Allowed: a value
// inside a workflow definition at the very node parameter where the workflow put it (workflow_entity,
// workflow_history, and the copy n8n keeps with each execution, execution_data.workflowData). Nothing else: not in
// execution data, not in errors, not in a log, and a credential's data only encrypted.

const fs = require('node:fs');
const path = require('node:path');

const { requireFromN8n } = require('./package');
const { attempt, parseJson } = require('./processes');

/** The sandbox's test cards: approved (Visa, Mastercard) and declined. */
const TEST_CARD_NUMBERS = ['4111111111111111', '5186001700008785', '4393570006367857'];

/** Columns holding a workflow definition: where its workflow id and its nodes are. */
const DEFINITIONS = {
	'workflow_entity.nodes': { workflowId: (row) => row.id, nodes: (value) => value },
	'workflow_history.nodes': { workflowId: (row) => row.workflowId, nodes: (value) => value },
	'execution_data.workflowData': { workflowId: (row, value) => value.id, nodes: (value) => value.nodes },
};

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A name next to its value, as JSON, a query string or a log message writes it (`"cvv":"123"`, `cvv=123`,
// `\"cardCVV\": \"123\"`).
const NEXT_TO = '[^A-Za-z0-9]{0,8}';

/** The value as it is, and as it reads inside a JSON string when escaping changes it. */
const literal = (value, flags = '') => new RegExp([...new Set([value, JSON.stringify(value).slice(1, -1)])].map(escape).join('|'), flags);

/** Card number: all 16 digits, also written in groups of four. */
const cardNumberPattern = (number) => new RegExp(number.match(/.{1,4}/g).join('[ -]?'));

/** CVV: the digits next to a name that says CVV (three digits alone are everywhere: ids, times, amounts). */
const cvvPattern = (cvv) => new RegExp(`(?:cvv|cvc|cvn|csc|security.?code)${NEXT_TO}${escape(cvv)}(?![0-9])`, 'i');

/** Expiry: "12/30", "12/2030", or month and year next to names that say so, in either order. */
function expiryPattern(month, year) {
	const m = `0?${escape(String(Number(month)))}`;
	const y = `(?:20)?${escape(String(year).slice(-2))}`;
	const monthField = `exp\\w*month${NEXT_TO}${m}(?![0-9])`;
	const yearField = `exp\\w*year${NEXT_TO}${y}(?![0-9])`;
	const forms = [`(?<![0-9/])${m}/${y}(?![0-9/])`, `exp\\w*${NEXT_TO}${m}/?${y}(?![0-9])`, `${monthField}[^{}]{0,200}?${yearField}`, `${yearField}[^{}]{0,200}?${monthField}`];
	return new RegExp(forms.join('|'), 'i');
}

/** Card data a workflow node gives in its own parameters (values, not expressions reading it from elsewhere). */
const givenCard = (parameters = {}) =>
	Object.fromEntries(['cardNumber', 'cardCVV', 'cardExpMonth', 'cardExpYear'].filter((key) => parameters[key] && !String(parameters[key]).startsWith('=')).map((key) => [key, parameters[key]]));

/**
 * What to look for: client secrets and Basic header values of `clients`, the card encryption key, the test card
 * numbers, every card number, CVV and expiry pair the workflows give, and those of `cards` (card data that reached
 * n8n another way, e.g. in a webhook's request: [{ given, cardNumber, cardCVV, cardExpMonth, cardExpYear }], `given`
 * saying where from). Each: { what, pattern }; `what` names the secret without its value (a card by its last four
 * digits).
 */
function secretsToFind({ clients, cardEncryptionKey, workflows = [], cards: otherCards = [] }) {
	const secrets = clients.flatMap(({ clientId, clientSecret }) => [
		{ what: `client secret of ${clientId}`, pattern: literal(clientSecret) },
		{ what: `Basic header value of ${clientId}`, pattern: literal(Buffer.from(`${clientId}:${clientSecret}`).toString('base64')) },
	]);
	secrets.push({ what: 'card encryption key', pattern: literal(cardEncryptionKey, 'i') });
	const fromWorkflows = workflows.flatMap((workflow) => workflow.nodes.map((node) => ({ given: `given in "${workflow.name}" → "${node.name}"`, ...givenCard(node.parameters) })));
	const cards = new Set(TEST_CARD_NUMBERS);
	for (const { given, cardNumber, cardCVV, cardExpMonth, cardExpYear } of [...fromWorkflows, ...otherCards]) {
		if (cardNumber) cards.add(cardNumber);
		if (cardCVV) secrets.push({ what: `CVV ${given}`, pattern: cvvPattern(cardCVV) });
		if (cardExpMonth && cardExpYear) secrets.push({ what: `expiry ${given}`, pattern: expiryPattern(cardExpMonth, cardExpYear) });
	}
	for (const number of cards) secrets.push({ what: `card number ending ${number.slice(-4)}`, pattern: cardNumberPattern(number) });
	// One entry per pattern: the same CVV or expiry given by several workflows is one search.
	return [...new Map(secrets.map((secret) => [secret.pattern.source + secret.pattern.flags, secret])).values()];
}

/**
 * A stored definition without what the source workflow put there: each node parameter value equal to the source's
 * value at the same path (same workflow id, same node name) becomes null.
 */
function withoutSourceValues(nodes, source) {
	const strip = (stored, given) => {
		if (typeof stored === 'string' && stored === given) return null;
		if (!stored || typeof stored !== 'object' || !given || typeof given !== 'object') return stored;
		return Object.fromEntries(Object.entries(stored).map(([key, value]) => [key, strip(value, given[key])]));
	};
	return nodes.map((node) => {
		const given = source?.nodes.find((candidate) => candidate.name === node.name);
		return given ? { ...node, parameters: strip(node.parameters, given.parameters) } : node;
	});
}

/** Execution data as n8n stores it (`flatted`, which keeps string values apart from their keys), parsed; or undefined. */
const parseFlatted = (text) => (/^\[[{[]/.test(text) ? attempt(() => requireFromN8n('flatted').parse(text)) : undefined);

/** The texts to search in one stored value: as stored, and flatted execution data also as plain JSON. */
function searchableTexts(value) {
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	const flat = parseFlatted(text);
	return flat === undefined ? [text] : [text, JSON.stringify(flat)];
}

const secretsIn = (texts, secrets) => secrets.filter(({ pattern }) => texts.some((text) => pattern.test(text)));

/**
 * What `allowedIn[where]` takes out of a stored value before the search: `strip(parsed value)` gives the value without
 * what it allows; a secret found only in what it took out counts as allowed there, not as a leak. `expand(parsed
 * value)`, when given, first parses what the value holds as JSON text, so that a secret nested in escaped JSON is not
 * missed for its escaping.
 */
function withoutAllowed(value, rule, where, rowId, secrets, result) {
	const parsed = typeof value === 'string' ? (parseFlatted(value) ?? parseJson(value) ?? value) : value;
	const expanded = rule.expand ? rule.expand(parsed) : parsed;
	const stripped = [JSON.stringify(rule.strip(expanded))];
	const allowed = secretsIn([...searchableTexts(value), JSON.stringify(expanded)], secrets).filter((secret) => !secretsIn(stripped, [secret]).length);
	for (const { what } of allowed) result.allowedElsewhere.push({ where, row: rowId, what, in: rule.what });
	return stripped;
}

function searchTables(tables, secrets, sourceById, result, allowedIn) {
	for (const { table, primaryKey, rows } of tables) {
		result.searched.tables++;
		result.searched.rows += rows.length;
		for (const row of rows) {
			const rowId = primaryKey.map((column) => `${column}=${row[column]}`).join(',');
			for (const [column, value] of Object.entries(row)) {
				if (value === null || value === undefined) continue;
				const where = `${table}.${column}`;
				let texts = allowedIn[where] ? withoutAllowed(value, allowedIn[where], where, rowId, secrets, result) : searchableTexts(value);
				const definition = DEFINITIONS[where];
				const parsed = definition && (typeof value === 'string' ? parseJson(value) : value);
				if (parsed && Array.isArray(definition.nodes(parsed))) {
					const nodes = withoutSourceValues(definition.nodes(parsed), sourceById.get(definition.workflowId(row, parsed)));
					const stripped = [JSON.stringify(parsed === definition.nodes(parsed) ? nodes : { ...parsed, nodes })];
					// Found before, gone once the workflow's own values are out: where the workflow put it.
					result.allowed += secretsIn(texts, secrets).length - secretsIn(stripped, secrets).length;
					texts = stripped;
				}
				for (const { what } of secretsIn(texts, secrets)) result.hits.push({ where, row: rowId, what });
				if (where === 'credentials_entity.data' && typeof parseJson(value) === 'object') {
					result.hits.push({ where, row: rowId, what: 'credential data stored unencrypted' });
				}
			}
		}
	}
}

function searchFile(file, label, secrets, result, allowedIn) {
	result.searched.bytes += fs.statSync(file).size;
	fs.readFileSync(file, 'latin1').split('\n').forEach((line, index) => {
		const row = `line ${index + 1}`;
		const texts = allowedIn[label] && line ? withoutAllowed(line, allowedIn[label], label, row, secrets, result) : [line];
		for (const { what } of secretsIn(texts, secrets)) result.hits.push({ where: label, row, what });
	});
}

/**
 * Searches what `n8n` (from createN8n) stored. `workflows`: the definitions the workflows were created from, by the id
 * n8n stores them under. `allowedIn`: { '<table>.<column>'
 * or '<file relative to the user folder>': { what, strip(value), expand? } }, what n8n itself keeps there whatever the
 * nodes do (a file is stripped line by line, each line parsed as JSON); found only there, a secret is reported in
 * `allowedElsewhere`, not as a leak. Resolves with { hits: [{ where, row, what }], problems, searched, allowed,
 * allowedElsewhere }.
 */
async function findLeaks(n8n, { secrets, workflows = [], allowedIn = {} }) {
	const result = { hits: [], problems: [], searched: { tables: 0, rows: 0, logFiles: 0, otherFiles: 0, bytes: 0 }, allowed: 0, allowedElsewhere: [] };
	const tables = await n8n.readTables();
	searchTables(tables, secrets, new Map(workflows.map((workflow) => [workflow.id, workflow])), result, allowedIn);
	const dir = path.join(n8n.userFolder, '.n8n');
	// Every other file n8n keeps in .n8n: not its database (read per table) nor the installed packages.
	const others = fs
		.readdirSync(dir, { recursive: true })
		.filter((name) => !name.startsWith(`nodes${path.sep}`) && !name.startsWith('database.sqlite'))
		.map((name) => path.join(dir, name))
		.filter((file) => fs.lstatSync(file).isFile());
	const logFiles = n8n.logFiles();
	for (const file of [...logFiles, ...others]) searchFile(file, path.relative(n8n.userFolder, file), secrets, result, allowedIn);
	Object.assign(result.searched, { logFiles: logFiles.length, otherFiles: others.length });

	// A search that saw nothing proves nothing.
	const count = (name) => tables.find((table) => table.table === name)?.rows.length ?? 0;
	if (count('credentials_entity') === 0) result.problems.push('n8n stored no credential');
	if (count('execution_data') === 0) result.problems.push('n8n stored no execution data');
	if (logFiles.every((file) => fs.statSync(file).size === 0)) result.problems.push(`n8n wrote no log into ${n8n.logDir}`);
	if (workflows.some((workflow) => workflow.nodes.some((node) => givenCard(node.parameters).cardNumber)) && result.allowed === 0) {
		result.problems.push('the card data the workflows give was not found even in their stored definitions');
	}
	return result;
}

/** Prints the outcome (where and which secret, never the value); true when nothing was found and nothing was missing. */
function printLeaks({ searched, allowed, hits, problems, allowedElsewhere = [] }) {
	console.log(
		`  searched ${searched.tables} tables (${searched.rows} rows), ${searched.logFiles} log files and ` +
			`${searched.otherFiles} other files (${(searched.bytes / 1024).toFixed(0)} kB)` +
			(allowed ? `; ${allowed} found only where the workflows put them (their own node parameters)` : ''),
	);
	for (const hit of allowedElsewhere) console.log(`    NOTE ${hit.where} (${hit.row}): ${hit.what}, only in ${hit.in}`);
	console.log(`  leaks found: ${hits.length}`);
	for (const hit of hits) console.log(`    LEAK ${hit.where} (${hit.row}): ${hit.what}`);
	for (const problem of problems) console.log(`    NOT SEARCHED ${problem}`);
	return hits.length === 0 && problems.length === 0;
}

/** Which secrets occur in texts a check holds itself (e.g. what a stand-in server received): [{ where, row, what }]. */
const searchTexts = (entries, secrets) => entries.flatMap(({ where, row, text }) => secretsIn([text], secrets).map(({ what }) => ({ where, row, what })));

module.exports = { secretsToFind, findLeaks, printLeaks, searchTexts, TEST_CARD_NUMBERS };
