import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextHost } from '../../src/cli/command-host.js';
import { runCli } from '../../src/cli/program.js';
import { epochMsOfInstant, isoFromEpochMs } from '../../src/lib/instant.js';
import { fixedClock } from '../support/fixed-clock.js';
import { setup, TEST_PUBLIC_URL } from '../support/test-app.js';
import { importVenueData, ImportValidationError } from '../../src/import/import-venue-data.js';
import { makeLargeVenueFile, makeVenueFile } from './venue-file.js';

/**
 * `spa import` of files far larger than one statement can carry: PostgreSQL's bind message holds at most 65,535
 * parameters, which one INSERT of every customer passed above about 9,360 customers. Still one transaction: a
 * failure after many statements leaves nothing behind.
 */
describe('spa import at scale', () => {
  const ctx = setup();
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'spa-import-scale-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function spa(...argv: string[]) {
    const run = { stdout: '', stderr: '' };
    const io = { stdout: (t: string) => (run.stdout += t), stderr: (t: string) => (run.stderr += t) };
    const host = contextHost(
      { db: ctx.db, vault: ctx.vault, publicUrl: TEST_PUBLIC_URL },
      { cwd: dir, io, clock: fixedClock('2026-11-22T08:00:00Z') },
    );
    return { code: await runCli(argv, host), ...run };
  }
  const write = (name: string, file: unknown) => {
    writeFileSync(join(dir, name), JSON.stringify(file));
    return name;
  };
  const countOf = async (table: 'customers' | 'bookings', organisation: string) => {
    const owned =
      table === 'customers'
        ? sql`organisation_id = ${organisation}`
        : sql`venue_id in (select id from venues where organisation_id = ${organisation})`;
    const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(table)} where ${owned}`.execute(
      ctx.db,
    );
    return Number(rows[0]!.n);
  };

  it('imports 25,000 customers and 25,000 bookings in one run, and the same file again changes nothing', async () => {
    const { file, ids } = makeLargeVenueFile({ customers: 25_000, bookings: 25_000, liveEvery: 250 });
    const name = write('large.json', file);
    const run = await spa('import', name);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/customers +25000 +0 +0\n/);
    expect(run.stdout).toMatch(/bookings +25000 +0 +0\n/);
    expect(await countOf('customers', ids.organisation)).toBe(25_000);
    expect(await countOf('bookings', ids.organisation)).toBe(25_000);
    const held = await sql<{ n: string }>`
      select count(*) as n from room_reservations r join rooms on rooms.id = r.room_id
      where rooms.venue_id = ${ids.venue}`.execute(ctx.db);
    expect(Number(held.rows[0]!.n)).toBe(100); // every 250th booking is live

    const again = await spa('import', name);
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(again.stdout).toMatch(/customers +0 +0 +25000\n/);
    expect(again.stdout).toMatch(/bookings +0 +0 +25000\n/);
  }, 300_000);

  it('writes nothing when the last booking of a large file clashes with its first', async () => {
    const { file, ids, booking } = makeLargeVenueFile({ customers: 20_000, bookings: 20_000, liveEvery: 10_000 });
    const first = file.bookings[0]!;
    file.bookings.push(booking({ customer_id: first.customer_id, start_at: first.start_at, external_id: 'the-clash' }));
    const run = await spa('import', write('late-clash.json', file));
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `The venue data file has 1 problem; nothing was written:\n  - bookings[20000].therapist_ids[0]: therapist ${ids.camille} already holds bookings[0] at that time\n`,
    });
    expect(await countOf('customers', ids.organisation)).toBe(0);
    expect(await countOf('bookings', ids.organisation)).toBe(0);
  }, 300_000);

  it('writes nothing when the database refuses a row of a late batch', async () => {
    const { file, ids } = makeLargeVenueFile({ customers: 20_000, bookings: 0 });
    file.customers.at(-1)!.last_name = 'Refused by the database';
    // A trigger of this test's database stands for any failure the file could not foresee (a full disk, a
    // constraint added by hand): it fails the statement that carries the file's last customer.
    await sql`create function refuse_customer() returns trigger language plpgsql as $$
      begin raise exception 'refused by a trigger'; end $$`.execute(ctx.db);
    await sql`create trigger refuse_customer before insert on customers for each row
      when (new.last_name = 'Refused by the database') execute function refuse_customer()`.execute(ctx.db);
    try {
      const run = await spa('import', write('late-failure.json', file));
      expect(run).toEqual({ code: 3, stdout: '', stderr: 'Error: refused by a trigger\n' });
    } finally {
      await sql`drop trigger refuse_customer on customers`.execute(ctx.db);
      await sql`drop function refuse_customer()`.execute(ctx.db);
    }
    expect(await countOf('customers', ids.organisation)).toBe(0);
    expect(await sql`select 1 from organisations where id = ${ids.organisation}`.execute(ctx.db)).toMatchObject({
      rows: [],
    });
  }, 300_000);
  describe('a file that is not venue data', () => {
    it('refuses a file nested 5,000,000 levels deep in one line, exit 1, without holding up the event loop', async () => {
      writeFileSync(join(dir, 'deep.json'), `{"customers":${'['.repeat(5_000_000)}${']'.repeat(5_000_000)}}`);
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      const run = await spa('import', 'deep.json');
      delay.disable();
      expect(run).toEqual({
        code: 1,
        stdout: '',
        stderr: `Cannot read ${join(dir, 'deep.json')} as JSON: it nests arrays and objects deeper than 64 levels (at byte 76); a venue data file needs 8\n`,
      });
      // Parsing the 10 MB whole took the event loop for seconds; reading stops at the 65th level.
      expect(delay.max / 1e6).toBeLessThan(1_000);
    });

    it('refuses a file the system cannot read (EIO) in one line, exit 1', async () => {
      expect(await spa('import', '/proc/self/mem')).toEqual({
        code: 1,
        stdout: '',
        stderr: 'Cannot read /proc/self/mem as JSON: EIO: i/o error, read\n',
      });
    });

    it('refuses text that is not JSON, or stops short, in one line', async () => {
      writeFileSync(join(dir, 'broken.json'), '{"customers": [}');
      writeFileSync(join(dir, 'short.json'), '{"customers": [');
      writeFileSync(join(dir, 'empty.json'), '');
      for (const name of ['broken.json', 'short.json', 'empty.json']) {
        const run = await spa('import', name);
        expect(run).toMatchObject({ code: 1, stdout: '' });
        expect(run.stderr).toMatch(new RegExp(`^Cannot read ${join(dir, name)} as JSON: .+\n$`));
      }
    });

    it('reports the problems of a malformed file, read entry by entry, as the whole-file check does', async () => {
      const { file, booking, ids } = makeVenueFile();
      file.bookings.push(booking({ customer_id: ids.bruno }), booking({ guest_count: 0 }));
      (file.customers[1] as { email: string }).email = 'nope';
      (file.therapists[0] as { skills: unknown }).skills = 'massage';
      file.venues[0]!.rooms[0]!.capacity = 0;
      const malformed = { ...file, $schema: 7, extra: true, api_keys: [{ ...file.api_keys[0], id: 'x' }] };
      const expected = await importVenueData(ctx.db, malformed, ctx.vault).then(
        () => [],
        (error: unknown) => (error as ImportValidationError).problems.map((p) => `  - ${p.message}\n`),
      );
      expect(expected.length).toBeGreaterThan(5);
      const run = await spa('import', write('malformed.json', malformed));
      expect(run).toEqual({
        code: 1,
        stdout: '',
        stderr: `The venue data file has ${expected.length} problems; nothing was written:\n${expected.join('')}`,
      });
      for (const [name, whole] of [
        ['array.json', []],
        ['number.json', 5],
        ['customers-object.json', { customers: { a: 1 } }],
      ] as const) {
        const problems = await importVenueData(ctx.db, whole, ctx.vault).then(
          () => [],
          (error: unknown) => (error as ImportValidationError).problems.map((p) => p.message),
        );
        expect((await spa('import', write(name, whole))).stderr).toContain(problems[0]);
      }
    });
  });
});

describe('epochMsOfInstant (the instants of an imported booking)', () => {
  it('reads every instant as Temporal does, and refuses what Temporal refuses', () => {
    for (const text of [
      '2026-12-01T10:00:00+01:00',
      '2026-12-01T10:00:00Z',
      '2026-12-01T10:00:00.250-05:30',
      '2024-02-29T23:59:59+14:00',
      '1999-12-31T23:00:00-12:00',
      '2026-12-01T10:00:00.123456Z',
      '2026-12-01T10:00+01:00',
    ]) {
      const temporal = Temporal.Instant.from(text);
      expect(epochMsOfInstant(text)).toBe(temporal.epochMilliseconds);
      expect(isoFromEpochMs(epochMsOfInstant(text))).toBe(
        Temporal.Instant.fromEpochMilliseconds(temporal.epochMilliseconds).toString(),
      );
    }
    for (const text of ['2025-02-29T10:00:00Z', '2025-04-31T10:00:00+02:00'])
      expect(() => epochMsOfInstant(text)).toThrow(RangeError);
  });
});
