// Copies the non-TypeScript files n8n loads next to the compiled code:
// node and credential icons, and the node codex (*.node.json).
// `npm run build` runs `tsc` first, then `gulp build`.
const { src, dest, parallel } = require('gulp');

const OUT_DIR = 'dist';

/**
 * A task that copies the files matching `glob` into dist/, keeping their path
 * relative to the package root (nodes/X/icon.svg -> dist/nodes/X/icon.svg).
 * It returns the stream, so gulp counts the task done only once the last file
 * has been written.
 */
function copyTask(name, glob) {
	const task = () =>
		// encoding: false copies bytes as they are; gulp 5 would otherwise read
		// every file as UTF-8 text and corrupt binary icons such as PNGs.
		src(glob, { base: '.', encoding: false }).pipe(dest(OUT_DIR));
	task.displayName = name;
	return task;
}

const copyNodeIcons = copyTask('copy:node-icons', 'nodes/**/*.{png,svg}');
const copyCredentialIcons = copyTask('copy:credential-icons', 'credentials/**/*.{png,svg}');
const copyNodeCodex = copyTask('copy:node-codex', 'nodes/**/*.node.json');

// parallel() finishes when every copy above has finished.
const build = parallel(copyNodeIcons, copyCredentialIcons, copyNodeCodex);

exports.build = build;
exports.default = build;
