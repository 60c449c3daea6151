import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeBookableVenue } from '../support/booking-fixture.js';
import { createTestContext, type TestContext } from '../support/test-app.js';
import { expectStatus } from '../support/typed-api.js';

describe('request log', () => {
  let ctx: TestContext;
  let f: Awaited<ReturnType<typeof makeBookableVenue>>;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    ctx = await createTestContext({ logger: pino({ level: 'info' }, sink) });
    f = await makeBookableVenue(ctx.db, ctx.vault);
  });
  afterAll(() => ctx.close());

  it('writes one line per answered request: the request, its key, the status and headers sent, the time taken', async () => {
    lines.length = 0;
    await ctx.partner(f.key).venues.list({ query: { page: '1' }, extraHeaders: { 'x-request-id': 'r-1' } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      req: { method: 'GET', url: '/v1/venues?page=1', id: 'r-1' },
      key_id: f.key.split('_')[2],
      res: { statusCode: 200, headers: { 'x-request-id': 'r-1', 'content-type': 'application/json; charset=utf-8' } },
      responseTime: expect.any(Number),
      msg: 'request completed',
    });
    expect(Object.keys(lines[0]!)).toEqual([
      'level',
      'time',
      'pid',
      'hostname',
      'req',
      'key_id',
      'res',
      'responseTime',
      'msg',
    ]);
  });

  it('logs a failure with the request and the key bound, and the request as errored', async () => {
    lines.length = 0;
    const now = vi.spyOn(ctx.clock, 'now').mockImplementation(() => {
      throw new Error('clock stopped');
    });
    try {
      const res = await ctx.partner(f.key).availability.variant({
        params: { venue_id: f.venue.id, variant_id: f.variant.id },
        query: { date: '2026-11-25' },
        extraHeaders: { 'x-request-id': 'r-2' },
      });
      expectStatus(res, 500);
    } finally {
      now.mockRestore();
    }
    const req = { method: 'GET', url: expect.stringContaining('/availability/variants/'), id: 'r-2' };
    expect(lines).toMatchObject([
      {
        level: 50,
        req,
        key_id: f.key.split('_')[2],
        organisation_id: f.organisation.id,
        err: { message: 'clock stopped' },
        msg: 'unhandled error',
      },
      {
        level: 30,
        req,
        res: { statusCode: 500 },
        err: { message: 'failed with status code 500' },
        msg: 'request errored',
      },
    ]);
  });
  it('never echoes nor logs a request id that carries a key, with its prefix or without', async () => {
    const secret = 'ab'.repeat(32);
    const given = [
      `sk_live_de0000000001_${secret}`,
      `sk_test_de0000000001_${secret}`,
      `de0000000001_${secret}`,
      `DE0000000001_${secret.toUpperCase()}`,
      `trace-de0000000001_${secret}`,
      secret,
      `whsec_${'A'.repeat(43)}`,
    ];
    for (const id of given) {
      lines.length = 0;
      const res = await ctx.partner(f.key).venues.list({ extraHeaders: { 'x-request-id': id } });
      const sent = res.headers.get('x-request-id');
      expect(sent, id).toMatch(/^[0-9a-f-]{36}$/);
      expect(lines, id).toHaveLength(1);
      const logged = JSON.stringify(lines[0]);
      expect(logged, id).not.toContain(secret);
      expect(logged, id).not.toContain(secret.toUpperCase());
      expect(logged, id).not.toContain(id);
      expect(lines[0]).toMatchObject({ req: { id: sent }, res: { headers: { 'x-request-id': sent } } });
    }
    // A trace id that only looks hexadecimal, shorter than a secret, is still echoed.
    const trace = 'de0000000001_0123456789abcdef';
    const res = await ctx.partner(f.key).venues.list({ extraHeaders: { 'x-request-id': trace } });
    expect(res.headers.get('x-request-id')).toBe(trace);
  });
});
