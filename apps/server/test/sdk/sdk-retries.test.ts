import type { Server } from 'node:http';
import { type CreateBookingInput, createPartnerClient, type PartnerClientOptions } from '@spa/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBookableVenue } from '../support/booking-fixture.js';
import { listen } from '../support/listen.js';
import { setup } from '../support/test-app.js';

/** One scripted answer per attempt; once the script runs out, requests reach the app. */
type Step = 'network' | 'hang' | 'pass' | { status: number; body?: unknown; headers?: Record<string, string> };

function scripted(steps: Step[]) {
  const calls: { method: string; at: number }[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const step = steps[calls.length] ?? 'pass';
    calls.push({ method: init?.method ?? 'GET', at: Date.now() });
    if (step === 'network') throw new TypeError('fetch failed');
    if (step === 'pass') return fetch(input, init);
    if (step === 'hang') {
      return new Promise<Response>((_, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error)),
      );
    }
    const json = typeof step.body !== 'string';
    return new Response(json ? JSON.stringify(step.body ?? {}) : (step.body as string), {
      status: step.status,
      headers: { 'content-type': json ? 'application/json' : 'text/html', ...step.headers },
    });
  };
  return { fetch: fetchImpl, calls };
}

describe('the SDK retries only what is safe to retry', () => {
  const ctx = setup();
  let server: Server;
  let baseUrl: string;
  let f: Awaited<ReturnType<typeof makeBookableVenue>>;
  let day = 0;

  /** A fresh future slot per booking, so the tests do not collide. */
  const body = (overrides: Partial<CreateBookingInput> = {}): CreateBookingInput => ({
    variant_id: f.variant.id,
    start_at: `2026-12-${String(++day).padStart(2, '0')}T09:00:00Z`,
    guest: { first_name: 'Claire', last_name: 'Martin', email: 'claire.martin@example.com' },
    price_paid: { amount: 90, currency: 'EUR' },
    ...overrides,
  });
  const client = (steps: Step[], options: Partial<PartnerClientOptions> = {}) => {
    const net = scripted(steps);
    return {
      net,
      api: createPartnerClient({
        baseUrl,
        apiKey: f.key,
        fetch: net.fetch,
        retry: { attempts: 4, baseDelayMs: 1 },
        ...options,
      }),
    };
  };
  const bookingsWith = (externalId: string) =>
    ctx.db
      .selectFrom('bookings')
      .select('id')
      .where('venue_id', '=', f.venue.id)
      .where('external_id', '=', externalId)
      .execute();

  beforeAll(async () => {
    ({ server, baseUrl } = await listen(ctx));
    f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 1, therapists: 1 });
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  describe('createBooking with an external_id', () => {
    it('retries network errors and books once', async () => {
      const { net, api } = client(['network', 'network']);
      const created = await api.createBooking(f.venue.id, body({ external_id: 'retry-net' }));
      expect(created.ok && created.status).toBe(201);
      expect(net.calls).toHaveLength(3);
      expect(await bookingsWith('retry-net')).toHaveLength(1);
    });

    it('retries 5xx and 429', async () => {
      const { net, api } = client([
        { status: 503, body: 'Service Unavailable' },
        { status: 429, body: { error: 'Rate limit exceeded', request_id: 'r1' }, headers: { 'retry-after': '0' } },
      ]);
      const created = await api.createBooking(f.venue.id, body({ external_id: 'retry-5xx' }));
      expect(created.ok && created.status).toBe(201);
      expect(net.calls).toHaveLength(3);
    });

    it('gets the original booking (200, replayed) when the first attempt was stored but its answer lost', async () => {
      const { api: direct } = client([]);
      const request = body({ external_id: 'retry-lost' });
      const first = await direct.createBooking(f.venue.id, request);
      const { net, api } = client(['network']);
      const again = await api.createBooking(f.venue.id, request);
      expect(again.ok && [again.status, again.replayed, again.data.id]).toEqual([200, true, first.ok && first.data.id]);
      expect(net.calls).toHaveLength(2);
    });

    it('waits out 409 duplicate_external_id, then gets its answer', async () => {
      const { net, api } = client([{ status: 409, body: { error: 'duplicate_external_id', request_id: 'r1' } }]);
      const created = await api.createBooking(f.venue.id, body({ external_id: 'retry-dup' }));
      expect(created.ok && created.status).toBe(201);
      expect(net.calls).toHaveLength(2);
    });

    it('gives one booking to two concurrent creates with the same external_id', async () => {
      const api = createPartnerClient({ baseUrl, apiKey: f.key, retry: { baseDelayMs: 20 } });
      const request = body({ external_id: 'retry-race' });
      const both = await Promise.all([api.createBooking(f.venue.id, request), api.createBooking(f.venue.id, request)]);
      expect(both.map((r) => r.ok && r.status).sort()).toEqual([200, 201]);
      expect(new Set(both.map((r) => r.ok && r.data.id)).size).toBe(1);
      expect(await bookingsWith('retry-race')).toHaveLength(1);
    });

    it('does not retry slot_unavailable or any other 4xx', async () => {
      const request = body({ external_id: 'retry-first' });
      expect((await client([]).api.createBooking(f.venue.id, request)).ok).toBe(true);
      const { net, api } = client([]);
      const taken = await api.createBooking(f.venue.id, { ...request, external_id: 'retry-second' });
      expect(!taken.ok && [taken.error.status, taken.error.code]).toEqual([409, 'slot_unavailable']);
      const invalid = await api.createBooking(f.venue.id, body({ external_id: 'retry-bad', guest_count: 0 }));
      expect(!invalid.ok && invalid.error.status).toBe(400);
      expect(net.calls).toHaveLength(2);
    });
  });

  describe('createBooking without an external_id, and cancelBooking', () => {
    it('never retries a network error', async () => {
      const { net, api } = client(['network']);
      await expect(api.createBooking(f.venue.id, body())).rejects.toThrow('fetch failed');
      expect(net.calls).toHaveLength(1);
    });

    it('never retries a 5xx: the booking may exist', async () => {
      const { net, api } = client([{ status: 500, body: { error: 'Internal server error', request_id: 'r1' } }]);
      const failed = await api.createBooking(f.venue.id, body({ external_id: null }));
      expect(!failed.ok && [failed.error.status, failed.error.code]).toEqual([500, 'Internal server error']);
      expect(net.calls).toHaveLength(1);
    });

    it('never retries a cancel', async () => {
      const { net, api } = client(['network', { status: 503, body: 'down' }]);
      await expect(api.cancelBooking('ext:anything', { reason: 'x' })).rejects.toThrow('fetch failed');
      const down = await api.cancelBooking('ext:anything', { reason: 'x' });
      expect(!down.ok && [down.error.status, down.error.code, down.error.body]).toEqual([503, 'HTTP 503', 'down']);
      expect(net.calls.map((c) => c.method)).toEqual(['POST', 'POST']);
    });
  });

  describe('reads', () => {
    it('retry network errors, 5xx and 429', async () => {
      const { net, api } = client([
        'network',
        { status: 502, body: '<html>Bad gateway</html>' },
        { status: 429, body: { error: 'Rate limit exceeded', request_id: 'r1' } },
      ]);
      const venues = await api.listVenues();
      expect(venues.ok && venues.data.map((v) => v.id)).toEqual([f.venue.id]);
      expect(net.calls).toHaveLength(4);
    });

    it('honour Retry-After in seconds', async () => {
      const { net, api } = client([
        { status: 429, body: { error: 'Rate limit exceeded', request_id: 'r1' }, headers: { 'retry-after': '1' } },
      ]);
      expect((await api.getVenue(f.venue.id)).ok).toBe(true);
      expect(net.calls[1]!.at - net.calls[0]!.at).toBeGreaterThanOrEqual(950);
    });

    it('answer the 429 at once when Retry-After is longer than maxDelayMs', async () => {
      const { net, api } = client([
        { status: 429, body: { error: 'Rate limit exceeded', request_id: 'r1' }, headers: { 'retry-after': '120' } },
      ]);
      const limited = await api.listVenues();
      expect(!limited.ok && [limited.error.status, limited.error.code]).toEqual([429, 'Rate limit exceeded']);
      expect(net.calls).toHaveLength(1);
    });

    it('are never retried on a 4xx, nor on 501', async () => {
      const { net, api } = client([{ status: 501, body: { error: 'Not implemented' } }]);
      const unimplemented = await api.listTreatments(f.venue.id);
      // A text the contract does not know: the code says the status, the text is kept as sent.
      expect(
        !unimplemented.ok && [unimplemented.error.status, unimplemented.error.code, unimplemented.error.text],
      ).toEqual([501, 'HTTP 501', 'Not implemented']);
      const missing = await api.getVenue('nowhere');
      expect(!missing.ok && missing.error.status).toBe(404);
      expect(net.calls).toHaveLength(2);
    });

    it('stop after the allowed attempts, and not at all with retry: false', async () => {
      const { net, api } = client(['network', 'network', 'network', 'network', 'network'], {
        retry: { attempts: 3, baseDelayMs: 1 },
      });
      await expect(api.listVenues()).rejects.toThrow('fetch failed');
      expect(net.calls).toHaveLength(3);
      const once = client(['network'], { retry: false });
      await expect(once.api.listVenues()).rejects.toThrow('fetch failed');
      expect(once.net.calls).toHaveLength(1);
    });

    it('time out each attempt and retry it', async () => {
      // Long enough for the third attempt to reach the app on a busy machine; the hanging ones never answer.
      const { net, api } = client(['hang', 'hang'], { timeoutMs: 1_000 });
      expect((await api.listVenues()).ok).toBe(true);
      expect(net.calls).toHaveLength(3);
    });

    it('stop at once when the caller aborts, even while waiting to retry', async () => {
      const { net, api } = client(['network', 'network'], { retry: { attempts: 4, baseDelayMs: 10_000 } });
      const started = Date.now();
      await expect(api.listVenues({}, { signal: AbortSignal.timeout(50) })).rejects.toMatchObject({
        name: 'TimeoutError',
      });
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(net.calls).toHaveLength(1);
    });
  });
});
