#!/bin/sh
# Installs a packed n8n-nodes-payment-gateway tarball where n8n loads community packages: the `nodes` folder of an n8n
# user folder (`<user folder>/.n8n/nodes`), as n8n itself installs them. The Dockerfile runs it, and so does every
# end-to-end check's set-up (e2e/lib/package.js), so that a check proves these steps against a real n8n.
#
# Usage: sh docker/install-package.sh <tarball> <nodes folder>
set -eu

# The tarball's full path: the install runs in the nodes folder.
tarball=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
nodes=$2
package=n8n-nodes-payment-gateway

mkdir -p "$nodes"
cd "$nodes"
# n8n's own package.json of the folder, when it has none yet.
[ -f package.json ] || printf '{\n  "name": "installed-nodes",\n  "private": true,\n  "dependencies": {}\n}\n' > package.json
# No install scripts (the package has none, nor dependencies; n8n-workflow comes from n8n itself).
npm install --ignore-scripts --legacy-peer-deps --no-audit --no-fund --loglevel=error "$tarball"
[ -f "node_modules/$package/package.json" ] || { echo "install-package: $package is not in $nodes/node_modules" >&2; exit 1; }
echo "install-package: $package installed into $nodes"
