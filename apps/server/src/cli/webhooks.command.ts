import { isUuid } from '@spa/contract';
import { type Command, InvalidArgumentError } from 'commander';
import { readSettings } from '../config/config.js';
import * as endpoints from '../webhooks/endpoints.service.js';
import { operatorTrail } from '../audit/audit-trail.js';
import { queueTestEvent } from '../webhooks/test-event.js';
import { formatTable } from './format-table.js';
import { type CommandHost, print } from './command-host.js';

const uuid = (value: string) => {
  if (!isUuid(value)) throw new InvalidArgumentError('must be a UUID');
  return value.toLowerCase();
};
const STATUSES = ['pending', 'succeeded', 'failed'] as const;
const status = (value: string) => {
  if (!(STATUSES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`must be one of ${STATUSES.join(', ')}`);
  return value as (typeof STATUSES)[number];
};
const limit = (value: string) => {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 10_000)
    throw new InvalidArgumentError('must be a whole number from 1 to 10000');
  return Number(value);
};
const toSeconds = (iso: string | null) => (iso ? iso.replace(/\.\d+Z$/, 'Z') : '-');
const oneLine = (text: string | null, max = 60) =>
  text ? (text.length > max ? `${text.slice(0, max - 1)}…` : text).replace(/\s+/g, ' ') : '-';

export function registerWebhooks(program: Command, host: CommandHost): void {
  const webhooksCommand = program
    .command('webhooks')
    .description('manage webhook endpoints (preview): a secret is printed only by add and rotate-secret');

  webhooksCommand
    .command('add')
    .description("register an endpoint for an organisation's booking events (at most 10 per organisation)")
    .requiredOption('--org <slug>', 'organisation slug')
    .requiredOption('--url <url>', 'https URL that receives the events (POST)')
    .option('--venue <slug>', "only this venue's bookings")
    .option('--events <list>', 'comma-separated event types (default: every type)')
    .action(async (options: { org: string; url: string; venue?: string; events?: string }) => {
      const { allowPrivateNetworks } = readSettings(process.env).webhooks;
      const added = await host.withContext(({ db, vault }) =>
        endpoints.addEndpoint(db, vault, {
          orgSlug: options.org,
          url: options.url,
          venueSlug: options.venue,
          events: options.events,
          allowPrivateNetworks,
          audit: operatorTrail(host.clock),
        }),
      );
      print(
        host,
        `Added webhook endpoint ${added.id} for ${options.venue ? `venue ${options.venue} of ` : ''}${options.org}: ` +
          `${added.url} (${added.eventTypes.length ? added.eventTypes.join(', ') : 'every event type'}).\n` +
          `Signing secret (shown once; \`webhooks rotate-secret\` issues a new one):\n\n  ${added.secret}\n`,
      );
    });

  webhooksCommand
    .command('list')
    .description("list an organisation's endpoints, disabled ones included (never their secrets)")
    .requiredOption('--org <slug>', 'organisation slug')
    .action(async (options: { org: string }) => {
      const rows = await host.withContext(({ db }) => endpoints.listEndpoints(db, options.org));
      if (rows.length === 0) return print(host, `Organisation ${options.org} has no webhook endpoints.`);
      print(
        host,
        formatTable(
          rows.map((r) => ({
            id: r.id,
            url: r.url,
            venue: r.venue ?? 'all venues',
            events: r.event_types.length ? r.event_types.join(',') : 'all',
            state: r.disabled_at ? `DISABLED ${toSeconds(r.disabled_at)}` : 'active',
            'last success': toSeconds(r.last_success_at),
            'failing since': toSeconds(r.failing_since),
            'old secret until': toSeconds(r.previous_secret_expires_at),
          })),
        ),
      );
    });

  webhooksCommand
    .command('remove')
    .description('remove an endpoint: it gets nothing more, its pending deliveries fail, its log is kept')
    .argument('<endpoint-id>', 'endpoint UUID, as webhooks list shows', uuid)
    .action(async (id: string) => {
      const { url } = await host.withContext(({ db }) =>
        endpoints.removeEndpoint(db, id, { audit: operatorTrail(host.clock), now: host.clock.now() }),
      );
      print(host, `Removed webhook endpoint ${id} (${url}).`);
    });

  webhooksCommand
    .command('rotate-secret')
    .description('issue a new signing secret; the old one keeps signing beside it for 24 hours')
    .argument('<endpoint-id>', 'endpoint UUID', uuid)
    .action(async (id: string) => {
      const rotated = await host.withContext(({ db, vault }) =>
        endpoints.rotateSecret(db, vault, id, { audit: operatorTrail(host.clock) }),
      );
      print(
        host,
        `New signing secret of ${id} (shown once). Deliveries carry both signatures until ${toSeconds(rotated.previousValidUntil)}:\n\n  ${rotated.secret}\n`,
      );
    });

  webhooksCommand
    .command('test')
    .description('send a signed webhook.test event to one endpoint through the delivery queue')
    .argument('<endpoint-id>', 'endpoint UUID', uuid)
    .action(async (id: string) => {
      const { eventId } = await host.withContext(({ db }) =>
        queueTestEvent(db, id, { audit: operatorTrail(host.clock), now: host.clock.now() }),
      );
      print(
        host,
        `Queued webhook.test ${eventId} for ${id}; the running server delivers it (webhooks deliveries shows the attempt).`,
      );
    });

  webhooksCommand
    .command('enable')
    .description('put a disabled endpoint back in service (replay its failed events if they are wanted)')
    .argument('<endpoint-id>', 'endpoint UUID', uuid)
    .action(async (id: string) => {
      await host.withContext(({ db }) => endpoints.enableEndpoint(db, id));
      print(host, `Webhook endpoint ${id} is active.`);
    });

  webhooksCommand
    .command('deliveries')
    .description("the attempt log of an organisation's deliveries, newest first")
    .requiredOption('--org <slug>', 'organisation slug')
    .option('--status <status>', `only deliveries that are ${STATUSES.join(', ')}`, status)
    .option('--limit <n>', 'rows to show (default 100)', limit)
    .action(async (options: { org: string; status?: (typeof STATUSES)[number]; limit?: number }) => {
      const rows = await host.withContext(({ db }) =>
        endpoints.listDeliveries(db, { orgSlug: options.org, status: options.status, limit: options.limit }),
      );
      if (rows.length === 0)
        return print(host, `No${options.status ? ` ${options.status}` : ''} deliveries for ${options.org}.`);
      print(
        host,
        formatTable(
          rows.map((r) => ({
            event: r.event_id,
            type: r.type,
            url: r.url,
            delivery: r.status === 'pending' ? `pending (next ${toSeconds(r.next_attempt_at)})` : r.status,
            attempt: r.attempt ?? '-',
            at: toSeconds(r.started_at),
            http: r.status_code ?? '-',
            ms: r.duration_ms ?? '-',
            error: oneLine(r.error),
            response: oneLine(r.response_body, 40),
          })),
        ),
      );
    });

  webhooksCommand
    .command('replay')
    .description('send an event again, now, to every endpoint that wants it (the same webhook-id)')
    .argument('<event-id>', 'event UUID (the webhook-id header), as webhooks deliveries shows', uuid)
    .action(async (eventId: string) => {
      const { type, queued } = await host.withContext(({ db }) =>
        endpoints.replay(db, eventId, { audit: operatorTrail(host.clock) }),
      );
      print(
        host,
        queued
          ? `Queued ${type} ${eventId} for ${queued} endpoint${queued > 1 ? 's' : ''}; the running server delivers it.`
          : `Event ${eventId} (${type}) has no active endpoint that wants it; nothing was queued.`,
      );
    });
}
