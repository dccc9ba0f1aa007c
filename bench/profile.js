'use strict';

// `npm run bench:profile`: where a status read spends its CPU time in n8n's engine. Runs bench/lib/profile-run.js
// under `node --cpu-prof` (sandbox in its own process, so its CPU is not in the profile), reads the .cpuprofile for
// the measured phases only, and prints per item: time by component (innermost component on the stack), self time by
// package/file, and the top functions. A second, instrumented run counts the calls per item of the n8n-core helpers.
//
//   node bench/profile.js                        profile and instrumented run (PROFILE_N items, default 2000)
//   node bench/profile.js <profile> <phases>     read an existing .cpuprofile with its phases file

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { classify, COMPONENTS, componentOf } = require('./lib/profile-categories');

const ROOT = path.resolve(__dirname, '..');
const RUNNER = path.join(__dirname, 'lib', 'profile-run.js');
const INTERVAL_US = Number(process.env.PROFILE_INTERVAL_US || 200);
const TOP = 15;

function run(nodeOptions, runnerOptions, phasesFile) {
	execFileSync(process.execPath, ['--expose-gc', ...nodeOptions, RUNNER, ...runnerOptions, phasesFile], { cwd: ROOT, stdio: 'inherit' });
	return JSON.parse(fs.readFileSync(phasesFile, 'utf8'));
}

/** The stack of every profile node, leaf first, as call frames. */
function stacksOf(profile) {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const stacks = new Map();
	for (const node of profile.nodes) {
		const stack = [];
		for (let id = node.id; id !== undefined; id = parent.get(id)) stack.push(byId.get(id).callFrame);
		stacks.set(node.id, stack);
	}
	return stacks;
}

/** Samples inside [start, end] (µs), each weighted by the time until the next sample. */
function samplesIn(profile, start, end) {
	const selected = [];
	let time = profile.startTime;
	for (let index = 0; index < profile.samples.length; index++) {
		time += profile.timeDeltas[index];
		const weight = index + 1 < profile.timeDeltas.length ? profile.timeDeltas[index + 1] : 0;
		if (time >= start && time <= end) selected.push({ node: profile.samples[index], us: weight });
	}
	return selected;
}

const frameName = (frame) =>
	`${frame.functionName || '(anonymous)'} ${frame.url.replace(/^file:\/\//, '').replace(`${ROOT}/`, '').replace(/^.*node_modules\//, '')}:${frame.lineNumber + 1}`;

function add(map, key, us) {
	map.set(key, (map.get(key) ?? 0) + us);
}

function analyse(profile, stacks, phase) {
	const samples = samplesIn(profile, phase.start, phase.end);
	const byComponent = new Map();
	const byCategory = new Map();
	const bySelf = new Map();
	const byInclusive = new Map();
	let idle = 0;
	let busy = 0;
	for (const { node, us } of samples) {
		const stack = stacks.get(node);
		if (stack[0].functionName === '(idle)') {
			idle += us;
			continue;
		}
		busy += us;
		add(byComponent, componentOf(stack), us);
		add(byCategory, classify(stack[0]), us);
		add(bySelf, frameName(stack[0]), us);
		for (const name of new Set(stack.map(frameName))) add(byInclusive, name, us);
	}
	return { phase, wallUs: phase.end - phase.start, idle, busy, byComponent, byCategory, bySelf, byInclusive };
}

const perItem = (us, items) => `${(us / items).toFixed(1).padStart(7)} µs`;
const share = (us, total) => `${((100 * us) / total).toFixed(1).padStart(5)} %`;

function printTable(title, map, { items, busy }, limit = Infinity, order) {
	console.log(`  ${title}`);
	const rows = order ? order.filter((key) => map.has(key)).map((key) => [key, map.get(key)]) : [...map].sort((a, b) => b[1] - a[1]);
	for (const [key, us] of rows.slice(0, limit)) console.log(`    ${perItem(us, items)}/item ${share(us, busy)}  ${key}`);
	const rest = rows.slice(limit).reduce((sum, [, us]) => sum + us, 0);
	if (rest > 0) console.log(`    ${perItem(rest, items)}/item ${share(rest, busy)}  (${rows.length - limit} more)`);
}

function printPhase(result) {
	const { phase, wallUs, idle, busy } = result;
	const items = phase.items;
	console.log(`\n${phase.label}: ${items} status reads by order ID, 0 ms latency`);
	const cpu = phase.cpu.user + phase.cpu.system;
	console.log(
		`  wall ${(wallUs / 1000).toFixed(0)} ms = ${perItem(wallUs, items)}/item; main thread busy ${perItem(busy, items)}/item, idle ${perItem(idle, items)}/item`,
	);
	console.log(`  process CPU time (all threads, user ${perItem(phase.cpu.user, items)} + system ${perItem(phase.cpu.system, items)}) ${perItem(cpu, items)}/item`);
	const context = { items, busy };
	if (phase.plain) {
		printTable(`self time by package/file (top ${TOP})`, result.byCategory, context, TOP);
		return;
	}
	printTable('by component (innermost on the stack; share of busy time):', result.byComponent, context, Infinity, [
		...COMPONENTS.map((component) => component.name),
		...[...result.byComponent.keys()].filter((key) => !COMPONENTS.some((component) => component.name === key)).sort(
			(a, b) => result.byComponent.get(b) - result.byComponent.get(a),
		),
	]);
	printTable(`self time by package/file (top ${TOP})`, result.byCategory, context, TOP);
	printTable(`top ${TOP} functions by self time:`, result.bySelf, context, TOP);
	const inclusive = new Map([...result.byInclusive].filter(([name]) => !/^\(|^ node:|Module\._|runMicrotasks|processTicksAndRejections/.test(name)));
	printTable(`top ${TOP} functions by inclusive time (own and callees, same stack):`, inclusive, context, TOP);
}

function printCounts(phase) {
	if (!phase?.counts) return;
	console.log('  instrumented run (another process, same workload): calls and time per call until it settles');
	const rows = Object.entries(phase.counts).sort(([a], [b]) => a.localeCompare(b));
	for (const [name, { calls, ms }] of rows) {
		const frequency = calls >= phase.items ? `${(calls / phase.items).toFixed(2)} /item` : `${calls} /run`;
		console.log(`    ${frequency.padStart(11)} ${((1000 * ms) / calls).toFixed(1).padStart(8)} µs/call  ${name}`);
	}
}

function printSummary(results, decryptUs) {
	const cpuOf = ({ phase }) => (phase.cpu.user + phase.cpu.system) / phase.items;
	const us = (value) => `${value.toFixed(0)} µs`;
	console.log('\nSummary, process CPU time per status read:');
	for (const result of results) console.log(`  ${us(cpuOf(result)).padStart(8)}  ${result.phase.label}`);
	const node = results.find((result) => !result.phase.plain && !result.phase.floor && result.phase.concurrency === 1);
	const plain = results.filter((result) => result.phase.plain);
	if (plain.length > 0) {
		const cheapest = Math.min(...plain.map(cpuOf));
		console.log(`  node at concurrency 1 over the cheaper plain client: ${us(cpuOf(node) - cheapest)} per item`);
	}
	console.log('  main-thread time per item of the node at concurrency 1 by component:');
	for (const { name } of COMPONENTS) {
		console.log(`  ${us((node.byComponent.get(name) ?? 0) / node.phase.items).padStart(8)}  ${name}`);
	}
	if (decryptUs !== undefined) {
		console.log('  not in the harness, paid by real n8n on every getCredentials call: a database read of the credential and');
		console.log(`  its decryption, measured here at ${us(decryptUs)} per call (n8n-core Credentials.getData, key provider in memory)`);
	}
}

function main() {
	const [profileArg, phasesArg] = process.argv.slice(2);
	let profileFile = profileArg;
	let phases;
	let counted = { phases: [] };
	if (profileFile) {
		({ phases } = JSON.parse(fs.readFileSync(phasesArg, 'utf8')));
	} else {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-profile-'));
		const profiling = ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-interval=${INTERVAL_US}`];
		({ phases } = run(profiling, [], path.join(dir, 'phases.json')));
		profileFile = path.join(dir, fs.readdirSync(dir).find((name) => name.endsWith('.cpuprofile')));
		counted = run([], ['--instrument'], path.join(dir, 'counts.json'));
	}
	const profile = JSON.parse(fs.readFileSync(profileFile, 'utf8'));
	const stacks = stacksOf(profile);
	console.log(`CPU profile ${profileFile} (sampling every ${INTERVAL_US} µs; open it in Chrome DevTools for the flame chart)`);
	console.log(`${os.cpus().length} cores, Node ${process.version}; the sandbox ran in its own process, so its CPU is not in it`);
	const results = phases.map((phase) => analyse(profile, stacks, phase));
	for (const result of results) {
		printPhase(result);
		printCounts(counted.phases.find((other) => other.label === result.phase.label) ?? result.phase);
	}
	printSummary(results, counted.decryptUs);
}

main();
