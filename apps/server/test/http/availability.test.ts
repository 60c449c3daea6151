import { beforeAll, describe, expect, it } from 'vitest';
import { makeBookableVenue } from '../support/booking-fixture.js';
import { makeApiKey, makeOrganisation, makeTreatment, makeVenue } from '../support/factories.js';
import { setup } from '../support/test-app.js';
import { errorOf, expectStatus, type PartnerClient } from '../support/typed-api.js';

type Query = Parameters<PartnerClient['availability']['variant']>[0]['query'];
type Answer = Awaited<ReturnType<PartnerClient['availability']['variant']>>;

/** The body of a 200 answer in the given mode, failing the test on any other status or mode. */
function dataIn<M extends 'day' | 'range'>(res: Answer, mode: M) {
  expectStatus(res, 200);
  const { data } = res.body;
  if (data.mode !== mode) throw new Error(`expected ${mode} mode, answered ${data.mode}`);
  return data as Extract<typeof data, { mode: M }>;
}

describe('GET /v1/venues/{venue_id}/availability/variants/{variant_id}', () => {
  const ctx = setup(); // now: 2026-11-22T08:00:00Z
  let f: Awaited<ReturnType<typeof makeBookableVenue>>;
  beforeAll(async () => {
    f = await makeBookableVenue(ctx.db, ctx.vault, {
      rooms: 2,
      therapists: 2,
      venue: { days_of_week: [1, 2, 3, 4, 5] },
    });
  });

  const get = (query: Query, variant = f.variant.id, venue: string = f.venue.slug, key = f.key) =>
    ctx.v1.availability(venue, variant, query, key);

  it('answers day mode with the ids, the date and the slots', async () => {
    expect(dataIn(await get({ date: '2026-11-25', guest_count: '2' }), 'day').slots).toEqual([]); // rooms of capacity 1 only
    const data = dataIn(await get({ date: '2026-11-25' }), 'day');
    expect(data).toMatchObject({
      venue_id: f.venue.id,
      treatment_id: f.treatment.id,
      variant_id: f.variant.id,
      date: '2026-11-25',
    });
    expect(data.slots).toHaveLength(17);
    expect(data.slots.at(-1)).toEqual({
      time: '16:00',
      local_time: '17:00',
      start_at: '2026-11-25T16:00:00Z',
      end_at: '2026-11-25T17:00:00Z',
      out_of_hours: false,
      available_capacity: 1,
    });
  });

  it('answers range mode with every date, closed days empty', async () => {
    const data = dataIn(await get({ from: '2026-11-27', to: '2026-11-30' }), 'range');
    expect(data).toMatchObject({ from: '2026-11-27', to: '2026-11-30' });
    expect(data.days.map((d) => [d.date, d.slots.length])).toEqual([
      ['2026-11-27', 17],
      ['2026-11-28', 0],
      ['2026-11-29', 0],
      ['2026-11-30', 17], // Saturday and Sunday closed
    ]);
  });

  it('answers 400 naming date or from/to when the period is missing, conflicting, reversed or too long', async () => {
    const cases: [Query, string, string][] = [
      [{}, 'date', 'date, or both from and to, must be given'],
      [
        { date: '2026-11-25', from: '2026-11-25' },
        'date',
        'date cannot be combined with from or to; send either date, or from and to',
      ],
      [{ from: '2026-11-25' }, 'to', 'to is required with from'],
      [{ to: '2026-11-25' }, 'from', 'from is required with to'],
      [{ from: '2026-11-25', to: '2026-11-24' }, 'to', 'to must be on or after from'],
      [{ from: '2026-11-01', to: '2027-01-03' }, 'to', 'to must be at most 62 days after from'],
      [{ date: '2026-02-30' }, 'date', 'date must be a valid calendar date (YYYY-MM-DD)'],
      [{ date: '2026-11-25', guest_count: '21' }, 'guest_count', 'guest_count must be an integer from 1 to 20'],
    ];
    for (const [query, path, message] of cases) {
      const res = await get(query);
      const details = res.status === 400 ? res.body.details : undefined;
      expect([res.status, errorOf(res), details?.[0]?.path], JSON.stringify(query)).toEqual([400, message, path]);
    }
    expect((await get({ from: '2026-11-01', to: '2027-01-02' })).status).toBe(200); // exactly 62 days
  });

  it('answers 403 Forbidden for another organisation, 404 for an unknown venue or a variant not in the venue', async () => {
    const other = await makeOrganisation(ctx.db);
    const foreign = await makeVenue(ctx.db, other.id);
    expect(errorOf(await get({ date: '2026-11-25' }, f.variant.id, foreign.id))).toBe('Forbidden');
    expect(errorOf(await get({ date: '2026-11-25' }, f.variant.id, 'nowhere'))).toBe('Venue not found');
    const sibling = await makeVenue(ctx.db, f.organisation.id);
    const siblingTreatment = await makeTreatment(ctx.db, sibling.id);
    for (const variant of [siblingTreatment.variant.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await get({ date: '2026-11-25' }, variant);
      expect([res.status, errorOf(res)]).toEqual([404, 'Variant not found']);
    }
    const { key: reader } = await makeApiKey(ctx.db, ctx.vault, f.organisation.id, { scopes: ['venues:read'] });
    expect((await get({ date: '2026-11-25' }, f.variant.id, f.venue.slug, reader)).body).toMatchObject({
      error: 'Insufficient scope',
      missing: ['availability:read'],
    });
  });
});
