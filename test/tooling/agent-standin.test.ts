/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not shipped: n8n's rules for a node's own code do not apply (CONTRIBUTING.md, n8n Cloud) */
// `npm run agent:standin` as the README tells a user to run it: the stand-in model on its port (AGENT_STANDIN_PORT
// here, a free one), answering n8n's OpenAI Chat Model node with a tool call for the two sentences it reads, its list of
// them for anything else, and ending with exit code 0 on SIGTERM. Run with node directly: `npm run` adds only `exec`.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

async function freePort(): Promise<number> {
	const server = net.createServer().listen(0, '127.0.0.1');
	await once(server, 'listening');
	const { port } = server.address() as net.AddressInfo;
	await new Promise((resolve) => server.close(resolve));
	return port;
}

/** The tools as n8n offers them: Order Status free, Refund Payment behind human review (its arguments nested). */
const TOOLS = [
	{ type: 'function', function: { name: 'Order_Status', parameters: { type: 'object', properties: { orderId: { type: 'string' } } } } },
	{
		type: 'function',
		function: {
			name: 'Refund_Payment',
			parameters: {
				type: 'object',
				properties: {
					toolParameters: { type: 'object', properties: { paymentId: { type: 'string' }, amount: { type: 'number' } } },
					hitlParameters: { type: 'object', properties: { currency: { type: 'string' } } },
				},
			},
		},
	},
];

test('the stand-in model answers on its port, calls the tool a sentence asks for, and stops on SIGTERM', async () => {
	const port = await freePort();
	const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'agent-standin.js')], {
		env: { ...process.env, AGENT_STANDIN_PORT: String(port) },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stdout.on('data', (chunk) => (output += chunk));
	const exited = once(child, 'exit');
	try {
		for (let waited = 0; !output.includes('Base URL') && waited < 200; waited++) await new Promise((resolve) => setTimeout(resolve, 50));
		expect(output).toContain(`Base URL   http://127.0.0.1:${port}/v1`);

		const ask = async (content: string) => {
			const res = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ model: 'gpt-5-mini', messages: [{ role: 'user', content }], tools: TOOLS }),
			});
			return ((await res.json()) as { choices: Array<{ message: { content: string | null; tool_calls?: Array<{ function: { name: string; arguments: string } }> } }> }).choices[0].message;
		};
		const status = await ask('What is the status of order wb-123?');
		expect(status.tool_calls?.map((call) => [call.function.name, JSON.parse(call.function.arguments)])).toEqual([['Order_Status', { orderId: 'wb-123' }]]);
		const refund = await ask('Refund 10.5 omr of payment PAY42');
		expect(refund.tool_calls?.map((call) => [call.function.name, JSON.parse(call.function.arguments)])).toEqual([
			['Refund_Payment', { toolParameters: { paymentId: 'PAY42', amount: 10.5 }, hitlParameters: { currency: 'OMR' } }],
		]);
		const other = await ask('Refund everything');
		expect(other.tool_calls).toBeUndefined();
		expect(other.content).toMatch(/I understand two sentences: "What is the status of order <orderId>\?" and "Refund <amount> <currency> of payment <paymentId>"/);
	} finally {
		child.kill('SIGTERM');
	}
	const [code] = await exited;
	expect(code).toBe(0);
}, 30_000);
