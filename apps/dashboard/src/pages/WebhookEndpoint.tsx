import { WebhookEventType } from '@spa/contract';
import type { WebhookEndpointDetail } from '@spa/contract/dashboard';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import type { z } from 'zod';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { useMe } from '../api/session.js';
import { Badge } from '../components/Badge.js';
import { ConfirmDialog } from '../components/Dialog.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { AdminOnly, Layout } from '../components/Layout.js';
import { QueryView } from '../components/States.js';
import { useToast } from '../components/Toasts.js';
import { useT } from '../i18n/i18n.js';
import { formatDateTime, formatDay, formatPercent, localTimeZone } from '../lib/format.js';

type Endpoint = z.infer<typeof WebhookEndpointDetail>;

/**
 * The last 7 days, a bar per day: the delivered part and the failed part, each also said in words (the bars are
 * only a picture of the numbers beside them).
 */
function DailyChart({ endpoint }: { endpoint: Endpoint }) {
  const t = useT();
  const most = Math.max(1, ...endpoint.daily.map((day) => day.succeeded + day.failed));
  return (
    <section className="card" aria-labelledby="daily">
      <h2 id="daily">{t('endpoint.last7')}</h2>
      <ol className="chart">
        {endpoint.daily.map((day) => {
          const total = day.succeeded + day.failed;
          return (
            <li key={day.date}>
              <span className="chart-day">{formatDay(day.date)}</span>
              <span className="chart-bar" aria-hidden="true">
                <span className="chart-ok" style={{ width: `${(100 * day.succeeded) / most}%` }} />
                <span className="chart-failed" style={{ width: `${(100 * day.failed) / most}%` }} />
              </span>
              <span className="chart-figures">
                {total === 0
                  ? t('endpoint.noDeliveries')
                  : t('endpoint.day', {
                      delivered: t.plural('endpoint.dayDelivered', day.succeeded),
                      failed: t.plural('endpoint.dayFailed', day.failed),
                      rate: formatPercent(day.succeeded / total),
                    })}
              </span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** The endpoint's URL, event types and venue, changed in place; its secret stays. */
function EditEndpoint({ endpoint }: { endpoint: Endpoint }) {
  const me = useMe();
  const t = useT();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState(endpoint.url);
  const [events, setEvents] = useState<string[]>(endpoint.events);
  const [venueId, setVenueId] = useState(endpoint.venue?.id ?? '');
  const save = useMutation({
    mutationFn: () =>
      ok(
        api.webhookEndpoints.update({
          params: { id: endpoint.id },
          body: {
            url,
            events: WebhookEventType.options.filter((type) => events.includes(type)),
            venue_id: venueId || null,
          },
        }),
      ),
    onSuccess: async () => {
      toast(t('endpoint.saved', { url }));
      await queryClient.invalidateQueries({ queryKey: ['webhook-endpoints'] });
    },
  });
  const toggle = (type: string) =>
    setEvents((current) => (current.includes(type) ? current.filter((other) => other !== type) : [...current, type]));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="form card" onSubmit={submit} aria-labelledby="edit-endpoint">
      <h2 id="edit-endpoint">{t('endpoint.settings')}</h2>
      <label>
        {t('webhooks.url')}
        <input type="url" value={url} onChange={(event) => setUrl(event.target.value)} required />
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
      {save.isError && <ErrorNotice error={save.error} />}
      <button type="submit" className="primary" disabled={save.isPending}>
        {save.isPending ? t('common.saving') : t('common.save')}
      </button>
    </form>
  );
}

function EndpointPanel({ id }: { id: string }) {
  const t = useT();
  const toast = useToast();
  const [, navigate] = useLocation();
  const [removing, setRemoving] = useState(false);
  const queryClient = useQueryClient();
  const endpoint = useQuery({
    queryKey: ['webhook-endpoints', id],
    queryFn: () => ok(api.webhookEndpoints.get({ params: { id } })),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['webhook-endpoints'] });
  const params = { params: { id } };
  const onOff = useMutation({
    mutationFn: (enable: boolean) =>
      ok(enable ? api.webhookEndpoints.enable(params) : api.webhookEndpoints.disable(params)),
    onSuccess: async ({ data }) => {
      toast(t(data.enabled ? 'endpoint.enabled' : 'endpoint.disabled', { url: data.url }));
      await refresh();
    },
  });
  const replayFailed = useMutation({
    mutationFn: () => ok(api.webhookEndpoints.replayFailed(params)),
    onSuccess: async ({ data }) => {
      toast(t.plural('endpoint.requeued', data.deliveries));
      await refresh();
      await queryClient.invalidateQueries({ queryKey: ['webhook-deliveries'] });
    },
  });
  // The same removal as the list's: the endpoint and its deliveries go, and the page it stood on with them.
  const remove = useMutation({
    mutationFn: () => ok(api.webhookEndpoints.remove(params)),
    onSettled: () => setRemoving(false),
    onSuccess: () => {
      toast(t('endpoint.removed', { url: endpoint.data?.data.url ?? '' }));
      navigate('/webhooks');
      // Every cached list still holds it: the list page reads afresh rather than show it for a moment.
      queryClient.removeQueries({ queryKey: ['webhook-endpoints'] });
    },
  });
  const error = onOff.error ?? replayFailed.error ?? remove.error;
  return (
    <QueryView query={endpoint} what={t('endpoint.what')}>
      {({ data: e }) => (
        <>
          <section className="card" aria-labelledby="endpoint-summary">
            <h2 id="endpoint-summary">
              <code>{e.url}</code> <Badge value={e.state} />
            </h2>
            <dl className="facts">
              <dt>{t('endpoint.events')}</dt>
              <dd>
                {e.events.length === 0 ? t('common.everyEvent') : <span translate="no">{e.events.join(', ')}</span>}
              </dd>
              <dt>{t('common.venue')}</dt>
              <dd>{e.venue ? e.venue.name : t('common.everyVenue')}</dd>
              <dt>{t('endpoint.added')}</dt>
              <dd>{formatDateTime(e.created_at, localTimeZone)}</dd>
              <dt>{t('endpoint.lastSuccess')}</dt>
              <dd>{e.last_success_at ? formatDateTime(e.last_success_at, localTimeZone) : '—'}</dd>
            </dl>
            <div className="actions">
              <Link href={`/webhooks/deliveries?endpoint_id=${e.id}`}>{t('endpoint.itsDeliveries')}</Link>
              <button
                type="button"
                onClick={() => replayFailed.mutate()}
                disabled={!e.enabled || replayFailed.isPending}
              >
                {t('endpoint.replayFailed')}
              </button>
              <button type="button" onClick={() => onOff.mutate(!e.enabled)} disabled={onOff.isPending}>
                {e.enabled ? t('endpoint.disable') : t('endpoint.enable')}
              </button>
              <button type="button" className="danger" onClick={() => setRemoving(true)}>
                {t('common.remove')}
              </button>
            </div>
            {error && <ErrorNotice error={error} />}
            <ConfirmDialog
              open={removing}
              title={t('webhooks.removeTitle')}
              confirmLabel={t('webhooks.removeButton')}
              busy={remove.isPending}
              onCancel={() => setRemoving(false)}
              onConfirm={() => remove.mutate()}
            >
              <p>{t('webhooks.removeBody', { url: e.url })}</p>
            </ConfirmDialog>
          </section>
          <DailyChart endpoint={e} />
          <EditEndpoint endpoint={e} />
        </>
      )}
    </QueryView>
  );
}

export function WebhookEndpointPage() {
  const t = useT();
  const { id } = useParams<{ id: string }>();
  return (
    <Layout title={t('endpoint.title')}>
      <AdminOnly>
        <p>
          <Link href="/webhooks">{t('endpoint.all')}</Link>
        </p>
        <EndpointPanel id={id} />
      </AdminOnly>
    </Layout>
  );
}
