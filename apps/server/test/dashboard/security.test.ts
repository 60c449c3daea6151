import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { signIn } from '../../src/dashboard/session.service.js';
import { SignInThrottle } from '../../src/dashboard/sign-in-throttle.js';
import { error } from '../support/api.js';
import { makeOrganisation } from '../support/factories.js';
import { setup } from '../support/test-app.js';
import { expectStatus } from '../support/typed-api.js';
import { auditRows, dashboardOf, makeDashboardOrganisation, makePerson, PASSWORD } from './dashboard-support.js';

/** A sign-in as the dashboard page at `origin` sends it, to a server reached at `host`. */
function signInAt(
  app: Parameters<typeof request>[0],
  host: string,
  origin: string,
  email: string,
  password = PASSWORD,
) {
  return request(app).post('/dashboard/api/session').set('Host', host).set('Origin', origin).send({ email, password });
}

describe('the dashboard origin when PUBLIC_URL is not set', () => {
  const ctx = setup({ publicUrl: 'http://localhost:3000', publicUrlSet: false });

  it('signs in from http://127.0.0.1:PORT, http://localhost:PORT and a LAN address alike', async () => {
    const org = await makeOrganisation(ctx.db);
    const person = await makePerson(ctx.db, org.id);
    for (const host of ['127.0.0.1:3000', 'localhost:3000', '192.168.1.20:3000']) {
      const res = await signInAt(ctx.app, host, `http://${host}`, person.email);
      expect(res.status, host).toBe(200);
    }
  });

  it('refuses a page of another origin with a hint that says what to do', async () => {
    const org = await makeOrganisation(ctx.db);
    const person = await makePerson(ctx.db, org.id);
    const res = await signInAt(ctx.app, '127.0.0.1:3000', 'http://evil.example', person.email);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: 'Forbidden',
      hint:
        'The page was opened at http://evil.example but the request reached http://127.0.0.1:3000. A proxy in ' +
        'between must pass the Host header on, or set PUBLIC_URL to the address you use and restart the server.',
      request_id: expect.any(String),
    });
  });

  it("makes invitation links on the admin's own address", async () => {
    const w = await makeDashboardOrganisation(ctx.db);
    const login = await signInAt(ctx.app, '127.0.0.1:3000', 'http://127.0.0.1:3000', w.admin.email);
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const res = await request(ctx.app)
      .post('/dashboard/api/users')
      .set('Host', '127.0.0.1:3000')
      .set('Origin', 'http://127.0.0.1:3000')
      .set('Cookie', cookie)
      .set('X-CSRF-Token', login.body.data.csrf_token as string)
      .send({ email: 'new.person@example.com', role: 'admin' });
    expect(res.status).toBe(201);
    expect(res.body.data.url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/dashboard\/invitations\//);
  });
});

describe('dashboard API answers are never stored', () => {
  const ctx = setup();
  const dash = () => dashboardOf(ctx.app);

  it('sends Cache-Control: no-store on every answer: 200, 201, 204, 400, 401, 403, 404', async () => {
    const w = await makeDashboardOrganisation(ctx.db);
    const session = await dash().signIn(w.admin.email);
    const answers = [
      await dash().get('/session', session),
      await dash().post('/key/reveal', undefined, session),
      await dash().post('/users', { email: 'x@example.com', role: 'admin' }, session),
      await dash().post('/users', { email: 'not an email', role: 'admin' }, session),
      await dash().get('/session'),
      await dashboardOf(ctx.app, 'https://evil.example').post('/session', { email: w.admin.email, password: PASSWORD }),
      await dash().get('/no-such-route', session),
      await dash().post('/session', { email: w.admin.email, password: PASSWORD }),
      await dash().delete('/session', session),
    ];
    expect(answers.map((res) => res.status)).toEqual([200, 404, 201, 400, 401, 403, 404, 200, 204]);
    answers.forEach((res, n) => expect(res.headers['cache-control'], `answer ${n + 1}`).toBe('no-store'));
  });
});

describe('what the request log keeps of a search', () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const ctx = setup({ logger: pino({ level: 'info' }, sink) });

  it("never writes a customer's name or email searched for, in the API's URL or the page's", async () => {
    const w = await makeDashboardOrganisation(ctx.db);
    const session = await dashboardOf(ctx.app).signIn(w.admin.email);
    expect((await dashboardOf(ctx.app).get('/bookings?q=lovelace', session)).status).toBe(200);
    await request(ctx.app).get('/dashboard/bookings?q=ada.lovelace%40example.com&status=pending');
    const logged = lines.join('');
    expect(logged).toContain('/dashboard/api/bookings?q=[redacted]');
    expect(logged).toContain('/dashboard/bookings?q=[redacted]&status=pending');
    expect(logged).not.toMatch(/lovelace/i);
  });
});

describe('sign-in throttling per email and address', () => {
  const ctx = setup();
  // One throttle for the describe, as one app has: on PGlite its counts live in its memory.
  let throttle: SignInThrottle | undefined;
  const deps = () => ({
    db: ctx.db,
    clock: ctx.clock,
    throttle: (throttle ??= SignInThrottle.create(ctx.handle.pool)),
  });
  const attempt = (email: string, password: string, ip: string) =>
    signIn(deps(), { email, password }, { ip, userAgent: 'throttle-test' }).then(
      () => 200,
      (e: { status?: number }) => e.status ?? 500,
    );

  it('locks an email out of one address after 5 failures there, never out of another', async () => {
    const org = await makeOrganisation(ctx.db);
    const person = await makePerson(ctx.db, org.id);
    for (let i = 0; i < 5; i++) expect(await attempt(person.email, 'wrong password', '203.0.113.7')).toBe(401);
    expect(await attempt(person.email, PASSWORD, '203.0.113.7')).toBe(429);
    // The person at their own address signs in: the attacker's failures count against the attacker's address.
    expect(await attempt(person.email, PASSWORD, '198.51.100.20')).toBe(200);
    // The refused attempt is in the organisation's log, with the address it came from.
    const throttled = (await auditRows(ctx.db, org.id)).filter((r) => r.action === 'session.sign_in_throttled');
    expect(throttled).toMatchObject([{ ip: '203.0.113.7', target_label: person.email }]);
  });

  it('after 100 failures from everywhere, refuses new addresses but not one the person signed in from', async () => {
    const org = await makeOrganisation(ctx.db);
    const person = await makePerson(ctx.db, org.id);
    expect(await attempt(person.email, PASSWORD, '198.51.100.30')).toBe(200);
    for (let i = 0; i < 100; i++)
      expect(await attempt(person.email, 'wrong password', `10.9.${i >> 4}.${i}`)).toBe(401);
    expect(await attempt(person.email, PASSWORD, '192.0.2.99')).toBe(429);
    expect(await attempt(person.email, PASSWORD, '198.51.100.30')).toBe(200);
  }, 120_000);
});

describe('a wrong password confirmation', () => {
  const ctx = setup();
  const dash = () => dashboardOf(ctx.app);

  it('is logged as a failed confirmation of the signed-in person, not as a failed sign-in', async () => {
    const w = await makeDashboardOrganisation(ctx.db);
    const session = await dash().signIn(w.admin.email);
    const res = await ctx.dashboard(session).session.confirm({ body: { password: 'not my password' } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(error('Invalid password'));
    const actions = (await auditRows(ctx.db, w.org.id)).map((r) => r.action);
    expect(actions).toContain('session.confirmation_failed');
    expect(actions).not.toContain('session.sign_in_failed');
  });
});

describe('inviting an email that has an account in another organisation', () => {
  const ctx = setup();
  const dash = () => dashboardOf(ctx.app);

  it('answers exactly as for an email nobody uses; the invitee learns it at acceptance', async () => {
    const w = await makeDashboardOrganisation(ctx.db);
    const elsewhere = await makeOrganisation(ctx.db);
    const taken = await makePerson(ctx.db, elsewhere.id, { email: 'taken@example.com' });
    const session = await dash().signIn(w.admin.email);
    const invite = (email: string) =>
      ctx.dashboard(session).users.invite({ body: { email, role: 'admin', venues: [] } });
    const [other, fresh] = [await invite(taken.email), await invite('nobody.yet@example.com')];
    expectStatus(other, 201);
    expectStatus(fresh, 201);
    const shape = (data: typeof other.body.data) => ({
      ...data,
      id: 'id',
      email: 'email',
      url: data.url.replace(/[^/]+$/, 'token'),
    });
    expect(shape(other.body.data)).toEqual(shape(fresh.body.data));
    expect(Object.keys(other.headers).sort()).toEqual(Object.keys(fresh.headers).sort());
    // Someone of this organisation is still refused: the admin sees their own people anyway.
    const own = await invite(w.desk.email);
    expect(own.status).toBe(409);
    // The holder of the link is told.
    const token = other.body.data.url.split('/').pop()!;
    const accepted = await ctx.dashboard().invitations.accept({
      params: { token },
      body: { password: 'a brand new password' },
    });
    expect(accepted.status).toBe(409);
    expect(accepted.body).toEqual(error('A person with this email already exists'));
  });
});
