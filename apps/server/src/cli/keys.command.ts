import { Command, InvalidArgumentError } from 'commander';
import { Temporal } from 'temporal-polyfill';
import { createKey, listKeys, parseScopes, regenerateDashboardKey, revealKey, revokeKey } from '../keys/keys.service.js';
import { withOperatorContext } from './operator-context.js';

const positiveInt = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
};

export const keysCommand = new Command('keys').description('manage partner API keys (a full key is printed only by create, regenerate and reveal)');

keysCommand
  .command('create')
  .description('issue an operator key (optionally venue-restricted, with chosen scopes)')
  .requiredOption('--org <slug>', 'organisation slug')
  .option('--venue <slug>', 'restrict the key to this venue')
  .option('--scopes <list>', 'comma-separated scopes (default: the four released read scopes)')
  .option('--rate-limit <n>', 'requests per minute for this key', positiveInt)
  .action(async (options: { org: string; venue?: string; scopes?: string; rateLimit?: number }) => {
    const scopes = parseScopes(options.scopes);
    const { id, key } = await withOperatorContext(({ db, vault }) =>
      createKey(db, vault, { orgSlug: options.org, venueSlug: options.venue, scopes, rateLimitPerMin: options.rateLimit }),
    );
    console.log(`Created key ${id} (${scopes.join(', ')}):\n\n  ${key}\n`);
  });

keysCommand
  .command('list')
  .description("list an organisation's keys (never their secrets)")
  .requiredOption('--org <slug>', 'organisation slug')
  .action(async (options: { org: string }) => {
    const keys = await withOperatorContext(({ db }) => listKeys(db, options.org));
    console.table(
      keys.map((k) => ({
        id: k.id,
        kind: k.kind,
        venue: k.venue ?? '(all)',
        scopes: k.scopes.join(','),
        'rate/min': k.rate_limit_per_min ?? '',
        created: k.created_at,
        revoked: k.revoked_at ?? '',
      })),
    );
  });

keysCommand
  .command('reveal')
  .description('print the full value of a key again')
  .argument('<key-id>')
  .action(async (keyId: string) => {
    const { key, revoked } = await withOperatorContext(({ db, vault }) => revealKey(db, vault, keyId));
    console.log(`${key}${revoked ? '   (revoked)' : ''}`);
  });

keysCommand
  .command('regenerate')
  .description("revoke the organisation's dashboard key and issue a new one, at once")
  .requiredOption('--org <slug>', 'organisation slug')
  .action(async (options: { org: string }) => {
    const result = await withOperatorContext(({ db, vault }) => regenerateDashboardKey(db, vault, options.org, Temporal.Now.instant()));
    console.log(`${result.revokedId ? `Revoked ${result.revokedId}. ` : ''}New dashboard key ${result.id}:\n\n  ${result.key}\n`);
  });

keysCommand
  .command('revoke')
  .description('revoke a key at once')
  .argument('<key-id>')
  .action(async (keyId: string) => {
    await withOperatorContext(({ db }) => revokeKey(db, keyId, Temporal.Now.instant()));
    console.log(`Revoked ${keyId}.`);
  });
