import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { acceptBooking } from '../../src/bookings/therapist-workflow.js';
import { DEMO_ADMIN, DEMO_ADMIN_PASSWORD_HASH, demoAdminSignIn } from '../../src/demo/demo-admin.js';
import { hashPassword, verifyPassword } from '../../src/dashboard/passwords.js';
import { DEMO_KEY_ID, DEMO_TEST_KEY_ID } from '../../src/demo/demo-key.js';
import { seedDemoDataIfEmpty } from '../../src/demo/seed-demo.js';
import { dashboardOf } from '../dashboard/dashboard-support.js';
import { KeyVault } from '../../src/auth/api-key.js';
import { regenerateDashboardKey } from '../../src/keys/keys.service.js';
import { setup } from '../support/test-app.js';
import { demoFile } from './venue-file.js';

describe('the demo data of pnpm start', () => {
  const ctx = setup();
  const vault = new KeyVault(randomBytes(32));

  it('loads into an empty database once, then prints the fixed demo key on every start', async () => {
    const first = await seedDemoDataIfEmpty(ctx.db, vault);
    expect(first).toEqual({
      loaded: true,
      organisation: 'maisons-lumiere',
      apiKey: `sk_live_${DEMO_KEY_ID}_${demoFile().api_keys[0].secret}`,
      testKey: `sk_test_${DEMO_TEST_KEY_ID}_${demoFile().api_keys.find((k) => k.id === DEMO_TEST_KEY_ID)!.secret}`,
    });
    expect(await seedDemoDataIfEmpty(ctx.db, vault)).toEqual({ ...first, loaded: false });
  });

  it('has the demo dashboard admin, who signs in with the published password', async () => {
    expect(await demoAdminSignIn(ctx.db)).toEqual(DEMO_ADMIN);
    const dash = dashboardOf(ctx.app);
    const session = await dash.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    const me = await dash.get('/session', session);
    expect(me.body.data).toMatchObject({
      email: DEMO_ADMIN.email,
      role: 'admin',
      organisation: { slug: 'maisons-lumiere' },
    });
    expect(me.body.data.venues.length).toBeGreaterThan(0);
  });

  it("keeps the demo admin's hash as hashPassword makes one today: the published password, the current parameters", async () => {
    expect(await verifyPassword(DEMO_ADMIN_PASSWORD_HASH, DEMO_ADMIN.password)).toBe(true);
    // $argon2id$v=19$m=…,t=…,p=…$salt$hash: all but the salt and the hash.
    const parameters = (hash: string) => hash.split('$').slice(0, 4);
    expect(parameters(DEMO_ADMIN_PASSWORD_HASH)).toEqual(parameters(await hashPassword('any password')));
  });

  it("stops showing the demo admin's password once it is changed, and not before", async () => {
    const setHash = (hash: string) =>
      ctx.db.updateTable('people').set({ password_hash: hash }).where('email', '=', DEMO_ADMIN.email).execute();
    try {
      await setHash(await hashPassword(DEMO_ADMIN.password)); // the same password, another salt
      expect(await demoAdminSignIn(ctx.db)).toEqual(DEMO_ADMIN);
      await setHash(await hashPassword('a password of their own'));
      expect(await demoAdminSignIn(ctx.db)).toBeUndefined();
    } finally {
      await setHash(DEMO_ADMIN_PASSWORD_HASH);
    }
  });

  it('offers a pending demo booking to every qualified therapist of its venue, who can accept it', async () => {
    const file = demoFile();
    const pending = file.bookings.find(
      (b: { status: string; therapist_ids: string[] }) => b.status === 'pending' && b.therapist_ids.length === 1,
    );
    const offers = await ctx.db
      .selectFrom('booking_offers')
      .select('therapist_id')
      .where('booking_id', '=', pending.id)
      .execute();
    expect(offers.length).toBeGreaterThan(1);
    const other = offers.map((o) => o.therapist_id).find((id) => id !== pending.therapist_ids[0])!;
    const accepted = await acceptBooking(ctx.db, { bookingId: pending.id, therapistId: other, now: ctx.clock.now() });
    expect([accepted.status, accepted.therapist_id]).toEqual(['confirmed', other]);
  });

  it('never prints the successor of a regenerated demo key: a real secret', async () => {
    const { key } = await regenerateDashboardKey(ctx.db, vault, 'maisons-lumiere');
    const seed = await seedDemoDataIfEmpty(ctx.db, vault);
    expect(seed).toEqual({ loaded: false, organisation: 'maisons-lumiere', revoked: true });
    expect(JSON.stringify(seed)).not.toContain(key);
  });
});
