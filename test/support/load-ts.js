'use strict';

// The node's TypeScript sources, compiled as they are loaded, for the child processes that measure it where nothing
// else runs (memory-child.js, cpu-child.js): `npm test` runs without a build.

const fs = require('node:fs');
const ts = require('typescript');

require.extensions['.ts'] = (module, filename) => {
	const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
		compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
		fileName: filename,
	});
	module._compile(outputText, filename);
};
