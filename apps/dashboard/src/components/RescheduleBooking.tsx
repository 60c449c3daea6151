import type { BookingDetail } from '@spa/contract/dashboard';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { z } from 'zod';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { useT } from '../i18n/i18n.js';
import { formatDateTime } from '../lib/format.js';
import { ErrorNotice } from './ErrorNotice.js';
import { QueryView } from './States.js';
import { useToast } from './Toasts.js';

type Detail = z.infer<typeof BookingDetail>;

/** The venue-local day of an instant (YYYY-MM-DD), where the day's slots are asked for. */
function localDay(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(iso),
  );
}

/**
 * Moving a booking to another time (admins): a day, that day's slots for its variant and guests, then the move. The
 * server decides again at the moment of moving, so a slot taken meanwhile or a fee window reached is said in a
 * sentence.
 */
export function RescheduleBooking({ booking }: { booking: Detail }) {
  const t = useT();
  const toast = useToast();
  const queryClient = useQueryClient();
  const zone = booking.venue.timezone;
  const [day, setDay] = useState(() => localDay(booking.start_at, zone));
  const [startAt, setStartAt] = useState('');
  const slots = useQuery({
    queryKey: ['booking', booking.id, 'slots', day],
    queryFn: () => ok(api.bookings.slots({ params: { id: booking.id }, query: { date: day } })),
    enabled: /^\d{4}-\d{2}-\d{2}$/.test(day),
  });
  const move = useMutation({
    mutationFn: (start_at: string) => ok(api.bookings.reschedule({ params: { id: booking.id }, body: { start_at } })),
    onSuccess: async (next) => {
      setStartAt('');
      queryClient.setQueryData(['booking', booking.id], next);
      toast(
        t('reschedule.toast', {
          number: booking.booking_number,
          when: formatDateTime(next.data.start_at, zone),
        }),
      );
      await queryClient.invalidateQueries({ queryKey: ['bookings'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (startAt) move.mutate(startAt);
  };
  return (
    <form className="form" onSubmit={submit} aria-label={t('reschedule.title')}>
      <label>
        {t('reschedule.day')}
        <input
          type="date"
          value={day}
          onChange={(event) => {
            setDay(event.target.value);
            setStartAt('');
          }}
          required
        />
      </label>
      <QueryView query={slots} what={t('reschedule.what')}>
        {({ data }) =>
          data.slots.length === 0 ? (
            <p className="muted">{t('reschedule.none')}</p>
          ) : (
            <fieldset className="slot-picker">
              <legend>{t('reschedule.slots')}</legend>
              {data.slots.map((slot) => (
                <label key={slot.start_at}>
                  <input
                    type="radio"
                    name="reschedule-slot"
                    value={slot.start_at}
                    checked={startAt === slot.start_at}
                    onChange={() => setStartAt(slot.start_at)}
                  />{' '}
                  {slot.local_time}
                </label>
              ))}
            </fieldset>
          )
        }
      </QueryView>
      {move.isError && <ErrorNotice error={move.error} />}
      <div className="actions">
        <button type="submit" className="primary" disabled={!startAt || move.isPending}>
          {move.isPending ? t('reschedule.moving') : t('reschedule.confirm', { number: booking.booking_number })}
        </button>
      </div>
    </form>
  );
}
