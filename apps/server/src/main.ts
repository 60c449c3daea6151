import { createApp } from './app.js';
import { loadConfig } from './config/config.js';
import { connect } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { DEMO_KEY_ID, seedDemoDataIfEmpty } from './demo/seed-demo.js';
import { createLogger } from './logger.js';
import { systemClock } from './shared/clock.js';
import { KeyVault } from './auth/api-key.js';
import { createWebhookEngine, loadWebhookConfig } from './webhooks/index.js';

/** Process entry: configuration, database, migrations, demo data, then listen until SIGTERM. */
async function main() {
  const logger = createLogger();
  const config = loadConfig(process.env, logger);
  const webhookConfig = loadWebhookConfig(process.env);
  const database = await connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateToLatest(database.db);
  logger.info(
    { database: database.kind, data_dir: database.kind === 'pglite' ? config.dataDir : undefined },
    'database ready',
  );

  if (database.kind === 'pglite' && config.demoData) {
    const demo = await seedDemoDataIfEmpty(database.db, config.keyEncryptionKey);
    if (demo && 'revoked' in demo) {
      process.stdout.write(
        `\n  Demo data present. The demo key ${DEMO_KEY_ID} of ${demo.organisation} was revoked (regenerated);\n` +
          `  its successor is a real secret: \`pnpm spa keys list --org ${demo.organisation}\`, then \`pnpm spa keys reveal ID\`.\n\n`,
      );
    } else if (demo) {
      process.stdout.write(
        `\n  Demo data ${demo.loaded ? 'loaded' : 'present'}. Demo API key (organisation ${demo.organisation}):\n\n` +
          `    ${demo.apiKey}\n\n` +
          `  Try:  curl -H "Authorization: Bearer ${demo.apiKey}" ${config.publicUrl}/v1/venues\n` +
          `  Reference: ${config.publicUrl}/docs\n\n`,
      );
    }
  }

  const app = createApp({ db: database.db, clock: systemClock, config, logger });
  const server = app.listen(config.port, () => logger.info({ url: config.publicUrl }, 'partner booking API listening'));
  // Webhook delivery and the pending timeout run in this process; stopped before the database closes.
  const webhooks = createWebhookEngine({
    db: database.db,
    clock: systemClock,
    vault: new KeyVault(config.keyEncryptionKey),
    config: webhookConfig,
    logger,
  });
  webhooks.start();

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    const closed = new Promise((resolve) => server.close(resolve));
    void Promise.all([closed, webhooks.stop()])
      .then(() => database.close())
      .then(() => process.exit(0));
    // In-flight requests get ten seconds; then the process leaves anyway.
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
