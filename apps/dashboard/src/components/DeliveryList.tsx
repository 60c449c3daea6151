import type { WebhookDelivery } from '@spa/contract/dashboard';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import type { z } from 'zod';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { formatDuration, formatLogTime } from '../lib/format.js';
import { Badge } from './Badge.js';
import { type Column, DataTable } from './DataTable.js';
import { ErrorNotice } from './ErrorNotice.js';
import { Empty } from './States.js';

type Delivery = z.infer<typeof WebhookDelivery>;

const attemptColumns = (timeZone: string): Column<Delivery['attempts'][number]>[] => [
  { label: 'Attempt', cell: (attempt) => attempt.attempt },
  { label: 'When', cell: (attempt) => formatLogTime(attempt.attempted_at, timeZone) },
  { label: 'Answer', cell: (attempt) => (attempt.status_code === null ? 'none' : `HTTP ${attempt.status_code}`) },
  { label: 'Duration', cell: (attempt) => formatDuration(attempt.duration_ms) },
  { label: 'Error', cell: (attempt) => attempt.error ?? '—' },
];

function Replay({ delivery }: { delivery: Delivery }) {
  const queryClient = useQueryClient();
  const replay = useMutation({
    mutationFn: () => ok(api.webhookDeliveries.replay({ params: { event_id: delivery.event_id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhook-deliveries'] }),
  });
  return (
    <>
      <button type="button" onClick={() => replay.mutate()} disabled={replay.isPending}>
        {replay.isPending ? 'Replaying…' : 'Replay'}
      </button>
      {replay.data && (
        <span role="status" className="notice-inline">
          Queued again for {replay.data.data.deliveries} endpoint{replay.data.data.deliveries === 1 ? '' : 's'}.
        </span>
      )}
      {replay.isError && <ErrorNotice error={replay.error} />}
    </>
  );
}

/** Deliveries with every attempt (when, answer, duration, error); `canReplay` for admins. */
export function DeliveryList({
  deliveries,
  timeZone,
  canReplay,
}: {
  deliveries: Delivery[];
  timeZone: string;
  canReplay: boolean;
}) {
  if (deliveries.length === 0) return <Empty>No deliveries.</Empty>;
  return (
    <ul className="plain deliveries">
      {deliveries.map((delivery) => (
        <li key={`${delivery.event_id}-${delivery.endpoint.id}`} className="card delivery">
          <div className="delivery-head">
            <Badge value={delivery.status} /> <strong>{delivery.event_type}</strong> <span className="muted">to</span>{' '}
            <code>{delivery.endpoint.url}</code>
          </div>
          <p className="muted">
            Event <code>{delivery.event_id}</code> · {formatLogTime(delivery.created_at, timeZone)}
            {delivery.booking_id && (
              <>
                {' · '}
                <Link href={`/bookings/${delivery.booking_id}`}>booking</Link>
              </>
            )}
            {delivery.next_attempt_at && ` · next attempt ${formatLogTime(delivery.next_attempt_at, timeZone)}`}
          </p>
          {delivery.attempts.length > 0 && (
            <DataTable
              caption={`Attempts of event ${delivery.event_id}`}
              columns={attemptColumns(timeZone)}
              rows={delivery.attempts}
              rowKey={(attempt) => attempt.attempt}
            />
          )}
          {canReplay && (
            <div className="actions">
              <Replay delivery={delivery} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
