#!/bin/sh
# The Docker image's tarball step (docker/Dockerfile): the build context may hold tarballs of several versions, since
# `npm pack` writes them into the clone and git ignores them, so earlier ones stay. Keeps the tarball of the version
# package.json names, as <destination>; without one, fails saying what to run.
#
# Usage: sh docker/keep-tarball.sh <folder holding package.json and the n8n-nodes-payment-gateway-*.tgz> <destination>
set -eu

if [ "$#" -ne 2 ]; then
	echo "Usage: sh docker/keep-tarball.sh <folder holding package.json and the n8n-nodes-payment-gateway-*.tgz> <destination>" >&2
	exit 2
fi
folder=$1
destination=$2

# package.json's own version: the line npm writes for it, two spaces in (a dependency's is further in).
version=$(sed -n 's/^  "version": *"\([^"]*\)".*$/\1/p' "$folder/package.json" | head -n 1)
tarball="$folder/n8n-nodes-payment-gateway-$version.tgz"
if [ -z "$version" ] || [ ! -f "$tarball" ]; then
	found=$(cd "$folder" && ls n8n-nodes-payment-gateway-*.tgz 2>/dev/null | tr '\n' ' ')
	echo "keep-tarball: no n8n-nodes-payment-gateway-$version.tgz for version \"$version\" of package.json (found: ${found:-none}): run npm run build && npm pack first" >&2
	exit 1
fi
mv "$tarball" "$destination"
echo "keep-tarball: n8n-nodes-payment-gateway-$version.tgz, the version of package.json"
