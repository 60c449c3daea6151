import { describe, expect, it } from 'vitest';
import { error } from '../support/api.js';
import { setup } from '../support/test-app.js';
import { expectStatus } from '../support/typed-api.js';
import { CROSS_ORGANISATION_CASES } from './cross-organisation.cases.js';
import { auditRows, dashboardOf, makeDashboardOrganisation } from './dashboard-support.js';
import { makeResourcefulOrganisation } from './resources-support.js';

describe("organisation A's admin asking for organisation B's records", () => {
  const ctx = setup();

  it.each(CROSS_ORGANISATION_CASES.map((c) => [c.route, c] as const))('%s answers 404', async (_route, c) => {
    const world = { a: await makeResourcefulOrganisation(ctx.db), b: await makeResourcefulOrganisation(ctx.db) };
    const session = await dashboardOf(ctx.app).signIn(world.a.admin.email);
    const before = await auditRows(ctx.db, world.b.org.id);
    const res = await c.call(ctx.dashboard(session), world);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(error(c.notFound));
    expect(await auditRows(ctx.db, world.b.org.id)).toEqual(before);
  });

  it("lists only A's people and A's audit log", async () => {
    const a = await makeDashboardOrganisation(ctx.db);
    const b = await makeDashboardOrganisation(ctx.db);
    const dash = dashboardOf(ctx.app);
    await dash.signIn(b.admin.email);
    const session = await dash.signIn(a.admin.email);
    const users = await ctx.dashboard(session).users.list();
    expectStatus(users, 200);
    expect(users.body.data.map((u) => u.id).sort()).toEqual([a.admin.id, a.desk.id].sort());
    const audit = await ctx.dashboard(session).auditEvents.list();
    expectStatus(audit, 200);
    expect(audit.body.data.every((e) => 'id' in e.actor && e.actor.id === a.admin.id)).toBe(true);
  });
});
