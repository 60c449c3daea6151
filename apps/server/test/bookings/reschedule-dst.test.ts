import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { setup } from '../support/test-app.js';
import { expectStatus } from '../support/typed-api.js';

/** Each move crosses the zone's change of offset: the same local 10:00 before and after is another UTC hour. */
const CASES = [
  // Paris springs forward on 28 March 2027 (UTC+1 to UTC+2) and falls back on 31 October 2027.
  { zone: 'Europe/Paris', before: '2027-03-27', after: '2027-03-29', utc: ['09:00', '08:00'] },
  { zone: 'Europe/Paris', before: '2027-10-30', after: '2027-11-01', utc: ['08:00', '09:00'] },
  // Sydney falls back on 4 April 2027 (UTC+11 to UTC+10) and springs forward on 3 October 2027.
  { zone: 'Australia/Sydney', before: '2027-04-03', after: '2027-04-05', utc: ['23:00', '00:00'] },
  { zone: 'Australia/Sydney', before: '2027-10-02', after: '2027-10-04', utc: ['00:00', '23:00'] },
];

describe('reschedule across a change of offset keeps venue-local times right', () => {
  const ctx = setup();

  for (const { zone, before, after, utc } of CASES) {
    it(`moves a 10:00 booking in ${zone} from ${before} to 10:00 on ${after} (${utc.join(' to ')} UTC)`, async () => {
      const f = await makeBookableVenue(ctx.db, ctx.vault, { venue: { timezone: zone } });
      const tenOn = async (date: string) => {
        const res = await ctx.v1.availability(f.venue.id, f.variant.id, { date }, f.key);
        expectStatus(res, 200);
        if (res.body.data.mode !== 'day') throw new Error('a date query answered range mode');
        const slot = res.body.data.slots.find((s) => s.local_time === '10:00');
        expect(slot, `${date} lists 10:00`).toBeDefined();
        return slot!.start_at;
      };
      const from = await tenOn(before);
      const to = await tenOn(after);
      const created = await ctx.v1.book(f.venue.id, bookingBody(f.variant.id, { start_at: from }), f.key);
      expectStatus(created, 201);
      const moved = await ctx.v1.reschedule(created.body.data.id, f.key, to);
      expectStatus(moved, 200);
      const local = (iso: string) => Temporal.Instant.from(iso).toZonedDateTimeISO(zone);
      const { start_at, end_at } = moved.body.data;
      expect([from.slice(11, 16), start_at.slice(11, 16)]).toEqual(utc);
      expect(local(start_at).toPlainDate().toString()).toBe(after);
      expect([local(start_at).toPlainTime().toString(), local(end_at).toPlainTime().toString()]).toEqual([
        '10:00:00',
        '11:00:00',
      ]);
      // The old local 10:00 is free again; the new one is taken.
      expect(await tenOn(before)).toBe(from);
      const afterDay = await ctx.v1.availability(f.venue.id, f.variant.id, { date: after }, f.key);
      expectStatus(afterDay, 200);
      if (afterDay.body.data.mode !== 'day') throw new Error('a date query answered range mode');
      expect(afterDay.body.data.slots.map((s) => s.local_time)).not.toContain('10:00');
    });
  }
});
