import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { KeyVault } from '../../src/auth/api-key.js';
import type { DatabaseHandle } from '../../src/db/connect.js';
import { fixedClock } from '../support/fixed-clock.js';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { openTestDatabase } from '../support/test-db.js';

describe('guests are matched to customers by email', () => {
  let handle: DatabaseHandle;
  let app: ReturnType<typeof createApp>;
  let f: Awaited<ReturnType<typeof makeBookableVenue>>;
  const lines: { level: number; msg: string; customer_id?: string }[] = [];
  beforeAll(async () => {
    handle = await openTestDatabase();
    const vault = new KeyVault(randomBytes(32));
    const logger = pino(
      { level: 'warn' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(JSON.parse(chunk.toString('utf8')) as (typeof lines)[number]);
          done();
        },
      }),
    );
    app = createApp({
      db: handle.db,
      clock: fixedClock('2026-11-22T08:00:00Z'),
      vault,
      config: { rateLimitEnforced: false, publicUrl: 'http://localhost' },
      logger,
    });
    f = await makeBookableVenue(handle.db, vault, { rooms: 2, therapists: 2 });
  });
  afterAll(() => handle.close());

  const book = (start: string, guest: object) =>
    request(app)
      .post(`/v1/venues/${f.venue.id}/bookings`)
      .set('Authorization', `Bearer ${f.key}`)
      .send(bookingBody(f.variant.id, { start_at: start, guest }))
      .expect(201);
  const mismatchWarnings = () => lines.filter((l) => l.msg.startsWith('guest name differs'));
  const settle = async () => {
    for (let i = 0; i < 50 && mismatchWarnings().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
  };

  it('books a known address under the stored customer, and logs (without the names) that the name sent differs', async () => {
    const email = 'agency.desk@example.com';
    const first = await book('2026-11-25T09:00:00Z', { first_name: 'Ana', last_name: 'Lopez', email });
    await book('2026-11-25T11:00:00Z', { first_name: 'Ana', last_name: 'Lopez', email: email.toUpperCase() });
    await settle();
    expect(mismatchWarnings()).toEqual([]);

    const second = await book('2026-11-25T13:00:00Z', { first_name: 'Marc', last_name: 'Roy', email });
    expect(second.body.data.customer_id).toBe(first.body.data.customer_id);
    await settle();
    expect(mismatchWarnings()).toEqual([
      expect.objectContaining({ level: 40, customer_id: first.body.data.customer_id }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('Marc');
    expect(JSON.stringify(lines)).not.toContain(email);
  });
});
