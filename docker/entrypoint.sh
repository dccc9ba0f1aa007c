#!/bin/sh
# Installs the package baked into the image into the n8n user folder, which is usually a volume (and hides whatever
# the image holds there), at every start: a new image brings its version of the package into an old volume. Then hands
# over to the official image's own entrypoint.
set -eu
sh /opt/payment-gateway/install-package.sh /opt/payment-gateway/n8n-nodes-payment-gateway.tgz "${N8N_USER_FOLDER:-$HOME}/.n8n/nodes"
exec /docker-entrypoint.sh "$@"
