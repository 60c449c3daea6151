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
import { useT } from '../i18n/i18n.js';
import { localTimeZone } from '../lib/format.js';
import { pageParam, pickOption } from '../lib/params.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Booking events and the test event an admin sends from the endpoints page. */
const EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE] as const;

function DeliveriesPanel() {
  const t = useT();
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
        <Link href="/webhooks">{t('deliveries.endpoints')}</Link>
      </p>
      <form
        className="filters"
        aria-label={t('deliveries.filters')}
        onSubmit={(event) => {
          event.preventDefault();
          const value = new FormData(event.currentTarget).get('q');
          set('q', typeof value === 'string' ? value.trim() || undefined : undefined);
        }}
      >
        <label>
          {t('deliveries.endpoint')}
          <select value={query.endpoint_id ?? ''} onChange={(event) => set('endpoint_id', event.target.value)}>
            <option value="">{t('deliveries.everyEndpoint')}</option>
            {endpoints.data?.data.map((endpoint) => (
              <option key={endpoint.id} value={endpoint.id}>
                {endpoint.url}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('common.status')}
          <select value={query.status ?? ''} onChange={(event) => set('status', event.target.value)}>
            <option value="">{t('common.anyStatus')}</option>
            {DeliveryStatus.options.map((status) => (
              <option key={status} value={status}>
                {t(`status.${status}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('deliveries.event')}
          <select value={query.event_type ?? ''} onChange={(event) => set('event_type', event.target.value)}>
            <option value="">{t('deliveries.anyEvent')}</option>
            {EVENT_TYPES.map((type) => (
              <option key={type} translate="no">
                {type}
              </option>
            ))}
          </select>
        </label>
        <label className="grow">
          {t('deliveries.q')}
          <input name="q" type="search" defaultValue={query.q ?? ''} placeholder={t('deliveries.qPlaceholder')} />
        </label>
        <button type="submit">{t('common.search')}</button>
      </form>
      <QueryView query={deliveries} what={t('deliveries.what')}>
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
  const t = useT();
  return (
    <Layout title={t('deliveries.title')}>
      <AdminOnly>
        <DeliveriesPanel />
      </AdminOnly>
    </Layout>
  );
}
