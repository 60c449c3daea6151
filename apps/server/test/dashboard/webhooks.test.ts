import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { error } from '../support/api.js';
import { setup } from '../support/test-app.js';
import { errorOf, expectStatus } from '../support/typed-api.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { auditRows, dashboardOf, makeDashboardOrganisation, type Session } from './dashboard-support.js';
import { expireConfirmation, makeOrganisationResources, spaOf } from './resources-support.js';

describe('webhook endpoints and deliveries from the dashboard', () => {
  const ctx = setup({ webhooks: { retrySchedule: [60], allowPrivateNetworks: true } });
  /** Untyped dashboard requests: sign-in (it reads the Set-Cookie) and a body the contract refuses. */
  const dash = () => dashboardOf(ctx.app);
  /** The dashboard's webhook routes, typed by its contract, as a signed-in person calls them. */
  const endpoints = (session: Session) => ctx.dashboard(session).webhookEndpoints;
  const deliveries = (session: Session) => ctx.dashboard(session).webhookDeliveries;
  let r: Receiver;
  beforeAll(async () => {
    r = await startReceiver();
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await r.close();
  });

  const actions = async (orgId: string) => (await auditRows(ctx.db, orgId)).map((row) => row.action);

  it('adds an endpoint (secret shown once), tests it through the delivery queue, lists both, removes it', async () => {
    const w = await makeDashboardOrganisation(ctx.db);
    const session = await dash().signIn(w.admin.email);
    const created = await endpoints(session).create({
      body: { url: r.url, events: ['booking.confirmed'], venue_id: w.venue.id },
    });
    expectStatus(created, 201);
    const endpoint = created.body.data;
    expect(created.body.data).toMatchObject({
      url: r.url,
      events: ['booking.confirmed'],
      venue: { id: w.venue.id, slug: w.venue.slug, name: w.venue.name },
      state: 'active',
      enabled: true,
      recent_deliveries: { succeeded: 0, failed: 0, success_rate: null },
      secret: expect.stringMatching(/^whsec_/),
    });

    const tested = await endpoints(session).test({ params: { id: endpoint.id }, body: {} });
    expectStatus(tested, 200);
    expect(tested.body.data).toMatchObject({ succeeded: true, status_code: 200, error: null });
    const eventId = tested.body.data.event_id;
    expect(r.received.map((x) => x.id)).toEqual([eventId]);
    const [body] = r.verified(endpoint.secret);
    expect(body).toEqual({ type: 'webhook.test', timestamp: '2026-11-22T08:00:00Z', livemode: true, data: {} });

    const listed = await deliveries(session).list({ query: { endpoint_id: endpoint.id } });
    expectStatus(listed, 200);
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        event_id: eventId,
        event_type: 'webhook.test',
        booking_id: null,
        endpoint: { id: endpoint.id, url: r.url },
        status: 'succeeded',
        next_attempt_at: null,
        attempts: [expect.objectContaining({ attempt: 1, status_code: 200, error: null })],
      }),
    ]);
    const list = await endpoints(session).list();
    expectStatus(list, 200);
    expect(list.body.data).toEqual([
      expect.objectContaining({ id: endpoint.id, recent_deliveries: { succeeded: 1, failed: 0, success_rate: 1 } }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');

    const removed = await endpoints(session).remove({ params: { id: endpoint.id } });
    expect(removed.status).toBe(204);
    const emptied = await endpoints(session).list();
    expectStatus(emptied, 200);
    expect(emptied.body.data).toEqual([]);
    expect(await actions(w.org.id)).toEqual(expect.arrayContaining(['webhook_endpoint.created']));
    const rows = (await auditRows(ctx.db, w.org.id)).filter((row) => row.action.startsWith('webhook_'));
    expect(rows.map((row) => [row.action, row.target_id, row.actor_person_id]).sort()).toEqual(
      [
        ['webhook_endpoint.created', endpoint.id, w.admin.id],
        ['webhook_endpoint.tested', endpoint.id, w.admin.id],
        ['webhook_endpoint.removed', endpoint.id, w.admin.id],
      ].sort(),
    );
    expect(JSON.stringify(rows)).not.toContain(endpoint.secret);
  });

  it('answers how a failing endpoint replied, and keeps the delivery pending for its retry', async () => {
    const w = await makeDashboardOrganisation(ctx.db);
    const session = await dash().signIn(w.admin.email);
    const created = await endpoints(session).create({ body: { url: r.url } });
    expectStatus(created, 201);
    const endpoint = created.body.data;
    r.answer({ status: 500 });
    const tested = await endpoints(session).test({ params: { id: endpoint.id }, body: {} });
    expectStatus(tested, 200);
    expect(tested.body.data).toMatchObject({ succeeded: false, status_code: 500 });
    const pending = await deliveries(session).list({ query: { status: 'pending' } });
    expectStatus(pending, 200);
    const [delivery] = pending.body.data;
    expect(delivery).toMatchObject({ event_id: tested.body.data.event_id, status: 'pending' });
    expect(delivery?.next_attempt_at).toBe('2026-11-22T08:01:00Z');
  });

  it('refuses unsafe URLs (422), an eleventh endpoint (409) and a bad body (400)', async () => {
    const w = await makeDashboardOrganisation(ctx.db);
    const session = await dash().signIn(w.admin.email);
    const unsafe = await endpoints(session).create({ body: { url: 'https://user:pw@example.com/x' } });
    expect([unsafe.status, errorOf(unsafe)]).toEqual([422, 'The URL must not carry a user name or password']);
    // Raw: an event type the contract does not know, which the typed client cannot send.
    const bad = await dash().post('/webhook-endpoints', { url: r.url, events: ['booking.eaten'] }, session);
    expect(bad.status).toBe(400);
    for (let i = 0; i < 10; i++)
      expect((await endpoints(session).create({ body: { url: `${r.url}/${i}` } })).status).toBe(201);
    const eleventh = await endpoints(session).create({ body: { url: r.url } });
    expect([eleventh.status, eleventh.body]).toEqual([
      409,
      error('An organisation has at most 10 webhook endpoints; remove one first'),
    ]);
  });

  it('rotates a secret only after a recent confirmation; replays an event; one audit row each', async () => {
    const w = await makeDashboardOrganisation(ctx.db);
    const { endpoint, event } = await makeOrganisationResources(ctx.db, w.org.id, w.venue.id);
    const session = await dash().signIn(w.admin.email);
    await expireConfirmation(ctx.db, w.admin.id, ctx.clock.now());
    const refused = await endpoints(session).rotateSecret({ params: { id: endpoint.id } });
    expect([refused.status, refused.body]).toEqual([403, error('Recent sign-in required')]);
    const fresh = await dash().signIn(w.admin.email);
    const rotated = await endpoints(fresh).rotateSecret({ params: { id: endpoint.id } });
    expectStatus(rotated, 200);
    expect(rotated.body.data).toEqual({
      id: endpoint.id,
      secret: expect.stringMatching(/^whsec_/),
      previous_secret_expires_at: '2026-11-23T08:00:00Z',
    });
    const replayed = await deliveries(fresh).replay({ params: { event_id: event.id }, body: {} });
    expect([replayed.status, replayed.body]).toEqual([200, { data: { event_id: event.id, deliveries: 1 } }]);
    const missing = await deliveries(fresh).replay({ params: { event_id: crypto.randomUUID() }, body: {} });
    expect([missing.status, missing.body]).toEqual([404, error('Webhook event not found')]);
    const rows = (await auditRows(ctx.db, w.org.id)).filter((row) => !row.action.startsWith('session.'));
    expect(rows.map((row) => [row.action, row.target_type, row.target_id])).toEqual([
      ['webhook_delivery.replayed', 'webhook_event', event.id],
      ['webhook_endpoint.secret_rotated', 'webhook_endpoint', endpoint.id],
    ]);
    expect(JSON.stringify(rows)).not.toContain(rotated.body.data.secret);
  });

  it("records the CLI's webhook commands as the operator, one row each", async () => {
    const w = await makeDashboardOrganisation(ctx.db);
    const spa = spaOf(ctx);
    vi.stubEnv('WEBHOOK_ALLOW_PRIVATE_NETWORKS', 'true');
    const added = await spa('webhooks', 'add', '--org', w.org.slug, '--url', r.url);
    expect(added).toMatchObject({ code: 0, stderr: '' });
    const id = /Added webhook endpoint (\S+)/.exec(added.stdout)![1]!;
    expect(await spa('webhooks', 'test', id)).toMatchObject({ code: 0, stderr: '' });
    const [event] = await ctx.db.selectFrom('webhook_events').select('id').where('endpoint_id', '=', id).execute();
    expect(await spa('webhooks', 'replay', event!.id)).toMatchObject({ code: 0, stderr: '' });
    expect(await spa('webhooks', 'rotate-secret', id)).toMatchObject({ code: 0, stderr: '' });
    expect(await spa('webhooks', 'remove', id)).toMatchObject({ code: 0, stderr: '' });
    const rows = await auditRows(ctx.db, w.org.id);
    expect(rows.map((row) => [row.action, row.actor_type, row.target_id]).sort()).toEqual(
      [
        ['webhook_endpoint.created', 'operator', id],
        ['webhook_endpoint.tested', 'operator', id],
        ['webhook_delivery.replayed', 'operator', event!.id],
        ['webhook_endpoint.secret_rotated', 'operator', id],
        ['webhook_endpoint.removed', 'operator', id],
      ].sort(),
    );
  });

  it('refuses a desk person every webhook route with 403 Forbidden', async () => {
    const w = await makeDashboardOrganisation(ctx.db);
    const { endpoint, event } = await makeOrganisationResources(ctx.db, w.org.id, w.venue.id);
    const session: Session = await dash().signIn(w.desk.email);
    for (const res of [
      await endpoints(session).list(),
      await endpoints(session).create({ body: { url: r.url } }),
      await endpoints(session).remove({ params: { id: endpoint.id } }),
      await endpoints(session).rotateSecret({ params: { id: endpoint.id } }),
      await endpoints(session).test({ params: { id: endpoint.id }, body: {} }),
      await deliveries(session).list(),
      await deliveries(session).replay({ params: { event_id: event.id }, body: {} }),
    ])
      expect([res.status, res.body]).toEqual([403, error('Forbidden')]);
  });
});
