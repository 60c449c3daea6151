import { describe, expect, it } from 'vitest';
import { issueMissingTestKeys } from '../../src/keys/test-keys.js';
import { dashboardKeyOf, revealKey } from '../../src/keys/keys.service.js';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { makeApiKey } from '../support/factories.js';
import { setup } from '../support/test-app.js';

/**
 * What a server start runs after its migrations: an organisation that has only a live dashboard key (one from before
 * test mode, or imported since) gets a test key with the same scopes and rate limit, usable at once in test mode.
 */
describe('test keys issued at server start', () => {
  const ctx = setup(); // now: 2026-11-22T08:00:00Z

  it('gives an organisation with only a live key a working test key with its scopes, once', async () => {
    const f = await makeBookableVenue(ctx.db, ctx.vault);
    const scopes = ['venues:read', 'availability:read', 'bookings:read', 'bookings:write'];
    await makeApiKey(ctx.db, ctx.vault, f.organisation.id, { kind: 'dashboard', scopes, rateLimitPerMin: 120 });
    expect(await dashboardKeyOf(ctx.db, f.organisation.id, false)).toBeUndefined();

    const issued = await issueMissingTestKeys(ctx.db, ctx.vault);
    const test = await dashboardKeyOf(ctx.db, f.organisation.id, false);
    expect(test).toMatchObject({ scopes, rate_limit_per_min: 120 });
    expect(issued).toContain(test!.id);
    // A second start issues nothing for it.
    expect(await issueMissingTestKeys(ctx.db, ctx.vault)).not.toContain(test!.id);

    const { key } = await revealKey(ctx.db, ctx.vault, test!.id);
    expect(key).toMatch(/^sk_test_[0-9a-f]{12}_[0-9a-f]{64}$/);
    const booked = await ctx.api.book(f.venue.id, bookingBody(f.variant.id), key);
    expect([booked.status, booked.body.data.livemode]).toEqual([201, false]);
    const scoped = await ctx.api.get(`/v1/venues/${f.venue.id}/customers`, key);
    expect([scoped.status, scoped.body.missing]).toEqual([403, ['customers:read']]);
  });

  it('issues none to an organisation whose test key was revoked: the admin chose so', async () => {
    const f = await makeBookableVenue(ctx.db, ctx.vault);
    await makeApiKey(ctx.db, ctx.vault, f.organisation.id, { kind: 'dashboard' });
    const revoked = await makeApiKey(ctx.db, ctx.vault, f.organisation.id, {
      kind: 'dashboard',
      livemode: false,
      revoked: true,
    });
    const issued = await issueMissingTestKeys(ctx.db, ctx.vault);
    const rows = await ctx.db
      .selectFrom('api_keys')
      .select('id')
      .where('organisation_id', '=', f.organisation.id)
      .where('livemode', '=', false)
      .execute();
    expect(rows.map((r) => r.id)).toEqual([revoked.id]);
    expect(issued).not.toContain(revoked.id);
  });
});
