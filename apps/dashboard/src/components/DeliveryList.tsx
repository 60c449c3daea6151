import type { WebhookDelivery } from '@spa/contract/dashboard';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import type { z } from 'zod';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { type Translate, useT } from '../i18n/i18n.js';
import { formatDuration, formatLogTime } from '../lib/format.js';
import { Badge } from './Badge.js';
import { type Column, DataTable } from './DataTable.js';
import { ErrorNotice } from './ErrorNotice.js';
import { Empty, QueryView } from './States.js';
import { useToast } from './Toasts.js';

type Delivery = z.infer<typeof WebhookDelivery>;

/** An attempt's answer: its HTTP status, or none (a timeout, a refused connection). */
const answer = (t: Translate, code: number | null) =>
  code === null ? t('delivery.noAnswer') : t('delivery.http', { code });

const attemptColumns = (t: Translate, timeZone: string): Column<Delivery['attempts'][number]>[] => [
  {
    label: t('delivery.attempt'),
    cell: (attempt) => (attempt.manual ? t('delivery.manual', { attempt: attempt.attempt }) : attempt.attempt),
  },
  { label: t('common.when'), cell: (attempt) => formatLogTime(attempt.attempted_at, timeZone) },
  { label: t('delivery.answer'), cell: (attempt) => answer(t, attempt.status_code) },
  { label: t('delivery.duration'), cell: (attempt) => formatDuration(attempt.duration_ms) },
  // The receiver's or the network's own words, as the server recorded them.
  { label: t('delivery.error'), cell: (attempt) => (attempt.error ? <span lang="en">{attempt.error}</span> : '—') },
];

/**
 * Replays this delivery to its endpoint alone. The outcome is a toast, not a line in the card: the replayed
 * delivery is pending again and may leave a list filtered on its old status, card and all.
 */
function Replay({ delivery }: { delivery: Delivery }) {
  const t = useT();
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
        t(data.deliveries === 0 ? 'delivery.notReplayed' : 'delivery.replayed', {
          type: delivery.event_type,
          url: delivery.endpoint.url,
        }),
      );
      await queryClient.invalidateQueries({ queryKey: ['webhook-deliveries'] });
      await queryClient.invalidateQueries({ queryKey: ['booking'] });
    },
  });
  return (
    <>
      <button type="button" onClick={() => replay.mutate()} disabled={replay.isPending}>
        {replay.isPending ? t('delivery.replaying') : t('delivery.replay')}
      </button>
      {replay.isError && <ErrorNotice error={replay.error} />}
    </>
  );
}

/** The body sent and each attempt's answer (its first 4 kB), read when asked for. */
function DeliveryDetail({ delivery }: { delivery: Delivery }) {
  const t = useT();
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
        {open ? t('delivery.hide') : t('delivery.show')}
      </button>
      {open && (
        <QueryView query={detail} what={t('delivery.what')}>
          {({ data }) => (
            <>
              <h4>{t('delivery.requestBody')}</h4>
              <pre>{pretty(data.request_body)}</pre>
              {data.attempts.map((attempt) => (
                <div key={attempt.attempt}>
                  <h4>
                    {t(attempt.manual ? 'delivery.answerToManual' : 'delivery.answerTo', {
                      attempt: attempt.attempt,
                      answer: answer(t, attempt.status_code),
                    })}
                  </h4>
                  {attempt.response_body ? (
                    <pre>{attempt.response_body}</pre>
                  ) : (
                    <p className="muted">{t('delivery.noBody')}</p>
                  )}
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
  const t = useT();
  if (deliveries.length === 0) return <Empty>{t('delivery.none')}</Empty>;
  return (
    <ul className="plain deliveries">
      {deliveries.map((delivery) => (
        <li key={`${delivery.event_id}-${delivery.endpoint.id}`} className="card delivery">
          <div className="delivery-head">
            <Badge value={delivery.status} /> <strong translate="no">{delivery.event_type}</strong>{' '}
            <span className="muted">{t('delivery.to')}</span> <code>{delivery.endpoint.url}</code>
          </div>
          <p className="muted">
            {t('delivery.event')} <code>{delivery.event_id}</code> · {formatLogTime(delivery.created_at, timeZone)}
            {delivery.booking_id && (
              <>
                {' · '}
                <Link href={`/bookings/${delivery.booking_id}`}>{t('delivery.booking')}</Link>
              </>
            )}
            {delivery.next_attempt_at &&
              ` · ${t('delivery.next', { when: formatLogTime(delivery.next_attempt_at, timeZone) })}`}
          </p>
          {delivery.attempts.length > 0 && (
            <DataTable
              caption={t('delivery.attempts', { id: delivery.event_id })}
              columns={attemptColumns(t, timeZone)}
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
