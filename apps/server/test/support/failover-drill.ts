import { randomBytes } from 'node:crypto';
import { KeyVault } from '../../src/auth/api-key.js';
import { connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { webhookEndpoints } from '../../src/webhooks/index.js';
import { type ChildServer, eventually, startChildServer } from '../faults/support/child-server.js';
import { isReady } from '../faults/support/http.js';
import { slotStart } from '../faults/support/slots.js';
import { type Receiver, startReceiver } from '../webhooks/receiver.js';
import { type BookableVenue, bookingBody, makeBookableVenue } from './booking-fixture.js';
import { type PatroniNode, type PatroniPair, startPatroniPair } from './patroni.js';
import { queryOne } from './postgres-cluster.js';

const DATABASE = 'spa_failover';

export interface Answer {
  status: number;
  retryAfter: string | null;
  id?: string;
  /** When it was sent and answered, ms since the leader was killed (negative: before). */
  sentAt: number;
  answeredAt: number;
}

export interface DrillResult {
  answers: Answer[];
  oldLeader: PatroniNode;
  newLeader: PatroniNode;
  /** Ids answered 201. */
  acknowledged: string[];
  /** How many of them the new leader holds. */
  onNewLeader: number;
  /** From the kill to the first 201 of a create sent after it. */
  writeOutageMs: number;
  /** From the kill to Patroni naming the other node leader. */
  promotionMs: number;
}

/**
 * The loss of the primary, end to end: a Patroni pair, the compiled server on its multi-host URL, a steady create
 * load (`workers` loops, one request each at a time), and kill -9 of the leader's PostgreSQL `killAfterMs` into the
 * load. The load goes on until creates have succeeded for `settleMs` after the outage (or `limitMs` in all).
 */
export class FailoverDrill {
  pair!: PatroniPair;
  server!: ChildServer;
  receiver!: Receiver;
  fixture!: BookableVenue;
  #slot = 0;

  async start(): Promise<void> {
    this.pair = await startPatroniPair();
    const leader = (await this.pair.leader())!;
    await queryOne(this.pair.nodeUrl(leader, 'postgres'), `create database ${DATABASE}`);
    const keyEncryptionKey = randomBytes(32);
    const vault = new KeyVault(keyEncryptionKey);
    // Through the multi-host URL, as the server will connect.
    const seeding = await connect({ databaseUrl: this.url, poolSize: 2 });
    try {
      await migrateToLatest(seeding.db);
      this.fixture = await makeBookableVenue(seeding.db, vault);
      this.receiver = await startReceiver();
      await webhookEndpoints.addEndpoint(seeding.db, vault, {
        orgSlug: this.fixture.organisation.slug,
        url: this.receiver.url,
        allowPrivateNetworks: true,
      });
    } finally {
      await seeding.close();
    }
    this.server = await startChildServer({
      DATABASE_URL: this.url,
      KEY_ENCRYPTION_KEY: keyEncryptionKey.toString('hex'),
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      DB_POOL_SIZE: '6',
    });
    await eventually(() => isReady(this.server.base), 60_000);
    await eventually(() => this.logged('availability cache on', 0), 30_000);
  }

  get url(): string {
    return this.pair.url(DATABASE);
  }

  /** Whether the server logged `text` at least `after` times. */
  logged(text: string, after: number): boolean {
    return this.server.logs.filter((l) => typeof l.msg === 'string' && l.msg.includes(text)).length > after;
  }

  async stop(): Promise<void> {
    this.server?.kill();
    await this.receiver?.close();
    await this.pair?.remove();
  }

  call(path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
    return fetch(`${this.server.base}${path}`, {
      method: init.method ?? 'GET',
      headers: { Authorization: `Bearer ${this.fixture.key}`, 'Content-Type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(20_000),
    });
  }

  /** One create on the next free slot. */
  create(): Promise<{ status: number; retryAfter: string | null; id?: string }> {
    return this.createAt(this.#slot++);
  }

  async book(n: number): Promise<number> {
    return (await this.createAt(n)).status;
  }

  async createAt(n: number): Promise<{ status: number; retryAfter: string | null; id?: string }> {
    const externalId = `failover-${n}`;
    const res = await this.call(`/v1/venues/${this.fixture.venue.id}/bookings`, {
      method: 'POST',
      body: bookingBody(this.fixture.variant.id, {
        start_at: slotStart(n),
        external_id: externalId,
        guest: {
          ...bookingBody(this.fixture.variant.id).guest,
          last_name: `Guest ${n}`,
          email: `${externalId}@example.com`,
        },
      }),
    });
    const body = (await res.json().catch(() => ({}))) as { data?: { id?: string } };
    return { status: res.status, retryAfter: res.headers.get('retry-after'), id: body.data?.id };
  }

  /** A slot `n` later than every created one, listed free on its day (the availability read path). */
  async listed(n: number): Promise<boolean> {
    const res = await this.call(
      `/v1/venues/${this.fixture.venue.id}/availability/variants/${this.fixture.variant.id}?date=${slotStart(n).slice(0, 10)}`,
    );
    if (res.status !== 200) throw new Error(`availability answered ${res.status}`);
    const body = (await res.json()) as { data: { slots: { start_at: string }[] } };
    return body.data.slots.some((s) => s.start_at === slotStart(n));
  }

  async run({ workers = 4, killAfterMs = 2_000, settleMs = 3_000, limitMs = 45_000 } = {}): Promise<DrillResult> {
    const oldLeader = (await this.pair.leader())!;
    const answers: Answer[] = [];
    const started = performance.now();
    let killedAt = Number.POSITIVE_INFINITY;
    let resumedAt = Number.POSITIVE_INFINITY;
    const loop = async () => {
      for (;;) {
        const now = performance.now();
        if (now - started > limitMs || now - resumedAt > settleMs) return;
        const sentAt = now;
        let answer: Awaited<ReturnType<FailoverDrill['create']>>;
        try {
          answer = await this.create();
        } catch (error) {
          // No answer at all (the request timed out): counted apart from every status.
          answer = { status: 0, retryAfter: null, id: String((error as Error).message) };
        }
        const answeredAt = performance.now();
        answers.push({ ...answer, sentAt: sentAt - killedAt, answeredAt: answeredAt - killedAt });
        if (answer.status === 201 && sentAt > killedAt) resumedAt = Math.min(resumedAt, answeredAt);
        // Back off while the database is away, as a client honouring Retry-After would, a little faster.
        if (answer.status === 503) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    let promotedAt = Number.NaN;
    const killer = async (): Promise<PatroniNode> => {
      await new Promise((resolve) => setTimeout(resolve, killAfterMs));
      this.pair.killPostgres(oldLeader);
      killedAt = performance.now();
      for (;;) {
        const leader = await this.pair.leader();
        if (leader && leader.name !== oldLeader.name) {
          promotedAt = performance.now();
          return leader;
        }
        if (performance.now() - started > limitMs) throw new Error(`no new leader:\n${this.pair.logs()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    // Answers sent before the kill carry -Infinity as their sending time.
    const [newLeader] = await Promise.all([killer(), ...Array.from({ length: workers }, loop)]);
    const acknowledged = answers.filter((a) => a.status === 201).map((a) => a.id!);
    const { count } = await queryOne<{ count: number }>(
      this.pair.nodeUrl(newLeader, DATABASE),
      `select count(*)::int as count from bookings where id = any('{${acknowledged.join(',')}}'::uuid[])`,
    );
    return {
      answers,
      oldLeader,
      newLeader,
      acknowledged,
      onNewLeader: count,
      writeOutageMs: resumedAt - killedAt,
      promotionMs: promotedAt - killedAt,
    };
  }
}
