#!/usr/bin/env bash
# The published SDK as a partner gets it, proven twice against a server with the demo data:
#   1. `pnpm pack:sdk` tarballs installed into an empty npm project;
#   2. the maintainer's release path (changeset version, pnpm release) into a local Verdaccio registry, then
#      `npm i @spa/sdk` from it into another empty project. No credentials of any real registry are involved.
# Ports: SDK_CHECK_PORT (server, default 3201) and SDK_REGISTRY_PORT (Verdaccio, default 3290).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
server_port="${SDK_CHECK_PORT:-3201}"
registry_port="${SDK_REGISTRY_PORT:-3290}"
work="$(mktemp -d)"
pids=()

cleanup() {
  for pid in "${pids[@]}"; do kill -- "-$pid" 2>/dev/null || true; done
  git -C "$root" worktree remove --force "$work/release" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

wait_for() {
  for _ in $(seq 1 120); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 0.5; done
  echo "$1 did not answer" >&2
  return 1
}

echo "--- server with the demo data on port $server_port"
env -u DATABASE_URL PORT="$server_port" DATA_DIR="$work/data" LOG_LEVEL=warn setsid pnpm start >"$work/server.log" 2>&1 &
pids+=($!)
wait_for "http://127.0.0.1:$server_port/openapi.json" || { cat "$work/server.log" >&2; exit 1; }
export SPA_API_URL="http://127.0.0.1:$server_port"
SPA_API_KEY="$(node -e "const k=require('./apps/server/src/demo/demo-data.json').api_keys[0]; console.log('sk_live_'+k.id+'_'+k.secret)")"
export SPA_API_KEY

echo "--- 1. pnpm pack:sdk, npm i of the tarballs"
pnpm -s pack:sdk "$work/tarballs" >/dev/null
for tarball in "$work"/tarballs/*.tgz; do
  if tar -xzOf "$tarball" package/package.json | grep -Eq '"(workspace|catalog):'; then
    echo "$tarball still has a workspace: or catalog: reference" >&2
    exit 1
  fi
done
bash scripts/partner-check/run.sh "$work/from-tarballs" "$work"/tarballs/*.tgz

echo "--- 2. release to a local registry on port $registry_port"
registry="http://127.0.0.1:$registry_port/"
mkdir -p "$work/verdaccio"
cat >"$work/verdaccio/config.yaml" <<YAML
storage: $work/verdaccio/storage
auth:
  htpasswd:
    file: $work/verdaccio/htpasswd
packages:
  '@spa/*':
    access: \$all
    publish: \$authenticated
log: { type: stdout, format: pretty, level: warn }
YAML
setsid node_modules/.bin/verdaccio --config "$work/verdaccio/config.yaml" --listen "127.0.0.1:$registry_port" \
  >"$work/verdaccio.log" 2>&1 &
pids+=($!)
wait_for "${registry}-/ping" || { cat "$work/verdaccio.log" >&2; exit 1; }
# A throwaway user of this registry only: the token lives in a temporary npm config.
token="$(curl -fsS -X PUT -H 'content-type: application/json' -d '{"name":"ci","password":"local-registry-only"}' \
  "${registry}-/user/org.couchdb.user:ci" | node -p 'JSON.parse(require("fs").readFileSync(0)).token')"
printf '//127.0.0.1:%s/:_authToken=%s\n' "$registry_port" "$token" >"$work/npmrc"

# The maintainer's steps of docs/releasing.md, on a clean checkout of HEAD so this tree is left as it is: a patch
# changeset of both packages, `pnpm version-packages` (the release rules first, then the versions, changelogs and the
# new docs/openapi-releases/<version>.json), and the release.
git worktree add --detach "$work/release" HEAD >/dev/null
(
  cd "$work/release"
  pnpm install --frozen-lockfile --prefer-offline --silent
  printf -- "---\n'@spa/contract': patch\n'@spa/sdk': patch\n---\n\nThe release path, as pnpm test:published checks it.\n" \
    >.changeset/release-path-check.md
  pnpm version-packages
  git status --short -- packages docs
  NPM_CONFIG_USERCONFIG="$work/npmrc" RELEASE_REGISTRY="$registry" pnpm release --no-git-checks
)
version="$(node -p "require('$work/release/packages/sdk/package.json').version")"
echo "published @spa/sdk@$version"
grep -q "## $version" "$work/release/packages/sdk/CHANGELOG.md"
bash scripts/partner-check/run.sh "$work/from-registry" "@spa/sdk@$version" "--@spa:registry=$registry"
echo "published SDK: tarballs and registry install both work"
