import { defineConfig } from 'tsup';

/** The published build: ESM and CommonJS with their own declaration files, for Node 20.19 and later. */
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  platform: 'node',
});
