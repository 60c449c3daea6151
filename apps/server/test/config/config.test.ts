import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE, loadConfig, readSettings } from '../../src/config/config.js';

/** A key given, so no key file is written into DATA_DIR. */
const KEY = { KEY_ENCRYPTION_KEY: 'ab'.repeat(32) };

describe('configuration, read in one place', () => {
  it('gives every variable its default', () => {
    const config = loadConfig(KEY);
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      rateLimitEnforced: false,
      demoData: true,
      publicUrl: 'http://localhost:3000',
      dbPoolSize: 10,
      webConcurrency: 1,
      webhooks: { retrySchedule: DEFAULT_RETRY_SCHEDULE, allowPrivateNetworks: false },
      webhookRetentionDays: 30,
    });
    expect(config.keyEncryptionKey).toEqual(Buffer.from(KEY.KEY_ENCRYPTION_KEY, 'hex'));
  });

  it('refuses a DATABASE_URL that is not a PostgreSQL URL at once, naming the variable but not its value', () => {
    for (const name of ['DATABASE_URL', 'DATABASE_LISTEN_URL']) {
      for (const value of ['not-a-url', 'mysql://u:secret@h/db', 'postgres:/h/db', 'postgres://h /db']) {
        const env = { DATABASE_URL: 'postgres://db/x', [name]: value };
        expect(() => readSettings(env), `${name}=${value}`).toThrow(
          `${name} must be a PostgreSQL URL such as postgres://user@host:5432/database`,
        );
        try {
          readSettings(env);
        } catch (error) {
          expect((error as Error).message).not.toContain('secret');
        }
      }
    }
    // A multi-host URL (a primary and its standbys) and a socket directory are PostgreSQL URLs too.
    for (const url of [
      'postgres://h1:5432,h2:5432/db?target_session_attrs=read-write',
      'postgresql:///db?host=/var/run/postgresql',
    ]) {
      expect(readSettings({ DATABASE_URL: url }).databaseUrl).toBe(url);
    }
  });

  it('reads the webhook variables with the others', () => {
    const settings = readSettings({
      WEBHOOK_RETRY_SCHEDULE: '1, 2,30',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETENTION_DAYS: '7',
      DATABASE_URL: 'postgres://db/x',
    });
    expect(settings.webhooks).toEqual({ retrySchedule: [1, 2, 30], allowPrivateNetworks: true });
    expect(settings.webhookRetentionDays).toBe(7);
    expect(settings.databaseListenUrl).toBe('postgres://db/x');
  });

  it('refuses a retention that is not a whole number of days of at least 1', () => {
    for (const value of ['0', '-3', '1.5', 'thirty'])
      expect(() => readSettings({ WEBHOOK_RETENTION_DAYS: value })).toThrow(
        `WEBHOOK_RETENTION_DAYS must be an integer >= 1, got ${value}`,
      );
  });

  it('names every bad variable at once', () => {
    expect(() => readSettings({ PORT: '70000', DB_POOL_SIZE: '0', WEBHOOK_RETRY_SCHEDULE: '5,soon' })).toThrow(
      'PORT must be a port number, got 70000; DB_POOL_SIZE must be an integer >= 1, got 0; ' +
        'WEBHOOK_RETRY_SCHEDULE must be whole seconds separated by commas, such as 5,300,1800; got 5,soon',
    );
  });

  it('refuses a key-encryption key that is not 64 hexadecimal characters', () => {
    expect(() => loadConfig({ KEY_ENCRYPTION_KEY: 'short' })).toThrow(
      'KEY_ENCRYPTION_KEY must be 64 hexadecimal characters (32 bytes)',
    );
  });

  it('reads the read replicas, their lag bound and check interval, and the prepared-statement switch', () => {
    expect(readSettings({ DATABASE_URL: 'postgres://db/x' })).toMatchObject({
      databaseReplicaUrls: [],
      replicaMaxLagMs: 5000,
      replicaCheckMs: 1000,
      preparedStatements: true,
    });
    const settings = readSettings({
      DATABASE_URL: 'postgres://db/x',
      DATABASE_REPLICA_URL: 'postgres://r1:5433/x, postgresql://u:p@r2/x',
      DATABASE_REPLICA_MAX_LAG_MS: '2000',
      DATABASE_REPLICA_CHECK_MS: '250',
      DATABASE_PREPARED_STATEMENTS: 'false',
    });
    expect(settings).toMatchObject({
      databaseReplicaUrls: ['postgres://r1:5433/x', 'postgresql://u:p@r2/x'],
      replicaMaxLagMs: 2000,
      replicaCheckMs: 250,
      preparedStatements: false,
    });
  });

  it('refuses replicas that are not PostgreSQL URLs, replicas without a primary, and a switch that is not true or false', () => {
    expect(() =>
      readSettings({ DATABASE_URL: 'postgres://db/x', DATABASE_REPLICA_URL: 'postgres://r1/x,,mysql://r2' }),
    ).toThrow('DATABASE_REPLICA_URL must be postgres:// URLs separated by commas; entry 2 is not one');
    expect(() => readSettings({ DATABASE_REPLICA_URL: 'postgres://r1/x' })).toThrow(
      'DATABASE_REPLICA_URL needs DATABASE_URL: replicas follow a PostgreSQL primary',
    );
    expect(() => readSettings({ DATABASE_PREPARED_STATEMENTS: 'no' })).toThrow(
      'DATABASE_PREPARED_STATEMENTS must be true or false, got no',
    );
  });
});
