#!/bin/sh
# Installs a packed n8n-nodes-payment-gateway tarball where n8n loads community packages: the `nodes` folder of an n8n
# user folder (`<user folder>/.n8n/nodes`), as n8n itself installs them. The Dockerfile runs it, and so does every
# end-to-end check's set-up (e2e/lib/package.js), so that a check proves these steps against a real n8n.
#
# The tarball is copied into the nodes folder and installed from there, so that the folder's package.json names it by
# a path inside the folder (`file:n8n-nodes-payment-gateway.tgz`): a later install there (n8n adding another community
# package, an `npm install --offline`) still finds it once the tarball given here is gone.
#
# Usage: sh docker/install-package.sh <tarball> <nodes folder>
set -eu

usage() {
	echo "Usage: sh docker/install-package.sh <tarball> <nodes folder>" >&2
	echo "  <tarball>       the packed package, e.g. n8n-nodes-payment-gateway-0.1.0.tgz (npm run build && npm pack writes it)" >&2
	echo "  <nodes folder>  the nodes folder of n8n's user folder, e.g. ~/.n8n/nodes (\$N8N_USER_FOLDER/.n8n/nodes when that is set)" >&2
	exit 2
}
[ "$#" -eq 2 ] || usage
[ -f "$1" ] || { echo "install-package: no tarball at $1 (npm run build && npm pack writes it)" >&2; exit 1; }

package=n8n-nodes-payment-gateway
kept=$package.tgz
nodes=$2

mkdir -p "$nodes"
# Copied under another name first: the tarball given may be the one kept there by an earlier install.
cp "$1" "$nodes/$kept.new"
mv "$nodes/$kept.new" "$nodes/$kept"
cd "$nodes"
# n8n's own package.json of the folder, when it has none yet.
[ -f package.json ] || printf '{\n  "name": "installed-nodes",\n  "private": true,\n  "dependencies": {}\n}\n' > package.json
# No install scripts (the package has none, nor dependencies; n8n-workflow comes from n8n itself).
npm install --ignore-scripts --legacy-peer-deps --no-audit --no-fund --loglevel=error "./$kept"
[ -f "node_modules/$package/package.json" ] || { echo "install-package: $package is not in $nodes/node_modules" >&2; exit 1; }
echo "install-package: $package installed into $nodes (from $kept there)"
