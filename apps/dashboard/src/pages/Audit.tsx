import type { AuditEvent } from '@spa/contract/dashboard';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { type Column, DataTable } from '../components/DataTable.js';
import { AdminOnly, Layout } from '../components/Layout.js';
import { Pager } from '../components/Pager.js';
import { Empty, QueryView } from '../components/States.js';
import { formatLogTime, localTimeZone } from '../lib/format.js';

/** "webhook_endpoint.secret_rotated" reads as "webhook endpoint: secret rotated". */
function actionLabel(action: string): string {
  const [subject = action, verb = ''] = action.split('.');
  return `${subject.replace(/_/g, ' ')}: ${verb.replace(/_/g, ' ')}`;
}

const AUDIT_COLUMNS: Column<z.infer<typeof AuditEvent>>[] = [
  { label: 'When', cell: (event) => formatLogTime(event.created_at, localTimeZone) },
  {
    label: 'Who',
    cell: (event) =>
      event.actor.type === 'person'
        ? event.actor.email
        : event.actor.type === 'api_key'
          ? `API key ${event.actor.key_id}`
          : 'operator (CLI)',
  },
  { label: 'What', cell: (event) => <span data-action={event.action}>{actionLabel(event.action)}</span> },
  {
    label: 'Target',
    cell: (event) =>
      event.target ? (
        <>
          {event.target.type.replace(/_/g, ' ')} <code>{event.target.id}</code>
        </>
      ) : (
        '—'
      ),
  },
  {
    label: 'From',
    cell: (event) => (
      <>
        {event.ip ?? '—'}
        {event.user_agent && <div className="muted ua">{event.user_agent}</div>}
      </>
    ),
  },
];

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
            <DataTable
              caption="Audit log, newest first"
              columns={AUDIT_COLUMNS}
              rows={data}
              rowKey={(event) => event.id}
            />
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
