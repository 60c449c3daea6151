import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'wouter';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { useMe } from '../api/session.js';
import { Badge } from '../components/Badge.js';
import { DeliveryList } from '../components/DeliveryList.js';
import { DeskActions } from '../components/DeskActions.js';
import { Layout } from '../components/Layout.js';
import { Empty, QueryView } from '../components/States.js';
import { formatDateTime, formatLogTime, formatMoney } from '../lib/format.js';

export function BookingPage() {
  const { id } = useParams<{ id: string }>();
  const me = useMe();
  const booking = useQuery({ queryKey: ['booking', id], queryFn: () => ok(api.bookings.get({ params: { id } })) });
  const title = booking.data ? `Booking #${booking.data.data.booking_number}` : 'Booking';
  return (
    <Layout title={title}>
      <p>
        <Link href="/bookings">All bookings</Link>
      </p>
      <QueryView query={booking} what="the booking">
        {({ data: b }) => {
          const zone = b.venue.timezone;
          return (
            <>
              <section className="card" aria-labelledby="booking-summary">
                <h2 id="booking-summary">
                  {b.treatment.name} · {b.variant.name} <Badge value={b.status} />
                </h2>
                <dl className="facts">
                  <dt>When</dt>
                  <dd>
                    {formatDateTime(b.start_at, zone)} to {formatDateTime(b.end_at, zone)} ({b.variant.duration_minutes}{' '}
                    min)
                  </dd>
                  <dt>Venue</dt>
                  <dd>{b.venue.name}</dd>
                  <dt>Therapist</dt>
                  <dd>{b.therapist ? `${b.therapist.first_name} ${b.therapist.last_name}` : 'Not yet accepted'}</dd>
                  <dt>Price</dt>
                  <dd>
                    {formatMoney(b.total_price)} ({b.payment_method.replace('_', ' ')}, {b.payment_status})
                  </dd>
                  <dt>External id</dt>
                  <dd>{b.external_id ?? '—'}</dd>
                  <dt>Notes</dt>
                  <dd>{b.notes ?? '—'}</dd>
                  <dt>Created</dt>
                  <dd>{formatDateTime(b.created_at, zone)}</dd>
                </dl>
                <DeskActions booking={b} />
              </section>
              <section className="card" aria-labelledby="booking-guests">
                <h2 id="booking-guests">Guests</h2>
                <p>
                  {b.guest_count} guest{b.guest_count === 1 ? '' : 's'}, booked by {b.customer.first_name}{' '}
                  {b.customer.last_name} (<a href={`mailto:${b.customer.email}`}>{b.customer.email}</a>
                  {b.customer.phone && `, ${b.customer.phone}`})
                </p>
              </section>
              <section className="card" aria-labelledby="booking-cancellation">
                <h2 id="booking-cancellation">Cancellation</h2>
                {b.cancellation ? (
                  <dl className="facts">
                    <dt>Cancelled</dt>
                    <dd>
                      {formatDateTime(b.cancellation.cancelled_at, zone)} by {b.cancellation.cancelled_by}
                    </dd>
                    <dt>Reason</dt>
                    <dd>{b.cancellation.reason}</dd>
                    <dt>Fee</dt>
                    <dd>{formatMoney(b.cancellation.fee)}</dd>
                    <dt>Policy</dt>
                    <dd>{b.cancellation.policy}</dd>
                  </dl>
                ) : (
                  <p>Not cancelled.</p>
                )}
              </section>
              <section className="card" aria-labelledby="booking-timeline">
                <h2 id="booking-timeline">Timeline</h2>
                {b.events.length === 0 ? (
                  <Empty>No events yet.</Empty>
                ) : (
                  <ol className="timeline">
                    {b.events.map((event) => (
                      <li key={event.id}>
                        <strong>{event.type}</strong>{' '}
                        <span className="muted">{formatLogTime(event.created_at, zone)}</span>
                      </li>
                    ))}
                  </ol>
                )}
              </section>
              <section className="card" aria-labelledby="booking-deliveries">
                <h2 id="booking-deliveries">Webhook deliveries</h2>
                <DeliveryList deliveries={b.deliveries} timeZone={zone} canReplay={me.role === 'admin'} />
              </section>
            </>
          );
        }}
      </QueryView>
    </Layout>
  );
}
