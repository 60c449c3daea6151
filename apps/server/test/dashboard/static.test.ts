import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { setup } from '../support/test-app.js';

/** A built dashboard as Vite lays it out: index.html and content-hashed files under assets/. */
function fakeBuild(): string {
  const dist = mkdtempSync(join(tmpdir(), 'dashboard-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Dashboard</title><div id="root"></div>');
  writeFileSync(join(dist, 'assets', 'index-Bx1y2z3w.js'), 'console.log("app")');
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dist;
}

describe('the dashboard web app at /dashboard', () => {
  const ctx = setup({ dashboardDir: fakeBuild() });

  it('serves index.html for the app and each of its pages, never cached, with the page security headers', async () => {
    for (const path of ['/dashboard', '/dashboard/', '/dashboard/bookings/3f0c', '/dashboard/webhooks/deliveries']) {
      const res = await request(ctx.app).get(path);
      expect(res.status, path).toBe(200);
      expect(res.type).toBe('text/html');
      expect(res.text).toContain('<div id="root"></div>');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('serves hashed assets with a year-long immutable cache, other files revalidated', async () => {
    const asset = await request(ctx.app).get('/dashboard/assets/index-Bx1y2z3w.js');
    expect(asset.status).toBe(200);
    expect(asset.type).toBe('application/javascript');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await request(ctx.app).get('/dashboard/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('answers a missing file with a plain 404, not with index.html', async () => {
    const res = await request(ctx.app).get('/dashboard/assets/index-gone.js');
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('<div id="root">');
  });

  it('leaves /dashboard/api to the JSON API: an unknown API path is the JSON 404', async () => {
    const res = await request(ctx.app).get('/dashboard/api/no-such-route');
    expect(res.status).toBe(404);
    expect(res.type).toBe('application/json');
    expect(res.body).toEqual({ error: 'Not found', request_id: res.headers['x-request-id'] });
    expect(res.headers['content-security-policy']).toBeUndefined();
  });
});

describe('the dashboard before it was built', () => {
  const ctx = setup({ dashboardDir: join(tmpdir(), 'dashboard-never-built') });

  it('answers 503 with a page that says how to build it', async () => {
    const res = await request(ctx.app).get('/dashboard/bookings');
    expect(res.status).toBe(503);
    expect(res.type).toBe('text/html');
    expect(res.text).toContain('pnpm --filter @spa/dashboard build');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
