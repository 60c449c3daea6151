import { type Command, InvalidArgumentError } from 'commander';
import { DEMO_KEY_ID } from '../demo/demo-key.js';
import {
  createKey,
  listKeys,
  parseScopes,
  regenerateDashboardKey,
  revealKey,
  revokeKey,
} from '../keys/keys.service.js';
import { MAX_RATE_LIMIT } from '../lib/limits.js';
import { findActiveDashboardKey, findOrganisationBySlug } from '../keys/keys.repository.js';
import { OperatorError } from '../errors/operator-error.js';
import { operatorTrail } from '../audit/audit-trail.js';
import { type CommandHost, print } from './command-host.js';
import { formatTable } from './format-table.js';

const rateLimit = (value: string) => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > MAX_RATE_LIMIT)
    throw new InvalidArgumentError(`must be a whole number from 1 to ${MAX_RATE_LIMIT}`);
  return n;
};

/** `--mode live|test`: a key's mode, live unless told. */
const keyMode = (value: string) => {
  if (value !== 'live' && value !== 'test') throw new InvalidArgumentError('must be live or test');
  return value;
};

/** `2026-11-22 08:00`: minutes are enough to tell keys apart in a list, and keep it narrow. */
const toMinute = (iso: string) => iso.slice(0, 16).replace('T', ' ');

export function registerKeys(program: Command, host: CommandHost): void {
  const keys = program
    .command('keys')
    .description('manage partner API keys (a full key is printed only by create, regenerate and reveal)');

  keys
    .command('create')
    .description('issue an operator key (optionally venue-restricted, with chosen scopes)')
    .requiredOption('--org <slug>', 'organisation slug')
    .option('--venue <slug>', 'restrict the key to this venue of the organisation')
    .option(
      '--scopes <list>',
      'comma-separated scopes (default: venues:read,treatments:read,customers:read,bookings:read)',
    )
    .option('--rate-limit <n>', 'requests per minute for this key', rateLimit)
    .option('--mode <mode>', 'live (real bookings) or test (sk_test_: test data only)', keyMode, 'live')
    .action(
      async (options: { org: string; venue?: string; scopes?: string; rateLimit?: number; mode: 'live' | 'test' }) => {
        const scopes = parseScopes(options.scopes);
        const { id, key } = await host.withContext(({ db, vault }) =>
          createKey(db, vault, {
            orgSlug: options.org,
            venueSlug: options.venue,
            scopes,
            rateLimitPerMin: options.rateLimit,
            livemode: options.mode === 'live',
          }),
        );
        const venue = options.venue ? `venue ${options.venue} of ` : '';
        const mode = options.mode === 'test' ? 'test ' : '';
        print(host, `Created ${mode}key ${id} for ${venue}${options.org} (${scopes.join(', ')}):\n\n  ${key}\n`);
      },
    );

  keys
    .command('list')
    .description("list an organisation's keys (never their secrets); times are UTC")
    .requiredOption('--org <slug>', 'organisation slug')
    .action(async (options: { org: string }) => {
      const listed = await host.withContext(({ db }) => listKeys(db, options.org));
      if (listed.length === 0) return print(host, `Organisation ${options.org} has no keys.`);
      print(
        host,
        formatTable(
          listed.map((k) => ({
            id: k.id,
            kind: k.kind,
            mode: k.livemode ? 'live' : 'test',
            venue: k.venue ?? 'all venues',
            'rate/min': k.rate_limit_per_min ?? '-',
            created: toMinute(k.created_at),
            revoked: k.revoked_at ? toMinute(k.revoked_at) : '-',
          })),
          (i) => [`scopes ${listed[i]!.scopes.join(',')}`],
        ),
      );
    });

  keys
    .command('reveal')
    .description('print the full value of an active key again (a revoked key is refused)')
    .argument('<key-id>', '12 hexadecimal characters, as keys list shows')
    .action(async (keyId: string) => {
      const { key, revoked } = await host.withContext(({ db, vault }) =>
        revealKey(db, vault, keyId, { audit: operatorTrail(host.clock) }),
      );
      // Scripts capture stdout (KEY=$(pnpm -s spa keys reveal ID)): a key that no longer works must not land there.
      if (revoked) throw new OperatorError(`Key ${keyId} is revoked and authenticates nothing; it is not printed`);
      print(host, key);
    });

  keys
    .command('regenerate')
    .description("revoke the organisation's dashboard key and issue a new one with the same scopes, in one transaction")
    .requiredOption('--org <slug>', 'organisation slug')
    .option('--force', 'regenerate even the demo key that the README and the guides use')
    .option('--mode <mode>', 'which of the two dashboard keys: live or test', keyMode, 'live')
    .action(async (options: { org: string; force?: boolean; mode: 'live' | 'test' }) => {
      const livemode = options.mode === 'live';
      const result = await host.withContext(async ({ db, vault }) => {
        const org = await findOrganisationBySlug(db, options.org);
        const current = org && (await findActiveDashboardKey(db, org.id, livemode));
        if (current?.id === DEMO_KEY_ID && !options.force)
          throw new OperatorError(
            `The dashboard key of ${options.org} is the demo key ${DEMO_KEY_ID} that the README and the guides use; ` +
              'regenerating revokes it at once, and its successor is never printed at start. Add --force to do it',
          );
        return regenerateDashboardKey(db, vault, options.org, { audit: operatorTrail(host.clock), livemode });
      });
      const revoked = result.revokedId ? `Revoked ${result.revokedId}. ` : '';
      print(host, `${revoked}New dashboard key ${result.id} (${result.scopes.join(', ')}):\n\n  ${result.key}\n`);
    });

  keys
    .command('revoke')
    .description('revoke a key at once')
    .argument('<key-id>', '12 hexadecimal characters, as keys list shows')
    .action(async (keyId: string) => {
      const { kind } = await host.withContext(({ db }) => revokeKey(db, keyId));
      const dashboard =
        kind === 'dashboard' ? ' The organisation has no active dashboard key now; keys regenerate issues one.' : '';
      print(host, `Revoked ${keyId}.${dashboard}`);
    });
}
