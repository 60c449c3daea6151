import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { KeyVault, parseApiKey } from '../../src/auth/api-key.js';
import { OperatorError } from '../../src/errors/operator-error.js';
import { importVenueData } from '../../src/import/import-venue-data.js';
import {
  createKey,
  listKeys,
  parseScopes,
  regenerateDashboardKey,
  revealKey,
  revokeKey,
} from '../../src/keys/keys.service.js';
import { setup } from '../support/test-app.js';
import { makeVenueFile } from '../import/venue-file.js';

describe('operator key management (pnpm spa keys)', () => {
  const ctx = setup();
  const now = Temporal.Instant.from('2026-11-22T10:00:00Z');

  /** An organisation of its own per test, from a small venue data file. */
  async function organisation() {
    const made = makeVenueFile();
    await importVenueData(ctx.db, made.file, ctx.vault);
    return { ...made.ids, org: made.file.organisations[0]!.slug, venue: made.file.venues[0]!.slug };
  }
  const verifies = async (key: string) => {
    const parsed = parseApiKey(key)!;
    const row = await ctx.db
      .selectFrom('api_keys')
      .select('secret_hmac')
      .where('id', '=', parsed.id)
      .executeTakeFirstOrThrow();
    return ctx.vault.verify(parsed.secret, row.secret_hmac);
  };

  it('creates a key with the four released scopes by default, which verifies and reveals', async () => {
    const { org } = await organisation();
    const created = await createKey(ctx.db, ctx.vault, { orgSlug: org });
    expect(created.scopes).toEqual(['venues:read', 'treatments:read', 'customers:read', 'bookings:read']);
    expect(parseApiKey(created.key)?.id).toBe(created.id);
    expect(await verifies(created.key)).toBe(true);
    expect(await revealKey(ctx.db, ctx.vault, created.id)).toEqual({ key: created.key, revoked: false });
  });

  it('creates a venue-restricted key with chosen scopes and rate limit, listed without its secret', async () => {
    const { org, venue, key: dashboardId } = await organisation();
    const created = await createKey(ctx.db, ctx.vault, {
      orgSlug: org,
      venueSlug: venue,
      scopes: parseScopes('venues:read, bookings:write'),
      rateLimitPerMin: 30,
    });
    const listed = await listKeys(ctx.db, org);
    expect(listed.map((k) => k.id)).toEqual([dashboardId, created.id]);
    expect(listed[1]).toMatchObject({
      kind: 'operator',
      venue,
      scopes: ['venues:read', 'bookings:write'],
      rate_limit_per_min: 30,
      revoked_at: null,
    });
    expect(listed[1]!.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
    expect(JSON.stringify(listed)).not.toContain(parseApiKey(created.key)!.secret);
  });

  it('regenerates the dashboard key in one go: the old one revoked, the new one verifies with the same scopes, one active', async () => {
    const { org, key: oldId, organisation: orgId } = await organisation();
    const next = await regenerateDashboardKey(ctx.db, ctx.vault, org, { now });
    expect(next.revokedId).toBe(oldId);
    expect(next.scopes).toEqual(['venues:read']);
    expect(await verifies(next.key)).toBe(true);
    const dashboards = await ctx.db
      .selectFrom('api_keys')
      .select(['id', 'revoked_at'])
      .where('organisation_id', '=', orgId)
      .where('kind', '=', 'dashboard')
      .where('livemode', '=', true)
      .execute();
    expect(dashboards.filter((k) => k.revoked_at === null).map((k) => k.id)).toEqual([next.id]);
    expect(dashboards.find((k) => k.id === oldId)?.revoked_at).toBe('2026-11-22 10:00:00+00');
    expect((await revealKey(ctx.db, ctx.vault, oldId)).revoked).toBe(true);
  });

  it('keeps one active dashboard key when two regenerations run at once', async () => {
    const { org, organisation: orgId } = await organisation();
    await Promise.all([regenerateDashboardKey(ctx.db, ctx.vault, org), regenerateDashboardKey(ctx.db, ctx.vault, org)]);
    const active = await ctx.db
      .selectFrom('api_keys')
      .select('id')
      .where('organisation_id', '=', orgId)
      .where('kind', '=', 'dashboard')
      .where('revoked_at', 'is', null)
      .execute();
    expect(active).toHaveLength(1);
  });

  it('revokes a key once, then says it is already revoked', async () => {
    const { org } = await organisation();
    const { id } = await createKey(ctx.db, ctx.vault, { orgSlug: org });
    expect(await revokeKey(ctx.db, id, now)).toEqual({ id, kind: 'operator' });
    await expect(revokeKey(ctx.db, id, now)).rejects.toThrow(new OperatorError(`Key ${id} is already revoked`));
  });

  it('refuses with a plain message: unknown organisation, venue, key or scope, a second dashboard key, a bad rate limit', async () => {
    const { org, venue } = await organisation();
    const other = await organisation();
    const refusals: [() => Promise<unknown>, string][] = [
      [() => createKey(ctx.db, ctx.vault, { orgSlug: 'nobody' }), 'No organisation with slug nobody'],
      [
        () => createKey(ctx.db, ctx.vault, { orgSlug: org, venueSlug: other.venue }),
        `No venue ${other.venue} in organisation ${org}`,
      ],
      [
        () => createKey(ctx.db, ctx.vault, { orgSlug: org, scopes: ['venues:read', 'admin'] }),
        'Unknown scope admin; the scopes are venues:read, treatments:read, customers:read, bookings:read, availability:read, bookings:write',
      ],
      [
        () => createKey(ctx.db, ctx.vault, { orgSlug: org, scopes: [] }),
        'A key needs at least one scope; the scopes are venues:read, treatments:read, customers:read, bookings:read, availability:read, bookings:write',
      ],
      [
        () => createKey(ctx.db, ctx.vault, { orgSlug: org, rateLimitPerMin: 0 }),
        'The rate limit must be a whole number of requests per minute from 1 to 1000000, not 0',
      ],
      [
        () => createKey(ctx.db, ctx.vault, { orgSlug: org, rateLimitPerMin: 3_000_000_000 }),
        'The rate limit must be a whole number of requests per minute from 1 to 1000000, not 3000000000',
      ],
      [
        () => createKey(ctx.db, ctx.vault, { orgSlug: org, venueSlug: '' }),
        '--venue needs the slug of a venue; leave it out for a key to every venue',
      ],
      [
        () => createKey(ctx.db, ctx.vault, { orgSlug: org, kind: 'dashboard' }),
        `Organisation ${org} already has an active live dashboard key; use \`keys regenerate --org ${org}\` to replace it`,
      ],
      [
        () => createKey(ctx.db, ctx.vault, { orgSlug: org, venueSlug: venue, kind: 'dashboard' }),
        'A dashboard key covers every venue of its organisation; it cannot be restricted to a venue',
      ],
      [() => listKeys(ctx.db, 'nobody'), 'No organisation with slug nobody'],
      [() => regenerateDashboardKey(ctx.db, ctx.vault, 'nobody'), 'No organisation with slug nobody'],
      [() => revealKey(ctx.db, ctx.vault, 'ffffffffffff'), 'No key ffffffffffff'],
      [() => revokeKey(ctx.db, 'ffffffffffff'), 'No key ffffffffffff'],
    ];
    for (const [attempt, message] of refusals) await expect(attempt()).rejects.toThrow(new OperatorError(message));
    expect(() => parseScopes('venues:read,nope')).toThrow(OperatorError);
  });

  it('says so when a key was stored under another KEY_ENCRYPTION_KEY', async () => {
    const { key } = await organisation();
    const stranger = new KeyVault(Buffer.alloc(32, 7));
    await expect(revealKey(ctx.db, stranger, key)).rejects.toThrow(
      `Key ${key} cannot be decrypted: it was stored under another KEY_ENCRYPTION_KEY than this one`,
    );
  });
});
