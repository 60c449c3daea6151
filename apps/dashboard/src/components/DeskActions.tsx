import type { BookingDetail } from '@spa/contract/dashboard';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { z } from 'zod';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { ConfirmDialog } from './Dialog.js';
import { ErrorNotice } from './ErrorNotice.js';

type Booking = z.infer<typeof BookingDetail>;

/** What the venue desk records on a booking: a therapist's acceptance while it waits, then complete or no-show. */
export function DeskActions({ booking }: { booking: Booking }) {
  const queryClient = useQueryClient();
  const [therapistId, setTherapistId] = useState('');
  const [confirm, setConfirm] = useState<'complete' | 'no-show' | undefined>(undefined);
  const params = { params: { id: booking.id } };
  const done = async (next: { data: Booking }) => {
    setConfirm(undefined);
    queryClient.setQueryData(['booking', booking.id], next);
    await queryClient.invalidateQueries({ queryKey: ['bookings'] });
  };
  const accept = useMutation({
    mutationFn: (therapist_id: string) => ok(api.bookings.accept({ ...params, body: { therapist_id } })),
    onSuccess: done,
  });
  const complete = useMutation({ mutationFn: () => ok(api.bookings.complete(params)), onSuccess: done });
  const noShow = useMutation({ mutationFn: () => ok(api.bookings.noShow(params)), onSuccess: done });
  const waiting = booking.status === 'pending' || booking.status === 'awaiting_therapist';
  const error = accept.error ?? complete.error ?? noShow.error;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (therapistId) accept.mutate(therapistId);
  };
  const name = `#${booking.booking_number}`;
  return (
    <div className="desk-actions">
      {waiting &&
        (booking.eligible_therapists.length === 0 ? (
          <p className="muted">No therapist was offered this booking.</p>
        ) : (
          <form className="inline-form" onSubmit={submit}>
            <label>
              Therapist who accepted {name}
              <select value={therapistId} onChange={(event) => setTherapistId(event.target.value)} required>
                <option value="">Choose a therapist</option>
                {booking.eligible_therapists.map((therapist) => (
                  <option key={therapist.id} value={therapist.id}>
                    {therapist.first_name} {therapist.last_name}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="primary" disabled={accept.isPending || !therapistId}>
              {accept.isPending ? 'Recording…' : 'Record acceptance'}
            </button>
          </form>
        ))}
      {booking.status === 'confirmed' && (
        <div className="actions">
          <button type="button" className="primary" onClick={() => setConfirm('complete')}>
            Mark {name} completed
          </button>
          <button type="button" className="danger" onClick={() => setConfirm('no-show')}>
            Mark {name} no-show
          </button>
        </div>
      )}
      {error && <ErrorNotice error={error} />}
      <ConfirmDialog
        open={confirm === 'complete'}
        title={`Mark booking ${name} completed?`}
        confirmLabel="Mark completed"
        busy={complete.isPending}
        onCancel={() => setConfirm(undefined)}
        onConfirm={() => complete.mutate()}
      >
        <p>The treatment took place. The partner is told at once; this cannot be undone.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'no-show'}
        title={`Mark booking ${name} as a no-show?`}
        confirmLabel="Mark no-show"
        busy={noShow.isPending}
        onCancel={() => setConfirm(undefined)}
        onConfirm={() => noShow.mutate()}
      >
        <p>The guest did not come. The partner is told at once; this cannot be undone.</p>
      </ConfirmDialog>
    </div>
  );
}
