import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { type Me, useMe } from '../api/session.js';
import { Badge } from '../components/Badge.js';
import { Layout } from '../components/Layout.js';
import { Empty, QueryView } from '../components/States.js';
import { localDate } from '../lib/dates.js';
import { useT } from '../i18n/i18n.js';
import { formatPercent } from '../lib/format.js';

type Venue = Me['venues'][number];
type Counts = { total: number; by_status: { status: string; count: number }[] };

function Counts({
  venue,
  label,
  from,
  to,
  counts,
}: {
  venue: Venue;
  label: string;
  from: string;
  to: string;
  counts: Counts;
}) {
  const t = useT();
  if (counts.total === 0)
    return (
      <div className="counts">
        <h4>{label}</h4>
        <Empty>{t('overview.none')}</Empty>
      </div>
    );
  return (
    <div className="counts">
      <h4>{label}</h4>
      <p>
        <Link href={`/bookings?venue=${venue.id}&from=${from}&to=${to}`}>
          {t.plural('overview.bookings', counts.total)}
        </Link>
      </p>
      <ul className="inline-list">
        {counts.by_status.map(({ status, count }) => (
          <li key={status}>
            <Badge value={status} /> {count}
          </li>
        ))}
      </ul>
    </div>
  );
}

type OverviewData = Awaited<ReturnType<typeof loadOverview>>['data'];

function loadOverview() {
  return ok(api.bookings.overview());
}

function VenueCard({ venue, counts }: { venue: Venue; counts: OverviewData['venues'][number] | undefined }) {
  const t = useT();
  const today = localDate(venue.timezone);
  return (
    <section className="card" aria-labelledby={`venue-${venue.id}`}>
      <h3 id={`venue-${venue.id}`}>{venue.name}</h3>
      <p className="muted">
        {venue.timezone} · {venue.currency}
      </p>
      {counts && (
        <div className="counts-row">
          <Counts venue={venue} label={t('overview.today')} from={today} to={today} counts={counts.today} />
          <Counts
            venue={venue}
            label={t('overview.next7')}
            from={localDate(venue.timezone, 1)}
            to={localDate(venue.timezone, 7)}
            counts={counts.next_7_days}
          />
        </div>
      )}
    </section>
  );
}

function FailingEndpoints({ endpoints }: { endpoints: NonNullable<OverviewData['endpoints']> }) {
  const t = useT();
  return (
    <section className="card" aria-labelledby="failing-endpoints">
      <h2 id="failing-endpoints">{t('overview.endpoints')}</h2>
      {endpoints.total === 0 ? (
        <Empty>
          {t('overview.noEndpoints')} <Link href="/webhooks">{t('overview.addOne')}</Link>
        </Empty>
      ) : endpoints.not_active.length === 0 ? (
        <p>{t('overview.allDelivering', { count: endpoints.total })}</p>
      ) : (
        <ul>
          {endpoints.not_active.map((endpoint) => (
            <li key={endpoint.id}>
              <Badge value={endpoint.state} /> <code>{endpoint.url}</code>
              {endpoint.success_rate !== null &&
                ` · ${t('overview.delivered7', { rate: formatPercent(endpoint.success_rate) })}`}{' '}
              <Link href={`/webhooks/deliveries?endpoint_id=${endpoint.id}&status=failed`}>
                {t('overview.seeFailures')}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The overview in one call whatever the number of venues: counts by status per venue, and endpoints' health. */
export function OverviewPage() {
  const me = useMe();
  const t = useT();
  const overview = useQuery({ queryKey: ['bookings', 'overview'], queryFn: loadOverview });
  return (
    <Layout title={t('overview.title')}>
      <p>
        <strong>{me.organisation.name}</strong> <span className="muted">({me.organisation.slug})</span>
      </p>
      <h2>{t('overview.venues')}</h2>
      <QueryView query={overview} what={t('overview.title')}>
        {({ data }) => (
          <>
            {me.venues.length === 0 ? (
              <Empty>{t('overview.noVenues')}</Empty>
            ) : (
              <div className="grid">
                {me.venues.map((venue) => (
                  <VenueCard key={venue.id} venue={venue} counts={data.venues.find((v) => v.venue_id === venue.id)} />
                ))}
              </div>
            )}
            {data.endpoints && <FailingEndpoints endpoints={data.endpoints} />}
          </>
        )}
      </QueryView>
    </Layout>
  );
}
