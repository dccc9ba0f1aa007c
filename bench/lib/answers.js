'use strict';

// Answer handling per MiB, before and after the answer bounds: this build (dist/) beside the package as commit
// BEFORE_COMMIT shipped it, built from git into a temporary folder. Each measurement runs in a child process per build
// (answers-child.js), in the order before, after, after, before, so that a load that rises or falls during the section
// weighs on both alike; each figure is the mean of a build's two runs.

const { execFileSync, fork, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const AFTER_DIST = path.join(ROOT, 'dist');
/** The last commit before answers were bounded in values, depth and text (a 1 MiB bound in bytes only). */
const BEFORE_COMMIT = '66efd05';

const KIB = 1024;
const MIB = 1024 * KIB;
const ORDER = 'wb-0f6f7442-2f5f-46ff-9ead-edd6a61aaa7a';
const PAYMENT = 'PAY2AD08F04395974B86CE287D26469849A';

const envelope = (data) => JSON.stringify({ resCode: 200, status: 'success', data });

/** The sandbox's many-values answer of exactly `bytes`: `[{},{},…]`, spaces making up the last bytes. */
function emptyObjects(bytes) {
	const head = '{"resCode":200,"status":"success","data":[{}';
	const room = bytes - head.length - 2;
	return `${head}${',{}'.repeat(Math.floor(room / 3))}${' '.repeat(room % 3)}]}`;
}

/** Answers as the gateway sends them (shapes of gateway-api-spec.md and the sandbox), and the ones of the attack. */
const CASES = [
	{
		key: 'emptyObjects',
		label: 'just under 1 MiB of empty objects (the attack)',
		text: emptyObjects(MIB - 1),
	},
	{
		key: 'longTexts',
		label: '15 texts of 64 KiB (960 KiB, within every bound)',
		text: envelope(Object.fromEntries(Array.from({ length: 15 }, (_, index) => [`text${index}`, 'x'.repeat(64 * KIB)]))),
	},
	{
		key: 'status',
		label: 'a payment status',
		text: envelope({
			orderId: ORDER,
			status: 'success',
			paymentId: PAYMENT,
			amount: 25.5,
			currency: 'USD',
			signature: '8267caf15cfa80989939bb3475a44eecde83a7f52c27adf6db89024694eb6810',
			timestamp: '2026-11-28T19:36:58.053Z',
			paymentDetails: { paymentMethod: 'card', cardNetwork: 'visa', cardType: 'credit' },
		}),
	},
	{
		key: 'initiate',
		label: 'Transaction → Initiate with a 3-D Secure form of 3 KB',
		text: envelope({
			paymentId: PAYMENT,
			orderId: ORDER,
			paymentStatus: 'pending',
			amount: 25.5,
			currency: 'USD',
			redirectionData: {
				method: 'POST',
				formData:
					`<form id="pa-auth" method="POST" action="https://acs.bank.example/3ds2/challenge">` +
					`<input type="hidden" name="creq" value="${Buffer.alloc(2200, 7).toString('base64')}">` +
					`<input type="hidden" name="threeDSSessionData" value="${PAYMENT}"></form><script>document.forms[0].submit()</script>`,
			},
			securedCardDetails: { customerId: 'cus_afe86936582d7809', digitalCardId: 'dc_fdec5935a1ebfaa2' },
		}),
	},
	{
		key: 'cards',
		label: "a customer's 5 stored cards",
		text: envelope({
			digitalCards: Array.from({ length: 5 }, (_, index) => ({
				digitalCardId: `dc_fdec5935a1ebfa${String(index).padStart(2, '0')}`,
				network: 'visa',
				cardType: 'credit',
				status: 'active',
				panLastFour: String(1111 + index),
				createdAt: '2026-11-28T19:36:58.053Z',
				updatedAt: '2026-11-28T19:36:58.053Z',
			})),
			remainingLimit: 0,
		}),
	},
];

/** 1 MiB each, for the pre-parse check alone: every byte inside texts, or every byte structure. */
const CHECKS = [
	{ key: 'texts', label: 'one text', text: JSON.stringify({ text: 'x'.repeat(MIB - 11) }) },
	{
		key: 'structure',
		label: 'stored-card records, indented',
		text: JSON.stringify(
			Array.from({ length: 9100 }, (_, index) => ({ digitalCardId: `dc_${index}`, network: 'visa', panLastFour: 1111, active: true, limit: null })),
			null,
			'\t',
		),
	},
];

const MICRO = { minCpuMs: 1000, minRounds: 5 };
const ENGINE = {
	// Before, each of these answers is some 20 MiB of heap, kept with the run's output.
	refusedItems: 10,
	// The paid orders read again and again: enough items that the run's own cost is a small share of each.
	readItems: 600,
	warmUpItems: 10,
	parameters: { resource: 'status', operation: 'getByOrderId', orderId: '={{ $json.orderId }}', options: { concurrency: 1, maxRetries: 0 } },
};

/**
 * The package as BEFORE_COMMIT shipped it, compiled into a temporary folder: its nodes, credentials, tsconfig.json and
 * package.json from git, this clone's node_modules linked in. `{ skipped }`, with the reason, when the commit is not in
 * this clone's history (a shallow clone, an unpacked tarball).
 */
function buildBefore(progress) {
	const known = spawnSync('git', ['-C', ROOT, 'cat-file', '-e', `${BEFORE_COMMIT}^{commit}`], { stdio: 'ignore' });
	if (known.status !== 0) return { skipped: `commit ${BEFORE_COMMIT} is not in this clone's git history` };
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-answers-before-'));
	progress(`  building ${BEFORE_COMMIT} into ${folder} ...`);
	const archive = execFileSync('git', ['-C', ROOT, 'archive', BEFORE_COMMIT, 'nodes', 'credentials', 'tsconfig.json', 'package.json'], {
		maxBuffer: 256 * MIB,
	});
	execFileSync('tar', ['-x', '-C', folder], { input: archive });
	fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), path.join(folder, 'node_modules'));
	execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(folder, 'tsconfig.json')], { stdio: 'inherit' });
	return { folder, dist: path.join(folder, 'dist') };
}

/** One measurement in a fresh process with `dist`'s build. */
function inChild(dist, message) {
	return new Promise((resolve, reject) => {
		const child = fork(path.join(__dirname, 'answers-child.js'), [], { execArgv: ['--expose-gc'] });
		let answer;
		child.once('message', (received) => {
			answer = received;
		});
		child.once('error', reject);
		child.once('exit', (code) => {
			if (answer?.result) resolve(answer.result);
			else reject(new Error(answer?.error ?? `the answers measurement exited with ${code}`));
		});
		child.send({ dist, ...message });
	});
}

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Before, after, after, before; `prepare` runs before each (a fault to arm). */
async function beforeAndAfter(dists, message, prepare = async () => {}) {
	const order = dists.before ? ['before', 'after', 'after', 'before'] : ['after', 'after'];
	const runs = { before: [], after: [] };
	for (const build of order) {
		await prepare();
		runs[build].push(await inChild(dists[build], message));
	}
	return runs;
}

async function answerHandling(sandbox, paidOrderIds, progress) {
	const before = buildBefore(progress);
	const dists = { after: AFTER_DIST, before: before.dist };
	try {
		progress('  reading answers, each build in its own processes ...');
		const strip = (cases) => cases.map(({ key, text }) => ({ key, text }));
		const microRuns = await beforeAndAfter(dists, { micro: { ...MICRO, cases: strip(CASES), checks: strip(CHECKS) } });
		const rows = (cases, part) =>
			cases.map(({ key, label }) => {
				const of = (build) => {
					const runs = microRuns[build].map((run) => run[part][key]);
					if (runs.length === 0) return undefined;
					return {
						...runs[0],
						cpuMsPerMiB: mean(runs.map((run) => run.cpuMsPerMiB)),
						cpuMsPerAnswer: mean(runs.map((run) => run.cpuMsPerAnswer)),
						runsCpuMsPerMiB: runs.map((run) => run.cpuMsPerMiB),
					};
				};
				const row = { key, label, bytes: microRuns.after[0][part][key].bytes, after: of('after'), before: of('before') };
				if (row.before) row.beforeToAfter = row.before.cpuMsPerMiB / row.after.cpuMsPerMiB;
				return row;
			});
		const micro = rows(CASES, 'cases');
		const checks = rows(CHECKS, 'checks');

		progress(`  ${ENGINE.refusedItems} reads answered with just under 1 MiB of empty objects, through the engine ...`);
		const credentials = sandbox.credentials;
		const attack = { kind: 'many-values', match: 'check-status', count: 1_000_000 };
		const refusedItems = Array.from({ length: ENGINE.refusedItems }, (_, index) => ({ orderId: `bench-many-${index}` }));
		const refusedRuns = await beforeAndAfter(dists, { engine: { credentials, items: refusedItems, warmUpItems: ENGINE.warmUpItems, parameters: ENGINE.parameters } }, async () => {
			await sandbox.clearFaults();
			await sandbox.injectFault(attack);
		});
		await sandbox.clearFaults();
		await sandbox.takeLog();

		progress(`  ${ENGINE.readItems} status reads of paid orders, through the engine ...`);
		const readItems = Array.from({ length: ENGINE.readItems }, (_, index) => ({ orderId: paidOrderIds[index % Math.min(paidOrderIds.length, 200)] }));
		const readRuns = await beforeAndAfter(dists, { engine: { credentials, items: readItems, warmUpItems: ENGINE.warmUpItems, parameters: ENGINE.parameters } });
		const log = await sandbox.takeLog();
		// Each process: the warm-up, a run of one item, the measured run.
		const expected = (dists.before ? 4 : 2) * (ENGINE.warmUpItems + 1 + readItems.length);
		if (log.byStatus[200] !== expected) throw new Error(`answers: the status reads got ${JSON.stringify(log.byStatus)}, expected ${expected} successes`);

		const engineOf = (runs, bytesPerItem) => {
			const of = (build) => {
				if (runs[build].length === 0) return undefined;
				const cpuMsPerItem = mean(runs[build].map((run) => run.cpuMsPerItem));
				return {
					...runs[build][0],
					cpuMsPerItem,
					cpuMsPerMiB: bytesPerItem ? cpuMsPerItem / (bytesPerItem / MIB) : undefined,
					peakHeapAboveBaseline: Math.max(...runs[build].map((run) => run.peakHeapAboveBaseline)),
					heldAfterRun: Math.max(...runs[build].map((run) => run.heldAfterRun)),
					runsCpuMsPerItem: runs[build].map((run) => run.cpuMsPerItem),
				};
			};
			const result = { after: of('after'), before: of('before') };
			if (result.before) result.beforeToAfter = result.before.cpuMsPerItem / result.after.cpuMsPerItem;
			return result;
		};
		return {
			beforeCommit: BEFORE_COMMIT,
			before: before.skipped ? { skipped: before.skipped } : { built: 'git archive, tsc -p, in a temporary folder' },
			method: 'each build in its own child processes, in the order before, after, after, before; means of the two runs',
			micro: { chunkBytes: 64 * KIB, ...MICRO, cases: micro, preParseChecks: checks },
			engine: {
				parameters: ENGINE.parameters,
				warmUpItems: ENGINE.warmUpItems,
				refused: { answerBytes: MIB - 1, ...engineOf(refusedRuns, MIB - 1) },
				reads: engineOf(readRuns),
			},
		};
	} finally {
		if (before.folder) fs.rmSync(before.folder, { recursive: true, force: true });
	}
}

const fixed = (value, digits) => (value === undefined ? '-' : value.toFixed(digits));
const mib = (bytes) => `${(bytes / MIB).toFixed(1)} MiB`;

/** A mean with the range of its runs: on a shared machine the runs of one build differ by tens of per cent. */
const spread = (of, key, digits) => {
	if (!of) return '-';
	const runs = of[key === 'cpuMsPerMiB' ? 'runsCpuMsPerMiB' : 'runsCpuMsPerItem'];
	return `${fixed(of[key], digits)} [${fixed(Math.min(...runs), digits)}-${fixed(Math.max(...runs), digits)}]`;
};
const ratio = (value, digits = 2) => (value ? `${fixed(value, digits)}x` : '-');

function printAnswerHandling(answers) {
	if (!answers) return;
	const { micro, engine } = answers;
	const order = answers.before.skipped ? 'after, after' : 'before, after, after, before';
	console.log(`\nAnswer handling, this build ("after") and commit ${answers.beforeCommit} ("before"), each in its own processes (${order})`);
	if (answers.before.skipped) console.log(`  "before" skipped: ${answers.before.skipped}`);
	console.log(`  readAnswer + parseAnswer on a stream of ${micro.chunkBytes / KIB} KiB chunks: ms of CPU per MiB of answers, mean [runs]`);
	const header = (first) =>
		console.log(`  ${first.padEnd(54)} ${'bytes'.padStart(9)} ${'before'.padStart(22)} ${'after'.padStart(22)} ${'before/after'.padStart(12)} ${'after, ms an answer'.padStart(19)}`);
	const row = (label, of, perAnswer = true) =>
		console.log(
			`  ${label.padEnd(54)} ${String(of.bytes).padStart(9)} ${spread(of.before, 'cpuMsPerMiB', 2).padStart(22)}` +
				` ${spread(of.after, 'cpuMsPerMiB', 2).padStart(22)} ${ratio(of.beforeToAfter).padStart(12)}` +
				` ${(perAnswer ? fixed(of.after.cpuMsPerAnswer, 3) : '').padStart(19)}`,
		);
	header('answer');
	for (const of of micro.cases) row(of.label, of);
	header('the check before parsing alone, decoding included');
	for (const of of micro.preParseChecks) row(`1 MiB, ${of.label}`, of, false);
	console.log('  (before: decode, then count nesting in the text; after: count values, nesting and texts in the bytes, then decode)');
	const outcome = (of) => (of ? (of.refused ? `refused: ${of.refused}` : `parsed (${of.parsed} characters as JSON)`) : '-');
	const attack = micro.cases.find((of) => of.key === 'emptyObjects');
	console.log(`  the attack's answer: before ${outcome(attack.before)}; after ${outcome(attack.after)}`);

	const { refused, reads } = engine;
	const line = (label, of, extra = '') =>
		of &&
		console.log(
			`  ${label.padEnd(8)} ${spread(of, 'cpuMsPerItem', 2)} ms of CPU per item,` +
				` peak heap +${mib(of.peakHeapAboveBaseline)}, held after the run ${mib(of.heldAfterRun)}, ${of.outputItems} items (${of.errorItems} errors)${extra}`,
		);
	console.log(
		`  through n8n's engine, Status → Get by Order ID, concurrency 1, Max Retries 0, Continue On Fail, after ${engine.warmUpItems} items unmeasured;` +
			' CPU per item beyond what a run of one item costs:',
	);
	console.log(`  ${refused.after.items} answers of ${refused.answerBytes} bytes of empty objects (1 MiB each, so ms per item = ms per MiB offered)`);
	line('before', refused.before);
	line('after', refused.after, refused.after.firstError ? `: "${refused.after.firstError}"` : '');
	console.log(`  before/after ${ratio(refused.beforeToAfter, 1)} the CPU per answer`);
	console.log(`  ${reads.after.items} status reads of paid orders (answers of a few hundred bytes)`);
	line('before', reads.before);
	line('after', reads.after);
	console.log(`  before/after ${ratio(reads.beforeToAfter)} the CPU per item`);
}

module.exports = { answerHandling, printAnswerHandling, BEFORE_COMMIT };
