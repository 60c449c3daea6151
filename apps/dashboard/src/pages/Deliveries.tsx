import { WEBHOOK_EVENT_TYPES } from '@spa/contract';
import { DeliveryStatus, WEBHOOK_TEST_EVENT_TYPE } from '@spa/contract/dashboard';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'wouter';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { DeliveryList } from '../components/DeliveryList.js';
import { AdminOnly, Layout } from '../components/Layout.js';
import { Pager } from '../components/Pager.js';
import { QueryView } from '../components/States.js';
import { localTimeZone } from '../lib/format.js';
import { pageParam, pickOption } from '../lib/params.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Booking events and the test event an admin sends from the endpoints page. */
const EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE] as const;

function DeliveriesPanel() {
  const [params, setParams] = useSearchParams();
  const query = {
    endpoint_id: params.get('endpoint_id') || undefined,
    status: pickOption(DeliveryStatus.options, params.get('status')),
    event_type: pickOption(EVENT_TYPES, params.get('event_type')),
    q: UUID.test(params.get('q') ?? '') ? params.get('q')!.toLowerCase() : undefined,
    page: pageParam(params.get('page')),
  };
  const endpoints = useQuery({
    queryKey: ['webhook-endpoints'],
    queryFn: () => ok(api.webhookEndpoints.list({ query: { page_size: '100' } })),
  });
  const deliveries = useQuery({
    queryKey: ['webhook-deliveries', query],
    queryFn: () => ok(api.webhookDeliveries.list({ query })),
    placeholderData: keepPreviousData,
  });
  const set = (name: string, value: string | undefined) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(name, value);
      else next.delete(name);
      if (name !== 'page') next.delete('page');
      return next;
    });
  return (
    <>
      <p>
        <Link href="/webhooks">Endpoints</Link>
      </p>
      <form
        className="filters"
        aria-label="Filter deliveries"
        onSubmit={(event) => {
          event.preventDefault();
          const value = new FormData(event.currentTarget).get('q');
          set('q', typeof value === 'string' ? value.trim() || undefined : undefined);
        }}
      >
        <label>
          Endpoint
          <select value={query.endpoint_id ?? ''} onChange={(event) => set('endpoint_id', event.target.value)}>
            <option value="">Every endpoint</option>
            {endpoints.data?.data.map((endpoint) => (
              <option key={endpoint.id} value={endpoint.id}>
                {endpoint.url}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select value={query.status ?? ''} onChange={(event) => set('status', event.target.value)}>
            <option value="">Any status</option>
            {DeliveryStatus.options.map((status) => (
              <option key={status}>{status}</option>
            ))}
          </select>
        </label>
        <label>
          Event
          <select value={query.event_type ?? ''} onChange={(event) => set('event_type', event.target.value)}>
            <option value="">Any event</option>
            {EVENT_TYPES.map((type) => (
              <option key={type}>{type}</option>
            ))}
          </select>
        </label>
        <label className="grow">
          Event or booking id
          <input name="q" type="search" defaultValue={query.q ?? ''} placeholder="A webhook-id or a booking id" />
        </label>
        <button type="submit">Search</button>
      </form>
      <QueryView query={deliveries} what="deliveries">
        {({ data, pagination }) => (
          <>
            <DeliveryList deliveries={data} timeZone={localTimeZone} canReplay />
            <Pager pagination={pagination} onPage={(page) => set('page', String(page))} />
          </>
        )}
      </QueryView>
    </>
  );
}

export function DeliveriesPage() {
  return (
    <Layout title="Webhook deliveries">
      <AdminOnly>
        <DeliveriesPanel />
      </AdminOnly>
    </Layout>
  );
}
