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
import { RescheduleBooking } from '../components/RescheduleBooking.js';
import { useToast } from '../components/Toasts.js';
import { Layout } from '../components/Layout.js';
import { Empty, QueryView } from '../components/States.js';
import type { MessageKey } from '../i18n/en.js';
import { useT } from '../i18n/i18n.js';
import { formatDateTime, formatLanguage, formatLogTime, formatMoney, formatTimeRange } from '../lib/format.js';

type Detail = z.infer<typeof BookingDetail>;

/**
 * Cancelling from the dashboard, with the fee each side's tiers would charge shown before confirming (the server
 * computes it again at the moment of cancelling: a tier may change while the dialog is open).
 */
function CancelBooking({ booking }: { booking: Detail }) {
  const t = useT();
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
      toast(
        t('booking.toastCancelled', {
          number: booking.booking_number,
          fee: formatMoney(next.data.cancellation!.fee),
        }),
      );
      await queryClient.invalidateQueries({ queryKey: ['bookings'] });
    },
  });
  const chosen = quote[cancelledBy];
  return (
    <>
      <p>
        {t('booking.quote', { partner: formatMoney(quote.partner.fee), customer: formatMoney(quote.customer.fee) })}
      </p>
      <div className="actions">
        <button type="button" className="danger" onClick={() => setOpen(true)}>
          {t('booking.cancel', { number: booking.booking_number })}
        </button>
      </div>
      {cancel.isError && <ErrorNotice error={cancel.error} />}
      <Dialog
        open={open}
        title={t('booking.cancelConfirm', { number: booking.booking_number })}
        onClose={() => setOpen(false)}
      >
        <form
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            cancel.mutate();
          }}
        >
          <label>
            {t('booking.whoCancels')}
            <select
              value={cancelledBy}
              onChange={(event) => setCancelledBy(event.target.value as 'partner' | 'customer')}
              data-autofocus
            >
              <option value="partner">{t('booking.whoPartner')}</option>
              <option value="customer">{t('booking.whoCustomer')}</option>
            </select>
          </label>
          <p>
            {t('booking.feeLine', { fee: formatMoney(chosen.fee), percent: chosen.fee_percent })}{' '}
            <span lang="en">{chosen.policy}</span>
          </p>
          <label>
            {t('booking.reason')}
            <input value={reason} onChange={(event) => setReason(event.target.value)} required maxLength={500} />
          </label>
          <p>{t('booking.released')}</p>
          <div className="actions">
            <button type="submit" className="danger" disabled={cancel.isPending}>
              {cancel.isPending ? t('booking.cancelling') : t('booking.cancelFor', { fee: formatMoney(chosen.fee) })}
            </button>
            <button type="button" onClick={() => setOpen(false)}>
              {t('booking.keep')}
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
  const t = useT();
  const booking = useQuery({ queryKey: ['booking', id], queryFn: () => ok(api.bookings.get({ params: { id } })) });
  // Open enums: a value this page does not know yet is shown as the server sends it.
  const word = (prefix: string, value: string) => {
    const key = `${prefix}.${value}` as MessageKey;
    const text = t(key);
    return text === key ? value.replace(/_/g, ' ') : text;
  };
  const paymentWord = (value: string) => word('booking.payment', value);
  const byWord = (value: string) => word('booking.by', value);
  const title = booking.data
    ? t('booking.titleNumber', { number: booking.data.data.booking_number })
    : t('booking.title');
  return (
    <Layout title={title}>
      <p>
        <Link href="/bookings">{t('booking.all')}</Link>
      </p>
      <QueryView query={booking} what={t('booking.what')}>
        {({ data: b }) => {
          const zone = b.venue.timezone;
          return (
            <>
              <section className="card" aria-labelledby="booking-summary">
                <h2 id="booking-summary">
                  {b.treatment.name} · {b.variant.name} <Badge value={b.status} />
                </h2>
                <dl className="facts">
                  <dt>{t('common.when')}</dt>
                  <dd>
                    {formatTimeRange(b.start_at, b.end_at, zone)}, {b.variant.duration_minutes} min
                  </dd>
                  <dt>{t('common.venue')}</dt>
                  <dd>{b.venue.name}</dd>
                  <dt>{t('booking.therapist')}</dt>
                  <dd>
                    {b.therapist ? `${b.therapist.first_name} ${b.therapist.last_name}` : t('booking.notAccepted')}
                  </dd>
                  <dt>{t('booking.price')}</dt>
                  <dd>
                    {formatMoney(b.total_price)} ({paymentWord(b.payment_method)}, {paymentWord(b.payment_status)})
                  </dd>
                  <dt>{t('booking.externalId')}</dt>
                  <dd>{b.external_id ?? '—'}</dd>
                  <dt>{t('booking.externalReference')}</dt>
                  <dd>{b.external_reference ?? '—'}</dd>
                  <dt>{t('booking.language')}</dt>
                  <dd>{formatLanguage(b.customer.language)}</dd>
                  <dt>{t('booking.notes')}</dt>
                  <dd>{b.notes ?? '—'}</dd>
                  <dt>{t('common.created')}</dt>
                  <dd>{formatDateTime(b.created_at, zone)}</dd>
                </dl>
                <DeskActions booking={b} />
              </section>
              {me.role === 'admin' &&
                ['pending', 'awaiting_therapist', 'confirmed'].includes(b.status) &&
                Date.parse(b.start_at) > Date.now() && (
                  <section className="card" aria-labelledby="booking-reschedule">
                    <h2 id="booking-reschedule">{t('reschedule.title')}</h2>
                    <RescheduleBooking booking={b} />
                  </section>
                )}
              <section className="card" aria-labelledby="booking-guests">
                <h2 id="booking-guests">{t('booking.guests')}</h2>
                <p>
                  {t.plural('booking.bookedBy', b.guest_count, {
                    customer: `${b.customer.first_name} ${b.customer.last_name}`,
                  })}{' '}
                  (<a href={`mailto:${b.customer.email}`}>{b.customer.email}</a>
                  {b.customer.phone && `, ${b.customer.phone}`})
                </p>
              </section>
              <section className="card" aria-labelledby="booking-cancellation">
                <h2 id="booking-cancellation">{t('booking.cancellation')}</h2>
                {b.cancellation ? (
                  <dl className="facts">
                    <dt>{t('booking.cancelled')}</dt>
                    <dd>
                      {t('booking.cancelledAt', {
                        when: formatDateTime(b.cancellation.cancelled_at, zone),
                        who: byWord(b.cancellation.cancelled_by),
                      })}
                    </dd>
                    <dt>{t('booking.reason')}</dt>
                    <dd>{b.cancellation.reason}</dd>
                    <dt>{t('booking.fee')}</dt>
                    <dd>{formatMoney(b.cancellation.fee)}</dd>
                    <dt>{t('booking.policy')}</dt>
                    <dd lang="en">{b.cancellation.policy}</dd>
                  </dl>
                ) : (
                  <>
                    <p>{t('booking.notCancelled')}</p>
                    {me.role === 'admin' && b.cancellation_quote && <CancelBooking booking={b} />}
                  </>
                )}
              </section>
              <section className="card" aria-labelledby="booking-timeline">
                <h2 id="booking-timeline">{t('booking.timeline')}</h2>
                {b.events.length === 0 ? (
                  <Empty>{t('booking.noEvents')}</Empty>
                ) : (
                  <ol className="timeline">
                    {b.events.map((event) => (
                      <li key={event.id}>
                        <strong translate="no">{event.type}</strong>{' '}
                        <span className="muted">{formatLogTime(event.created_at, zone)}</span>
                      </li>
                    ))}
                  </ol>
                )}
              </section>
              <section className="card" aria-labelledby="booking-deliveries">
                <h2 id="booking-deliveries">{t('booking.deliveries')}</h2>
                <DeliveryList deliveries={b.deliveries} timeZone={zone} canReplay={me.role === 'admin'} />
              </section>
            </>
          );
        }}
      </QueryView>
    </Layout>
  );
}
