import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expectStatus } from '../support/typed-api.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { importVenueData, ImportValidationError } from '../../src/import/import-venue-data.js';
import { revealKey } from '../../src/keys/keys.service.js';
import { setup, type TestContext } from '../support/test-app.js';
import { demoFile, makeVenueFile } from './venue-file.js';

const TABLES = [
  'organisations',
  'api_keys',
  'venues',
  'one_time_openings',
  'venue_blocks',
  'rooms',
  'treatments',
  'treatment_rooms',
  'variants',
  'therapists',
  'therapist_shifts',
  'therapist_shift_overrides',
  'therapist_absences',
  'customers',
  'bookings',
  'room_reservations',
  'therapist_reservations',
  'booking_offers',
] as const;

async function counts(ctx: TestContext) {
  const result: Record<string, number> = {};
  for (const table of TABLES)
    result[table] = Number(
      (
        await ctx.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return result;
}

async function problemsOf(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportValidationError);
  return (error as ImportValidationError).problems.map((p) => p.message);
}

describe('importVenueData: the demo file', () => {
  const ctx = setup();

  it('imports the demo file with a room and therapist holds for each of its eight live bookings', async () => {
    const summary = await importVenueData(ctx.db, demoFile(), ctx.vault);
    const created = (n: number) => ({ created: n, updated: 0, unchanged: 0 });
    expect(summary.changes).toMatchObject({
      organisations: created(2),
      api_keys: created(4),
      venues: created(5),
      therapists: created(demoFile().therapists.length),
      bookings: created(20),
    });
    expect(summary.notices).toEqual([]);
    const after = await counts(ctx);
    expect(after).toMatchObject({ organisations: 2, venues: 5, customers: 22, bookings: 20, room_reservations: 8 });
    expect(after.therapist_reservations).toBe(9); // one booking of two guests has two therapists
  });

  it('changes nothing when the same file is imported again: same rows, same timestamps, same ciphertexts', async () => {
    const snapshot = async () => ({
      counts: await counts(ctx),
      bookings: await ctx.db
        .selectFrom('bookings')
        .select(['id', 'status', 'updated_at', 'cancelled_at', 'therapist_id'])
        .orderBy('id')
        .execute(),
      keys: await ctx.db
        .selectFrom('api_keys')
        .select(['id', 'secret_hmac', 'secret_encrypted', 'revoked_at'])
        .orderBy('id')
        .execute(),
      rooms: await ctx.db
        .selectFrom('room_reservations')
        .select(['booking_id', 'room_id', 'during'])
        .orderBy('booking_id')
        .execute(),
    });
    const before = await snapshot();
    const summary = await importVenueData(ctx.db, demoFile(), ctx.vault);
    expect(await snapshot()).toEqual(before);
    for (const [entity, changes] of Object.entries(summary.changes))
      expect({ entity, created: changes.created, updated: changes.updated }).toEqual({
        entity,
        created: 0,
        updated: 0,
      });
    expect(summary.changes.bookings.unchanged).toBe(20);
  });

  it('serves the imported data through the API with the demo key (round trip)', async () => {
    const { key } = await revealKey(ctx.db, ctx.vault, 'de0000000001');
    expect(key).toBe(`sk_live_de0000000001_${demoFile().api_keys[0].secret}`);
    const venues = await ctx.partner(key).venues.list();
    expectStatus(venues, 200);
    expect(venues.body.data.map((v) => v.slug).sort()).toEqual([
      'lumiere-london',
      'spa-lumiere-nice',
      'spa-lumiere-paris',
    ]);
    const file = demoFile().venues[0];
    const treatments = await ctx.partner(key).treatments.list({ params: { venue_id: file.id } });
    expectStatus(treatments, 200);
    expect(treatments.body.data[0]!.variants[0]).toMatchObject({
      id: file.treatments[0].variants[0].id,
      price: file.treatments[0].variants[0].price,
    });
  });

  it('adds a venue to the demo organisation from a file that names the organisation by id (docs/examples)', async () => {
    const addition = JSON.parse(
      readFileSync(new URL('../../../../docs/examples/add-venue.json', import.meta.url), 'utf8'),
    );
    const summary = await importVenueData(ctx.db, addition, ctx.vault);
    expect(summary.changes).toMatchObject({
      organisations: { created: 0, updated: 0, unchanged: 0 },
      venues: { created: 1, updated: 0, unchanged: 0 },
      treatments: { created: 1, updated: 0, unchanged: 0 },
      therapists: { created: 1, updated: 0, unchanged: 0 },
    });
    const { key } = await revealKey(ctx.db, ctx.vault, 'de0000000001');
    const venues = await ctx.partner(key).venues.list();
    expectStatus(venues, 200);
    expect(venues.body.data.map((v) => v.slug)).toContain('spa-lumiere-bordeaux');
  });

  it('stores a key secret as an HMAC and a ciphertext, never in clear', async () => {
    const secret = demoFile().api_keys[0].secret as string;
    const row = await ctx.db
      .selectFrom('api_keys')
      .select(['secret_hmac', 'secret_encrypted'])
      .where('id', '=', 'de0000000001')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(ctx.vault.verify(secret, row.secret_hmac)).toBe(true);
  });

  it('records an imported cancelled booking as cancelled without a fee, and a confirmed one with its therapist', async () => {
    const file = demoFile();
    const cancelled = file.bookings.find((b: { status: string }) => b.status === 'cancelled');
    const confirmed = file.bookings.find((b: { status: string }) => b.status === 'confirmed');
    const rows = await ctx.db
      .selectFrom('bookings')
      .select(['id', 'cancelled_at', 'cancellation_fee_minor', 'therapist_id', 'client_type'])
      .where('id', 'in', [cancelled.id, confirmed.id])
      .execute();
    expect(rows.find((r) => r.id === cancelled.id)).toMatchObject({
      cancellation_fee_minor: 0,
      therapist_id: null,
      client_type: 'agency',
    });
    expect(rows.find((r) => r.id === cancelled.id)?.cancelled_at).not.toBeNull();
    expect(rows.find((r) => r.id === confirmed.id)).toMatchObject({
      therapist_id: confirmed.therapist_ids[0],
      cancelled_at: null,
      client_type: 'hotel',
    });
  });
});

describe('importVenueData: an invalid file', () => {
  const ctx = setup();
  beforeAll(async () => {
    await importVenueData(ctx.db, demoFile(), ctx.vault);
  });

  it('reports every shape problem with its JSON path, and writes nothing', async () => {
    const before = await counts(ctx);
    const file = demoFile();
    file.organisations[0].name = 'Renamed, but never written';
    file.venues[0].rooms[1].capacity = 0;
    file.venues[0].colour = 'blue';
    file.venues[1].opening_time = '9h';
    file.venues[1].treatments[0].variants[0].price = { amount: 12.345, currency: 'EUR' };
    file.venues[2].blocks[0] = { id: file.venues[2].blocks[0].id, start_time: '13:00', end_time: '14:00' };
    file.api_keys[0].id = 'DE0000000001';
    file.api_keys[1].scopes = ['venues:read', 'admin'];
    file.therapists[0].absences = [
      { start_at: '2026-12-01T10:00:00', end_at: '2026-12-01T12:00:00Z' },
      { start_at: '2026-12-01T10:00:00+24:00', end_at: '2026-12-01T12:00:00.1234567891Z' },
    ];
    file.customers[0].email = 'not-an-email';
    file.bookings[0].status = 'done';
    delete file.bookings[1].total_price;
    expect(await problemsOf(importVenueData(ctx.db, file, ctx.vault))).toEqual([
      'api_keys[0].id: must be 12 lower-case hexadecimal characters',
      'api_keys[1].scopes[1]: must be one of venues:read, treatments:read, customers:read, bookings:read, availability:read, bookings:write',
      'venues[0].rooms[1].capacity: must be at least 1',
      'venues[0]: has unknown field colour',
      'venues[1].opening_time: must be a time of day HH:mm or HH:mm:ss',
      'venues[1].treatments[0].variants[0].price.amount: must have at most 2 decimals in EUR',
      'venues[2].blocks[0]: must be a daily block { id, daily: true, start_time, end_time, reason } or a one-off block { id, start_at, end_at, reason }',
      'therapists[0].absences[0].start_at: must be an ISO 8601 instant with an offset',
      'therapists[0].absences[1].start_at: must have an offset from -23:59 to +23:59, or Z',
      'therapists[0].absences[1].end_at: must have at most 9 decimals of a second',
      'customers[0].email: must be a valid email address',
      'bookings[0].status: must be one of pending, awaiting_therapist, confirmed, completed, no_show, cancelled',
      'bookings[1].total_price: is required',
    ]);
    expect(await counts(ctx)).toEqual(before);
    const org = await ctx.db
      .selectFrom('organisations')
      .select('name')
      .where('id', '=', file.organisations[0].id)
      .executeTakeFirstOrThrow();
    expect(org.name).toBe('Maisons Lumière Hôtels');
  });

  it('requires a venue timezone: a missing or null one is a problem, never a silent UTC', async () => {
    const { file } = makeVenueFile();
    const { timezone: _dropped, ...withoutZone } = file.venues[0]!;
    expect(await problemsOf(importVenueData(ctx.db, { ...file, venues: [withoutZone] }, ctx.vault))).toEqual([
      'venues[0].timezone: is required',
    ]);
    expect(
      await problemsOf(importVenueData(ctx.db, { ...file, venues: [{ ...withoutZone, timezone: null }] }, ctx.vault)),
    ).toEqual(['venues[0].timezone: must be a string']);
  });

  it('reports every broken reference and cross-field rule with its JSON path', async () => {
    const { file, ids, booking } = makeVenueFile();
    const venue = file.venues[0]!;
    venue.timezone = 'Mars/Olympus';
    venue.closing_time = '09:00:00'; // equal to opening 09:00
    venue.treatments[0]!.variants[1]!.is_default = true;
    venue.treatments[0]!.variants[1]!.price.currency = 'GBP';
    venue.treatments[0]!.room_ids = ['00000000-0000-4000-8000-000000000001'];
    venue.cancellation_policy.partner.reverse();
    file.organisations.push({ ...file.organisations[0]!, id: '00000000-0000-4000-8000-000000000002' });
    file.api_keys.push({ ...file.api_keys[0]!, id: 'abcdefabcdef', venue_id: ids.venue });
    file.therapists[1]!.organisation_id = '00000000-0000-4000-8000-000000000003';
    file.customers[1]!.email = file.customers[0]!.email.toUpperCase();
    file.bookings.push(
      booking({ customer_id: '00000000-0000-4000-8000-000000000004', therapist_ids: [ids.camille, ids.camille] }),
      booking({ therapist_ids: [] }),
    );
    expect(await problemsOf(importVenueData(ctx.db, file, ctx.vault))).toEqual([
      `organisations[1].slug: slug ${file.organisations[0]!.slug} is already used at organisations[0].slug`,
      'venues[0].timezone: Mars/Olympus is not an IANA time zone (such as Europe/Paris)',
      'venues[0].closing_time: must be after opening_time',
      "venues[0].cancellation_policy.partner[1].min_hours_before: must be smaller than the previous tier's (0): tiers go from the earliest cancellation to the latest",
      'venues[0].treatments[0].variants: exactly one variant must have is_default true (found 2)',
      'venues[0].treatments[0].room_ids[0]: no room 00000000-0000-4000-8000-000000000001 in this venue',
      'venues[0].treatments[0].variants[1].price.currency: must equal the venue currency (EUR)',
      'api_keys[1].venue_id: a dashboard key covers every venue of its organisation: must be null',
      'api_keys[1]: an organisation has at most one active live dashboard key, and api_keys[0] is one already',
      'therapists[1].organisation_id: no organisation 00000000-0000-4000-8000-000000000003 in the file or the database',
      "therapists[1].shifts[0].venue_id: the venue belongs to another organisation than the therapist's",
      `customers[1].email: organisation and email ${ids.organisation} ${file.customers[0]!.email.toLowerCase()} is already used at customers[0].email`,
      'bookings[0].customer_id: no customer 00000000-0000-4000-8000-000000000004 in the file or the database',
      `bookings[0].therapist_ids[1]: therapist ${ids.camille} is already used at bookings[0].therapist_ids[0]`,
      'bookings[0].therapist_ids: lists 2 therapists for 1 guest(s): one therapist per guest',
      'bookings[1].therapist_ids: a confirmed booking names the therapist who accepted it (at least one)',
    ]);
    expect(
      await ctx.db.selectFrom('organisations').select('id').where('id', '=', ids.organisation).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('rejects live bookings that would share a therapist or the last room, naming both, and rolls everything back', async () => {
    const before = await counts(ctx);
    const { file, ids, booking } = makeVenueFile();
    file.bookings.push(
      booking({ guest_count: 2, therapist_ids: [ids.camille, ids.hugo] }), // takes the twin room
      booking({ start_at: '2026-12-01T10:30:00+01:00', status: 'pending', therapist_ids: [ids.hugo] }), // Hugo is busy
      booking({ start_at: '2026-12-01T10:30:00+01:00', guest_count: 2, status: 'pending', therapist_ids: [] }), // no twin room left
      booking({ start_at: '2026-12-01T10:30:00+01:00', status: 'completed', therapist_ids: [ids.hugo] }), // not live: no holds
    );
    expect(await problemsOf(importVenueData(ctx.db, file, ctx.vault))).toEqual([
      `bookings[1].therapist_ids[0]: therapist ${ids.hugo} already holds bookings[0] at that time`,
      'bookings[2]: cannot place the booking at 2026-12-01T10:30:00+01:00: every eligible room is already held at that time (by bookings[0])',
    ]);
    expect(await counts(ctx)).toEqual(before);
  });

  it('refuses a live booking whose therapist is at another venue within the inter-venue buffer, naming both, and writes nothing', async () => {
    const before = await counts(ctx);
    const { file, ids, booking } = makeVenueFile();
    // A second venue of the organisation (same layout, fresh ids), 30 minutes' travel from the first.
    const first = file.venues[0]!;
    const other = structuredClone(first);
    other.id = randomUUID();
    other.slug = `${first.slug}-2`;
    other.blocks = other.blocks.map((b) => ({ ...b, id: randomUUID() }));
    other.rooms = other.rooms.map((r) => ({ ...r, id: randomUUID() }));
    other.treatments = other.treatments.map((t) => ({
      ...t,
      id: randomUUID(),
      variants: t.variants.map((v) => ({ ...v, id: randomUUID() })),
    }));
    file.venues.push(other);
    file.bookings.push(
      booking(), // Camille at the first venue, 10:00-11:00
      // Camille at the second venue at 11:15: within the 30-minute buffer (11:30 is the earliest).
      booking({
        venue_id: other.id,
        variant_id: other.treatments[0]!.variants[0]!.id,
        start_at: '2026-12-01T11:15:00+01:00',
      }),
    );
    expect(await problemsOf(importVenueData(ctx.db, file, ctx.vault))).toEqual([
      `bookings[1].therapist_ids[0]: therapist ${ids.camille} already holds bookings[0] at another venue within the inter-venue buffer of 30 minutes`,
    ]);
    expect(await counts(ctx)).toEqual(before);

    // At 11:30 the buffer is kept: the same file imports.
    file.bookings[1]!.start_at = '2026-12-01T11:30:00+01:00';
    await importVenueData(ctx.db, file, ctx.vault);
    const holds = await ctx.db
      .selectFrom('therapist_reservations')
      .select('venue_id')
      .where('therapist_id', '=', ids.camille)
      .orderBy('during')
      .execute();
    expect(holds.map((h) => h.venue_id)).toEqual([first.id, other.id]);
  });

  it('reports reference problems of the well-shaped entries along with the shape problems, in one run', async () => {
    const { file, ids, booking } = makeVenueFile();
    file.customers[1]!.email = 'not-an-email'; // shape
    file.bookings.push(booking({ therapist_ids: ['00000000-0000-4000-8000-000000000001'] })); // reference
    file.venues[0]!.treatments[0]!.variants[0]!.is_default = false; // rule across fields
    file.bookings.push(booking({ customer_id: ids.bruno, start_at: '2026-12-02T10:00:00+01:00' })); // names the malformed customer: not noise
    const problems = await problemsOf(importVenueData(ctx.db, file, ctx.vault));
    expect(problems).toContain('customers[1].email: must be a valid email address');
    expect(problems).toContain(
      'bookings[0].therapist_ids[0]: no therapist 00000000-0000-4000-8000-000000000001 in the file or the database',
    );
    expect(problems.some((p) => p.startsWith('venues[0].treatments[0].variants'))).toBe(true);
    expect(problems.some((p) => p.includes(ids.bruno))).toBe(false);
  });

  it('names the field of a value the database could not store: a NUL character, an integer or an amount too large', async () => {
    const { file, ids } = makeVenueFile();
    file.venues[0]!.name = 'Spa\u0000Test';
    file.venues[0]!.rooms[0]!.capacity = 3_000_000_000;
    file.venues[0]!.treatments[0]!.variants[0]!.duration_minutes = 1e13;
    file.venues[0]!.treatments[0]!.variants[1]!.price = { amount: 1e20, currency: 'EUR' };
    file.api_keys[0]!.rate_limit_per_min = 3_000_000_000;
    expect(await problemsOf(importVenueData(ctx.db, file, ctx.vault))).toEqual([
      'api_keys[0].rate_limit_per_min: must be at most 1000000',
      'venues[0].name: must not contain the NUL character (\\u0000)',
      'venues[0].rooms[0].capacity: must be at most 100',
      'venues[0].treatments[0].variants[0].duration_minutes: must be at most 1440 (a day)',
      'venues[0].treatments[0].variants[1].price.amount: must be at most 1000000000',
    ]);
    expect(
      await ctx.db.selectFrom('organisations').select('id').where('id', '=', ids.organisation).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('says clearly when the file is not an object', async () => {
    expect(await problemsOf(importVenueData(ctx.db, [], ctx.vault))).toEqual(['(file): must be an object']);
  });
});
