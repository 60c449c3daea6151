import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
import { makeLargeVenueFile } from './venue-file.js';

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
