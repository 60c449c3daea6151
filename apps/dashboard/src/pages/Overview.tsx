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

/** Up to a page of 100 bookings is counted by status; beyond that the total still says how many there are. */
function useBookingCounts(venue: Venue, from: string, to: string) {
  return useQuery({
    queryKey: ['bookings', 'counts', venue.id, from, to],
    queryFn: async () => {
      const { data, pagination } = await ok(
        api.bookings.list({ query: { venue: venue.id, from, to, page_size: '100' } }),
      );
      const byStatus = new Map<string, number>();
      for (const row of data) byStatus.set(row.status, (byStatus.get(row.status) ?? 0) + 1);
      return { total: pagination.total_items, byStatus: [...byStatus.entries()] };
    },
  });
}

function Counts({ venue, label, from, to }: { venue: Venue; label: string; from: string; to: string }) {
  const counts = useBookingCounts(venue, from, to);
  return (
    <div className="counts">
      <h4>{label}</h4>
      <QueryView query={counts} what={`${label.toLowerCase()} bookings`}>
        {({ total, byStatus }) =>
          total === 0 ? (
            <Empty>No bookings.</Empty>
          ) : (
            <>
              <p>
                <Link href={`/bookings?venue=${venue.id}&from=${from}&to=${to}`}>
                  {total} booking{total === 1 ? '' : 's'}
                </Link>
              </p>
              <ul className="inline-list">
                {byStatus.map(([status, n]) => (
                  <li key={status}>
                    <Badge value={status} /> {n}
                  </li>
                ))}
              </ul>
            </>
          )
        }
      </QueryView>
    </div>
  );
}

function VenueCard({ venue }: { venue: Venue }) {
  const today = localDate(venue.timezone);
  return (
    <section className="card" aria-labelledby={`venue-${venue.id}`}>
      <h3 id={`venue-${venue.id}`}>{venue.name}</h3>
      <p className="muted">
        {venue.timezone} · {venue.currency}
      </p>
      <div className="counts-row">
        <Counts venue={venue} label="Today" from={today} to={today} />
        <Counts
          venue={venue}
          label="Next 7 days"
          from={localDate(venue.timezone, 1)}
          to={localDate(venue.timezone, 7)}
        />
      </div>
    </section>
  );
}

function FailingEndpoints() {
  const endpoints = useQuery({
    queryKey: ['webhook-endpoints'],
    queryFn: () => ok(api.webhookEndpoints.list({ query: { page_size: '100' } })),
  });
  return (
    <section className="card" aria-labelledby="failing-endpoints">
      <h2 id="failing-endpoints">Webhook endpoints</h2>
      <QueryView query={endpoints} what="webhook endpoints">
        {({ data }) => {
          const failing = data.filter((endpoint) => endpoint.state !== 'active');
          if (data.length === 0)
            return (
              <Empty>
                No endpoints yet. <Link href="/webhooks">Add one</Link> to hear about bookings as they change.
              </Empty>
            );
          if (failing.length === 0) return <p>All {data.length} endpoints are delivering.</p>;
          return (
            <ul>
              {failing.map((endpoint) => (
                <li key={endpoint.id}>
                  <Badge value={endpoint.state} /> <code>{endpoint.url}</code>
                  {endpoint.recent_deliveries.success_rate !== null &&
                    ` · ${formatPercent(endpoint.recent_deliveries.success_rate)} delivered in 7 days`}{' '}
                  <Link href={`/webhooks/deliveries?endpoint_id=${endpoint.id}&status=failed`}>See failures</Link>
                </li>
              ))}
            </ul>
          );
        }}
      </QueryView>
    </section>
  );
}

export function OverviewPage() {
  const me = useMe();
  return (
    <Layout title="Overview">
      <p>
        <strong>{me.organisation.name}</strong> <span className="muted">({me.organisation.slug})</span>
      </p>
      <h2>Venues</h2>
      {me.venues.length === 0 ? (
        <Empty>No venues yet. The operator imports them with the venue data file.</Empty>
      ) : (
        <div className="grid">
          {me.venues.map((venue) => (
            <VenueCard key={venue.id} venue={venue} />
          ))}
        </div>
      )}
      {me.role === 'admin' && <FailingEndpoints />}
    </Layout>
  );
}
