import type { Logger } from 'pino';
import type { KeyVault } from './auth/api-key.js';
import type { Config } from './config/config.js';
import type { Db } from './db/connect.js';
import type { Clock } from './lib/clock.js';

/** What createApp needs; tests pass their own database, clock and config. */
export interface AppDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'rateLimitEnforced' | 'keyEncryptionKey' | 'publicUrl'>;
  logger?: Logger;
}

export interface RouteDeps {
  db: Db;
  clock: Clock;
  vault: KeyVault;
}
