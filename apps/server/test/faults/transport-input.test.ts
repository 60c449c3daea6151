import { connect as tcpConnect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { contract } from '@spa/contract';
import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KeyVault } from '../../src/auth/api-key.js';
import { makeBookableVenue } from '../support/booking-fixture.js';
import { makeApiKey } from '../support/factories.js';
import { createTestContext, type TestContext } from '../support/test-app.js';

/** Every route of the contract, its path parameters filled with the fixture's ids. */
function everyRoute(router: AppRouter): AppRoute[] {
  return Object.values(router).flatMap((entry) => (isAppRoute(entry) ? [entry] : everyRoute(entry)));
}

describe('hostile transport input is a 4xx at every route, never a 5xx', () => {
  let ctx: TestContext;
  let f: Awaited<ReturnType<typeof makeBookableVenue>>;
  /** The test helpers answer a live key 403 before they read a body: they are sent a test key. */
  let testKey: string;
  const logLines: string[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    ctx = await createTestContext({ bodyDeadlineMs: 300, logger: pino({ level: 'info' }, sink) });
    f = await makeBookableVenue(ctx.db, ctx.vault);
    testKey = (await makeApiKey(ctx.db, ctx.vault, f.organisation.id, { livemode: false })).key;
  });
  afterAll(() => ctx.close());

  const pathOf = (route: AppRoute) =>
    route.path.replace(/:(\w+)/g, (_m, name: string) => (name === 'venue_id' ? f.venue.id : crypto.randomUUID()));
  const send = (route: AppRoute) => {
    const method = route.method.toLowerCase() as 'get' | 'post';
    const key = route.path.includes('/test_helpers/') ? testKey : f.key;
    return request(ctx.app)[method](pathOf(route)).set('Authorization', `Bearer ${key}`);
  };

  it('parses JSON nested 20,000 levels deep, or refuses it with 400, at every route', async () => {
    const deepArray = '['.repeat(20_000) + ']'.repeat(20_000);
    const deepObject = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    for (const route of everyRoute(contract)) {
      for (const body of [deepArray, deepObject]) {
        const res = await send(route).set('Content-Type', 'application/json').send(body);
        const name = `${route.method} ${route.path}`;
        expect(res.status, name).toBeLessThan(500);
        // A route that takes a body refuses one it cannot read; one that takes none (c.noBody()) ignores it.
        if (route.method === 'POST' && typeof route.body !== 'symbol') expect(res.status, name).toBe(400);
      }
    }
  });

  it('finds a NUL character at the bottom of a deep body without overflowing the stack', async () => {
    const body = '{"notes":' + '['.repeat(20_000) + '"x\\u0000"' + ']'.repeat(20_000) + '}';
    const res = await request(ctx.app)
      .post(`/v1/venues/${f.venue.id}/bookings`)
      .set('Authorization', `Bearer ${f.key}`)
      .set('Content-Type', 'application/json')
      .send(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^notes(\.0)+ must not contain the NUL character/);
  });

  it('answers 415 for an unknown Content-Encoding and 400 for a body that does not decompress, at every route', async () => {
    const json = JSON.stringify({ variant_id: f.variant.id });
    for (const route of everyRoute(contract)) {
      const name = `${route.method} ${route.path}`;
      for (const encoding of ['br', 'zstd', 'compress']) {
        const res = await send(route)
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', encoding)
          .send(json);
        expect(res.status, `${name} ${encoding}`).toBe(415);
        expect(res.body.error, name).toBe('Unsupported Content-Encoding: send the body as identity, gzip or deflate');
      }
      for (const encoding of ['gzip', 'deflate']) {
        const res = await send(route)
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', encoding)
          .send(json);
        expect(res.status, `${name} ${encoding}`).toBe(400);
        expect(res.body.error, name).toBe('body could not be decompressed as its Content-Encoding says');
      }
    }
  });

  it('reads a gzip body that is what it says', async () => {
    const res = await request(ctx.app)
      .post(`/v1/venues/${f.venue.id}/bookings`)
      .set('Authorization', `Bearer ${f.key}`)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .serialize((bytes: Buffer) => bytes as unknown as string) // as is: superagent would write a Buffer as JSON
      .send(gzipSync(JSON.stringify({ variant_id: f.variant.id })));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('start_at is required');
  });

  it('answers 408 and closes the connection when the body does not arrive in time after the headers', async () => {
    const server = ctx.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const socket = tcpConnect((server.address() as AddressInfo).port, '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      const closed = new Promise((resolve) => socket.once('close', resolve));
      socket.write(
        `POST /v1/venues/${f.venue.id}/bookings HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${f.key}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{"variant_id":',
      );
      await closed;
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toMatch(/\r\nConnection: close\r\n/i);
      expect(answer).toContain('"error":"Request body did not arrive within 10 s of its headers"');
    } finally {
      server.close();
    }
  });

  it('never logs a key sent in the URL, as a query parameter or in the path', async () => {
    const secret = f.key.split('_').pop()!;
    await request(ctx.app).get(`/v1/venues?api_key=${f.key}`);
    await request(ctx.app).get(`/v1/venues?token=${secret}`);
    await request(ctx.app).get(`/v1/${f.key}/venues`);
    await request(ctx.app).get(`/v1/${encodeURIComponent(f.key)}`);
    const logged = logLines.join('');
    expect(logged).toContain('sk_live_[redacted]');
    expect(logged).not.toContain(secret);
  });

  it('never logs a key sent encoded more than once in a query value, or as a path segment', async () => {
    logLines.length = 0;
    const secret = f.key.split('_').pop()!;
    const twice = encodeURIComponent(encodeURIComponent(f.key));
    const thrice = encodeURIComponent(twice);
    await request(ctx.app).get(`/v1/venues?q=${twice}`);
    await request(ctx.app).get(`/v1/venues?cursor=${thrice}&page=1`);
    await request(ctx.app).get(`/v1/${twice}/venues`);
    // Every letter percent-encoded, then the percent signs encoded again: no `sk_live` text at any one layer.
    const hidden = encodeURIComponent([...f.key].map((c) => `%${c.charCodeAt(0).toString(16)}`).join(''));
    await request(ctx.app).get(`/v1/venues?q=${hidden}`);
    expect(logLines).toHaveLength(4);
    const logged = logLines.join('');
    expect(logged).not.toContain(secret);
    expect(logged).not.toContain(f.key.split('_')[2]);
    expect(logLines.map((line) => (JSON.parse(line) as { req: { url: string } }).req.url)).toEqual([
      '/v1/venues?q=[redacted]',
      '/v1/venues?cursor=[redacted]&page=1',
      '/v1/sk_live_[redacted]/venues',
      '/v1/venues?q=[redacted]',
    ]);
  });

  it('replaces a request id that looks like a key with a fresh one, in the answer and in the log', async () => {
    logLines.length = 0;
    const secret = f.key.split('_').pop()!;
    for (const given of [f.key, 'SK_LIVE_abc', `x.sk_live_${secret}`]) {
      const res = await request(ctx.app)
        .get('/v1/venues')
        .set('Authorization', `Bearer ${f.key}`)
        .set('X-Request-Id', given);
      expect(res.status).toBe(200);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    const kept = await request(ctx.app)
      .get('/v1/venues')
      .set('Authorization', `Bearer ${f.key}`)
      .set('X-Request-Id', 'trace-42');
    expect(kept.headers['x-request-id']).toBe('trace-42');
    const logged = logLines.join('');
    expect(logged).not.toContain(secret);
    expect(logged.toLowerCase()).not.toContain('sk_live_abc');
  });

  it('verifies an unknown key id against a dummy HMAC, as it verifies a wrong secret of a known id', async () => {
    const verify = vi.spyOn(KeyVault.prototype, 'verify');
    try {
      const unknown = `sk_live_${'0'.repeat(12)}_${'a'.repeat(64)}`;
      const res = await request(ctx.app).get('/v1/venues').set('Authorization', `Bearer ${unknown}`);
      expect(res.status).toBe(401);
      // Twice, as for a known id with a wrong secret: once, and once more after the pending key notices.
      expect(verify).toHaveBeenCalledTimes(2);
    } finally {
      verify.mockRestore();
    }
  });
});
