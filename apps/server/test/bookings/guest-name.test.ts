import { Writable } from 'node:stream';
import { pino } from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { setup } from '../support/test-app.js';
import { expectStatus } from '../support/typed-api.js';

describe('guests are matched to customers by email', () => {
  const lines: { level: number; msg: string; customer_id?: string }[] = [];
  const ctx = setup({
    now: '2026-11-22T08:00:00Z',
    logger: pino(
      { level: 'warn' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(JSON.parse(chunk.toString('utf8')) as (typeof lines)[number]);
          done();
        },
      }),
    ),
  });
  let f: Awaited<ReturnType<typeof makeBookableVenue>>;
  beforeAll(async () => {
    f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 2, therapists: 2 });
  });

  const book = async (start: string, guest: { first_name: string; last_name: string; email: string }) => {
    const res = await ctx.partner(f.key).bookings.create({
      params: { venue_id: f.venue.id },
      body: bookingBody(f.variant.id, { start_at: start, guest }),
    });
    expectStatus(res, 201);
    return res;
  };
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
