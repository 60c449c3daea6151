import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { DEFAULT_ACQUIRE_TIMEOUT_MS, DEFAULT_STATEMENT_TIMEOUT_MS, defaultQueryTimeoutMs } from '../db/connect.js';

export interface Config {
  port: number;
  databaseUrl: string | undefined;
  /** Where the one LISTEN connection goes (the key cache's change notices): the primary itself, past any pooler. */
  databaseListenUrl: string | undefined;
  dataDir: string;
  /** 32 bytes; derives the HMAC and AES keys of API keys. */
  keyEncryptionKey: Buffer;
  rateLimitEnforced: boolean;
  /** Every answer parsed against the contract and checked unchanged by it (the test suite always does). */
  responseValidation: boolean;
  demoData: boolean;
  /** Public base URL written into docs and printed at start. */
  publicUrl: string;
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
  /** Days a delivered webhook event, its deliveries and attempts are kept (retention/retention-rules.ts). */
  webhookRetentionDays: number;
}

type Env = Record<string, string | undefined>;

/** The working directory the user ran pnpm from (pnpm --filter runs scripts inside the package). */
function userDir(env: Env): string {
  return env.INIT_CWD ?? process.cwd();
}

/** DATA_DIR (default `.data`) of the user's directory, as an absolute path. */
export function dataDirOf(env: Env): string {
  return resolve(userDir(env), env.DATA_DIR ?? '.data');
}

export function loadConfig(env: Env = process.env, logger?: Pick<Logger, 'warn'>): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const dataDir = dataDirOf(env);
  const statementTimeoutMs = integer(env, 'STATEMENT_TIMEOUT_MS', DEFAULT_STATEMENT_TIMEOUT_MS, 0);
  return {
    port,
    databaseUrl: env.DATABASE_URL || undefined,
    databaseListenUrl: env.DATABASE_LISTEN_URL || env.DATABASE_URL || undefined,
    dataDir,
    keyEncryptionKey: loadKeyEncryptionKey(env, dataDir, logger),
    rateLimitEnforced: env.RATE_LIMIT_ENFORCED === 'true',
    responseValidation: env.RESPONSE_VALIDATION === 'true',
    demoData: env.DEMO_DATA !== 'off',
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${port}`,
    dbPoolSize: integer(env, 'DB_POOL_SIZE', 10, 1),
    statementTimeoutMs,
    dbAcquireTimeoutMs: integer(env, 'DB_ACQUIRE_TIMEOUT_MS', DEFAULT_ACQUIRE_TIMEOUT_MS, 1),
    dbQueryTimeoutMs: integer(env, 'DB_QUERY_TIMEOUT_MS', defaultQueryTimeoutMs(statementTimeoutMs), 1),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0),
    metricsToken: env.METRICS_TOKEN || undefined,
    webConcurrency: integer(env, 'WEB_CONCURRENCY', 1, 1),
    maxConnections: integer(env, 'MAX_CONNECTIONS', defaultMaxConnections(), 1),
    availabilityThreads: integer(
      env,
      'AVAILABILITY_THREADS',
      defaultAvailabilityThreads(integer(env, 'WEB_CONCURRENCY', 1, 1)),
      0,
    ),
    webhookRetentionDays: integer(env, 'WEBHOOK_RETENTION_DAYS', 30, 1),
  };
}

function integer(env: Env, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got ${raw}`);
  return value;
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
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  logger?.warn({ file }, 'KEY_ENCRYPTION_KEY is not set; using the generated key file. Set it in production.');
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
}
