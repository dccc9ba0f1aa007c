'use strict';

// docs/bench.svg: throughput against concurrency, node and plain client with the ideal line, rendered by vega-lite
// and vega in Node (vega-lite is ESM with top-level await, hence the dynamic imports).

const IDEAL = 'ideal: concurrency / latency';
const SERIES = ["node in n8n's engine", 'plain signed axios', IDEAL, "floor: minimal node, n8n's HTTP helper"];

async function throughputSvg(results) {
	const vegaLite = await import('vega-lite');
	const vega = await import('vega');
	const { latencyMs, items } = results.settings;
	const levels = results.throughput.map((row) => row.concurrency);
	const values = results.throughput.flatMap((row) => [
		{ concurrency: row.concurrency, series: SERIES[0], itemsPerSecond: row.node.itemsPerSecond },
		{ concurrency: row.concurrency, series: SERIES[1], itemsPerSecond: row.plain.itemsPerSecond },
		{ concurrency: row.concurrency, series: SERIES[2], itemsPerSecond: row.idealItemsPerSecond },
		...(row.floor ? [{ concurrency: row.concurrency, series: SERIES[3], itemsPerSecond: row.floor.itemsPerSecond }] : []),
	]);
	const spec = {
		$schema: 'https://vega.github.io/schema/vega-lite/v6.json',
		title: {
			text: `Status → Get by Order ID: ${items} items at ${latencyMs} ms gateway latency`,
			subtitle: `${results.machine.cores} cores, ${results.machine.cpuModel}, Node ${results.machine.node}; sandbox in its own process`,
		},
		width: 560,
		height: 340,
		data: { values },
		// The ideal is a dashed line of its own layer; both layers share the colour scale and its legend.
		layer: [
			{ transform: [{ filter: `datum.series !== '${IDEAL}'` }], mark: { type: 'line', point: true } },
			{ transform: [{ filter: `datum.series === '${IDEAL}'` }], mark: { type: 'line', strokeDash: [6, 4] } },
		],
		encoding: {
			x: {
				field: 'concurrency',
				type: 'quantitative',
				scale: { type: 'log', domain: [levels[0], levels[levels.length - 1]], nice: false },
				axis: { values: levels, title: 'Concurrency (requests in flight)' },
			},
			y: { field: 'itemsPerSecond', type: 'quantitative', scale: { type: 'log' }, title: 'Items per second' },
			color: {
				field: 'series',
				type: 'nominal',
				scale: { domain: SERIES, range: ['#d6457a', '#3b6fb6', '#8a8a8a'] },
				legend: { title: null, orient: 'top-left', labelLimit: 400 },
			},
		},
	};
	const view = new vega.View(vega.parse(vegaLite.compile(spec).spec), { renderer: 'none' });
	try {
		return await view.toSVG();
	} finally {
		view.finalize();
	}
}

module.exports = { throughputSvg };
