import { WebhookEventType } from '@spa/contract';
import type { WebhookEndpointDetail } from '@spa/contract/dashboard';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'wouter';
import type { z } from 'zod';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { useMe } from '../api/session.js';
import { Badge } from '../components/Badge.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { AdminOnly, Layout } from '../components/Layout.js';
import { QueryView } from '../components/States.js';
import { useToast } from '../components/Toasts.js';
import { formatDateTime, formatDay, formatPercent, localTimeZone } from '../lib/format.js';

type Endpoint = z.infer<typeof WebhookEndpointDetail>;

/**
 * The last 7 days, a bar per day: the delivered part and the failed part, each also said in words (the bars are
 * only a picture of the numbers beside them).
 */
function DailyChart({ endpoint }: { endpoint: Endpoint }) {
  const most = Math.max(1, ...endpoint.daily.map((day) => day.succeeded + day.failed));
  return (
    <section className="card" aria-labelledby="daily">
      <h2 id="daily">Last 7 days</h2>
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
                  ? 'no deliveries'
                  : `${day.succeeded} delivered, ${day.failed} failed (${formatPercent(day.succeeded / total)})`}
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
      toast(`Endpoint saved: ${url}.`);
      await queryClient.invalidateQueries({ queryKey: ['webhook-endpoints'] });
    },
  });
  const toggle = (type: string) =>
    setEvents((current) => (current.includes(type) ? current.filter((t) => t !== type) : [...current, type]));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="form card" onSubmit={submit} aria-labelledby="edit-endpoint">
      <h2 id="edit-endpoint">Settings</h2>
      <label>
        URL
        <input type="url" value={url} onChange={(event) => setUrl(event.target.value)} required />
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
      {save.isError && <ErrorNotice error={save.error} />}
      <button type="submit" className="primary" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save'}
      </button>
    </form>
  );
}

function EndpointPanel({ id }: { id: string }) {
  const toast = useToast();
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
      toast(data.enabled ? `${data.url} receives events again.` : `${data.url} is disabled: it receives nothing.`);
      await refresh();
    },
  });
  const replayFailed = useMutation({
    mutationFn: () => ok(api.webhookEndpoints.replayFailed(params)),
    onSuccess: async ({ data }) => {
      toast(`${data.deliveries} failed deliver${data.deliveries === 1 ? 'y' : 'ies'} queued again.`);
      await refresh();
      await queryClient.invalidateQueries({ queryKey: ['webhook-deliveries'] });
    },
  });
  const error = onOff.error ?? replayFailed.error;
  return (
    <QueryView query={endpoint} what="the endpoint">
      {({ data: e }) => (
        <>
          <section className="card" aria-labelledby="endpoint-summary">
            <h2 id="endpoint-summary">
              <code>{e.url}</code> <Badge value={e.state} />
            </h2>
            <dl className="facts">
              <dt>Events</dt>
              <dd>{e.events.length === 0 ? 'Every event' : e.events.join(', ')}</dd>
              <dt>Venue</dt>
              <dd>{e.venue ? e.venue.name : 'Every venue'}</dd>
              <dt>Added</dt>
              <dd>{formatDateTime(e.created_at, localTimeZone)}</dd>
              <dt>Last success</dt>
              <dd>{e.last_success_at ? formatDateTime(e.last_success_at, localTimeZone) : '—'}</dd>
            </dl>
            <div className="actions">
              <Link href={`/webhooks/deliveries?endpoint_id=${e.id}`}>Its deliveries</Link>
              <button
                type="button"
                onClick={() => replayFailed.mutate()}
                disabled={!e.enabled || replayFailed.isPending}
              >
                Replay every failed delivery
              </button>
              <button type="button" onClick={() => onOff.mutate(!e.enabled)} disabled={onOff.isPending}>
                {e.enabled ? 'Disable' : 'Enable'}
              </button>
            </div>
            {error && <ErrorNotice error={error} />}
          </section>
          <DailyChart endpoint={e} />
          <EditEndpoint endpoint={e} />
        </>
      )}
    </QueryView>
  );
}

export function WebhookEndpointPage() {
  const { id } = useParams<{ id: string }>();
  return (
    <Layout title="Webhook endpoint">
      <AdminOnly>
        <p>
          <Link href="/webhooks">All endpoints</Link>
        </p>
        <EndpointPanel id={id} />
      </AdminOnly>
    </Layout>
  );
}
