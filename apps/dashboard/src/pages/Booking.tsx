import type { BookingDetail } from '@spa/contract/dashboard';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import { Link, useParams } from 'wouter';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { useMe } from '../api/session.js';
import { Badge } from '../components/Badge.js';
import { DeliveryList } from '../components/DeliveryList.js';
import { DeskActions } from '../components/DeskActions.js';
import { Dialog } from '../components/Dialog.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { useToast } from '../components/Toasts.js';
import { Layout } from '../components/Layout.js';
import { Empty, QueryView } from '../components/States.js';
import { formatDateTime, formatLanguage, formatLogTime, formatMoney, formatTimeRange } from '../lib/format.js';

type Detail = z.infer<typeof BookingDetail>;

/**
 * Cancelling from the dashboard, with the fee each side's tiers would charge shown before confirming (the server
 * computes it again at the moment of cancelling: a tier may change while the dialog is open).
 */
function CancelBooking({ booking }: { booking: Detail }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [cancelledBy, setCancelledBy] = useState<'partner' | 'customer'>('partner');
  const [reason, setReason] = useState('');
  const quote = booking.cancellation_quote!;
  const cancel = useMutation({
    mutationFn: () =>
      ok(api.bookings.cancel({ params: { id: booking.id }, body: { cancelled_by: cancelledBy, reason } })),
    onSuccess: async (next) => {
      setOpen(false);
      queryClient.setQueryData(['booking', booking.id], next);
      toast(`Booking #${booking.booking_number} cancelled; fee ${formatMoney(next.data.cancellation!.fee)}.`);
      await queryClient.invalidateQueries({ queryKey: ['bookings'] });
    },
  });
  const chosen = quote[cancelledBy];
  return (
    <>
      <p>
        Cancelling now costs {formatMoney(quote.partner.fee)} when the partner cancels,{' '}
        {formatMoney(quote.customer.fee)} when the guest does.
      </p>
      <div className="actions">
        <button type="button" className="danger" onClick={() => setOpen(true)}>
          Cancel booking #{booking.booking_number}
        </button>
      </div>
      {cancel.isError && <ErrorNotice error={cancel.error} />}
      <Dialog open={open} title={`Cancel booking #${booking.booking_number}?`} onClose={() => setOpen(false)}>
        <form
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            cancel.mutate();
          }}
        >
          <label>
            Who cancels
            <select
              value={cancelledBy}
              onChange={(event) => setCancelledBy(event.target.value as 'partner' | 'customer')}
              data-autofocus
            >
              <option value="partner">The partner (you)</option>
              <option value="customer">The guest</option>
            </select>
          </label>
          <p>
            Fee: <strong>{formatMoney(chosen.fee)}</strong> ({chosen.fee_percent}%). {chosen.policy}
          </p>
          <label>
            Reason
            <input value={reason} onChange={(event) => setReason(event.target.value)} required maxLength={500} />
          </label>
          <p>The room and the therapist are released at once and the partner is told by webhook.</p>
          <div className="actions">
            <button type="submit" className="danger" disabled={cancel.isPending}>
              {cancel.isPending ? 'Cancelling…' : `Cancel for ${formatMoney(chosen.fee)}`}
            </button>
            <button type="button" onClick={() => setOpen(false)}>
              Keep the booking
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}

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
                    {formatTimeRange(b.start_at, b.end_at, zone)}, {b.variant.duration_minutes} min
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
                  <dt>External reference</dt>
                  <dd>{b.external_reference ?? '—'}</dd>
                  <dt>Guest's language</dt>
                  <dd>{formatLanguage(b.customer.language)}</dd>
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
                  <>
                    <p>Not cancelled.</p>
                    {me.role === 'admin' && b.cancellation_quote && <CancelBooking booking={b} />}
                  </>
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
