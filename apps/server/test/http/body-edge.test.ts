import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeBookableVenue } from '../support/booking-fixture.js';
import { setup } from '../support/test-app.js';

describe('request bodies that are not a JSON object', () => {
  const ctx = setup();
  let f: Awaited<ReturnType<typeof makeBookableVenue>>;
  beforeAll(async () => {
    f = await makeBookableVenue(ctx.db, ctx.vault);
  });

  it('answers 400 naming the first missing field, or the body itself when it is not an object', async () => {
    const post = () =>
      request(ctx.app).post(`/v1/venues/${f.venue.id}/bookings`).set('Authorization', `Bearer ${f.key}`);
    const empty = await post();
    expect([empty.status, empty.body.error]).toEqual([400, 'variant_id is required']);
    // A body sent as text or a form is not read as "no body": the partner is told to send JSON.
    const expected = [
      400,
      'body must be JSON, sent with Content-Type: application/json',
      [{ path: 'body', message: 'body must be JSON, sent with Content-Type: application/json' }],
    ];
    for (const res of [
      await post().set('content-type', 'text/plain').send('hello'),
      await post().type('form').send('{"variant_id":"x"}'),
    ]) {
      expect([res.status, res.body.error, res.body.details]).toEqual(expected);
    }
    const array = await post().send([1, 2]);
    expect([array.status, array.body.error, array.body.details]).toEqual([
      400,
      'body must be an object',
      [{ path: 'body', message: 'body must be an object' }],
    ]);
  });
});
