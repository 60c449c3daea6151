import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';

export interface Config {
  port: number;
  databaseUrl: string | undefined;
  dataDir: string;
  /** 32 bytes; derives the HMAC and AES keys of API keys. */
  keyEncryptionKey: Buffer;
  rateLimitEnforced: boolean;
  demoData: boolean;
  /** Public base URL written into docs and printed at start. */
  publicUrl: string;
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
  return {
    port,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir,
    keyEncryptionKey: loadKeyEncryptionKey(env, dataDir, logger),
    rateLimitEnforced: env.RATE_LIMIT_ENFORCED === 'true',
    demoData: env.DEMO_DATA !== 'off',
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${port}`,
  };
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
