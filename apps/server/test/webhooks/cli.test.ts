import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVenueFile } from '../import/venue-file.js';
import { testDbKind } from '../support/test-db.js';
import { startReceiver, type Receiver } from './receiver.js';

const serverDir = fileURLToPath(new URL('../..', import.meta.url));

/**
 * `pnpm spa webhooks …` in a child process on an embedded database, as an operator runs it. Each run opens and
 * migrates the database (seconds on a busy machine), so runs are few; delivery itself is tested in process.
 */
describe.skipIf(testDbKind !== 'pglite')('pnpm spa webhooks (the operator CLI)', () => {
  let dir: string;
  let receiver: Receiver;
  const spa = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const { DATABASE_URL: _ignored, ...rest } = process.env;
      execFile(
        process.execPath,
        ['--import', 'tsx', 'src/cli/spa.ts', ...args],
        {
          cwd: serverDir,
          env: {
            ...rest,
            DATA_DIR: join(dir, 'data'),
            INIT_CWD: dir,
            KEY_ENCRYPTION_KEY: 'cd'.repeat(32),
            WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
          },
        },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  const { file, booking } = makeVenueFile();
  const org = file.organisations[0]!.slug;
  const pending = booking({ status: 'pending', start_at: '2026-12-02T10:00:00+01:00' });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'spa-webhooks-cli-'));
    receiver = await startReceiver();
  });
  afterAll(async () => {
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
