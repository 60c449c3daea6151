import { describe, expect, it } from 'vitest';
import { error } from '../support/api.js';
import { makeApiKey } from '../support/factories.js';
import { setup } from '../support/test-app.js';
import { expectStatus } from '../support/typed-api.js';
import { auditRows, dashboardOf, makeDashboardOrganisation, type Session } from './dashboard-support.js';
import { expireConfirmation, spaOf } from './resources-support.js';

describe('the dashboard key: view, reveal, regenerate', () => {
  const ctx = setup();
  /** Untyped dashboard requests: sign-in only (it reads the Set-Cookie). */
  const dash = () => dashboardOf(ctx.app);
  /** The dashboard's key routes, typed by its contract, as a signed-in person calls them. */
  const key = (session: Session) => ctx.dashboard(session).key;

  const world = async () => {
    const w = await makeDashboardOrganisation(ctx.db);
    const key = await makeApiKey(ctx.db, ctx.vault, w.org.id, { kind: 'dashboard', scopes: ['venues:read'] });
    return { ...w, key };
  };

  it('shows the admin the key without its secret, and null when the organisation has none', async () => {
    const w = await world();
    const res = await key(await dash().signIn(w.admin.email)).get();
    expectStatus(res, 200);
    expect(res.body.data).toEqual({
      id: w.key.id,
      scopes: ['venues:read'],
      rate_limit_per_min: null,
      created_at: expect.stringMatching(/Z$/),
      livemode: true,
    });
    expect(JSON.stringify(res.body)).not.toContain(w.key.key);
    const bare = await makeDashboardOrganisation(ctx.db);
    expect((await key(await dash().signIn(bare.admin.email)).get()).body).toEqual({ data: null });
    const reveal = await key(await dash().signIn(bare.admin.email)).reveal();
    expect([reveal.status, reveal.body]).toEqual([404, error('Key not found')]);
  });

  it('refuses a desk person every key route with 403 Forbidden', async () => {
    const w = await world();
    const session = await dash().signIn(w.desk.email);
    for (const res of [
      await key(session).get(),
      await key(session).reveal(),
      await key(session).regenerate({ body: {} }),
    ])
      expect([res.status, res.body]).toEqual([403, error('Forbidden')]);
    expect(await auditRows(ctx.db, w.org.id).then((rows) => rows.map((r) => r.action))).not.toContain(
      'key.regenerated',
    );
  });

  it('reveals the full key after a recent confirmation only, writing one audit row', async () => {
    const w = await world();
    const session = await dash().signIn(w.admin.email);
    await expireConfirmation(ctx.db, w.admin.id, ctx.clock.now());
    const before = await auditRows(ctx.db, w.org.id);
    const refused = await key(session).reveal();
    expect([refused.status, refused.body]).toEqual([403, error('Recent sign-in required')]);
    expect(await auditRows(ctx.db, w.org.id)).toEqual(before);

    const fresh = await dash().signIn(w.admin.email);
    const res = await key(fresh).reveal();
    expectStatus(res, 200);
    expect(res.body.data).toMatchObject({ id: w.key.id, key: w.key.key });
    const added = (await auditRows(ctx.db, w.org.id)).filter((r) => r.action === 'key.revealed');
    expect(added).toEqual([
      expect.objectContaining({
        actor_type: 'person',
        actor_person_id: w.admin.id,
        target_type: 'api_key',
        target_id: w.key.id,
      }),
    ]);
    expect(JSON.stringify(await auditRows(ctx.db, w.org.id))).not.toContain(w.key.key.slice(-20));
  });

  it('regenerates: the old key answers 401 on the partner API at once, the new one works, one audit row', async () => {
    const w = await world();
    // Warm the key cache: the old key authenticated a moment ago.
    expect((await ctx.partner(w.key.key).venues.list()).status).toBe(200);
    const session = await dash().signIn(w.admin.email);
    const res = await key(session).regenerate({ body: {} });
    expectStatus(res, 200);
    const next = res.body.data;
    expect(next).toMatchObject({ scopes: ['venues:read'], rate_limit_per_min: null });
    expect(next.id).not.toBe(w.key.id);
    expect((await ctx.partner(w.key.key).venues.list()).status).toBe(401);
    expect((await ctx.partner(next.key).venues.list()).status).toBe(200);
    const shown = await key(session).get();
    expectStatus(shown, 200);
    expect(shown.body.data?.id).toBe(next.id);
    const rows = (await auditRows(ctx.db, w.org.id)).filter((r) => r.action === 'key.regenerated');
    expect(rows).toEqual([expect.objectContaining({ actor_person_id: w.admin.id, target_id: next.id })]);
    expect(JSON.stringify(rows)).not.toContain(next.key.slice(-20));
  });

  it("records the CLI's keys reveal and keys regenerate as the operator", async () => {
    const w = await world();
    const spa = spaOf(ctx);
    expect(await spa('keys', 'reveal', w.key.id)).toMatchObject({ code: 0, stdout: `${w.key.key}\n` });
    expect(await spa('keys', 'regenerate', '--org', w.org.slug)).toMatchObject({ code: 0 });
    const rows = await auditRows(ctx.db, w.org.id);
    expect(rows.map((r) => [r.action, r.actor_type, r.actor_person_id, r.ip])).toEqual([
      ['key.regenerated', 'operator', null, null],
      ['key.revealed', 'operator', null, null],
    ]);
  });
});
