import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { z } from 'zod';
import { DEFAULT_ACQUIRE_TIMEOUT_MS, DEFAULT_STATEMENT_TIMEOUT_MS, defaultQueryTimeoutMs } from '../db/connect.js';

/** How webhooks are delivered (docs/decisions.md, "Webhooks"). */
export interface WebhookConfig {
  /** Seconds to wait before each retry; after the last one a delivery is `failed`. */
  retrySchedule: number[];
  /** Local development and tests: http URLs and loopback, private or link-local addresses are allowed. */
  allowPrivateNetworks: boolean;
}

export const DEFAULT_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];

type Env = Record<string, string | undefined>;

/** An unset or empty variable: its default. */
const unset = (raw: string | undefined) => raw === undefined || raw === '';

/** A whole number of at least `min`, or `fallback` when unset (undefined: a default computed from others). */
const integer = <Fallback extends number | undefined>(name: string, fallback: Fallback, min: number) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (unset(raw)) return fallback;
      const value = Number(raw);
      if (Number.isSafeInteger(value) && value >= min) return value;
      ctx.addIssue({ code: 'custom', message: `${name} must be an integer >= ${min}, got ${raw}` });
      return z.NEVER;
    });

/** `true` turns it on; anything else leaves it off. */
const flag = z
  .string()
  .optional()
  .transform((raw) => raw === 'true');

const text = z
  .string()
  .optional()
  .transform((raw) => (unset(raw) ? undefined : raw));

/**
 * A PostgreSQL connection URL: `postgres://` or `postgresql://` and no blank. Not parsed further here: a multi-host
 * URL (`postgres://h1,h2/db`) is no WHATWG URL, and the driver says what else is wrong. The value is never
 * repeated in the message: it may carry a password.
 */
const postgresUrl = (name: string) =>
  text.superRefine((raw, ctx) => {
    if (raw !== undefined && !/^postgres(ql)?:\/\/\S*$/.test(raw)) {
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be a PostgreSQL URL such as postgres://user@host:5432/database (it must start with postgres:// or postgresql:// and hold no blank)`,
      });
    }
  });

/** `true` (the default) or `false`; anything else is refused, so a typo cannot silently pick either. */
const onOff = (name: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (unset(raw) || raw === 'true') return true;
      if (raw === 'false') return false;
      ctx.addIssue({ code: 'custom', message: `${name} must be true or false, got ${raw}` });
      return z.NEVER;
    });

/** One or more PostgreSQL URLs separated by commas (read replicas); unset or empty: none. */
const urlList = (name: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return [];
      const urls = raw.split(',').map((u) => u.trim());
      const bad = urls.find((u) => !/^postgres(ql)?:\/\/[^\s]+$/.test(u) || !URL.canParse(u));
      if (bad === undefined) return urls;
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be postgres:// URLs separated by commas; entry ${urls.indexOf(bad) + 1} is not one`,
      });
      return z.NEVER;
    });

/** `5,300,1800`: whole seconds, comma-separated; empty or unset gives the default. */
const retrySchedule = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    if (raw === undefined || raw.trim() === '') return DEFAULT_RETRY_SCHEDULE;
    const parts = raw.split(',').map((p) => p.trim());
    if (parts.every((p) => /^\d{1,7}$/.test(p))) return parts.map(Number);
    ctx.addIssue({
      code: 'custom',
      message: `WEBHOOK_RETRY_SCHEDULE must be whole seconds separated by commas, such as 5,300,1800; got ${raw}`,
    });
    return z.NEVER;
  });

/**
 * Every environment variable the server and the CLI read (but LOG_LEVEL, read by the logger before anything
 * else), each with its rule and default: the one place configuration is read. README lists them.
 */
const Environment = z.object({
  PORT: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const port = Number(raw ?? 3000);
      if (Number.isInteger(port) && port >= 0 && port <= 65535) return port;
      ctx.addIssue({ code: 'custom', message: `PORT must be a port number, got ${raw}` });
      return z.NEVER;
    }),
  DATABASE_URL: postgresUrl('DATABASE_URL'),
  DATABASE_LISTEN_URL: postgresUrl('DATABASE_LISTEN_URL'),
  DATABASE_REPLICA_URL: urlList('DATABASE_REPLICA_URL'),
  DATABASE_REPLICA_MAX_LAG_MS: integer('DATABASE_REPLICA_MAX_LAG_MS', 5_000, 1),
  DATABASE_REPLICA_CHECK_MS: integer('DATABASE_REPLICA_CHECK_MS', 1_000, 10),
  DATABASE_PREPARED_STATEMENTS: onOff('DATABASE_PREPARED_STATEMENTS'),
  RATE_LIMIT_ENFORCED: flag,
  RESPONSE_VALIDATION: flag,
  DEMO_DATA: z
    .string()
    .optional()
    .transform((raw) => raw !== 'off'),
  PUBLIC_URL: z.string().optional(),
  DB_POOL_SIZE: integer('DB_POOL_SIZE', 10, 1),
  STATEMENT_TIMEOUT_MS: integer('STATEMENT_TIMEOUT_MS', DEFAULT_STATEMENT_TIMEOUT_MS, 0),
  DB_ACQUIRE_TIMEOUT_MS: integer('DB_ACQUIRE_TIMEOUT_MS', DEFAULT_ACQUIRE_TIMEOUT_MS, 1),
  DB_QUERY_TIMEOUT_MS: integer('DB_QUERY_TIMEOUT_MS', undefined, 1),
  SHUTDOWN_TIMEOUT_MS: integer('SHUTDOWN_TIMEOUT_MS', 10_000, 0),
  METRICS_TOKEN: text,
  WEB_CONCURRENCY: integer('WEB_CONCURRENCY', 1, 1),
  MAX_CONNECTIONS: integer('MAX_CONNECTIONS', undefined, 1),
  AVAILABILITY_THREADS: integer('AVAILABILITY_THREADS', undefined, 0),
  AVAILABILITY_CACHE_MB: integer('AVAILABILITY_CACHE_MB', 64, 0),
  WEBHOOK_RETRY_SCHEDULE: retrySchedule,
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: flag,
  WEBHOOK_RETENTION_DAYS: integer('WEBHOOK_RETENTION_DAYS', 30, 1),
});

/** The configuration but the key-encryption key: read from the environment alone, with no file written. */
export interface Settings {
  port: number;
  databaseUrl: string | undefined;
  /** Where the one LISTEN connection goes (the key cache's change notices): the primary itself, past any pooler. */
  databaseListenUrl: string | undefined;
  /** Read replicas for availability and catalogue reads (db/read-replicas.ts); empty: every read on the primary. */
  databaseReplicaUrls: string[];
  /** A replica further behind the primary than this is skipped until it catches up. */
  replicaMaxLagMs: number;
  /** How often each replica's health and lag are checked (off the request path). */
  replicaCheckMs: number;
  /** Named prepared statements (db/preparing-client.ts); false behind a transaction pooler that cannot carry them. */
  preparedStatements: boolean;
  dataDir: string;
  rateLimitEnforced: boolean;
  /** Every answer parsed against the contract and checked unchanged by it (the test suite always does). */
  responseValidation: boolean;
  demoData: boolean;
  /** Public base URL written into docs and printed at start. */
  publicUrl: string;
  /** Whether PUBLIC_URL was set: then it alone is the dashboard's origin, else each request's own scheme and Host. */
  publicUrlSet: boolean;
  /** PostgreSQL connections per process. */
  dbPoolSize: number;
  /** A statement running longer is cancelled by PostgreSQL and the request gets 503. */
  statementTimeoutMs: number;
  /** Longest wait for a pooled (or new) database connection before a 503. */
  dbAcquireTimeoutMs: number;
  /** The client's bound on one database round trip: a database that stops answering gives 503, not a hang. */
  dbQueryTimeoutMs: number;
  /** SIGTERM: in-flight requests get this long before the process leaves anyway. */
  shutdownTimeoutMs: number;
  /** When set, GET /metrics requires `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** Worker processes (node:cluster) sharing the port; PostgreSQL only. */
  webConcurrency: number;
  /** Open HTTP connections at most per process; beyond, new ones are closed at once (file descriptors). */
  maxConnections: number;
  /** Worker threads per process for heavy availability answers; 0 computes them on the event loop. */
  availabilityThreads: number;
  /** Bytes of availability answers a process keeps (availability/availability-cache.ts); 0 turns the cache off. */
  availabilityCacheBytes: number;
  webhooks: WebhookConfig;
  /** Days a delivered webhook event, its deliveries and attempts are kept (retention/retention-rules.ts). */
  webhookRetentionDays: number;
}

export interface Config extends Settings {
  /** 32 bytes; derives the HMAC and AES keys of API keys. */
  keyEncryptionKey: Buffer;
}

/** The working directory the user ran pnpm from (pnpm --filter runs scripts inside the package). */
function userDir(env: Env): string {
  return env.INIT_CWD ?? process.cwd();
}

/** DATA_DIR (default `.data`) of the user's directory, as an absolute path. */
export function dataDirOf(env: Env): string {
  return resolve(userDir(env), env.DATA_DIR ?? '.data');
}

/** Every variable checked at once; a bad one throws with every problem found, named by its variable. */
export function readSettings(env: Env = process.env): Settings {
  const parsed = Environment.safeParse(env);
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => issue.message).join('; '));
  const e = parsed.data;
  if (e.DATABASE_REPLICA_URL.length > 0 && !e.DATABASE_URL)
    throw new Error('DATABASE_REPLICA_URL needs DATABASE_URL: replicas follow a PostgreSQL primary');
  return {
    port: e.PORT,
    databaseUrl: e.DATABASE_URL,
    databaseListenUrl: e.DATABASE_LISTEN_URL ?? e.DATABASE_URL,
    databaseReplicaUrls: e.DATABASE_REPLICA_URL,
    replicaMaxLagMs: e.DATABASE_REPLICA_MAX_LAG_MS,
    replicaCheckMs: e.DATABASE_REPLICA_CHECK_MS,
    preparedStatements: e.DATABASE_PREPARED_STATEMENTS,
    dataDir: dataDirOf(env),
    rateLimitEnforced: e.RATE_LIMIT_ENFORCED,
    responseValidation: e.RESPONSE_VALIDATION,
    demoData: e.DEMO_DATA,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    publicUrlSet: e.PUBLIC_URL !== undefined,
    dbPoolSize: e.DB_POOL_SIZE,
    statementTimeoutMs: e.STATEMENT_TIMEOUT_MS,
    dbAcquireTimeoutMs: e.DB_ACQUIRE_TIMEOUT_MS,
    dbQueryTimeoutMs: e.DB_QUERY_TIMEOUT_MS ?? defaultQueryTimeoutMs(e.STATEMENT_TIMEOUT_MS),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    metricsToken: e.METRICS_TOKEN,
    webConcurrency: e.WEB_CONCURRENCY,
    maxConnections: e.MAX_CONNECTIONS ?? defaultMaxConnections(),
    availabilityThreads: e.AVAILABILITY_THREADS ?? defaultAvailabilityThreads(e.WEB_CONCURRENCY),
    availabilityCacheBytes: e.AVAILABILITY_CACHE_MB * 1024 * 1024,
    webhooks: { retrySchedule: e.WEBHOOK_RETRY_SCHEDULE, allowPrivateNetworks: e.WEBHOOK_ALLOW_PRIVATE_NETWORKS },
    webhookRetentionDays: e.WEBHOOK_RETENTION_DAYS,
  };
}

/** The settings and the key-encryption key (which may write its file into DATA_DIR): what a process runs with. */
export function loadConfig(env: Env = process.env, logger?: Pick<Logger, 'warn'>): Config {
  const settings = readSettings(env);
  return { ...settings, keyEncryptionKey: loadKeyEncryptionKey(env, settings.dataDir, logger) };
}

/**
 * Connections the process may hold without running out of file descriptors: the soft limit of open files
 * (Linux /proc; 1024 elsewhere) less room for the database pool, logs and modules, at most 10,000.
 */
function defaultMaxConnections(): number {
  let limit = 1024;
  try {
    const line = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (line) limit = Number(line[1]);
  } catch {
    // Not Linux: keep the conservative default.
  }
  return Math.max(64, Math.min(10_000, limit - 256));
}

/**
 * The cores this process may count on, less one for its event loop (PostgreSQL and the other processes share the
 * rest), and at least one thread: the threads run below normal priority, so they take only what is idle.
 */
export function defaultAvailabilityThreads(webConcurrency: number): number {
  return Math.max(1, Math.floor(availableParallelism() / webConcurrency) - 1);
}

/**
 * KEY_ENCRYPTION_KEY (64 hex characters) in production. Without it a random key is made once and kept in
 * DATA_DIR/key-encryption.key (mode 0600), so a zero-setup install can still reveal keys after a restart.
 */
export function loadKeyEncryptionKey(env: Env, dataDir: string, logger?: Pick<Logger, 'warn'>): Buffer {
  const given = env.KEY_ENCRYPTION_KEY;
  if (given) {
    if (!/^[0-9a-fA-F]{64}$/.test(given))
      throw new Error('KEY_ENCRYPTION_KEY must be 64 hexadecimal characters (32 bytes)');
    return Buffer.from(given, 'hex');
  }
  const file = join(dataDir, 'key-encryption.key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 }); // private from the start, as db/private-data-dir.ts wants it
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  logger?.warn({ file }, 'KEY_ENCRYPTION_KEY is not set; using the generated key file. Set it in production.');
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
}
