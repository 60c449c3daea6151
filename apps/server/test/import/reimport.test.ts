import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseApiKey } from '../../src/auth/api-key.js';
import { importVenueData, ImportValidationError } from '../../src/import/import-venue-data.js';
import { regenerateDashboardKey, revokeKey } from '../../src/keys/keys.service.js';
import { setup } from '../support/test-app.js';
import { makeVenueFile } from './venue-file.js';

async function problemsOf(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportValidationError);
  return (error as ImportValidationError).problems.map((p) => p.message);
}

describe('importVenueData: live bookings and re-imports', () => {
  const ctx = setup();

  it('holds the smallest fitting room over [start, end + turnover) and each therapist over [start, end)', async () => {
    const { file, ids, booking } = makeVenueFile();
    const duo = booking({
      variant_id: ids.variant90,
      guest_count: 2,
      status: 'pending',
      therapist_ids: [ids.camille, ids.hugo],
    });
    const solo = booking({ start_at: '2026-12-02T09:00:00Z', external_reference: 'Hotel.ROOM-12' });
    file.bookings.push(duo, solo, booking({ status: 'no_show' }));
    await importVenueData(ctx.db, file, ctx.vault);

    const rooms = await ctx.db
      .selectFrom('room_reservations')
      .select(['booking_id', 'room_id', 'during'])
      .where('booking_id', 'in', [duo.id, solo.id])
      .execute();
    expect(rooms).toEqual(
      expect.arrayContaining([
        { booking_id: duo.id, room_id: ids.twinRoom, during: '["2026-12-01 09:00:00+00","2026-12-01 10:45:00+00")' },
        { booking_id: solo.id, room_id: ids.smallRoom, during: '["2026-12-02 09:00:00+00","2026-12-02 10:15:00+00")' },
      ]),
    );
    const therapists = await ctx.db
      .selectFrom('therapist_reservations')
      .select(['therapist_id', 'venue_id', 'during'])
      .where('booking_id', '=', duo.id)
      .orderBy('therapist_id')
      .execute();
    expect(therapists.map((t) => t.therapist_id).sort()).toEqual([ids.camille, ids.hugo].sort());
    expect(
      therapists.every(
        (t) => t.venue_id === ids.venue && t.during === '["2026-12-01 09:00:00+00","2026-12-01 10:30:00+00")',
      ),
    ).toBe(true);
    const rows = await ctx.db
      .selectFrom('bookings')
      .select(['id', 'end_at', 'therapist_id', 'client_type', 'total_price_minor'])
      .where('id', 'in', [duo.id, solo.id])
      .execute();
    expect(rows.find((r) => r.id === duo.id)).toMatchObject({
      end_at: '2026-12-01 10:30:00+00',
      therapist_id: null,
      client_type: 'external',
    });
    expect(rows.find((r) => r.id === solo.id)).toMatchObject({
      therapist_id: ids.camille,
      client_type: 'hotel',
      total_price_minor: 11000,
    });
    const offers = await ctx.db
      .selectFrom('booking_offers')
      .select('therapist_id')
      .where('booking_id', '=', duo.id)
      .execute();
    expect(offers).toHaveLength(2); // its therapists can accept it
  });

  it('replaces the child collections of each parent with the file’s, and releases holds of a booking no longer live', async () => {
    const { file, ids, booking } = makeVenueFile();
    const live = booking();
    file.bookings.push(live);
    await importVenueData(ctx.db, file, ctx.vault);

    const venue = file.venues[0]!;
    venue.rooms = venue.rooms.filter((r) => r.id === ids.twinRoom);
    venue.treatments[0]!.variants = venue.treatments[0]!.variants.filter((v) => v.id === ids.variant60);
    venue.treatments[0]!.room_ids = [ids.twinRoom];
    venue.blocks = [{ id: randomUUID(), daily: true, start_time: '12:30', end_time: '13:30', reason: 'lunch' }];
    venue.one_time_openings = [];
    file.therapists[0]!.shifts = [{ venue_id: ids.venue, days_of_week: [6], start_time: '10:00', end_time: '16:00' }];
    file.therapists[0]!.shift_overrides = [];
    file.therapists[0]!.absences = [];
    file.bookings[0]!.status = 'completed';
    const summary = await importVenueData(ctx.db, file, ctx.vault);
    expect(summary.changes).toMatchObject({
      rooms: { created: 0, updated: 0, unchanged: 1 },
      variants: { created: 0, updated: 0, unchanged: 1 },
      blocks: { created: 1, updated: 0, unchanged: 0 },
      venues: { created: 0, updated: 1, unchanged: 0 }, // its one-time openings were dropped
      therapists: { created: 0, updated: 1, unchanged: 1 }, // new shifts for the first one
      bookings: { created: 0, updated: 1, unchanged: 0 }, // now completed
    });

    expect(await ctx.db.selectFrom('rooms').select('id').where('venue_id', '=', ids.venue).execute()).toEqual([
      { id: ids.twinRoom },
    ]);
    expect(
      await ctx.db
        .selectFrom('venue_blocks')
        .select(['start_time', 'end_time'])
        .where('venue_id', '=', ids.venue)
        .execute(),
    ).toEqual([{ start_time: '12:30:00', end_time: '13:30:00' }]);
    expect(
      await ctx.db.selectFrom('one_time_openings').select('date').where('venue_id', '=', ids.venue).execute(),
    ).toEqual([]);
    expect(
      (await ctx.db.selectFrom('variants').select('id').where('treatment_id', '=', ids.treatment).execute()).map(
        (v) => v.id,
      ),
    ).toEqual([ids.variant60]);
    expect(
      (
        await ctx.db.selectFrom('treatment_rooms').select('room_id').where('treatment_id', '=', ids.treatment).execute()
      ).map((r) => r.room_id),
    ).toEqual([ids.twinRoom]);
    const shifts = await ctx.db
      .selectFrom('therapist_shifts')
      .select(['days_of_week', 'start_time'])
      .where('therapist_id', '=', ids.camille)
      .execute();
    expect(shifts).toEqual([{ days_of_week: [6], start_time: '10:00:00' }]);
    expect(
      await ctx.db
        .selectFrom('therapist_shift_overrides')
        .select('date')
        .where('therapist_id', '=', ids.camille)
        .execute(),
    ).toEqual([]);
    expect(
      await ctx.db.selectFrom('therapist_absences').select('id').where('therapist_id', '=', ids.camille).execute(),
    ).toEqual([]);
    expect(
      await ctx.db.selectFrom('room_reservations').select('room_id').where('booking_id', '=', live.id).execute(),
    ).toEqual([]);
  });

  it('refuses, with paths, a re-import whose slug, email or external id another row holds, or that drops what a booking needs', async () => {
    const first = makeVenueFile();
    const apiBooking = first.booking({ external_id: 'ext-1' });
    first.file.bookings.push(apiBooking);
    await importVenueData(ctx.db, first.file, ctx.vault);

    const other = makeVenueFile();
    const slug = other.file.organisations[0]!.slug;
    other.file.organisations[0]!.slug = first.file.organisations[0]!.slug;
    expect(await problemsOf(importVenueData(ctx.db, other.file, ctx.vault))).toEqual([
      `organisations[0].slug: this slug is already used by ${first.ids.organisation} in the database; give this entry that id, or change it`,
    ]);
    other.file.organisations[0]!.slug = slug;
    await importVenueData(ctx.db, other.file, ctx.vault);

    // The first file again: its booking replaced by another with the same external_id, Alice under a new id,
    // the room and variant the first booking holds dropped, and a room of the other venue moved in.
    const again = structuredClone(first.file);
    again.bookings = [
      first.booking({
        variant_id: first.ids.variant90,
        customer_id: first.ids.bruno,
        status: 'pending',
        therapist_ids: [],
        external_id: 'ext-1',
      }),
    ];
    again.customers[0]!.id = randomUUID();
    again.venues[0]!.rooms = [
      ...again.venues[0]!.rooms.filter((r) => r.id !== first.ids.smallRoom),
      { id: other.ids.smallRoom, name: 'moved', capacity: 1 },
    ];
    again.venues[0]!.treatments[0]!.variants = again.venues[0]!.treatments[0]!.variants.filter(
      (v) => v.id !== first.ids.variant60,
    );
    again.venues[0]!.treatments[0]!.variants[0]!.is_default = true;
    expect(await problemsOf(importVenueData(ctx.db, again, ctx.vault))).toEqual([
      `venues[0].rooms[1].id: ${other.ids.smallRoom} belongs to venue ${other.ids.venue} in the database; an import cannot move it`,
      `customers[0].email: this email is already used by ${first.ids.alice} in the database; give this entry that id, or change it`,
      `bookings[0].external_id: this external_id is already used by ${apiBooking.id} in the database; give this entry that id, or change it`,
      `venues[0].rooms: room ${first.ids.smallRoom} is not in the file but holds live booking ${apiBooking.id}; keep the room or end that booking first`,
      `venues[0].treatments: variant ${first.ids.variant60} is not in the file but booking ${apiBooking.id} uses it; bookings keep their treatment and variant`,
    ]);
  });

  it('never reactivates a key revoked in the database, and never silently revokes a dashboard key the file does not list', async () => {
    const { file, ids } = makeVenueFile();
    await importVenueData(ctx.db, file, ctx.vault);
    await revokeKey(ctx.db, ids.key);
    const summary = await importVenueData(ctx.db, file, ctx.vault);
    expect(summary.notices).toEqual([
      expect.stringMatching(
        new RegExp(`^api_keys\\[0\\]: key ${ids.key} was revoked in the database \\(.+\\) and stays revoked$`),
      ),
    ]);
    const row = await ctx.db
      .selectFrom('api_keys')
      .select('revoked_at')
      .where('id', '=', ids.key)
      .executeTakeFirstOrThrow();
    expect(row.revoked_at).not.toBeNull();

    const issued = await regenerateDashboardKey(ctx.db, ctx.vault, file.organisations[0]!.slug);
    const another = makeVenueFile().file.api_keys[0]!;
    file.api_keys[0]!.revoked = true;
    file.api_keys.push({ ...another, organisation_id: ids.organisation });
    expect(await problemsOf(importVenueData(ctx.db, file, ctx.vault))).toEqual([
      `api_keys[1]: the organisation already has the active dashboard key ${issued.id} in the database; list it in the file with revoked: true, or revoke it (pnpm spa keys revoke ${issued.id})`,
    ]);

    const listed = parseApiKey(issued.key)!;
    file.api_keys.push({ ...file.api_keys[0]!, id: listed.id, secret: listed.secret, revoked: true });
    await importVenueData(ctx.db, file, ctx.vault);
    const active = await ctx.db
      .selectFrom('api_keys')
      .select('id')
      .where('organisation_id', '=', ids.organisation)
      .where('kind', '=', 'dashboard')
      .where('revoked_at', 'is', null)
      .execute();
    expect(active).toEqual([{ id: another.id }]);
  });
});
