import type { KeyVault } from '../auth/api-key.js';
import type { Db } from '../db/connect.js';
import { demoAdminSignIn } from '../demo/demo-admin.js';
import { DEMO_KEY_ID } from '../demo/demo-key.js';
import { seedDemoDataIfEmpty } from '../demo/seed-demo.js';

/** Loads the demo data into an empty embedded database and prints the key and the dashboard sign-in to try it with. */
export async function printDemoKey(db: Db, vault: KeyVault, publicUrl: string): Promise<void> {
  const demo = await seedDemoDataIfEmpty(db, vault);
  const admin = demo && (await demoAdminSignIn(db));
  const dashboard = admin
    ? `  Dashboard: ${publicUrl}/dashboard  (sign in as ${admin.email}, password ${admin.password})\n\n`
    : '';
  if (demo && 'revoked' in demo) {
    process.stdout.write(
      `\n  Demo data present. The demo key ${DEMO_KEY_ID} of ${demo.organisation} was revoked (regenerated);\n` +
        `  its successor is a real secret: \`pnpm spa keys list --org ${demo.organisation}\`, then \`pnpm spa keys reveal ID\`.\n\n` +
        dashboard,
    );
  } else if (demo) {
    process.stdout.write(
      `\n  Demo data ${demo.loaded ? 'loaded' : 'present'}. Demo API key (organisation ${demo.organisation}):\n\n` +
        `    ${demo.apiKey}\n\n` +
        (demo.testKey
          ? `  Demo test key (test mode: test bookings only, nothing reaches the venue):\n\n    ${demo.testKey}\n\n`
          : '') +
        `  Try:  curl -H "Authorization: Bearer ${demo.apiKey}" ${publicUrl}/v1/venues\n` +
        `  Reference: ${publicUrl}/docs\n\n` +
        dashboard,
    );
  }
}
