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
import { useT } from '../i18n/i18n.js';
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
  const t = useT();
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
    setEvents((current) => (current.includes(type) ? current.filter((other) => other !== type) : [...current, type]));
  return (
    <form className="form card" onSubmit={submit} aria-labelledby="add-endpoint">
      <h2 id="add-endpoint">{t('webhooks.add')}</h2>
      <label>
        {t('webhooks.url')}
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
        <legend>{t('webhooks.events')}</legend>
        <div className="checks">
          {WebhookEventType.options.map((type) => (
            <label key={type} className="check">
              <input type="checkbox" checked={events.includes(type)} onChange={() => toggle(type)} />
              <span translate="no">{type}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <label>
        {t('common.venue')}
        <select value={venueId} onChange={(event) => setVenueId(event.target.value)}>
          <option value="">{t('common.everyVenue')}</option>
          {me.venues.map((venue) => (
            <option key={venue.id} value={venue.id}>
              {venue.name}
            </option>
          ))}
        </select>
      </label>
      {create.isError && <ErrorNotice error={create.error} />}
      <button type="submit" className="primary" disabled={create.isPending}>
        {create.isPending ? t('webhooks.adding') : t('webhooks.addButton')}
      </button>
    </form>
  );
}

function EndpointRow({ endpoint, onSecret }: { endpoint: Endpoint; onSecret: (secret: string, url: string) => void }) {
  const t = useT();
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
        <Link href={`/webhooks/${endpoint.id}`} aria-label={t('webhooks.endpointLink', { url: endpoint.url })}>
          <code>{endpoint.url}</code>
        </Link>{' '}
        <Badge value={endpoint.state} />
      </p>
      <p className="muted">
        {endpoint.events.length === 0 ? (
          t('common.everyEvent')
        ) : (
          <span translate="no">{endpoint.events.join(', ')}</span>
        )}{' '}
        · {endpoint.venue ? endpoint.venue.name : t('common.everyVenue')} ·{' '}
        {rate === null
          ? t('webhooks.noDeliveries7')
          : t('webhooks.delivered7', {
              rate: formatPercent(rate),
              succeeded: endpoint.recent_deliveries.succeeded,
              total: endpoint.recent_deliveries.succeeded + endpoint.recent_deliveries.failed,
            })}
      </p>
      <div className="actions">
        <label className="inline">
          <span className="visually-hidden">{t('webhooks.testType', { url: endpoint.url })}</span>
          <select value={testType} onChange={(event) => setTestType(event.target.value as TestType)}>
            {TEST_TYPES.map((type) => (
              <option key={type} value={type} translate="no">
                {type}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => test.mutate()} disabled={test.isPending}>
          {test.isPending ? t('webhooks.sending') : t('webhooks.sendTest')}
        </button>
        <Link href={`/webhooks/deliveries?endpoint_id=${endpoint.id}`}>{t('webhooks.deliveries')}</Link>
        <button type="button" onClick={() => setConfirm('rotate')}>
          {t('webhooks.rotate')}
        </button>
        <button type="button" className="danger" onClick={() => setConfirm('remove')}>
          {t('common.remove')}
        </button>
      </div>
      {test.data && (
        <p className={test.data.data.succeeded ? 'notice notice-ok' : 'notice notice-error'} role="status">
          {t(test.data.data.succeeded ? 'webhooks.testDelivered' : 'webhooks.testFailed', {
            answer:
              test.data.data.status_code === null
                ? t('webhooks.noAnswer')
                : t('delivery.http', { code: test.data.data.status_code }),
            duration: formatDuration(test.data.data.duration_ms),
            error:
              test.data.data.error && test.data.data.error !== `HTTP ${test.data.data.status_code}`
                ? ` (${test.data.data.error})`
                : '',
            when: formatLogTime(test.data.data.attempted_at, localTimeZone),
          })}
        </p>
      )}
      {error && <ErrorNotice error={error} />}
      <ConfirmDialog
        open={confirm === 'remove'}
        title={t('webhooks.removeTitle')}
        confirmLabel={t('webhooks.removeButton')}
        busy={remove.isPending}
        onCancel={() => setConfirm(undefined)}
        onConfirm={() => remove.mutate()}
      >
        <p>{t('webhooks.removeBody', { url: endpoint.url })}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'rotate'}
        title={t('webhooks.rotateTitle')}
        confirmLabel={t('webhooks.rotate')}
        busy={rotate.isPending}
        onCancel={() => setConfirm(undefined)}
        onConfirm={() => {
          setConfirm(undefined);
          withRecentSignIn(() => rotate.mutateAsync());
        }}
      >
        <p>{t('webhooks.rotateBody')}</p>
      </ConfirmDialog>
      {dialog}
    </li>
  );
}

function WebhooksPanel() {
  const t = useT();
  const endpoints = useQuery({ queryKey: ENDPOINTS, queryFn: listEndpoints });
  // Every secret shown since the page opened, newest first: adding a second endpoint keeps the first one's.
  const [secrets, setSecrets] = useState<{ value: string; url: string }[]>([]);
  const showSecret = (value: string, url: string) => setSecrets((current) => [{ value, url }, ...current]);
  return (
    <>
      <p>
        <Link href="/webhooks/deliveries">{t('webhooks.log')}</Link>
      </p>
      {secrets.map((secret, i) => (
        <OneTimeSecret
          key={secret.value}
          label={t('webhooks.secretLabel', { url: secret.url })}
          value={secret.value}
          note={t('webhooks.secretNote', { url: secret.url })}
          focus={i === 0}
        />
      ))}
      <QueryView query={endpoints} what={t('webhooks.what')}>
        {({ data }) =>
          data.length === 0 ? (
            <Empty>{t('webhooks.none')}</Empty>
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
  const t = useT();
  return (
    <Layout title={t('webhooks.title')}>
      <AdminOnly>
        <WebhooksPanel />
      </AdminOnly>
    </Layout>
  );
}
