import { orderParameters, runNode, useSandbox } from '../support/fixtures';

const sandbox = useSandbox();

describe('order.create through n8n\'s engine', () => {
	it('turns 3 input items into 3 orders, each paired to its input', async () => {
		const items = [
			{ amount: 10, receipt: 'R-1' },
			{ amount: 20.5, receipt: 'R-2' },
			{ amount: 30.25, receipt: 'R-3' },
		];
		const result = await runNode(
			sandbox,
			orderParameters({
				amount: '={{ $json.amount }}',
				additionalFields: { receiptId: '={{ $json.receipt }}', description: 'Engine test' },
			}),
			items,
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(3);
		result.items.forEach((item, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			expect(item.json).toEqual({
				orderId: expect.stringMatching(/^wb-/),
				receiptId: items[index].receipt,
				amount: items[index].amount,
				currency: 'USD',
			});
		});

		const sent = sandbox.requests.filter((request) => request.apiPath === '/order');
		expect(sent).toHaveLength(3);
		expect(sent.map((request) => request.status)).toEqual([200, 200, 200]);
		expect(JSON.parse(sent[1].body)).toEqual({
			amount: 20.5,
			currency: 'USD',
			uiMode: 'checkout',
			receiptId: 'R-2',
			description: 'Engine test',
			customerFields: { name: 'Jane Doe', email: 'jane@example.com', phone: '91234567' },
		});
	});
});

describe('order.create: an amount written with a comma', () => {
	it.each([
		['12,50', 'Amount (amount) has a comma: write 12.50, with a decimal point [item 1]'],
		['1,250', 'Amount (amount) has a comma: write 1.250 if it is a decimal point, or 1250 if it separates thousands [item 1]'],
		['1,250.00', 'Amount (amount) has a comma: write it with a decimal point and no thousands separator, like 1234.56 [item 1]'],
		// Not a comma alone that is wrong here: what is wrong first.
		['-12,50', 'Amount (amount) must not be negative [item 1]'],
	])('"%s" is refused for what is wrong with it, naming the item; nothing is sent for it', async (amount, message) => {
		const result = await runNode(sandbox, orderParameters({ amount: '={{ $json.amount }}' }), [{ amount: '12.50' }, { amount }], {
			continueOnFail: true,
		});
		expect(result.items.map((item) => item.json.error)).toEqual([undefined, message]);
		expect(sandbox.requests.filter((request) => request.apiPath === '/order')).toHaveLength(1);
	});
});
