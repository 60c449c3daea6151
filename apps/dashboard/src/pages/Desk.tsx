import { DESK_EVENTS_PATH, type DeskBooking } from '@spa/contract/dashboard';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { z } from 'zod';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { useMe } from '../api/session.js';
import { Badge } from '../components/Badge.js';
import { DeskActions } from '../components/DeskActions.js';
import { EmailAddress } from '../components/EmailAddress.js';
import { Layout } from '../components/Layout.js';
import { Empty, QueryView } from '../components/States.js';
import { useT } from '../i18n/i18n.js';
import { formatDateTime, formatDay, formatLanguage } from '../lib/format.js';

const DESK = ['bookings', 'desk'] as const;
/** Without live events (none from this server, or the stream broken), the desk is read again this often. */
const POLL_MS = 30_000;

type Booking = z.infer<typeof DeskBooking>;

/**
 * Live updates: the server's event stream says when a booking of one of the person's venues may have changed (the
 * notices the availability cache follows), and the desk is read again, in one call. While the stream is down the
 * desk is read every 30 s, and only while the page is visible. Answers whether the stream is live.
 */
function useDeskUpdates(onChange: () => void): boolean {
  const [live, setLive] = useState(false);
  const changed = useRef(onChange);
  changed.current = onChange;
  useEffect(() => {
    const source = new EventSource(DESK_EVENTS_PATH);
    source.addEventListener('ready', (event: MessageEvent<string>) =>
      setLive((JSON.parse(event.data) as { live: boolean }).live),
    );
    source.addEventListener('change', () => changed.current());
    source.addEventListener('ended', () => {
      source.close();
      changed.current();
    });
    source.onerror = () => setLive(false);
    return () => source.close();
  }, []);
  useEffect(() => {
    if (live) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') changed.current();
    }, POLL_MS);
    const onVisible = () => document.visibilityState === 'visible' && changed.current();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [live]);
  return live;
}

function DeskCard({ booking, now }: { booking: Booking; now: number }) {
  const t = useT();
  const customer = `${booking.customer.first_name} ${booking.customer.last_name}`;
  return (
    <li className="card" data-booking={booking.booking_number}>
      <p>
        <Link href={`/bookings/${booking.id}`}>#{booking.booking_number}</Link> <Badge value={booking.status} />{' '}
        <strong>{formatDateTime(booking.start_at, booking.venue.timezone)}</strong>
      </p>
      <p>
        {t('desk.for', { treatment: booking.treatment.name, variant: booking.variant.name, customer })}
        {booking.guest_count > 1 && ` (${t.plural('desk.guests', booking.guest_count)})`} · {booking.venue.name}
      </p>
      <p className="muted">
        <EmailAddress address={booking.customer.email} /> ·{' '}
        {t('desk.language', {
          language: formatLanguage(booking.customer.language),
        })}
        {booking.external_reference && ` · ${t('desk.reference', { reference: booking.external_reference })}`}
      </p>
      {booking.notes && <p>{t('desk.notes', { notes: booking.notes })}</p>}
      <DeskActions booking={booking} now={now} />
    </li>
  );
}

function DeskList({ list, empty, now }: { list: { bookings: Booking[]; more: number }; empty: string; now: number }) {
  const t = useT();
  if (list.bookings.length === 0) return <Empty>{empty}</Empty>;
  return (
    <>
      <ul className="plain">
        {list.bookings.map((booking) => (
          <DeskCard key={booking.id} booking={booking} now={now} />
        ))}
      </ul>
      {list.more > 0 && (
        <p>
          <Link href="/bookings">{t.plural('desk.more', list.more)}</Link>
        </p>
      )}
    </>
  );
}

export function DeskPage() {
  const me = useMe();
  const t = useT();
  const queryClient = useQueryClient();
  const desk = useQuery({ queryKey: DESK, queryFn: () => ok(api.bookings.desk()) });
  const [announcement, setAnnouncement] = useState('');
  const live = useDeskUpdates(() => {
    void queryClient.invalidateQueries({ queryKey: DESK }).then(() => setAnnouncement(t('desk.changed')));
  });
  const waitingCount = desk.data ? desk.data.data.waiting.bookings.length + desk.data.data.waiting.more : 0;
  // The count in the tab's title: a desk person with another tab in front sees the queue grow.
  useEffect(() => {
    const before = document.title;
    document.title = waitingCount > 0 ? t.plural('desk.titleCount', waitingCount) : t('desk.title');
    return () => {
      document.title = before;
    };
  }, [waitingCount, t]);
  const venueName = (id: string) => me.venues.find((venue) => venue.id === id)?.name ?? '';
  const now = desk.dataUpdatedAt || Date.now();
  return (
    <Layout title={t('desk.title')}>
      <p className="muted">
        {me.role === 'desk'
          ? t('desk.yourVenues', { venues: me.venues.map((venue) => venue.name).join(', ') || '—' })
          : t('desk.everyVenue')}{' '}
        {live ? t('desk.live') : t('desk.polling')}
      </p>
      <p className="visually-hidden-live" role="status" aria-live="polite">
        {announcement}
      </p>
      <QueryView query={desk} what={t('desk.title')}>
        {({ data }) => (
          <>
            <section aria-labelledby="desk-waiting">
              <h2 id="desk-waiting">{t('desk.waiting')}</h2>
              <DeskList list={data.waiting} empty={t('desk.waitingEmpty')} now={now} />
            </section>
            <section aria-labelledby="desk-close">
              <h2 id="desk-close">{t('desk.toClose')}</h2>
              <DeskList list={data.to_close} empty={t('desk.toCloseEmpty')} now={now} />
            </section>
            <section aria-labelledby="desk-agenda">
              <h2 id="desk-agenda">{t('desk.agenda')}</h2>
              {data.agenda.map((day) => (
                <section key={`${day.venue_id}-${day.date}`} aria-label={`${venueName(day.venue_id)} ${day.date}`}>
                  <h3>{t('desk.agendaDay', { venue: venueName(day.venue_id), day: formatDay(day.date) })}</h3>
                  <DeskList list={day} empty={t('desk.agendaEmpty')} now={now} />
                </section>
              ))}
            </section>
          </>
        )}
      </QueryView>
    </Layout>
  );
}
