import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contextHost } from '../../src/cli/command-host.js';
import { runCli } from '../../src/cli/program.js';
import { makeVenueFile } from '../import/venue-file.js';
import { setup, TEST_PUBLIC_URL } from '../support/test-app.js';
import { startReceiver, type Receiver } from './receiver.js';

/**
 * `spa webhooks …` as an operator runs it, in process on the test database (the process boundary of the CLI is
 * tested in test/cli/spa.cli.test.ts); delivery itself is tested in delivery.test.ts.
 */
describe('pnpm spa webhooks (the operator CLI)', () => {
  const ctx = setup();
  let dir: string;
  let receiver: Receiver;
  async function spa(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const run = { stdout: '', stderr: '' };
    const io = { stdout: (t: string) => (run.stdout += t), stderr: (t: string) => (run.stderr += t) };
    const code = await runCli(
      argv,
      contextHost({ db: ctx.db, vault: ctx.vault, publicUrl: TEST_PUBLIC_URL }, { cwd: dir, io }),
    );
    return { code, ...run };
  }
  const { file, booking } = makeVenueFile();
  const org = file.organisations[0]!.slug;
  const pending = booking({ status: 'pending', start_at: '2026-12-02T10:00:00+01:00' });

  beforeAll(async () => {
    // The receiver listens on loopback over http: allowed only with the development flag.
    vi.stubEnv('WEBHOOK_ALLOW_PRIVATE_NETWORKS', 'true');
    dir = mkdtempSync(join(tmpdir(), 'spa-webhooks-cli-'));
    receiver = await startReceiver();
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds an endpoint (secret printed once), lists it, rotates its secret, replays, shows the log and removes it', async () => {
    file.bookings = [pending];
    writeFileSync(join(dir, 'venues.json'), JSON.stringify(file));
    expect((await spa('import', 'venues.json')).code).toBe(0);

    const added = await spa('webhooks', 'add', '--org', org, '--url', receiver.url, '--events', 'booking.confirmed');
    expect(added.code).toBe(0);
    const id = /endpoint ([0-9a-f-]{36})/.exec(added.stdout)![1]!;
    const secret = /(whsec_\S+)/.exec(added.stdout)![1]!;
    expect(added.stdout).toContain(`for ${org}: ${receiver.url} (booking.confirmed).`);

    const listed = await spa('webhooks', 'list', '--org', org);
    expect(listed.stdout.split('\n')[0]).toMatch(/^ID\s+URL\s+VENUE\s+EVENTS\s+STATE\s+LAST SUCCESS/);
    expect(listed.stdout).toContain(`${id}  ${receiver.url}  all venues  booking.confirmed  active`);
    expect(listed.stdout).not.toContain('whsec_');

    // An import that confirms the booking writes booking.confirmed; nothing delivers it here (no server runs).
    file.bookings = [{ ...pending, status: 'confirmed' }];
    writeFileSync(join(dir, 'venues.json'), JSON.stringify(file));
    expect((await spa('import', 'venues.json')).code).toBe(0);
    const log = await spa('webhooks', 'deliveries', '--org', org, '--status', 'pending');
    expect(log.stdout).toMatch(/booking\.confirmed\s+http:\/\/127\.0\.0\.1:\d+\/hooks\s+pending \(next /);
    const eventId = /^([0-9a-f-]{36})\s+booking\.confirmed/m.exec(log.stdout)![1]!;

    const rotated = await spa('webhooks', 'rotate-secret', id);
    expect(rotated.stdout).toMatch(/Deliveries carry both signatures until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/);
    const next = /(whsec_\S+)/.exec(rotated.stdout)![1]!;
    expect(next).not.toBe(secret);

    expect((await spa('webhooks', 'replay', eventId)).stdout).toBe(
      `Queued booking.confirmed ${eventId} for 1 endpoint; the running server delivers it.\n`,
    );
    expect(await spa('webhooks', 'remove', id)).toMatchObject({
      code: 0,
      stdout: `Removed webhook endpoint ${id} (${receiver.url}).\n`,
    });
    // Its history stays: the delivery that was pending is failed, not gone; the endpoint leaves the list.
    const after = await spa('webhooks', 'deliveries', '--org', org);
    expect(after.stdout).toMatch(new RegExp(`^${eventId}\\s+booking\\.confirmed\\s+\\S+\\s+failed`, 'm'));
    expect((await spa('webhooks', 'list', '--org', org)).stdout).not.toContain(id);
    expect(await spa('webhooks', 'remove', id)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`No webhook endpoint ${id}`),
    });
  }, 300_000);

  it('refuses bad input in plain words: exit 1 for a refused value, 2 for a malformed argument', async () => {
    expect(
      await spa('webhooks', 'add', '--org', org, '--url', 'https://x.example', '--events', 'booking.moved'),
    ).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Unknown event type booking.moved; the types are booking.created,'),
    });
    expect(await spa('webhooks', 'remove', 'nope')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('must be a UUID'),
    });
  }, 120_000);
});
