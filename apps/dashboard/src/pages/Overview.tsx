import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { type Me, useMe } from '../api/session.js';
import { Badge } from '../components/Badge.js';
import { Layout } from '../components/Layout.js';
import { Empty, QueryView } from '../components/States.js';
import { localDate } from '../lib/dates.js';
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
  if (counts.total === 0)
    return (
      <div className="counts">
        <h4>{label}</h4>
        <Empty>No bookings.</Empty>
      </div>
    );
  return (
    <div className="counts">
      <h4>{label}</h4>
      <p>
        <Link href={`/bookings?venue=${venue.id}&from=${from}&to=${to}`}>
          {counts.total} booking{counts.total === 1 ? '' : 's'}
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
  const today = localDate(venue.timezone);
  return (
    <section className="card" aria-labelledby={`venue-${venue.id}`}>
      <h3 id={`venue-${venue.id}`}>{venue.name}</h3>
      <p className="muted">
        {venue.timezone} · {venue.currency}
      </p>
      {counts && (
        <div className="counts-row">
          <Counts venue={venue} label="Today" from={today} to={today} counts={counts.today} />
          <Counts
            venue={venue}
            label="Next 7 days"
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
  return (
    <section className="card" aria-labelledby="failing-endpoints">
      <h2 id="failing-endpoints">Webhook endpoints</h2>
      {endpoints.total === 0 ? (
        <Empty>
          No endpoints yet. <Link href="/webhooks">Add one</Link> to hear about bookings as they change.
        </Empty>
      ) : endpoints.not_active.length === 0 ? (
        <p>All {endpoints.total} endpoints are delivering.</p>
      ) : (
        <ul>
          {endpoints.not_active.map((endpoint) => (
            <li key={endpoint.id}>
              <Badge value={endpoint.state} /> <code>{endpoint.url}</code>
              {endpoint.success_rate !== null && ` · ${formatPercent(endpoint.success_rate)} delivered in 7 days`}{' '}
              <Link href={`/webhooks/deliveries?endpoint_id=${endpoint.id}&status=failed`}>See failures</Link>
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
  const overview = useQuery({ queryKey: ['bookings', 'overview'], queryFn: loadOverview });
  return (
    <Layout title="Overview">
      <p>
        <strong>{me.organisation.name}</strong> <span className="muted">({me.organisation.slug})</span>
      </p>
      <h2>Venues</h2>
      <QueryView query={overview} what="the overview">
        {({ data }) => (
          <>
            {me.venues.length === 0 ? (
              <Empty>No venues yet. The operator imports them with the venue data file.</Empty>
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
