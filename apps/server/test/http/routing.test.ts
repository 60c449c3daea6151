import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeApiKey, makeOrganisation, makeVenue } from '../support/factories.js';
import { setup } from '../support/test-app.js';

/**
 * Which layer answers which path (src/app.ts): /v1 paths go straight to the partner API's own router, every other
 * path through the pages and the dashboard first; either way the checks and the 404 are the app's, as before.
 */
describe('routing of the partner API and the other paths', () => {
  const ctx = setup();
  let key: string;
  beforeAll(async () => {
    const org = await makeOrganisation(ctx.db);
    await makeVenue(ctx.db, org.id);
    ({ key } = await makeApiKey(ctx.db, ctx.vault, org.id));
  });

  const answer = async (method: 'get' | 'options', path: string, withKey: boolean) => {
    const req = request(ctx.app)[method](path);
    const res = await (withKey ? req.set('authorization', `Bearer ${key}`) : req);
    return [res.status, (res.body as { error?: string }).error ?? null];
  };

  it('matches /v1 paths case-insensitively and with a trailing slash, as Express does', async () => {
    expect(await answer('get', '/V1/Venues', true)).toEqual([200, null]);
    expect(await answer('get', '/v1/venues/', true)).toEqual([200, null]);
  });

  it('answers an unknown path 404, key or no key, inside /v1 and outside it', async () => {
    for (const path of ['/v1', '/v1/', '/v1/nothing-here', '/nothing-here', '/v10/venues'])
      for (const withKey of [false, true]) expect(await answer('get', path, withKey), path).toEqual([404, 'Not found']);
  });

  it('answers an undecodable path 401 without a key and 400 with one, inside /v1 and outside it', async () => {
    for (const path of ['/v1/venues/%E9', '/nothing/%E9']) {
      expect(await answer('get', path, false), path).toEqual([401, 'Missing API key']);
      expect((await answer('get', path, true))[0], path).toBe(400);
    }
  });

  it('answers OPTIONS on an API path 404 like any unrouted request, not with an Allow list', async () => {
    expect(await answer('options', '/v1/venues', true)).toEqual([404, 'Not found']);
    expect(await answer('options', '/v1/venues', false)).toEqual([404, 'Not found']);
  });

  it('still serves the pages and the dashboard API outside /v1', async () => {
    expect((await request(ctx.app).get('/openapi.json')).status).toBe(200);
    expect((await request(ctx.app).get('/healthz')).status).toBe(200);
    expect((await request(ctx.app).get('/dashboard/api/session')).status).toBe(401);
  });
});
