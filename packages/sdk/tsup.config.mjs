// The published build (run by prepack). Its one plugin keeps package.json out of the bundle but for `version`,
// which src/user-agent.ts reads for the User-Agent: the dist names the version it was built as.
import { readFile } from 'node:fs/promises';
import { defineConfig } from 'tsup';

/** @type {import('esbuild').Plugin} */
const versionOnly = {
  name: 'package-json-version-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]package\.json$/ }, async ({ path }) => ({
      contents: JSON.stringify({ version: JSON.parse(await readFile(path, 'utf8')).version }),
      loader: 'json',
    }));
  },
};

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  platform: 'node',
  esbuildPlugins: [versionOnly],
});
