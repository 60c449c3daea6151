// The first load of /dashboard: every script index.html loads or preloads, as the server sends it compressed (the
// build's .gz copy: the larger of the two, what a browser without brotli gets), against the budget.
// `pnpm --filter @spa/dashboard build` prints it and fails over budget, so CI's build checks it; the browser test
// measures the same on the wire.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BUDGET_BYTES = 160 * 1000;
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const scripts = [
  ...html.matchAll(/<script[^>]+src="\/dashboard\/([^"]+\.js)"/g),
  ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/dashboard\/([^"]+\.js)"/g),
].map((match) => match[1]);
if (scripts.length === 0) {
  console.error('bundle budget: index.html loads no script; is dist/ a Vite build?');
  process.exit(1);
}
let total = 0;
for (const script of new Set(scripts)) {
  const size = readFileSync(join(dist, `${script}.gz`)).length;
  total += size;
  console.log(`  ${script}  ${(size / 1000).toFixed(1)} kB gzipped`);
}
const verdict = total <= BUDGET_BYTES ? 'within' : 'OVER';
console.log(
  `bundle budget: first load of /dashboard is ${(total / 1000).toFixed(1)} kB of JavaScript gzipped, ` +
    `${verdict} the budget of ${BUDGET_BYTES / 1000} kB`,
);
if (total > BUDGET_BYTES) process.exit(1);
