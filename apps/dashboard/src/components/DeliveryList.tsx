import type { WebhookDelivery } from '@spa/contract/dashboard';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import type { z } from 'zod';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { formatDuration, formatLogTime } from '../lib/format.js';
import { Badge } from './Badge.js';
import { type Column, DataTable } from './DataTable.js';
import { ErrorNotice } from './ErrorNotice.js';
import { Empty, QueryView } from './States.js';
import { useToast } from './Toasts.js';

type Delivery = z.infer<typeof WebhookDelivery>;

const attemptColumns = (timeZone: string): Column<Delivery['attempts'][number]>[] => [
  { label: 'Attempt', cell: (attempt) => `${attempt.attempt}${attempt.manual ? ' (manual)' : ''}` },
  { label: 'When', cell: (attempt) => formatLogTime(attempt.attempted_at, timeZone) },
  { label: 'Answer', cell: (attempt) => (attempt.status_code === null ? 'none' : `HTTP ${attempt.status_code}`) },
  { label: 'Duration', cell: (attempt) => formatDuration(attempt.duration_ms) },
  { label: 'Error', cell: (attempt) => attempt.error ?? '—' },
];

/**
 * Replays this delivery to its endpoint alone. The outcome is a toast, not a line in the card: the replayed
 * delivery is pending again and may leave a list filtered on its old status, card and all.
 */
function Replay({ delivery }: { delivery: Delivery }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const replay = useMutation({
    mutationFn: () =>
      ok(
        api.webhookDeliveries.replay({
          params: { event_id: delivery.event_id },
          body: { endpoint_id: delivery.endpoint.id },
        }),
      ),
    onSuccess: async ({ data }) => {
      toast(
        data.deliveries === 0
          ? `${delivery.event_type} was not queued again: ${delivery.endpoint.url} is disabled.`
          : `${delivery.event_type} queued again for ${delivery.endpoint.url}.`,
      );
      await queryClient.invalidateQueries({ queryKey: ['webhook-deliveries'] });
      await queryClient.invalidateQueries({ queryKey: ['booking'] });
    },
  });
  return (
    <>
      <button type="button" onClick={() => replay.mutate()} disabled={replay.isPending}>
        {replay.isPending ? 'Replaying…' : 'Replay to this endpoint'}
      </button>
      {replay.isError && <ErrorNotice error={replay.error} />}
    </>
  );
}

/** The body sent and each attempt's answer (its first 4 kB), read when asked for. */
function DeliveryDetail({ delivery }: { delivery: Delivery }) {
  const [open, setOpen] = useState(false);
  const detail = useQuery({
    enabled: open,
    queryKey: ['webhook-deliveries', 'detail', delivery.event_id, delivery.endpoint.id],
    queryFn: () =>
      ok(
        api.webhookDeliveries.get({
          params: { event_id: delivery.event_id, endpoint_id: delivery.endpoint.id },
        }),
      ),
  });
  return (
    <div className="delivery-detail">
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide the request and answers' : 'Show the request and answers'}
      </button>
      {open && (
        <QueryView query={detail} what="the delivery">
          {({ data }) => (
            <>
              <h4>Request body</h4>
              <pre>{pretty(data.request_body)}</pre>
              {data.attempts.map((attempt) => (
                <div key={attempt.attempt}>
                  <h4>
                    Answer to attempt {attempt.attempt}
                    {attempt.manual ? ' (manual)' : ''}:{' '}
                    {attempt.status_code === null ? 'none' : `HTTP ${attempt.status_code}`}
                  </h4>
                  {attempt.response_body ? <pre>{attempt.response_body}</pre> : <p className="muted">No body.</p>}
                </div>
              ))}
            </>
          )}
        </QueryView>
      )}
    </div>
  );
}

function pretty(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
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
          {canReplay && <DeliveryDetail delivery={delivery} />}
        </li>
      ))}
    </ul>
  );
}
