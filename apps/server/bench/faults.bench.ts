import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { KeyVault } from '../src/auth/api-key.js';
import { connect } from '../src/db/connect.js';
import { makeBookableVenue } from '../test/support/booking-fixture.js';
import { adminQuery, withDatabase } from '../test/support/postgres-admin.js';
import { startChildServer } from '../test/faults/support/child-server.js';
import { slotStart } from '../test/faults/support/slots.js';
import { TcpProxy } from '../test/faults/support/tcp-proxy.js';
import { benchPostgresUrl, openBenchDatabase } from './databases.js';

const CLIENTS = 8;

interface Sent {
  started: number;
  status: number | 'error';
  create?: { slot: number; externalId: string; id?: string };
}

/**
 * `pnpm bench faults`: a real server process (through a TCP proxy) under mixed load from 8 clients, while its
 * PostgreSQL connections are terminated, the database refuses connections for 3 s, and the proxy is cut for 3 s.
 * Prints what the load lost to errors, how long each recovery took, and the bookings lost (must be 0): every
 * 201 must be in the database, and every create answered 503 is retried with its external_id afterwards.
 */
export async function benchFaults(): Promise<string[]> {
  const handle = await openBenchDatabase('postgres', 4);
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(handle.db);
  const name = rows[0]!.name;
  const keyEncryptionKey = randomBytes(32);
  const fixture = await makeBookableVenue(handle.db, new KeyVault(keyEncryptionKey), { rooms: 1 });
  const proxy = await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL(benchPostgresUrl).port || 5432) });
  const server = await startChildServer({
    DATABASE_URL: proxy.urlFor(withDatabase(benchPostgresUrl, name)),
    KEY_ENCRYPTION_KEY: keyEncryptionKey.toString('hex'),
  });
  const auth = { Authorization: `Bearer ${fixture.key}` };
  while ((await fetch(`${server.base}/readyz`)).status !== 200) await sleep(100);

  const sent: Sent[] = [];
  let stopped = false;
  let slot = 0;
  const client = async () => {
    for (let i = 0; !stopped; i++) {
      const started = performance.now();
      const entry: Sent = { started, status: 'error' };
      try {
        if (i % 3 === 0) {
          const n = slot++;
          entry.create = { slot: n, externalId: `fault-${randomUUID()}` };
          const res = await fetch(`${server.base}/v1/venues/${fixture.venue.id}/bookings`, {
            method: 'POST',
            headers: { ...auth, 'Content-Type': 'application/json' },
            body: JSON.stringify(createBody(fixture.variant.id, n, entry.create.externalId)),
          });
          entry.status = res.status;
          if (res.status === 201) entry.create.id = ((await res.json()) as { data: { id: string } }).data.id;
          else await res.arrayBuffer();
        } else {
          const res = await fetch(`${server.base}/v1/venues${i % 3 === 1 ? '' : `/${fixture.venue.id}/treatments`}`, {
            headers: auth,
          });
          entry.status = res.status;
          await res.arrayBuffer();
        }
      } catch {
        entry.status = 'error';
      }
      sent.push(entry);
    }
  };
  const load = Promise.all(Array.from({ length: CLIENTS }, client));
  const recoverySince = (since: number) => {
    const first = sent.find((s) => s.started >= since && (s.status === 200 || s.status === 201));
    return first ? first.started - since : NaN;
  };

  const recoveries: string[] = [];
  const terminate = () =>
    adminQuery(
      benchPostgresUrl,
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`,
    );
  await sleep(2000);
  let at = performance.now();
  await terminate();
  await sleep(2000);
  recoveries.push(`terminate connections: first success ${recoverySince(at).toFixed(0)} ms after`);

  await adminQuery(benchPostgresUrl, `alter database ${name} allow_connections false`);
  await terminate();
  await sleep(3000);
  await adminQuery(benchPostgresUrl, `alter database ${name} allow_connections true`);
  at = performance.now();
  await sleep(2000);
  recoveries.push(`refuse connections 3 s: first success ${recoverySince(at).toFixed(0)} ms after re-allowing`);

  proxy.refuse();
  await sleep(3000);
  proxy.accept();
  at = performance.now();
  await sleep(2000);
  recoveries.push(`cut the network 3 s: first success ${recoverySince(at).toFixed(0)} ms after reconnecting`);
  stopped = true;
  await load;
  const alive = server.child.exitCode === null;

  // A create answered 503 may have committed (its connection died at COMMIT): its retry replays it.
  let replayed = 0;
  for (const s of sent.filter((x) => x.create && x.status !== 201)) {
    const res = await fetch(`${server.base}/v1/venues/${fixture.venue.id}/bookings`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(createBody(fixture.variant.id, s.create!.slot, s.create!.externalId)),
    });
    if (res.status === 200) replayed++;
    await res.arrayBuffer();
  }
  const acknowledged = sent.filter((s) => s.create?.id).map((s) => s.create!.id!);
  const check = await connect({ databaseUrl: withDatabase(benchPostgresUrl, name), poolSize: 1 });
  const stored = acknowledged.length
    ? await check.db.selectFrom('bookings').select('id').where('id', 'in', acknowledged).execute()
    : [];
  await check.close();
  server.child.kill('SIGTERM');
  await server.exited;
  await proxy.close();
  await handle.close();

  const count = (f: (s: Sent) => boolean) => sent.filter(f).length;
  const lost = acknowledged.length - stored.length;
  return [
    `## Faults under mixed load (PostgreSQL, ${CLIENTS} clients, a real server process behind a TCP proxy)`,
    `requests: ${sent.length}; 2xx ${count((s) => s.status === 200 || s.status === 201)}, 503 ${count((s) => s.status === 503)}, ` +
      `other 4xx ${count((s) => typeof s.status === 'number' && s.status >= 400 && s.status < 500)}`,
    `requests lost to errors: ${count((s) => s.status === 'error' || (typeof s.status === 'number' && s.status >= 500 && s.status !== 503))} ` +
      `(500s and broken connections; 503s carry Retry-After and are the expected answer during an outage)`,
    ...recoveries,
    `process alive through every fault: ${alive ? 'yes' : 'NO'}`,
    `creates answered 503 whose retry replayed a committed booking: ${replayed}`,
    `${lost === 0 ? 'MEETS' : 'MISSES'}  bookings lost: ${lost} of ${acknowledged.length} acknowledged (target 0)`,
  ];
}

function createBody(variantId: string, n: number, externalId: string) {
  return {
    variant_id: variantId,
    start_at: slotStart(n),
    guest: { first_name: 'Fault', last_name: `Client ${n}`, email: `fault${n}@bench.example` },
    external_id: externalId,
    price_paid: { amount: 90, currency: 'EUR' },
  };
}
