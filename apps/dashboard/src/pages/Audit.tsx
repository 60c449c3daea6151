import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { AdminOnly, Layout } from '../components/Layout.js';
import { Pager } from '../components/Pager.js';
import { Empty, QueryView } from '../components/States.js';
import { formatLogTime, localTimeZone } from '../lib/format.js';

/** "webhook_endpoint.secret_rotated" reads as "webhook endpoint: secret rotated". */
function actionLabel(action: string): string {
  const [subject = action, verb = ''] = action.split('.');
  return `${subject.replace(/_/g, ' ')}: ${verb.replace(/_/g, ' ')}`;
}

function AuditPanel() {
  const [page, setPage] = useState(1);
  const events = useQuery({
    queryKey: ['audit-events', page],
    queryFn: () => ok(api.auditEvents.list({ query: { page: String(page), page_size: '50' } })),
    placeholderData: keepPreviousData,
  });
  return (
    <QueryView query={events} what="the audit log">
      {({ data, pagination }) =>
        data.length === 0 ? (
          <Empty>Nothing recorded yet.</Empty>
        ) : (
          <>
            <div className="table-wrap">
              <table className="audit">
                <caption className="visually-hidden">Audit log, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">When ({localTimeZone})</th>
                    <th scope="col">Who</th>
                    <th scope="col">What</th>
                    <th scope="col">Target</th>
                    <th scope="col">From</th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((event) => (
                    <tr key={event.id}>
                      <td>{formatLogTime(event.created_at, localTimeZone)}</td>
                      <td>{event.actor.type === 'person' ? event.actor.email : 'operator (CLI)'}</td>
                      <td data-action={event.action}>{actionLabel(event.action)}</td>
                      <td>
                        {event.target ? (
                          <>
                            {event.target.type.replace(/_/g, ' ')} <code>{event.target.id}</code>
                          </>
                        ) : (
                          '—'
                        )}
                      </td>
                      <td>
                        {event.ip ?? '—'}
                        {event.user_agent && <div className="muted ua">{event.user_agent}</div>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager pagination={pagination} onPage={setPage} />
          </>
        )
      }
    </QueryView>
  );
}

export function AuditPage() {
  return (
    <Layout title="Audit log">
      <AdminOnly>
        <AuditPanel />
      </AdminOnly>
    </Layout>
  );
}
