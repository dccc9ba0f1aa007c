'use strict';

// The leak search: after n8n ran workflows, look for secrets and card data in everything n8n stored.
//
//   const secrets = secretsToFind({ clients, cardEncryptionKey, workflows });
//   const result = await findLeaks(n8n, { secrets, workflows });
//   printLeaks(result);  // "leaks found: 0", or one line per hit (where and which secret, never the value)
//
// Where: every table of n8n's database (n8n.readTables()), n8n's log files (n8n.logFiles()) and the other files n8n
// keeps in <user folder>/.n8n (its event log, settings). Allowed: a value inside a workflow definition at the very
// node parameter where the workflow itself put it (workflow_entity and workflow_history, and the copy of the
// definition n8n keeps with each execution, execution_data.workflowData). Nothing else: not in execution data, not in
// errors, not in a log, and a credential's data only encrypted.

const fs = require('node:fs');
const path = require('node:path');

const { requireFromN8n } = require('./package');

/** The sandbox's test cards: approved (Visa, Mastercard) and declined. */
const TEST_CARD_NUMBERS = ['4111111111111111', '5186001700008785', '4393570006367857'];

/** Columns holding a workflow definition: how to find its workflow id and its nodes. */
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
function literal(value, flags = '') {
	const forms = new Set([value, JSON.stringify(value).slice(1, -1)]);
	return new RegExp([...forms].map(escape).join('|'), flags);
}

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
	return new RegExp(
		[
			`(?<![0-9/])${m}/${y}(?![0-9/])`,
			`exp\\w*${NEXT_TO}${m}/?${y}(?![0-9])`,
			`${monthField}[^{}]{0,200}?${yearField}`,
			`${yearField}[^{}]{0,200}?${monthField}`,
		].join('|'),
		'i',
	);
}

const isExpression = (value) => typeof value === 'string' && value.startsWith('=');

/** Card data a workflow node gives in its own parameters (values, not expressions reading it from elsewhere). */
function givenCard(parameters = {}) {
	const given = {};
	for (const key of ['cardNumber', 'cardCVV', 'cardExpMonth', 'cardExpYear']) {
		if (parameters[key] && !isExpression(parameters[key])) given[key] = parameters[key];
	}
	return given;
}

/**
 * What to look for: client secrets and Basic header values of `clients`, the card encryption key, the test card
 * numbers, every card number, CVV and expiry pair the workflows give, and those of `cards` (card data that reached
 * n8n another way, e.g. in a webhook's request: [{ given, cardNumber, cardCVV, cardExpMonth, cardExpYear }], `given`
 * saying where from). Each: { what, pattern }; `what` names the secret without its value (a card by its last four
 * digits).
 */
function secretsToFind({ clients, cardEncryptionKey, workflows = [], cards: otherCards = [] }) {
	const secrets = [];
	for (const { clientId, clientSecret } of clients) {
		secrets.push({ what: `client secret of ${clientId}`, pattern: literal(clientSecret) });
		const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
		secrets.push({ what: `Basic header value of ${clientId}`, pattern: literal(basic) });
	}
	secrets.push({ what: 'card encryption key', pattern: literal(cardEncryptionKey, 'i') });

	const given = [
		...workflows.flatMap((workflow) =>
			workflow.nodes.map((node) => ({ given: `given in "${workflow.name}" → "${node.name}"`, ...givenCard(node.parameters) })),
		),
		...otherCards,
	];
	const cards = new Set(TEST_CARD_NUMBERS);
	for (const { given: where, cardNumber, cardCVV, cardExpMonth, cardExpYear } of given) {
		if (cardNumber) cards.add(cardNumber);
		if (cardCVV) secrets.push({ what: `CVV ${where}`, pattern: cvvPattern(cardCVV) });
		if (cardExpMonth && cardExpYear) {
			secrets.push({ what: `expiry ${where}`, pattern: expiryPattern(cardExpMonth, cardExpYear) });
		}
	}
	for (const number of cards) {
		secrets.push({ what: `card number ending ${number.slice(-4)}`, pattern: cardNumberPattern(number) });
	}
	// One entry per pattern: the same CVV or expiry given by several workflows is one search.
	const unique = new Map(secrets.map((secret) => [secret.pattern.source + secret.pattern.flags, secret]));
	return [...unique.values()];
}

/**
 * A stored definition without what the source workflow put there: each node parameter value equal to the source's
 * value at the same path (same workflow id, same node name) becomes null.
 */
function withoutSourceValues(nodes, source) {
	const strip = (stored, given) => {
		if (typeof stored === 'string' && stored === given) return null;
		if (stored && typeof stored === 'object' && given && typeof given === 'object') {
			return Object.fromEntries(Object.entries(stored).map(([key, value]) => [key, strip(value, given[key])]));
		}
		return stored;
	};
	return nodes.map((node) => {
		const given = source?.nodes.find((candidate) => candidate.name === node.name);
		return given ? { ...node, parameters: strip(node.parameters, given.parameters) } : node;
	});
}

const parseJson = (text) => {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
};

/**
 * The texts to search in one stored value: as stored, and execution data also as plain JSON (n8n stores it in the
 * `flatted` format, which keeps string values apart from their keys).
 */
function searchableTexts(value) {
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	const texts = [text];
	if (text.startsWith('[{') || text.startsWith('[[')) {
		try {
			texts.push(JSON.stringify(requireFromN8n('flatted').parse(text)));
		} catch {
			// not flatted
		}
	}
	return texts;
}

/** Which secrets occur in any of `texts`. */
const secretsIn = (texts, secrets) => secrets.filter(({ pattern }) => texts.some((text) => pattern.test(text)));

/**
 * What `allowedIn[where]` takes out of a stored value before the search: `strip(parsed value)` gives the value
 * without what it allows; each secret found only in what it took out counts as allowed there, not as a leak.
 * `expand(parsed value)`, when given, first parses what the value holds as JSON text, so that a secret nested in
 * escaped JSON is not missed for its escaping.
 */
function withoutAllowed(value, rule, where, rowId, secrets, result) {
	const parsed = typeof value === 'string' ? (parseStored(value) ?? value) : value;
	const expanded = rule.expand ? rule.expand(parsed) : parsed;
	const texts = [...searchableTexts(value), JSON.stringify(expanded)];
	const stripped = [JSON.stringify(rule.strip(expanded))];
	const allowed = secretsIn(texts, secrets).filter((secret) => !secretsIn(stripped, [secret]).length);
	for (const { what } of allowed) result.allowedElsewhere.push({ where, row: rowId, what, in: rule.what });
	return stripped;
}

/** A stored value as an object: execution data in n8n's `flatted` format, or JSON. */
function parseStored(text) {
	if (text.startsWith('[{') || text.startsWith('[[')) {
		try {
			return requireFromN8n('flatted').parse(text);
		} catch {
			// not flatted
		}
	}
	return parseJson(text);
}

function searchTables(tables, secrets, sourceById, result, allowedIn = {}) {
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
					const source = sourceById.get(definition.workflowId(row, parsed));
					const nodes = withoutSourceValues(definition.nodes(parsed), source);
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

function searchFile(file, label, secrets, result, allowedIn = {}) {
	const lines = fs.readFileSync(file, 'latin1').split('\n');
	result.searched.bytes += fs.statSync(file).size;
	lines.forEach((line, index) => {
		const row = `line ${index + 1}`;
		const texts = allowedIn[label] && line ? withoutAllowed(line, allowedIn[label], label, row, secrets, result) : [line];
		for (const { what } of secretsIn(texts, secrets)) result.hits.push({ where: label, row, what });
	});
}

/** Every file n8n keeps in .n8n but its database (read per table) and the installed packages. */
function otherStoredFiles(userFolder) {
	const dir = path.join(userFolder, '.n8n');
	return fs
		.readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => path.join(entry.parentPath ?? entry.path, entry.name))
		.filter((file) => {
			const relative = path.relative(dir, file);
			return !relative.startsWith(`nodes${path.sep}`) && !relative.startsWith('database.sqlite');
		});
}

/**
 * Searches what `n8n` (from createN8n) stored. `workflows`: the definitions the workflows were created from, by
 * the id n8n stores them under. `expectExecutions`: fail when n8n stored no execution data (nothing was searched).
 * `allowedIn`: { '<table>.<column>' or '<file relative to the user folder>': { what, strip(value), expand? } }, what n8n itself
 * keeps there whatever the nodes do (e.g. a language model's tool-call arguments in execution data; a file is
 * stripped line by line, each line parsed as JSON); found only there, a secret is reported in `allowedElsewhere`, not
 * as a leak.
 * Resolves with { hits: [{ where, row, what }], problems: [string], searched, allowed, allowedElsewhere }.
 */
async function findLeaks(n8n, { secrets, workflows = [], expectExecutions = true, allowedIn }) {
	const result = {
		hits: [],
		problems: [],
		searched: { tables: 0, rows: 0, logFiles: 0, otherFiles: 0, bytes: 0 },
		allowed: 0,
		allowedElsewhere: [],
	};
	const sourceById = new Map(workflows.map((workflow) => [workflow.id, workflow]));
	const tables = await n8n.readTables();
	searchTables(tables, secrets, sourceById, result, allowedIn);

	const relative = (file) => path.relative(n8n.userFolder, file);
	const logFiles = n8n.logFiles();
	for (const file of logFiles) searchFile(file, relative(file), secrets, result, allowedIn);
	result.searched.logFiles = logFiles.length;
	const others = otherStoredFiles(n8n.userFolder);
	for (const file of others) searchFile(file, relative(file), secrets, result, allowedIn);
	result.searched.otherFiles = others.length;

	// A search that saw nothing proves nothing.
	const count = (name) => tables.find((table) => table.table === name)?.rows.length ?? 0;
	if (count('credentials_entity') === 0) result.problems.push('n8n stored no credential');
	if (expectExecutions && count('execution_data') === 0) result.problems.push('n8n stored no execution data');
	if (logFiles.every((file) => fs.statSync(file).size === 0)) result.problems.push(`n8n wrote no log into ${n8n.logDir}`);
	const givesCardData = workflows.some((workflow) => workflow.nodes.some((node) => givenCard(node.parameters).cardNumber));
	if (givesCardData && result.allowed === 0) {
		result.problems.push('the card data the workflows give was not found even in their stored definitions');
	}
	return result;
}

/** Prints the outcome; returns true when nothing was found and nothing was missing. */
function printLeaks(result, { indent = '  ' } = {}) {
	const { searched, allowed, hits, problems } = result;
	console.log(
		`${indent}searched ${searched.tables} tables (${searched.rows} rows), ${searched.logFiles} log files and ` +
			`${searched.otherFiles} other files (${(searched.bytes / 1024).toFixed(0)} kB)` +
			(allowed ? `; ${allowed} found only where the workflows put them (their own node parameters)` : ''),
	);
	for (const hit of result.allowedElsewhere ?? []) console.log(`${indent}  NOTE ${hit.where} (${hit.row}): ${hit.what}, only in ${hit.in}`);
	console.log(`${indent}leaks found: ${hits.length}`);
	for (const hit of hits) console.log(`${indent}  LEAK ${hit.where} (${hit.row}): ${hit.what}`);
	for (const problem of problems) console.log(`${indent}  NOT SEARCHED ${problem}`);
	return hits.length === 0 && problems.length === 0;
}

/** Which secrets occur in texts a check holds itself (e.g. what a stand-in server received): [{ where, row, what }]. */
function searchTexts(entries, secrets) {
	return entries.flatMap(({ where, row, text }) => secretsIn([text], secrets).map(({ what }) => ({ where, row, what })));
}

module.exports = { secretsToFind, findLeaks, printLeaks, searchTexts, TEST_CARD_NUMBERS, withoutSourceValues };
