import { Command, InvalidArgumentError } from 'commander';
import {
  createKey,
  listKeys,
  parseScopes,
  regenerateDashboardKey,
  revealKey,
  revokeKey,
} from '../keys/keys.service.js';
import { MAX_RATE_LIMIT } from '../shared/limits.js';
import { formatTable } from './format-table.js';
import { withOperatorContext } from './operator-context.js';

const rateLimit = (value: string) => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > MAX_RATE_LIMIT)
    throw new InvalidArgumentError(`must be a whole number from 1 to ${MAX_RATE_LIMIT}`);
  return n;
};

const toSeconds = (iso: string) => iso.replace(/\.\d+Z$/, 'Z');

export const keysCommand = new Command('keys').description(
  'manage partner API keys (a full key is printed only by create, regenerate and reveal)',
);

keysCommand
  .command('create')
  .description('issue an operator key (optionally venue-restricted, with chosen scopes)')
  .requiredOption('--org <slug>', 'organisation slug')
  .option('--venue <slug>', 'restrict the key to this venue of the organisation')
  .option(
    '--scopes <list>',
    'comma-separated scopes (default: venues:read,treatments:read,customers:read,bookings:read)',
  )
  .option('--rate-limit <n>', 'requests per minute for this key', rateLimit)
  .action(async (options: { org: string; venue?: string; scopes?: string; rateLimit?: number }) => {
    const scopes = parseScopes(options.scopes);
    const { id, key } = await withOperatorContext(({ db, vault }) =>
      createKey(db, vault, {
        orgSlug: options.org,
        venueSlug: options.venue,
        scopes,
        rateLimitPerMin: options.rateLimit,
      }),
    );
    console.log(
      `Created key ${id} for ${options.venue ? `venue ${options.venue} of ` : ''}${options.org} (${scopes.join(', ')}):\n\n  ${key}\n`,
    );
  });

keysCommand
  .command('list')
  .description("list an organisation's keys (never their secrets)")
  .requiredOption('--org <slug>', 'organisation slug')
  .action(async (options: { org: string }) => {
    const keys = await withOperatorContext(({ db }) => listKeys(db, options.org));
    if (keys.length === 0) return console.log(`Organisation ${options.org} has no keys.`);
    console.log(
      formatTable(
        keys.map((k) => ({
          id: k.id,
          kind: k.kind,
          venue: k.venue ?? 'all venues',
          scopes: k.scopes.join(','),
          'rate/min': k.rate_limit_per_min ?? '-',
          created: toSeconds(k.created_at),
          revoked: k.revoked_at ? toSeconds(k.revoked_at) : '-',
        })),
      ),
    );
  });

keysCommand
  .command('reveal')
  .description('print the full value of a key again')
  .argument('<key-id>', '12 hexadecimal characters, as keys list shows')
  .action(async (keyId: string) => {
    const { key, revoked } = await withOperatorContext(({ db, vault }) => revealKey(db, vault, keyId));
    console.log(`${key}${revoked ? '   (revoked)' : ''}`);
  });

keysCommand
  .command('regenerate')
  .description("revoke the organisation's dashboard key and issue a new one with the same scopes, in one transaction")
  .requiredOption('--org <slug>', 'organisation slug')
  .action(async (options: { org: string }) => {
    const result = await withOperatorContext(({ db, vault }) => regenerateDashboardKey(db, vault, options.org));
    console.log(
      `${result.revokedId ? `Revoked ${result.revokedId}. ` : ''}New dashboard key ${result.id} (${result.scopes.join(', ')}):\n\n  ${result.key}\n`,
    );
  });

keysCommand
  .command('revoke')
  .description('revoke a key at once')
  .argument('<key-id>', '12 hexadecimal characters, as keys list shows')
  .action(async (keyId: string) => {
    const { kind } = await withOperatorContext(({ db }) => revokeKey(db, keyId));
    console.log(
      `Revoked ${keyId}.${kind === 'dashboard' ? ' The organisation has no active dashboard key now; keys regenerate issues one.' : ''}`,
    );
  });
