#!/usr/bin/env bash
# What a new partner does with the published SDK, outside this workspace: `npm i` it into an empty npm project,
# run the SDK README's ESM and CommonJS examples with plain node against a running server, check that its User-Agent
# names the installed version (user-agent.cjs), and type-check partner.ts under strict + exactOptionalPropertyTypes
# with moduleResolution NodeNext and Bundler.
# Usage: run.sh PROJECT_DIR INSTALL_ARG... (tarball paths, or `@spa/sdk@1.2.3` with npm registry settings in the
# environment); SPA_API_URL and SPA_API_KEY point at a server with the demo data.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
project="${1:?usage: run.sh PROJECT_DIR INSTALL_ARG...}"
shift
: "${SPA_API_URL:?}" "${SPA_API_KEY:?}"
typescript="$(node -p "require('$here/../../node_modules/typescript/package.json').version")"

rm -rf "$project" && mkdir -p "$project" && cd "$project"
npm init -y >/dev/null
npm install --no-audit --no-fund --loglevel=error "$@"
npm install --no-audit --no-fund --loglevel=error --save-dev "typescript@$typescript" "@types/node@20"
if find node_modules/@spa -name '*.ts' -path '*/src/*' | grep -q .; then
  echo "the installed packages ship TypeScript source" >&2
  exit 1
fi

# The README's examples, exactly as written there.
node "$here/readme-example.mjs" "$here/../../packages/sdk/README.md" esm >example.mjs
node "$here/readme-example.mjs" "$here/../../packages/sdk/README.md" cjs >example.cjs
for script in example.mjs example.cjs; do
  output="$(node "$script")"
  echo "$script: $(echo "$output" | tr '\n' ' ')"
  grep -qx 'spa-lumiere-paris' <<<"$output" || { echo "$script did not list the demo venue" >&2; exit 1; }
done

cp "$here/user-agent.cjs" . && node user-agent.cjs

cp "$here/partner.ts" "$here/tsconfig.nodenext.json" "$here/tsconfig.bundler.json" .
for config in tsconfig.nodenext.json tsconfig.bundler.json; do
  npx tsc -p "$config"
  echo "partner.ts type-checks with $config"
done
