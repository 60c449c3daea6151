import { describe, expect, it } from 'vitest';
import { error } from '../support/api.js';
import { setup } from '../support/test-app.js';
import { errorOf, expectStatus } from '../support/typed-api.js';
import { auditRows, dashboardOf, makeDashboardOrganisation, sessionCookieOf } from './dashboard-support.js';

describe('dashboard sessions', () => {
  const ctx = setup({ now: '2026-11-22T08:00:00Z' });
  /** Untyped dashboard requests: sign-in only (it reads the Set-Cookie). */
  const dash = () => dashboardOf(ctx.app);

  it('invitation → password → sign-in → who am I → sign-out, each step audited once', async () => {
    const { org, venue, admin } = await makeDashboardOrganisation(ctx.db);
    const adminSession = await dash().signIn(admin.email);
    const invited = await ctx.dashboard(adminSession).users.invite({
      body: { email: 'New.Desk@Example.com', role: 'desk', venues: [venue.slug] },
    });
    expectStatus(invited, 201);
    expect(invited.body.data).toMatchObject({
      email: 'new.desk@example.com',
      role: 'desk',
      venues: [{ id: venue.id, slug: venue.slug, name: venue.name }],
      expires_at: '2026-11-25T08:00:00Z',
    });
    const url = invited.body.data.url;
    expect(url).toMatch(/^http:\/\/localhost\/dashboard\/invitations\/[A-Za-z0-9_-]{43}$/);
    const token = url.split('/').pop()!;

    const invitations = ctx.dashboard().invitations;
    const read = await invitations.get({ params: { token } });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      data: {
        organisation: { slug: org.slug, name: org.name },
        email: 'new.desk@example.com',
        role: 'desk',
        expires_at: '2026-11-25T08:00:00Z',
      },
    });

    const short = await invitations.accept({ params: { token }, body: { password: 'too short' } });
    expect(short.status).toBe(400);
    expect(errorOf(short)).toBe('password must be at least 12 characters');

    const accepted = await invitations.accept({ params: { token }, body: { password: 'a long enough password' } });
    expectStatus(accepted, 201);
    expect(accepted.body.data).toMatchObject({ email: 'new.desk@example.com', role: 'desk', last_sign_in_at: null });
    // Single use.
    const again = await invitations.accept({ params: { token }, body: { password: 'a long enough password' } });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(error('Invitation not found'));

    const session = await dash().signIn('NEW.desk@example.com', 'a long enough password');
    const me = await ctx.dashboard(session).session.me();
    expectStatus(me, 200);
    expect(me.body.data).toEqual({
      id: accepted.body.data.id,
      email: 'new.desk@example.com',
      role: 'desk',
      organisation: { id: org.id, slug: org.slug, name: org.name },
      venues: [{ id: venue.id, slug: venue.slug, name: venue.name, timezone: 'Europe/Paris', currency: 'EUR' }],
      csrf_token: session.csrf,
      confirmed_until: '2026-11-22T08:05:00Z',
      expires_at: '2026-11-22T08:30:00Z',
    });

    const out = await ctx.dashboard(session).session.signOut();
    expect(out.status).toBe(204);
    expect(sessionCookieOf({ headers: { 'set-cookie': out.headers.getSetCookie() } })).toMatchObject({
      value: '',
      maxAge: 0,
    });
    const after = await ctx.dashboard(session).session.me();
    expect(after.status).toBe(401);
    expect(after.body).toEqual(error('Not signed in'));

    // The clock stands still, so the rows are compared as a set.
    const actions = (await auditRows(ctx.db, org.id)).map((r) => `${r.action} ${r.actor_email}`).sort();
    expect(actions).toEqual(
      [
        'invitation.accepted new.desk@example.com',
        `person.invited ${admin.email}`,
        `session.signed_in ${admin.email}`,
        'session.signed_in new.desk@example.com',
        'session.signed_out new.desk@example.com',
      ].sort(),
    );
  });
});
