// Copies the non-TypeScript files n8n loads next to the compiled code:
// node and credential icons, and the node codex (*.node.json).
// `npm run build` runs `tsc` first, then `gulp build`.
const { src, dest, parallel, watch } = require('gulp');

// `npm run dev` builds into the copy of the package that n8n loads, outside the repository.
const OUT_DIR = process.env.PACKAGE_OUT_DIR || 'dist';

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

const GLOBS = {
	nodeIcons: 'nodes/**/*.{png,svg}',
	credentialIcons: 'credentials/**/*.{png,svg}',
	nodeCodex: 'nodes/**/*.node.json',
};
const copyNodeIcons = copyTask('copy:node-icons', GLOBS.nodeIcons);
const copyCredentialIcons = copyTask('copy:credential-icons', GLOBS.credentialIcons);
const copyNodeCodex = copyTask('copy:node-codex', GLOBS.nodeCodex);

// parallel() finishes when every copy above has finished.
const build = parallel(copyNodeIcons, copyCredentialIcons, copyNodeCodex);

// `gulp watch` (npm run dev): the same copies again whenever one of those files changes.
const watchCopies = () => watch(Object.values(GLOBS), build);
watchCopies.displayName = 'watch';

exports.build = build;
exports.watch = watchCopies;
exports.default = build;
