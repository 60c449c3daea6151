import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { useMe } from '../api/session.js';
import { Badge } from '../components/Badge.js';
import { DeskActions } from '../components/DeskActions.js';
import { Layout } from '../components/Layout.js';
import { Empty, QueryView } from '../components/States.js';
import { localDate } from '../lib/dates.js';
import { formatDateTime, localTimeZone } from '../lib/format.js';

type Row = Awaited<ReturnType<typeof listRows>>[number];

async function listRows(statuses: ('pending' | 'awaiting_therapist' | 'confirmed')[], to?: string) {
  const pages = await Promise.all(
    statuses.map((status) => ok(api.bookings.list({ query: { status, to, page_size: '100' } }))),
  );
  return pages.flatMap((page) => page.data).sort((a, b) => a.start_at.localeCompare(b.start_at));
}

/** One booking with what the desk can record on it; its detail carries the therapists it was offered to. */
function DeskBooking({ row }: { row: Row }) {
  const detail = useQuery({
    queryKey: ['booking', row.id],
    queryFn: () => ok(api.bookings.get({ params: { id: row.id } })),
  });
  return (
    <li className="card">
      <p>
        <Link href={`/bookings/${row.id}`}>#{row.booking_number}</Link> <Badge value={row.status} />{' '}
        <strong>{formatDateTime(row.start_at, row.venue.timezone)}</strong>
      </p>
      <p>
        {row.treatment.name} · {row.variant.name} for {row.customer.first_name} {row.customer.last_name}
        {row.guest_count > 1 && ` (${row.guest_count} guests)`} · {row.venue.name}
      </p>
      <QueryView query={detail} what="the therapists">
        {({ data }) => <DeskActions booking={data} />}
      </QueryView>
    </li>
  );
}

function DeskList({ rows, empty }: { rows: Row[]; empty: string }) {
  if (rows.length === 0) return <Empty>{empty}</Empty>;
  return (
    <ul className="plain">
      {rows.map((row) => (
        <DeskBooking key={row.id} row={row} />
      ))}
    </ul>
  );
}

export function DeskPage() {
  const me = useMe();
  const today = localDate(me.venues[0]?.timezone ?? localTimeZone);
  const waiting = useQuery({
    queryKey: ['bookings', 'desk', 'waiting'],
    queryFn: () => listRows(['pending', 'awaiting_therapist']),
  });
  const toClose = useQuery({
    queryKey: ['bookings', 'desk', 'to-close', today],
    queryFn: () => listRows(['confirmed'], today),
  });
  return (
    <Layout title="Venue desk">
      <p className="muted">
        {me.role === 'desk'
          ? `Your venues: ${me.venues.map((venue) => venue.name).join(', ') || 'none'}.`
          : 'Every venue of the organisation.'}
      </p>
      <section aria-labelledby="desk-waiting">
        <h2 id="desk-waiting">Waiting for a therapist</h2>
        <QueryView query={waiting} what="bookings waiting for a therapist">
          {(rows) => <DeskList rows={rows} empty="No booking is waiting for a therapist." />}
        </QueryView>
      </section>
      <section aria-labelledby="desk-close">
        <h2 id="desk-close">Confirmed, up to today</h2>
        <QueryView query={toClose} what="confirmed bookings">
          {(rows) => <DeskList rows={rows} empty="No confirmed booking up to today." />}
        </QueryView>
      </section>
    </Layout>
  );
}
