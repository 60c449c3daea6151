import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseApiKey } from '../../src/auth/api-key.js';
import { importVenueData, ImportValidationError } from '../../src/import/import-venue-data.js';
import { createTestContext, type TestContext } from '../support/test-app.js';
import { createKey, listKeys, regenerateDashboardKey, revealKey, revokeKey } from '../../src/keys/keys.service.js';
import { Temporal } from 'temporal-polyfill';

const demo = () => JSON.parse(readFileSync(new URL('../../src/demo/demo-data.json', import.meta.url), 'utf8'));
const count = async (ctx: TestContext) => {
  const tables = ['organisations', 'venues', 'rooms', 'treatments', 'variants', 'therapists', 'customers', 'bookings', 'api_keys', 'room_reservations', 'therapist_reservations'] as const;
  const counts: Record<string, number> = {};
  for (const table of tables) counts[table] = Number((await ctx.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return counts;
};

describe('importVenueData (pnpm spa import)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('imports the demo file, with reservations for its live bookings, and a second import changes nothing', async () => {
    const summary = await importVenueData(ctx.db, demo(), ctx.vault);
    expect(summary).toMatchObject({ organisations: 2, venues: 5, bookings: 20 });
    const first = await count(ctx);
    expect(first.room_reservations).toBe(8); // the eight pending or confirmed bookings
    await importVenueData(ctx.db, demo(), ctx.vault);
    expect(await count(ctx)).toEqual(first);
  });

  it('stores keys as HMAC and ciphertext that verify and reveal, never in clear', async () => {
    const row = await ctx.db.selectFrom('api_keys').select(['secret_hmac', 'secret_encrypted']).where('id', '=', 'de0000000001').executeTakeFirstOrThrow();
    const secret = demo().api_keys[0].secret as string;
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(ctx.vault.verify(secret, row.secret_hmac)).toBe(true);
    expect((await revealKey(ctx.db, ctx.vault, 'de0000000001')).key).toBe(`sk_live_de0000000001_${secret}`);
  });

  it('reports every problem with its JSON path and writes nothing', async () => {
    const before = await count(ctx);
    const file = demo();
    file.venues[0].rooms[0].capacity = 0;
    file.venues[1].timezone = 'Mars/Olympus';
    file.venues[2].treatments[0].variants[0].is_default = false;
    file.bookings[0].customer_id = '00000000-0000-4000-8000-000000000000';
    file.organisations[0].name = 'Renamed, but must not be written';
    const error = await importVenueData(ctx.db, file, ctx.vault).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportValidationError);
    const messages = (error as ImportValidationError).problems.map((p) => p.message);
    expect(messages).toEqual(expect.arrayContaining([
      'venues[0].rooms[0].capacity: must be at least 1',
    ]));
    const refs = await importVenueData(ctx.db, { ...demo(), venues: demo().venues.map((v: { timezone: string }, i: number) => (i === 1 ? { ...v, timezone: 'Mars/Olympus' } : v)) }, ctx.vault).catch((e: ImportValidationError) => e.problems.map((p) => p.message));
    expect(refs).toContain('venues[1].timezone: Mars/Olympus is not an IANA time zone');
    expect(await count(ctx)).toEqual(before);
    const org = await ctx.db.selectFrom('organisations').select('name').where('id', '=', file.organisations[0].id).executeTakeFirstOrThrow();
    expect(org.name).toBe('Maisons Lumière Hôtels');
  });

  it('rejects overlapping live bookings with the path of the booking, and rolls everything back', async () => {
    const before = await count(ctx);
    const file = demo();
    const clash = { ...file.bookings[12], id: '11111111-1111-4111-8111-111111111111', external_id: 'clash', status: 'pending' };
    file.bookings.push(clash);
    const error = (await importVenueData(ctx.db, file, ctx.vault).catch((e: unknown) => e)) as ImportValidationError;
    expect(error.problems.map((p) => p.message)).toEqual([expect.stringMatching(/^bookings\[20\]\.therapist_ids: therapist .* already has a booking at that time$/)]);
    expect(await count(ctx)).toEqual(before);
  });
});

describe('operator key management', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    await importVenueData(ctx.db, demo(), ctx.vault);
  });
  afterAll(() => ctx.close());
  const now = Temporal.Instant.from('2026-11-22T10:00:00Z');

  it('creates a venue-restricted key with chosen scopes, lists it without secret, reveals it', async () => {
    const created = await createKey(ctx.db, ctx.vault, { orgSlug: 'maisons-lumiere', venueSlug: 'spa-lumiere-nice', scopes: ['venues:read'], rateLimitPerMin: 30 });
    expect(parseApiKey(created.key)?.id).toBe(created.id);
    const listed = (await listKeys(ctx.db, 'maisons-lumiere')).find((k) => k.id === created.id)!;
    expect(listed).toMatchObject({ kind: 'operator', venue: 'spa-lumiere-nice', scopes: ['venues:read'], rate_limit_per_min: 30, revoked_at: null });
    expect(JSON.stringify(listed)).not.toContain(created.key.slice(22));
    expect((await revealKey(ctx.db, ctx.vault, created.id)).key).toBe(created.key);
  });

  it('regenerates the dashboard key: the old one is revoked in the same transaction, one stays active', async () => {
    const next = await regenerateDashboardKey(ctx.db, ctx.vault, 'maisons-lumiere', now);
    expect(next.revokedId).toBe('de0000000001');
    const dashboards = (await listKeys(ctx.db, 'maisons-lumiere')).filter((k) => k.kind === 'dashboard' && k.revoked_at === null);
    expect(dashboards.map((k) => k.id)).toEqual([next.id]);
  });

  it('revokes a key once, and says so clearly for unknown organisations, venues, keys', async () => {
    const { id } = await createKey(ctx.db, ctx.vault, { orgSlug: 'bulle-day-spas' });
    await revokeKey(ctx.db, id, now);
    await expect(revokeKey(ctx.db, id, now)).rejects.toThrow(`Key ${id} is already revoked`);
    await expect(createKey(ctx.db, ctx.vault, { orgSlug: 'nobody' })).rejects.toThrow('No organisation with slug nobody');
    await expect(createKey(ctx.db, ctx.vault, { orgSlug: 'bulle-day-spas', venueSlug: 'spa-lumiere-paris' })).rejects.toThrow('No venue spa-lumiere-paris in organisation bulle-day-spas');
    await expect(revealKey(ctx.db, ctx.vault, 'ffffffffffff')).rejects.toThrow('No key ffffffffffff');
  });
});
