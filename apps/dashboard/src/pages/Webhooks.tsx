import { WebhookEventType } from '@spa/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { useMe } from '../api/session.js';
import { Badge } from '../components/Badge.js';
import { OneTimeSecret } from '../components/CopyButton.js';
import { ConfirmDialog } from '../components/Dialog.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { AdminOnly, Layout } from '../components/Layout.js';
import { useRecentSignIn } from '../components/PasswordConfirm.js';
import { Empty, QueryView } from '../components/States.js';
import { formatDuration, formatLogTime, formatPercent, localTimeZone } from '../lib/format.js';

const ENDPOINTS = ['webhook-endpoints'] as const;

/** `webhook.test`, or a sample of any booking event (a made-up booking) to see what a real one looks like. */
const TEST_TYPES = ['webhook.test', ...WebhookEventType.options] as const;
type TestType = (typeof TEST_TYPES)[number];

type Endpoint = NonNullable<Awaited<ReturnType<typeof listEndpoints>>>['data'][number];

function listEndpoints() {
  return ok(api.webhookEndpoints.list({ query: { page_size: '100' } }));
}

function AddEndpoint({ onCreated }: { onCreated: (secret: string, url: string) => void }) {
  const me = useMe();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [venueId, setVenueId] = useState('');
  const create = useMutation({
    mutationFn: () =>
      ok(
        api.webhookEndpoints.create({
          body: {
            url,
            ...(events.length > 0 && { events: WebhookEventType.options.filter((type) => events.includes(type)) }),
            ...(venueId && { venue_id: venueId }),
          },
        }),
      ),
    onSuccess: async ({ data }) => {
      onCreated(data.secret, data.url);
      setUrl('');
      setEvents([]);
      setVenueId('');
      await queryClient.invalidateQueries({ queryKey: ENDPOINTS });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const toggle = (type: string) =>
    setEvents((current) => (current.includes(type) ? current.filter((t) => t !== type) : [...current, type]));
  return (
    <form className="form card" onSubmit={submit} aria-labelledby="add-endpoint">
      <h2 id="add-endpoint">Add an endpoint</h2>
      <label>
        URL
        <input
          type="url"
          inputMode="url"
          placeholder="https://example.com/webhooks/spa"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          required
        />
      </label>
      <fieldset>
        <legend>Events (none ticked: every event)</legend>
        <div className="checks">
          {WebhookEventType.options.map((type) => (
            <label key={type} className="check">
              <input type="checkbox" checked={events.includes(type)} onChange={() => toggle(type)} />
              {type}
            </label>
          ))}
        </div>
      </fieldset>
      <label>
        Venue
        <select value={venueId} onChange={(event) => setVenueId(event.target.value)}>
          <option value="">Every venue</option>
          {me.venues.map((venue) => (
            <option key={venue.id} value={venue.id}>
              {venue.name}
            </option>
          ))}
        </select>
      </label>
      {create.isError && <ErrorNotice error={create.error} />}
      <button type="submit" className="primary" disabled={create.isPending}>
        {create.isPending ? 'Adding…' : 'Add endpoint'}
      </button>
    </form>
  );
}

function EndpointRow({ endpoint, onSecret }: { endpoint: Endpoint; onSecret: (secret: string, url: string) => void }) {
  const queryClient = useQueryClient();
  const { withRecentSignIn, dialog, isAsking } = useRecentSignIn();
  const [confirm, setConfirm] = useState<'remove' | 'rotate' | undefined>(undefined);
  const params = { params: { id: endpoint.id } };
  const refresh = () => queryClient.invalidateQueries({ queryKey: ENDPOINTS });
  const [testType, setTestType] = useState<TestType>('webhook.test');
  const test = useMutation({
    mutationFn: () => ok(api.webhookEndpoints.test({ ...params, body: { type: testType } })),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: () => ok(api.webhookEndpoints.remove(params)),
    onSettled: () => setConfirm(undefined),
    onSuccess: refresh,
  });
  const rotate = useMutation({
    mutationFn: () => ok(api.webhookEndpoints.rotateSecret(params)),
    onSuccess: ({ data }) => onSecret(data.secret, endpoint.url),
  });
  const rate = endpoint.recent_deliveries.success_rate;
  const error = test.error ?? remove.error ?? (isAsking(rotate.error) ? null : rotate.error);
  return (
    <li className="card endpoint">
      <p className="endpoint-url">
        <Link href={`/webhooks/${endpoint.id}`} aria-label={`Endpoint ${endpoint.url}`}>
          <code>{endpoint.url}</code>
        </Link>{' '}
        <Badge value={endpoint.state} />
      </p>
      <p className="muted">
        {endpoint.events.length === 0 ? 'Every event' : endpoint.events.join(', ')} ·{' '}
        {endpoint.venue ? endpoint.venue.name : 'Every venue'} ·{' '}
        {rate === null
          ? 'No deliveries in 7 days'
          : `${formatPercent(rate)} delivered in 7 days (${endpoint.recent_deliveries.succeeded} of ${
              endpoint.recent_deliveries.succeeded + endpoint.recent_deliveries.failed
            })`}
      </p>
      <div className="actions">
        <label className="inline">
          <span className="visually-hidden">Test event type for {endpoint.url}</span>
          <select value={testType} onChange={(event) => setTestType(event.target.value as TestType)}>
            {TEST_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => test.mutate()} disabled={test.isPending}>
          {test.isPending ? 'Sending…' : 'Send test event'}
        </button>
        <Link href={`/webhooks/deliveries?endpoint_id=${endpoint.id}`}>Deliveries</Link>
        <button type="button" onClick={() => setConfirm('rotate')}>
          Rotate secret
        </button>
        <button type="button" className="danger" onClick={() => setConfirm('remove')}>
          Remove
        </button>
      </div>
      {test.data && (
        <p className={test.data.data.succeeded ? 'notice notice-ok' : 'notice notice-error'} role="status">
          Test event {test.data.data.succeeded ? 'delivered' : 'failed'}:{' '}
          {test.data.data.status_code === null ? 'no answer' : `HTTP ${test.data.data.status_code}`} in{' '}
          {formatDuration(test.data.data.duration_ms)}
          {test.data.data.error &&
            test.data.data.error !== `HTTP ${test.data.data.status_code}` &&
            ` (${test.data.data.error})`}
          , {formatLogTime(test.data.data.attempted_at, localTimeZone)}
        </p>
      )}
      {error && <ErrorNotice error={error} />}
      <ConfirmDialog
        open={confirm === 'remove'}
        title="Remove this endpoint?"
        confirmLabel="Remove endpoint"
        busy={remove.isPending}
        onCancel={() => setConfirm(undefined)}
        onConfirm={() => remove.mutate()}
      >
        <p>
          <code>{endpoint.url}</code> will get no more events, and its pending deliveries are dropped. This cannot be
          undone.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'rotate'}
        title="Rotate the signing secret?"
        confirmLabel="Rotate secret"
        busy={rotate.isPending}
        onCancel={() => setConfirm(undefined)}
        onConfirm={() => {
          setConfirm(undefined);
          withRecentSignIn(() => rotate.mutateAsync());
        }}
      >
        <p>
          A new secret signs every event from now on; the old one keeps signing beside it for 24 hours, so update your
          receiver within that time.
        </p>
      </ConfirmDialog>
      {dialog}
    </li>
  );
}

function WebhooksPanel() {
  const endpoints = useQuery({ queryKey: ENDPOINTS, queryFn: listEndpoints });
  // Every secret shown since the page opened, newest first: adding a second endpoint keeps the first one's.
  const [secrets, setSecrets] = useState<{ value: string; url: string }[]>([]);
  const showSecret = (value: string, url: string) => setSecrets((current) => [{ value, url }, ...current]);
  return (
    <>
      <p>
        <Link href="/webhooks/deliveries">Deliveries log</Link>
      </p>
      {secrets.map((secret, i) => (
        <OneTimeSecret
          key={secret.value}
          label={`Signing secret of ${secret.url}`}
          value={secret.value}
          note={`The secret of ${secret.url}, shown this once: your receiver verifies each event's signature with it.`}
          focus={i === 0}
        />
      ))}
      <QueryView query={endpoints} what="webhook endpoints">
        {({ data }) =>
          data.length === 0 ? (
            <Empty>No endpoints yet.</Empty>
          ) : (
            <ul className="plain">
              {data.map((endpoint) => (
                <EndpointRow key={endpoint.id} endpoint={endpoint} onSecret={showSecret} />
              ))}
            </ul>
          )
        }
      </QueryView>
      <AddEndpoint onCreated={showSecret} />
    </>
  );
}

export function WebhooksPage() {
  return (
    <Layout title="Webhooks">
      <AdminOnly>
        <WebhooksPanel />
      </AdminOnly>
    </Layout>
  );
}
