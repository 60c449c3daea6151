#!/usr/bin/env bash
# `pnpm pack:sdk DIR`: builds and packs the published packages (@spa/contract, @spa/sdk) into DIR.
# pnpm pack runs each package's prepack (tsup) and applies its publishConfig, so the tarballs point at dist/
# and carry real versions instead of workspace: and catalog: references.
set -euo pipefail
cd "$(dirname "$0")/.."
dest="${1:?usage: pnpm pack:sdk DIR}"
mkdir -p "$dest"
dest="$(cd "$dest" && pwd)"
for package in packages/contract packages/sdk; do
  (cd "$package" && pnpm pack --pack-destination "$dest" >/dev/null)
done
ls "$dest"/*.tgz
