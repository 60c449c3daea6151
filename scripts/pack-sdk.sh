#!/usr/bin/env bash
# `pnpm pack:sdk DIR`: builds and packs the published packages (@spa/contract, @spa/sdk) into DIR.
# pnpm pack runs each package's prepack (tsup) and applies its publishConfig, so the tarballs point at dist/
# and carry real versions instead of workspace: and catalog: references.
set -euo pipefail
cd "$(dirname "$0")/.."
dest="${1:?usage: pnpm pack:sdk DIR}"
mkdir -p "$dest"
dest="$(cd "$dest" && pwd)"
# A tarball's name is its package's version, which must be a released contract's (docs/releasing.md): the newest
# docs/openapi-releases/<version>.json, with no changeset of either package waiting (that content has no version yet).
version="$(node -p "require('./packages/contract/package.json').version")"
newest="$(find docs/openapi-releases -maxdepth 1 -name '*.json' -printf '%f\n' | sed 's/\.json$//' | sort -V | tail -n 1)"
if [[ "$version" != "$newest" ]]; then
  echo "pack:sdk: the packages are $version but the newest released document is $newest: run \`pnpm openapi:breaking\`" >&2
  exit 1
fi
pending="$(grep -lE "^['\"]?@spa/(contract|sdk)['\"]?:" .changeset/*.md | paste -sd ' ' -)" || true
if [[ -n "$pending" ]]; then
  echo "pack:sdk: not yet versioned, so the tarballs would carry it under $version: $pending; run \`pnpm version-packages\`" >&2
  exit 1
fi
for package in packages/contract packages/sdk; do
  (cd "$package" && pnpm pack --pack-destination "$dest" >/dev/null)
done
for name in contract sdk; do
  if [[ ! -f "$dest/spa-$name-$version.tgz" ]]; then
    echo "pack:sdk: expected $dest/spa-$name-$version.tgz (the released version), found: $(ls "$dest")" >&2
    exit 1
  fi
done
ls "$dest"/*.tgz
