import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextHost } from '../../src/cli/command-host.js';
import { serveOperatorCommands } from '../../src/cli/operator-socket.js';
import { runCli } from '../../src/cli/program.js';
import { runSpa } from '../../src/cli/run-spa.js';
import { lockDataDir, lockFileOf } from '../../src/db/data-dir-lock.js';
import { CONTRACT_VERSION } from '../../src/lib/contract-version.js';
import { DEMO_KEY_ID } from '../../src/demo/demo-key.js';
import { compiledArgs } from '../support/compiled.js';
import { fixedClock } from '../support/fixed-clock.js';
import { makeVenueFile } from '../import/venue-file.js';
import { createTestContext, TEST_PUBLIC_URL, type TestContext } from '../support/test-app.js';
import { AS_NOBODY, canRunAsNobody } from '../support/other-user.js';
import { testDbKind } from '../support/test-db.js';

const serverDir = fileURLToPath(new URL('../..', import.meta.url));

if (!canRunAsNobody) console.warn('tests as another local user need root and setpriv; skipped here');

/** Output of one run, as an operator's terminal shows it. */
interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The operator CLI as an operator uses it: command lines, exit codes, stdout and stderr. The commands run in
 * this process on the test database (the program is the same one `pnpm spa` runs); the last describe crosses
 * the process boundary, to a CLI beside a server that owns the embedded database.
 */
describe('pnpm spa (the operator CLI)', () => {
  let ctx: TestContext;
  let dir: string;
  const clock = fixedClock('2026-11-22T08:00:00Z');
  beforeAll(async () => {
    ctx = await createTestContext();
    dir = mkdtempSync(join(tmpdir(), 'spa-cli-'));
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function spa(...argv: string[]): Promise<Run> {
    const run = { stdout: '', stderr: '' };
    const io = { stdout: (t: string) => (run.stdout += t), stderr: (t: string) => (run.stderr += t) };
    const code = await runCli(
      argv,
      contextHost({ db: ctx.db, vault: ctx.vault, publicUrl: TEST_PUBLIC_URL }, { cwd: dir, io, clock }),
    );
    return { code, ...run };
  }
  /** A small organisation of its own, imported through the CLI. */
  async function imported(edit: (made: ReturnType<typeof makeVenueFile>) => void = () => undefined) {
    const made = makeVenueFile();
    edit(made);
    const name = `${randomUUID()}.json`;
    writeFileSync(join(dir, name), JSON.stringify(made.file));
    const run = await spa('import', name);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    return { ...made, org: made.file.organisations[0]!.slug, venue: made.file.venues[0]!.slug, run };
  }
  const widest = (text: string) => Math.max(...text.split('\n').map((line) => line.length));

  describe('import', () => {
    it('prints every problem of an invalid file with its JSON path, exits 1, and writes nothing', async () => {
      const { file } = makeVenueFile();
      file.venues[0]!.rooms[1]!.capacity = 0;
      (file.customers[0] as { email: string }).email = 'nope';
      writeFileSync(join(dir, 'bad.json'), JSON.stringify(file));
      expect(await spa('import', 'bad.json')).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'The venue data file has 2 problems; nothing was written:\n' +
          '  - venues[0].rooms[1].capacity: must be at least 1\n' +
          '  - customers[0].email: must be a valid email address\n',
      });
      expect(await spa('keys', 'list', '--org', file.organisations[0]!.slug)).toEqual({
        code: 1,
        stdout: '',
        stderr: `No organisation with slug ${file.organisations[0]!.slug}\n`,
      });
      expect(await spa('import', 'missing.json')).toEqual({
        code: 1,
        stdout: '',
        stderr: `Cannot read ${join(dir, 'missing.json')} as JSON: no such file\n`,
      });
    });

    it('reports what it created, then, for the same file again, that everything is unchanged', async () => {
      const { run, file } = await imported();
      const path = join(dir, run.stdout.split('\n')[0]!.replace(/^Imported .*\/([^/]+):$/, '$1'));
      expect(run.stdout).toContain('ENTITY         CREATED  UPDATED  UNCHANGED\n');
      expect(run.stdout).toMatch(/\nvenues +1 +0 +0\n/);
      expect(run.stdout).toMatch(/\nrooms +2 +0 +0\n/);
      expect(run.stdout).toMatch(/\nbookings +0 +0 +0\n/);

      file.venues[0]!.name = 'Spa renamed';
      writeFileSync(path, JSON.stringify(file));
      const again = await spa('import', path);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/\nvenues +0 +1 +0\n/);
      expect(again.stdout).toMatch(/\nrooms +0 +0 +2\n/);
      expect(again.stdout).toMatch(/\ntherapists +0 +0 +2\n/);
    });

    it('adds a venue to an organisation already in the database, naming it by id only', async () => {
      const first = await imported();
      const second = makeVenueFile();
      const venue = { ...second.file.venues[0]!, organisation_id: first.ids.organisation };
      const addition = {
        venues: [venue],
        // A therapist already in the database starts working at the new venue too; a new one joins the organisation.
        therapists: [
          { ...second.file.therapists[1]!, organisation_id: first.ids.organisation },
          {
            ...first.file.therapists[0]!,
            shifts: [
              ...first.file.therapists[0]!.shifts,
              { ...second.file.therapists[0]!.shifts[0]!, venue_id: venue.id },
            ],
          },
        ],
      };
      writeFileSync(join(dir, 'addition.json'), JSON.stringify(addition));
      const run = await spa('import', 'addition.json');
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toMatch(/\nvenues +1 +0 +0\n/);
      expect(run.stdout).toMatch(/\ntherapists +1 +1 +0\n/);
      expect(run.stdout).toMatch(/\norganisations +0 +0 +0\n/);
      const listed = await spa('therapists', 'list', '--venue', venue.slug);
      expect(listed.stdout).toContain(first.ids.camille);
      expect(listed.stdout).toContain(second.ids.hugo);

      const unknown = randomUUID();
      writeFileSync(join(dir, 'orphan.json'), JSON.stringify({ venues: [{ ...venue, organisation_id: unknown }] }));
      expect(await spa('import', 'orphan.json')).toMatchObject({
        code: 1,
        stderr: `The venue data file has 1 problem; nothing was written:\n  - venues[0].organisation_id: no organisation ${unknown} in the file or the database\n`,
      });
    });
  });

  describe('keys', () => {
    it('lists keys in a table within 100 columns, scopes on their own line, never a secret', async () => {
      const { org, ids } = await imported();
      const created = await spa(
        'keys',
        'create',
        '--org',
        org,
        '--scopes',
        'venues:read,treatments:read,customers:read,bookings:read,availability:read,bookings:write',
      );
      expect(created.code).toBe(0);
      const listed = await spa('keys', 'list', '--org', org);
      expect(listed.code).toBe(0);
      const [header, row, scopes] = listed.stdout.split('\n');
      expect(header).toMatch(/^ID +KIND +MODE +VENUE +RATE\/MIN +CREATED +REVOKED$/);
      expect(row).toMatch(
        new RegExp(`^${ids.key} +dashboard +live +all venues +- +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d +-$`),
      );
      expect(scopes).toBe('    scopes venues:read');
      expect(widest(listed.stdout)).toBeLessThanOrEqual(100);
      expect(listed.stdout).not.toContain(ids.secret);
    });

    it('creates a venue-restricted key whose full value reveal prints alone on stdout', async () => {
      const { org, venue } = await imported();
      const created = await spa(
        'keys',
        'create',
        '--org',
        org,
        '--venue',
        venue,
        '--scopes',
        'venues:read,bookings:read',
        '--rate-limit',
        '30',
      );
      expect(created.code).toBe(0);
      const key = /sk_live_([0-9a-f]{12})_[0-9a-f]{64}/.exec(created.stdout)!;
      expect(await spa('keys', 'reveal', key[1]!)).toEqual({ code: 0, stdout: `${key[0]}\n`, stderr: '' });
    });

    it('refuses to reveal a revoked key: exit 1 and nothing on stdout that a script could capture', async () => {
      const { ids } = await imported();
      expect(await spa('keys', 'revoke', ids.key)).toMatchObject({ code: 0 });
      expect(await spa('keys', 'reveal', ids.key)).toEqual({
        code: 1,
        stdout: '',
        stderr: `Key ${ids.key} is revoked and authenticates nothing; it is not printed\n`,
      });
    });

    it('regenerates the demo key only with --force, since the README and the guides use it', async () => {
      const { org } = await imported(({ file }) => {
        file.api_keys[0]!.id = DEMO_KEY_ID;
      });
      const refused = await spa('keys', 'regenerate', '--org', org);
      expect(refused).toMatchObject({ code: 1, stdout: '' });
      expect(refused.stderr).toContain(`is the demo key ${DEMO_KEY_ID} that the README and the guides use`);
      expect((await spa('keys', 'list', '--org', org)).stdout).toMatch(new RegExp(`${DEMO_KEY_ID} +dashboard .* -\\n`));

      const forced = await spa('keys', 'regenerate', '--org', org, '--force');
      expect(forced.code).toBe(0);
      expect(forced.stdout).toMatch(new RegExp(`^Revoked ${DEMO_KEY_ID}\\. New dashboard key [0-9a-f]{12} `));
    });

    it('refuses an unknown key with one plain line on stderr and exit 1, and a malformed command line with exit 2', async () => {
      expect(await spa('keys', 'revoke', 'ffffffffffff')).toEqual({
        code: 1,
        stdout: '',
        stderr: 'No key ffffffffffff\n',
      });
      const usage = await spa('keys', 'list');
      expect(usage).toMatchObject({ code: 2, stdout: '' });
      expect(usage.stderr).toContain("required option '--org <slug>' not specified");
      expect((await spa('bookings', 'accept', 'not-a-uuid', '--therapist', randomUUID())).code).toBe(2);
      expect((await spa('--help')).code).toBe(0);
    });

    it('prints the version of the API it serves', async () => {
      expect(await spa('--version')).toEqual({ code: 0, stdout: `spa ${CONTRACT_VERSION}\n`, stderr: '' });
    });
  });

  describe('bookings and therapists', () => {
    it('lists a venue’s bookings with the therapists each pending one was offered to, accepts one, and refuses to complete it before it starts', async () => {
      const { venue, ids, file } = await imported(({ file: f, booking }) => {
        f.bookings.push(booking({ status: 'pending', therapist_ids: [], start_at: '2026-12-01T10:00:00+01:00' }));
        f.bookings.push(
          booking({ status: 'confirmed', start_at: '2026-12-02T15:00:00+01:00', customer_id: f.customers[1]!.id }),
        );
      });
      const [pending, confirmed] = file.bookings.map((b) => b.id) as [string, string];
      const listed = await spa('bookings', 'list', '--venue', venue);
      expect(listed.code).toBe(0);
      expect(listed.stdout.split('\n')).toEqual([
        `2 bookings at ${venue} (Europe/Paris) from 2026-11-22 on:`,
        '',
        expect.stringMatching(/^NUMBER +ID +START \(LOCAL\) +STATUS +GUESTS$/),
        expect.stringMatching(new RegExp(`^\\d+ +${pending} +2026-12-01 10:00 +pending +1$`)),
        '    Massage relaxant, 60 min, for Alice Durand',
        `    offered to ${ids.hugo} Hugo Bernard`,
        `    offered to ${ids.camille} Camille Martin`,
        expect.stringMatching(new RegExp(`^\\d+ +${confirmed} +2026-12-02 15:00 +confirmed +1$`)),
        '    Massage relaxant, 60 min, for Bruno Petit',
        `    therapist ${ids.camille} Camille Martin`,
        '',
      ]);
      expect(widest(listed.stdout)).toBeLessThanOrEqual(100);
      expect(
        (await spa('bookings', 'list', '--venue', venue, '--status', 'pending', '--date', '2026-12-02')).stdout,
      ).toBe(`No pending bookings at ${venue} (Europe/Paris) on 2026-12-02.\n`);
      expect((await spa('bookings', 'list', '--venue', venue, '--date', '2026-12-02')).stdout).toContain(confirmed);
      expect((await spa('bookings', 'list', '--venue', 'no-such-venue')).stderr).toBe('No venue no-such-venue\n');
      expect((await spa('bookings', 'list', '--venue', venue, '--date', '2026-02-30')).code).toBe(2);

      expect(await spa('bookings', 'accept', pending, '--therapist', ids.hugo)).toEqual({
        code: 0,
        stdout: `Booking ${pending} is confirmed (1 of 1 therapist accepted), assigned to therapist ${ids.hugo}.\n`,
        stderr: '',
      });
      expect(await spa('bookings', 'complete', pending)).toEqual({
        code: 1,
        stdout: '',
        stderr: `Booking ${pending} starts at 2026-12-01T09:00:00Z; it can be marked completed only once it has started\n`,
      });
      expect((await spa('bookings', 'list', '--venue', venue, '--status', 'confirmed')).stdout).toContain(
        `    therapist ${ids.hugo} Hugo Bernard`,
      );
    });

    it('lists the therapists of a venue with their skills and weekly shifts', async () => {
      const { venue, ids } = await imported();
      const listed = await spa('therapists', 'list', '--venue', venue);
      expect(listed.stdout.split('\n')).toEqual([
        expect.stringMatching(/^ID +NAME$/),
        expect.stringMatching(new RegExp(`^${ids.hugo} +Hugo Bernard$`)),
        '    skills massage',
        '    shifts Tue,Wed,Thu,Fri,Sat 10:00-19:00',
        expect.stringMatching(new RegExp(`^${ids.camille} +Camille Martin$`)),
        '    skills massage',
        '    shifts Mon,Tue,Wed,Thu,Fri 09:00-17:00',
        '',
      ]);
    });
  });

  // The embedded database belongs to one process; these tests hold a DATA_DIR the way `pnpm start` does.
  describe.skipIf(testDbKind !== 'pglite')('beside a server that owns the embedded database', () => {
    let dataDir: string;
    let stop: () => Promise<void>;
    beforeAll(async () => {
      dataDir = join(dir, 'data');
      mkdirSync(dataDir);
      const unlock = lockDataDir(dataDir);
      const served = await serveOperatorCommands({
        dataDir,
        context: { db: ctx.db, vault: ctx.vault, publicUrl: TEST_PUBLIC_URL },
        logger: { info: () => undefined, error: () => undefined },
      });
      stop = () => served.close().finally(unlock);
    });
    afterAll(() => stop());
    const env = () => {
      const { DATABASE_URL: _ignored, ...rest } = process.env;
      return { ...rest, DATA_DIR: dataDir, INIT_CWD: dir };
    };

    it('runs the command inside the server instead of failing on the lock', async () => {
      const { org, ids } = await imported();
      const run = { stdout: '', stderr: '' };
      const code = await runSpa(['keys', 'list', '--org', org], env(), {
        stdout: (t) => (run.stdout += t),
        stderr: (t) => (run.stderr += t),
      });
      expect({ code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      expect(run.stdout).toContain(ids.key);
    });

    it('does so from a separate process too, with the exit code and output of the command', async () => {
      const { org, ids } = await imported();
      const result = await new Promise<Run>((resolve) => {
        execFile(
          process.execPath,
          compiledArgs('spa', 'keys', 'revoke', ids.key),
          { cwd: serverDir, env: env() },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
      });
      expect(result).toEqual({
        code: 0,
        stdout: `Revoked ${ids.key}. The organisation has no active dashboard key now; keys regenerate issues one.\n`,
        stderr: '',
      });
      expect((await spa('keys', 'list', '--org', org)).stdout).not.toMatch(new RegExp(`${ids.key} .* -\\n`));
    }, 60_000);

    it('refuses to import anything but a regular file of at most 32 MiB, and keeps serving', async () => {
      const forwarded = async (...argv: string[]) => {
        const run = { stdout: '', stderr: '' };
        const code = await runSpa(argv, env(), { stdout: (t) => (run.stdout += t), stderr: (t) => (run.stderr += t) });
        return { code, ...run };
      };
      const fifo = join(dir, 'import.fifo');
      execFileSync('mkfifo', [fifo]);
      const big = join(dir, 'big.json');
      writeFileSync(big, '');
      truncateSync(big, 32 * 1024 * 1024 + 1); // sparse: no disk used
      try {
        expect(await forwarded('import', big)).toEqual({
          code: 1,
          stdout: '',
          stderr: `Cannot read ${big} as JSON: it has 33554433 bytes; a venue data file may have at most 33554432 (32 MiB)\n`,
        });
        for (const [path, kind] of [
          ['/dev/zero', 'a character device'],
          [fifo, 'a FIFO'],
          [dir, 'a directory'],
        ])
          expect(await forwarded('import', path!)).toEqual({
            code: 1,
            stdout: '',
            stderr: `Cannot read ${path} as JSON: it is ${kind}, not a regular file\n`,
          });
      } finally {
        rmSync(fifo);
        rmSync(big);
      }
      const { org } = await imported();
      expect(await forwarded('keys', 'list', '--org', org)).toMatchObject({ code: 0, stderr: '' });
    });

    /** `pnpm spa` as another local user (nobody), which the root-only socket and data files must keep out. */
    const asNobody = (...argv: string[]) =>
      new Promise<Run>((resolve) => {
        execFile(
          AS_NOBODY[0],
          [...AS_NOBODY.slice(1), process.execPath, '--import', 'tsx', 'src/cli/spa.ts', ...argv],
          { cwd: serverDir, env: { ...env(), HOME: tmpdir() } },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
      });

    it.skipIf(!canRunAsNobody)(
      'exits 3 with a one-line reason, not a crash, for a user who cannot open the socket or read the data directory',
      async () => {
        chmodSync(dir, 0o755);
        try {
          chmodSync(dataDir, 0o755);
          chmodSync(lockFileOf(dataDir), 0o644);
          const socket = await asNobody('keys', 'list', '--org', 'any');
          expect(socket).toEqual({
            code: 3,
            stdout: '',
            stderr: `Cannot reach the server that owns ${dataDir}: permission denied on ${join(dataDir, 'operator.sock')}; run the command as the user that runs the server\n`,
          });
          chmodSync(dataDir, 0o700);
          const directory = await asNobody('keys', 'list', '--org', 'any');
          expect(directory).toEqual({
            code: 3,
            stdout: '',
            stderr: `Cannot reach the server that owns ${dataDir}: permission denied on ${lockFileOf(dataDir)}; run the command as the user that runs the server\n`,
          });
        } finally {
          chmodSync(dir, 0o700);
        }
      },
      60_000,
    );
  });
});
