import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type CreateBookingInput,
  createPartnerClient,
  PartnerConnectionError,
  type PartnerClientOptions,
  PartnerTimeoutError,
  SDK_VERSION,
} from '@spa/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeBookableVenue } from '../support/booking-fixture.js';
import { makeApiKey } from '../support/factories.js';
import { freePort } from '../support/free-port.js';
import { type BeforeApp, listen } from '../support/listen.js';
import { setup } from '../support/test-app.js';

const sdkPackage = JSON.parse(
  readFileSync(new URL('../../../../packages/sdk/package.json', import.meta.url), 'utf8'),
) as { version: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** What the server saw of one request, and whether the client hung up before it was answered. */
interface Seen {
  method: string;
  requestId: string | undefined;
  userAgent: string | undefined;
  authorization: string | undefined;
  at: number;
  hungUp: boolean;
}

/** In front of the app, per request in order: hold it `delayMs` (then the app answers), or answer as a proxy would. */
type Step = { delayMs: number } | { status: number; headers?: Record<string, string> };

describe('the SDK transport: request ids, rate limits, User-Agent, timeouts and retries, against the running app', () => {
  const ctx = setup({ rateLimitEnforced: true });
  let server: Server;
  let baseUrl: string;
  let f: Awaited<ReturnType<typeof makeBookableVenue>>;
  let key: string;
  let seen: Seen[] = [];
  let script: Step[] = [];
  let day = 0;

  const before: BeforeApp = async (req, res) => {
    const entry: Seen = {
      method: req.method ?? '',
      requestId: req.headers['x-request-id'] as string | undefined,
      userAgent: req.headers['user-agent'],
      authorization: req.headers.authorization,
      at: Date.now(),
      hungUp: false,
    };
    seen.push(entry);
    res.on('close', () => {
      if (!res.writableFinished) entry.hungUp = true;
    });
    const step = script.shift();
    if (step === undefined) return;
    if ('delayMs' in step) return sleep(step.delayMs);
    res.writeHead(step.status, { 'content-type': 'text/plain', ...step.headers }).end('Service Unavailable');
  };
  const client = (options: Partial<PartnerClientOptions> = {}) =>
    createPartnerClient({ baseUrl, apiKey: key, retry: { baseDelayMs: 1 }, ...options });
  /** A fresh future slot per booking, so the tests do not collide. */
  const body = (overrides: Partial<CreateBookingInput> = {}): CreateBookingInput => ({
    variant_id: f.variant.id,
    start_at: `2026-12-${String(++day).padStart(2, '0')}T09:00:00Z`,
    guest: { first_name: 'Claire', last_name: 'Martin', email: 'claire.martin@example.com' },
    price_paid: { amount: 90, currency: 'EUR' },
    ...overrides,
  });

  beforeAll(async () => {
    ({ server, baseUrl } = await listen(ctx, before));
    f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 1, therapists: 1 });
    ({ key } = await makeApiKey(ctx.db, ctx.vault, f.organisation.id, { rateLimitPerMin: 1000 }));
  });
  beforeEach(() => {
    seen = [];
    script = [];
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  describe('every answer carries its request id and rate limit in lastResponse', () => {
    it('on a 200: the id the SDK made and the server saw, and the rate limit of the key', async () => {
      const venues = await client().listVenues();
      if (!venues.ok) throw venues.error;
      const { lastResponse } = venues;
      expect(lastResponse.requestId).toMatch(UUID);
      expect(seen.map((s) => s.requestId)).toEqual([lastResponse.requestId]);
      expect(lastResponse.headers.get('x-request-id')).toBe(lastResponse.requestId);
      const now = Date.now() / 1000;
      expect(lastResponse.rateLimit).toEqual({
        limit: 1000,
        remaining: expect.any(Number) as number,
        reset: expect.any(Number) as number,
      });
      expect(lastResponse.rateLimit!.remaining).toBeLessThan(1000);
      expect(lastResponse.rateLimit!.reset).toBeGreaterThanOrEqual(Math.floor(now));
      expect(lastResponse.rateLimit!.reset).toBeLessThanOrEqual(Math.ceil(now) + 61);
      expect([lastResponse.status, lastResponse.attempts, lastResponse.retryAfterMs]).toEqual([200, 1, undefined]);
    });

    it('on a 201 and on its replay (200), with the request id the caller gave', async () => {
      const api = client();
      const request = body({ external_id: 'transport-created' });
      const created = await api.createBooking(f.venue.id, request, { requestId: 'pms-58213.create' });
      const replayed = await api.createBooking(f.venue.id, request, { requestId: 'pms-58213.again' });
      expect(
        [created, replayed].map((r) => r.ok && [r.status, r.lastResponse.requestId, r.lastResponse.rateLimit?.limit]),
      ).toEqual([
        [201, 'pms-58213.create', 1000],
        [200, 'pms-58213.again', 1000],
      ]);
      expect(seen.map((s) => s.requestId)).toEqual(['pms-58213.create', 'pms-58213.again']);
    });

    it('on a 4xx: in the result and on its PartnerApiError', async () => {
      const missing = await client().getVenue('no-such-venue');
      if (missing.ok) throw new Error('expected a 404');
      const { error, lastResponse } = missing;
      expect([lastResponse.status, error.status, error.code]).toEqual([404, 404, 'Venue not found']);
      expect(lastResponse.requestId).toBe(seen[0]!.requestId);
      expect(error.requestId).toBe(lastResponse.requestId);
      expect(lastResponse.rateLimit?.limit).toBe(1000);
      expect(error.rateLimit).toEqual(lastResponse.rateLimit);
      expect(error.headers?.get('x-ratelimit-limit')).toBe('1000');
    });

    it('on a 429: Retry-After in ms and nothing remaining', async () => {
      const { key: limited } = await makeApiKey(ctx.db, ctx.vault, f.organisation.id, { rateLimitPerMin: 1 });
      const api = createPartnerClient({ baseUrl, apiKey: limited, maxRetries: 0 });
      expect((await api.listVenues()).ok).toBe(true);
      const refused = await api.listVenues();
      if (refused.ok) throw new Error('expected a 429');
      expect([
        refused.error.status,
        refused.lastResponse.rateLimit?.limit,
        refused.lastResponse.rateLimit?.remaining,
      ]).toEqual([429, 1, 0]);
      expect(refused.lastResponse.retryAfterMs).toBeGreaterThanOrEqual(1_000);
      expect(refused.lastResponse.retryAfterMs).toBeLessThanOrEqual(60_000);
      expect(refused.error.retryAfterMs).toBe(refused.lastResponse.retryAfterMs);
    });

    it('on a 401: the request id, and no rate limit (no key, no limit)', async () => {
      const unknown = await createPartnerClient({
        baseUrl,
        apiKey: `sk_live_${'0'.repeat(12)}_${'0'.repeat(64)}`,
      }).listVenues();
      expect(!unknown.ok && [unknown.error.status, unknown.lastResponse.rateLimit]).toEqual([401, undefined]);
      expect(!unknown.ok && unknown.lastResponse.requestId).toBe(seen[0]!.requestId);
    });
  });

  it('sends User-Agent spa-sdk/{version of its package.json} node/{version}', async () => {
    await client().listVenues();
    expect(SDK_VERSION).toBe(sdkPackage.version);
    expect(seen.map((s) => s.userAgent)).toEqual([`spa-sdk/${sdkPackage.version} node/${process.versions.node}`]);
  });

  describe('timeout', () => {
    it('aborts an attempt that gets no answer in time, and rejects with PartnerTimeoutError', async () => {
      script = [{ delayMs: 5_000 }];
      const started = Date.now();
      const call = client().listVenues({}, { timeout: 200, maxRetries: 0 });
      await expect(call).rejects.toBeInstanceOf(PartnerTimeoutError);
      expect(Date.now() - started).toBeLessThan(4_000);
      await expect(call).rejects.toMatchObject({
        name: 'PartnerTimeoutError',
        timeout: 200,
        attempts: 1,
        requestId: seen[0]!.requestId,
        message: `No answer within 200 ms (request ${seen[0]!.requestId}, 1 attempt)`,
      });
      // The server sees the client hang up: the request was aborted, not left to run.
      await vi.waitFor(() => expect(seen.map((s) => s.hungUp)).toEqual([true]), { timeout: 2_000 });
    });

    it('retries a timed-out read with the same request id, then answers', async () => {
      script = [{ delayMs: 5_000 }, { delayMs: 5_000 }];
      // Long enough for the third attempt to reach the app on a busy machine; the held ones never answer in time.
      const venues = await client().listVenues({}, { timeout: 1_500 });
      expect(venues.ok && venues.lastResponse.attempts).toBe(3);
      expect(seen.map((s) => s.requestId)).toEqual(Array(3).fill(venues.lastResponse.requestId));
      expect(seen.map((s) => s.hungUp)).toEqual([true, true, false]);
    });

    it("takes the client's timeout unless the call gives its own", async () => {
      const api = client({ timeout: 200 });
      script = [{ delayMs: 600 }];
      expect((await api.listVenues({}, { timeout: 10_000, maxRetries: 0 })).ok).toBe(true);
      script = [{ delayMs: 5_000 }];
      await expect(api.listVenues({}, { maxRetries: 0 })).rejects.toMatchObject({ timeout: 200, attempts: 1 });
      script = [{ delayMs: 600 }];
      expect((await api.listVenues({}, { timeout: false, maxRetries: 0 })).ok).toBe(true);
    });

    it('never retries a booking create without external_id that timed out: the booking may exist', async () => {
      script = [{ delayMs: 5_000 }];
      const call = client().createBooking(f.venue.id, body(), { timeout: 200, maxRetries: 3 });
      await expect(call).rejects.toMatchObject({ name: 'PartnerTimeoutError', attempts: 1 });
      await sleep(100);
      expect(seen.map((s) => [s.method, s.hungUp])).toEqual([['POST', true]]);
    });

    it('applies to api.raw calls too', async () => {
      script = [{ delayMs: 5_000 }];
      const call = client().raw.venues.list({ query: {}, timeout: 200, maxRetries: 0 });
      await expect(call).rejects.toBeInstanceOf(PartnerTimeoutError);
    });
  });

  describe('maxRetries', () => {
    const unavailable = (n: number): Step[] => Array<Step>(n).fill({ status: 503 });

    it("counts the client's retries and a call's own, 0 disabling them", async () => {
      const attempts = async (api: ReturnType<typeof client>, call?: { maxRetries: number }) => {
        seen = [];
        script = unavailable(10);
        const answer = await api.listVenues({}, call);
        expect(!answer.ok && answer.error.status).toBe(503);
        expect(seen).toHaveLength(answer.lastResponse.attempts);
        return answer.lastResponse.attempts;
      };
      expect(await attempts(client())).toBe(4);
      expect(await attempts(client({ maxRetries: 2 }))).toBe(3);
      expect(await attempts(client({ maxRetries: 2 }), { maxRetries: 0 })).toBe(1);
      expect(await attempts(client({ maxRetries: 0 }), { maxRetries: 5 })).toBe(6);
      // The older spelling still works: attempts in all.
      expect(await attempts(client({ retry: { attempts: 2, baseDelayMs: 1 } }))).toBe(2);
    });

    it('honours Retry-After between attempts, with the same request id', async () => {
      script = [{ status: 503, headers: { 'retry-after': '1' } }];
      const venue = await client().getVenue(f.venue.id, { requestId: 'retry-after-check' });
      expect(venue.ok && [venue.lastResponse.attempts, venue.lastResponse.requestId]).toEqual([2, 'retry-after-check']);
      expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(950);
      expect(seen.map((s) => s.requestId)).toEqual(['retry-after-check', 'retry-after-check']);
    });

    it('never makes a cancel retried, whatever it says', async () => {
      script = unavailable(3);
      const down = await client({ maxRetries: 3 }).cancelBooking('ext:anything', { reason: 'x' }, { maxRetries: 3 });
      expect(!down.ok && [down.error.status, down.lastResponse.attempts]).toEqual([503, 1]);
      expect(seen).toHaveLength(1);
    });
  });

  it('rejects with PartnerConnectionError when nothing listens, after the allowed attempts', async () => {
    const port = await freePort();
    const api = createPartnerClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: key, retry: { baseDelayMs: 1 } });
    const call = api.listVenues({}, { maxRetries: 1, requestId: 'nobody-home' });
    await expect(call).rejects.toBeInstanceOf(PartnerConnectionError);
    await expect(call).rejects.toMatchObject({
      name: 'PartnerConnectionError',
      attempts: 2,
      requestId: 'nobody-home',
      message: 'fetch failed (ECONNREFUSED; request nobody-home, 2 attempts)',
      cause: expect.any(TypeError) as TypeError,
    });
  });

  describe('options the client refuses before sending anything', () => {
    const expected = 'your secret API key, sk_live_… or sk_test_…';
    const withKey = (apiKey: unknown) => () =>
      createPartnerClient({ baseUrl, apiKey } as unknown as PartnerClientOptions);

    it('a missing apiKey, named with the format it takes', () => {
      expect(withKey(undefined)).toThrow(`createPartnerClient: apiKey is required, ${expected} (got undefined)`);
      expect(withKey(null)).toThrow(`createPartnerClient: apiKey is required, ${expected} (got null)`);
      expect(withKey('')).toThrow(`createPartnerClient: apiKey is required, ${expected} (got an empty string)`);
      expect(withKey('  ')).toThrow(`createPartnerClient: apiKey is required, ${expected} (got an empty string)`);
      expect(withKey(42)).toThrow(`createPartnerClient: apiKey is required, ${expected} (got number)`);
      expect(withKey(undefined)).toThrow(TypeError);
      expect(() => createPartnerClient(undefined as unknown as PartnerClientOptions)).toThrow(/baseUrl is required/);
    });

    it('a string that is not a key, without echoing it', () => {
      const notAKey = `createPartnerClient: apiKey is not an API key; pass ${expected}`;
      expect(withKey('pk_live_0123')).toThrow(new TypeError(notAKey));
      expect(withKey(`Bearer ${key}`)).toThrow(new TypeError(`${notAKey}, without "Bearer"`));
      expect(withKey(`${key}\n`)).toThrow(
        new TypeError(`createPartnerClient: apiKey holds a space or line break; pass ${expected}, alone`),
      );
    });

    it('takes a test-mode key, sk_test_…, and sends it as given', async () => {
      const testKey = `sk_test_${'1'.repeat(12)}_${'2'.repeat(64)}`;
      const answer = await createPartnerClient({ baseUrl, apiKey: testKey }).listVenues();
      expect(!answer.ok && answer.error.status).toBe(401);
      expect(seen.map((s) => s.authorization)).toEqual([`Bearer ${testKey}`]);
    });

    it('a malformed timeout or maxRetries, on the client and on a call, and a malformed requestId', async () => {
      const timeout = /timeout must be a number of milliseconds from 1 to 2147483647, or false/;
      const maxRetries = /maxRetries must be a whole number from 0 \(0 never retries\)/;
      for (const bad of [0, -1, Number.NaN, Infinity, '1000']) {
        expect(() => client({ timeout: bad as number })).toThrow(timeout);
        await expect(client().listVenues({}, { timeout: bad as number })).rejects.toThrow(timeout);
      }
      for (const bad of [-1, 1.5, Number.NaN, '2']) {
        expect(() => client({ maxRetries: bad as number })).toThrow(maxRetries);
        await expect(client().listVenues({}, { maxRetries: bad as number })).rejects.toThrow(maxRetries);
      }
      for (const bad of ['', 'two words', 'é', 'x'.repeat(129)]) {
        await expect(client().listVenues({}, { requestId: bad })).rejects.toThrow(
          new TypeError('requestId must be 1 to 128 characters of A-Z a-z 0-9 . _ : -, as the API echoes it'),
        );
      }
      expect(seen).toEqual([]);
    });
  });
});
