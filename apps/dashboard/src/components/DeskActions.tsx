import type { BookingDetail, DeskBooking } from '@spa/contract/dashboard';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { z } from 'zod';
import { api } from '../api/client.js';
import { ApiError, ok } from '../api/result.js';
import { useT } from '../i18n/i18n.js';
import { ConfirmDialog } from './Dialog.js';
import { ErrorNotice } from './ErrorNotice.js';
import { useToast } from './Toasts.js';

type Booking = z.infer<typeof BookingDetail> | z.infer<typeof DeskBooking>;

/**
 * What the venue desk records on a booking: a therapist's acceptance while it waits (for several guests, how many
 * have accepted so far; the list offers only those who have not), then (once it has started)
 * complete or no-show. Each action ends in a toast saying what was recorded; a refusal closes the dialog and is
 * shown beside the buttons.
 */
export function DeskActions({ booking, now = Date.now() }: { booking: Booking; now?: number }) {
  const t = useT();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [therapistId, setTherapistId] = useState('');
  const [confirm, setConfirm] = useState<'complete' | 'no-show' | undefined>(undefined);
  const params = { params: { id: booking.id } };
  const name = `#${booking.booking_number}`;
  const done = (message: string) => async (next: { data: z.infer<typeof BookingDetail> }) => {
    setConfirm(undefined);
    toast(message);
    queryClient.setQueryData(['booking', booking.id], next);
    await queryClient.invalidateQueries({ queryKey: ['bookings'] });
  };
  const therapistName = () => {
    const therapist = booking.eligible_therapists.find((th) => th.id === therapistId);
    return therapist ? `${therapist.first_name} ${therapist.last_name}` : '';
  };
  const accept = useMutation({
    mutationFn: (therapist_id: string) => ok(api.bookings.accept({ ...params, body: { therapist_id } })),
    onSuccess: (next) => done(t('desk.toastAccepted', { name, therapist: therapistName() }))(next),
  });
  const closeDialog = () => setConfirm(undefined);
  const complete = useMutation({
    mutationFn: () => ok(api.bookings.complete(params)),
    onSuccess: done(t('desk.toastCompleted', { name })),
    onError: closeDialog,
  });
  const noShow = useMutation({
    mutationFn: () => ok(api.bookings.noShow(params)),
    onSuccess: done(t('desk.toastNoShow', { name })),
    onError: closeDialog,
  });
  const waiting = booking.status === 'pending' || booking.status === 'awaiting_therapist';
  const started = Date.parse(booking.start_at) <= now;
  const error = accept.error ?? complete.error ?? noShow.error;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (therapistId) accept.mutate(therapistId);
  };
  return (
    <div className="desk-actions">
      {waiting && booking.guest_count > 1 && (
        <p className="accepted-progress">
          {t.plural('desk.accepted', booking.guest_count, { accepted: booking.therapists_accepted })}
        </p>
      )}
      {waiting &&
        (booking.eligible_therapists.length === 0 ? (
          <p className="muted">{t('desk.noOffer')}</p>
        ) : (
          <form className="inline-form" onSubmit={submit}>
            <label>
              {t('desk.therapistWho', { name })}
              <select value={therapistId} onChange={(event) => setTherapistId(event.target.value)} required>
                <option value="">{t('desk.chooseTherapist')}</option>
                {booking.eligible_therapists.map((therapist) => (
                  <option key={therapist.id} value={therapist.id}>
                    {therapist.first_name} {therapist.last_name}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="primary" disabled={accept.isPending || !therapistId}>
              {accept.isPending ? t('desk.recording') : t('desk.recordAcceptance')}
            </button>
          </form>
        ))}
      {booking.status === 'confirmed' &&
        (started ? (
          <div className="actions">
            <button type="button" className="primary" onClick={() => setConfirm('complete')}>
              {t('desk.markCompleted', { name })}
            </button>
            <button type="button" className="danger" onClick={() => setConfirm('no-show')}>
              {t('desk.markNoShow', { name })}
            </button>
          </div>
        ) : (
          <p className="muted">{t('desk.notStartedYet')}</p>
        ))}
      {error && <ErrorNotice error={refusalInWords(error, t, name)} />}
      <ConfirmDialog
        open={confirm === 'complete'}
        title={t('desk.confirmCompleted', { name })}
        confirmLabel={t('desk.confirmCompletedButton')}
        busy={complete.isPending}
        onCancel={closeDialog}
        onConfirm={() => complete.mutate()}
      >
        <p>{t('desk.confirmCompletedBody')}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'no-show'}
        title={t('desk.confirmNoShow', { name })}
        confirmLabel={t('desk.confirmNoShowButton')}
        busy={noShow.isPending}
        onCancel={closeDialog}
        onConfirm={() => noShow.mutate()}
      >
        <p>{t('desk.confirmNoShowBody')}</p>
      </ConfirmDialog>
    </div>
  );
}

/** A refusal the server codes (`not_started`) in the reader's language; others as the server says them. */
function refusalInWords(error: Error, t: ReturnType<typeof useT>, name: string): Error {
  if (error instanceof ApiError && error.code === 'not_started')
    return new ApiError(t('refusal.not_started', { name }), error.status, error.requestId, error.details, error.code);
  return error;
}
