import { ensureBuilt } from '../bin/build.mjs';
import { benchAvailability } from './availability.bench.js';
import { benchBookings } from './bookings.bench.js';
import { benchFailover } from './failover.bench.js';
import { benchFairness } from './fairness.bench.js';
import { benchFaults } from './faults.bench.js';
import { benchGrowth } from './growth.bench.js';
import { benchHotPath } from './hotpath.bench.js';
import { benchScale } from './scale.bench.js';
import { benchStartup } from './startup.bench.js';
import { benchWebhooks } from './webhooks.bench.js';

/**
 * `pnpm bench [availability|bookings|faults|hotpath|webhooks|growth|fairness|startup|scale|failover]`: prints the figures and the
 * comparison with their targets. Server processes a bench starts run the build (dist/), made fresh first.
 * PostgreSQL from DATABASE_URL (default: the local server); PGlite in memory.
 */
const which = process.argv[2] ?? 'all';
const out = (lines: string[]) => console.log(lines.join('\n') + '\n');

ensureBuilt();
console.log(`node ${process.version}, ${(await import('node:os')).cpus().length} cores\n`);
if (which === 'all' || which === 'availability') {
  out(await benchAvailability('postgres'));
  out(await benchAvailability('pglite'));
}
if (which === 'all' || which === 'bookings') out(await benchBookings());
if (which === 'all' || which === 'faults') out(await benchFaults());
if (which === 'all' || which === 'hotpath') out(await benchHotPath());
if (which === 'all' || which === 'growth') out(await benchGrowth());
if (which === 'all' || which === 'webhooks') {
  out(await benchWebhooks('postgres', 600, 50));
  if (process.env.BENCH_SKIP_PGLITE !== 'true') out(await benchWebhooks('pglite', 200, 10));
}
if (which === 'all' || which === 'fairness') out(await benchFairness());
if (which === 'all' || which === 'startup') out(await benchStartup());
if (which === 'all' || which === 'scale') out(await benchScale());
if (which === 'all' || which === 'failover') out(await benchFailover());
process.exit(0);
