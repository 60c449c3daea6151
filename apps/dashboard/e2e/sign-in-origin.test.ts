import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, shootFailure, type WatchedPage } from './support/browser.js';
import { acceptInvitation, inviteByCli, PASSWORD, signIn } from './support/people.js';
import { startWorld, type World } from './support/world.js';

/**
 * A reverse proxy on a port of its own that does not pass the Host header on (it sends the server's own): what a
 * proxy set up without that setting does. The page is opened at the proxy's address, its calls reach the server
 * under the server's.
 */
async function startHostRewritingProxy(target: string) {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

const ORG = 'maisons-lumiere';
const ADMIN = 'origin.admin@maisons-lumiere.example';

/**
 * A first `pnpm start` has no PUBLIC_URL: the dashboard's origin is then the address the page was opened at, so
 * signing in at http://127.0.0.1:PORT works (it was refused with a bare "Forbidden" when the origin was taken to be
 * http://localhost:PORT). A request from another origin is still refused, with a sentence saying what to do.
 */
describe('signing in without PUBLIC_URL', () => {
  let world: World;
  let browser: Browser;
  let person: WatchedPage;
  let proxied: WatchedPage | undefined;
  let proxy: Awaited<ReturnType<typeof startHostRewritingProxy>> | undefined;

  beforeAll(async () => {
    [world, browser] = await Promise.all([startWorld({ publicUrl: 'unset' }), launchBrowser()]);
    person = await openPage(browser, world.base);
  });
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    await shootFailure(person, `origin-${task.name}`);
    await shootFailure(proxied, `origin-proxied-${task.name}`);
  });
  afterAll(async () => {
    await proxied?.close();
    await proxy?.close();
    await person?.close();
    await browser?.close();
    await world?.close();
  });

  it('signs in at http://127.0.0.1:PORT, the address the page was opened at', async () => {
    // The CLI knows no address but its default (http://localhost:PORT); the person opens the one they use.
    const printed = new URL(await inviteByCli(world, ['--email', ADMIN, '--org', ORG, '--role', 'admin']));
    expect(printed.hostname).toBe('localhost');
    await acceptInvitation(person, `${world.base}${printed.pathname}`);
    expect(new URL(person.page.url()).origin).toBe(world.base);
    await signIn(person, ADMIN);
    await person.page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await person.check();
  });

  it('refuses a sign-in through a proxy that does not pass the Host on, with a sentence saying what to do', async () => {
    proxy = await startHostRewritingProxy(world.base);
    proxied = await openPage(browser, proxy.url);
    await proxied.page.goto('/dashboard/sign-in');
    await proxied.page.getByLabel('Email').fill(ADMIN);
    await proxied.page.getByLabel('Password').fill(PASSWORD);
    await proxied.page.getByRole('button', { name: 'Sign in' }).click();
    const alert = proxied.page.getByRole('alert');
    await alert.getByText('Forbidden', { exact: true }).waitFor();
    await alert
      .getByText(
        `The page was opened at ${proxy.url} but the request reached ${world.base}. A proxy in between must ` +
          'pass the Host header on, or set PUBLIC_URL to the address you use and restart the server.',
      )
      .waitFor();
    expect(await proxied.page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
  });
});
