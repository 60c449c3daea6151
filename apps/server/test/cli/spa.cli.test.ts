import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKind } from '../support/test-db.js';
import { makeVenueFile } from '../import/venue-file.js';

const serverDir = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The real CLI in a child process, on an embedded database in a temporary DATA_DIR: exit codes, stdout and
 * stderr as an operator sees them. Each run opens and migrates the database (a few seconds), so runs are few.
 * It never touches DATABASE_URL, so it runs once, in the PGlite project.
 */
describe.skipIf(testDbKind !== 'pglite')('pnpm spa (the operator CLI)', () => {
  let dir: string;
  const env = () => {
    const { DATABASE_URL: _ignored, ...rest } = process.env;
    return { ...rest, DATA_DIR: join(dir, 'data'), INIT_CWD: dir, KEY_ENCRYPTION_KEY: 'ab'.repeat(32) };
  };
  const spa = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'src/cli/spa.ts', ...args],
        { cwd: serverDir, env: env() },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  const { file, ids } = makeVenueFile();
  const org = file.organisations[0]!.slug;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'spa-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints every problem of an invalid file with its JSON path, exits 1 without a stack, and writes nothing', async () => {
    const bad = structuredClone(file);
    bad.venues[0]!.rooms[1]!.capacity = 0;
    (bad.customers[0] as { email: string }).email = 'nope';
    writeFileSync(join(dir, 'bad.json'), JSON.stringify(bad));
    const result = await spa('import', 'bad.json'); // relative to INIT_CWD, the user's directory
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toBe(
      'The venue data file has 2 problems; nothing was written:\n' +
        '  - venues[0].rooms[1].capacity: must be at least 1\n' +
        '  - customers[0].email: must be a valid email address\n',
    );
    expect(await spa('keys', 'list', '--org', org)).toEqual({
      code: 1,
      stdout: '',
      stderr: `No organisation with slug ${org}\n`,
    });
  }, 60_000);

  it('imports a valid file, then lists its keys in a table without secrets', async () => {
    writeFileSync(join(dir, 'venues.json'), JSON.stringify(file));
    const imported = await spa('import', 'venues.json');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain(`Imported ${join(dir, 'venues.json')}:`);
    expect(imported.stdout).toMatch(/ {2}venues +1\n/);

    const listed = await spa('keys', 'list', '--org', org);
    expect(listed.code).toBe(0);
    const [header, row] = listed.stdout.trim().split('\n');
    expect(header).toMatch(/^ID +KIND +VENUE +SCOPES +RATE\/MIN +CREATED +REVOKED$/);
    expect(row).toMatch(new RegExp(`^${ids.key} +dashboard +all venues +venues:read +- +\\S+Z +-$`));
    expect(listed.stdout).not.toContain(ids.secret);
  }, 60_000);

  it('creates a venue-restricted key whose full value only create and reveal print', async () => {
    const created = await spa(
      'keys',
      'create',
      '--org',
      org,
      '--venue',
      file.venues[0]!.slug,
      '--scopes',
      'venues:read,bookings:read',
      '--rate-limit',
      '30',
    );
    expect(created.code).toBe(0);
    const key = /sk_live_([0-9a-f]{12})_[0-9a-f]{64}/.exec(created.stdout);
    expect(key).not.toBeNull();
    const revealed = await spa('keys', 'reveal', key![1]!);
    expect(revealed).toEqual({ code: 0, stdout: `${key![0]}\n`, stderr: '' });
  }, 60_000);

  it('refuses an unknown key with one plain line on stderr and exit code 1', async () => {
    expect(await spa('keys', 'revoke', 'ffffffffffff')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'No key ffffffffffff\n',
    });
  }, 60_000);
});
