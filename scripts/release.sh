#!/usr/bin/env bash
# `pnpm release`: publishes every public package (@spa/contract, @spa/sdk) whose version is not yet on the registry
# at $RELEASE_REGISTRY. The token comes from the maintainer's npm config (see docs/releasing.md), never from here.
set -euo pipefail
cd "$(dirname "$0")/.."
registry="${RELEASE_REGISTRY:?set RELEASE_REGISTRY to the registry URL, e.g. https://registry.npmjs.org/}"
# Only a released version is published: every label agrees and nothing is pending (docs/releasing.md).
pnpm --silent openapi:breaking >/dev/null || { pnpm --silent openapi:breaking >&2; exit 1; }
pnpm -r publish --registry "$registry" --access public "$@"
