import { randomBytes } from 'node:crypto';
import type { Express } from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../../src/app.js';
import type { AppDeps } from '../../src/app-deps.js';
import { KeyVault } from '../../src/auth/api-key.js';
import { ApiKeyCache } from '../../src/auth/api-key-cache.js';
import { AvailabilityCache } from '../../src/availability/availability-cache.js';
import { DeskFeed } from '../../src/dashboard/desk-feed.js';
import type { DatabaseHandle } from '../../src/db/connect.js';
import type { Clock } from '../../src/lib/clock.js';
import { type Api, apiOf } from './api.js';
import { dashboardClientOf, partnerClientOf, v1Of } from './typed-api.js';
import { fixedClock } from './fixed-clock.js';
import { openTestDatabase } from './test-db.js';

type FixedClock = ReturnType<typeof fixedClock>;

export interface TestContext<C extends Clock = FixedClock> {
  handle: DatabaseHandle & { name?: string };
  db: DatabaseHandle['db'];
  app: Express;
  /** Untyped requests with a key and the fixed request id (support/api.ts), for what the contract cannot express. */
  api: Api;
  /** The partner API's typed client as a key calls it (support/typed-api.ts): `ctx.partner(key).bookings.get(…)`. */
  partner: ReturnType<typeof partnerClientOf>;
  /** The common partner calls through that client: `ctx.v1.book(venue, body, key)`, cancel, booking, availability. */
  v1: ReturnType<typeof v1Of>;
  /** The dashboard API's typed client as its page calls it, signed in when given a session. */
  dashboard: ReturnType<typeof dashboardClientOf>;
  vault: KeyVault;
  /** The app's key cache (src/auth/api-key-cache.ts), listening on this database. */
  apiKeys: ApiKeyCache;
  /** The app's availability cache (src/availability/availability-cache.ts), on as in a served process. */
  availability: AvailabilityCache;
  /** The desk's live feed, as a served process has it, when the test asked for one (`deskFeed: true`). */
  deskFeed: DeskFeed | undefined;
  clock: C;
  close(): Promise<void>;
}

export type TestContextOptions<C extends Clock = FixedClock> = {
  /** The clock frozen at `now` (default TEST_NOW), unless the test brings its own (the webhook tests' runs). */
  now?: string;
  clock?: C;
  /** PUBLIC_URL of the app (http://localhost unless a test needs another, e.g. https for Secure cookies). */
  publicUrl?: string;
  /** false: as if PUBLIC_URL were not set (the dashboard's origin is then each request's own). */
  publicUrlSet?: boolean;
  rateLimitEnforced?: boolean;
  poolSize?: number;
  statementTimeoutMs?: number;
  acquireTimeoutMs?: number;
  /** A desk feed listening on this database, so /dashboard/api/desk/events streams changes (off by default). */
  deskFeed?: boolean;
} & Pick<AppDeps, 'lifecycle' | 'bodyDeadlineMs' | 'logger' | 'metrics' | 'dashboardDir' | 'webhooks'>;

/** PUBLIC_URL of every test app unless a test says otherwise; the dashboard's origin. */
export const TEST_PUBLIC_URL = 'http://localhost';

/** The served default (AVAILABILITY_CACHE_MB=64): every test reads availability through the cache. */
const TEST_AVAILABILITY_CACHE_BYTES = 64 * 1024 * 1024;

/** The clock of every test context unless a test says otherwise. */
export const TEST_NOW = '2026-11-22T08:00:00Z';

/** A fresh, empty database and an app over it, the clock frozen at `now`. */
export async function createTestContext<C extends Clock = FixedClock>(
  options: TestContextOptions<C> = {},
): Promise<TestContext<C>> {
  const {
    now,
    clock: given,
    publicUrl,
    publicUrlSet,
    rateLimitEnforced,
    poolSize,
    statementTimeoutMs,
    acquireTimeoutMs,
    deskFeed: withDeskFeed,
    ...appOptions
  } = options;
  const handle = await openTestDatabase({ poolSize, statementTimeoutMs, acquireTimeoutMs });
  const vault = new KeyVault(randomBytes(32));
  const clock = given ?? (fixedClock(now ?? TEST_NOW) as Clock as C);
  // The key cache the served process uses, so every test authenticates through it.
  const apiKeys = await ApiKeyCache.start(handle);
  const availability = await AvailabilityCache.start(handle, { maxBytes: TEST_AVAILABILITY_CACHE_BYTES });
  const deskFeed = withDeskFeed ? await DeskFeed.start(handle) : undefined;
  const app = createApp({
    deskFeed,
    apiKeys,
    availabilityCache: availability,
    db: handle.db,
    pool: handle.pool,
    clock,
    vault,
    config: {
      rateLimitEnforced: rateLimitEnforced ?? false,
      publicUrl: publicUrl ?? TEST_PUBLIC_URL,
      publicUrlSet: publicUrlSet ?? true,
    },
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    ...appOptions,
  });
  const partner = partnerClientOf(app);
  return {
    handle,
    db: handle.db,
    app,
    api: apiOf(app),
    partner,
    v1: v1Of(partner),
    dashboard: dashboardClientOf(app, publicUrl ?? TEST_PUBLIC_URL),
    vault,
    apiKeys,
    availability,
    deskFeed,
    clock,
    close: async () => {
      await deskFeed?.close();
      await apiKeys.close();
      await availability.close();
      await handle.close();
    },
  };
}

/**
 * One world for the enclosing `describe`: a fresh database, the app, the request helper and the clock, made before
 * its first test and closed after its last. Read it inside tests and hooks (its fields are filled by beforeAll).
 */
export function setup(options: TestContextOptions = {}): TestContext {
  const ctx = {} as TestContext;
  beforeAll(async () => {
    Object.assign(ctx, await createTestContext(options));
  });
  afterAll(() => ctx.close());
  return ctx;
}
