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
import type { MessageKey } from '../i18n/en.js';
import { type Translate, useT } from '../i18n/i18n.js';
import { formatLogTime, localTimeZone } from '../lib/format.js';

/**
 * An action in the reader's language ("webhook_endpoint.secret_rotated": "signing secret rotated"); one this page
 * does not know yet reads from its code ("webhook endpoint: secret rotated").
 */
function word(t: Translate, prefix: string, code: string): string {
  const key = `${prefix}.${code}` as MessageKey;
  const text = t(key);
  if (text !== key) return text;
  const [subject = code, verb = ''] = code.split('.');
  return verb ? `${subject.replace(/_/g, ' ')}: ${verb.replace(/_/g, ' ')}` : subject.replace(/_/g, ' ');
}

const auditColumns = (t: Translate): Column<z.infer<typeof AuditEvent>>[] => [
  { label: t('common.when'), cell: (event) => formatLogTime(event.created_at, localTimeZone) },
  {
    label: t('audit.who'),
    cell: (event) =>
      event.actor.type === 'person'
        ? event.actor.email
        : event.actor.type === 'api_key'
          ? t('audit.apiKey', { id: event.actor.key_id })
          : t('common.operator'),
  },
  {
    label: t('audit.whatColumn'),
    cell: (event) => <span data-action={event.action}>{word(t, 'audit.action', event.action)}</span>,
  },
  {
    label: t('audit.target'),
    // What it was called at the time (an email, a URL, #number) where known, its id otherwise.
    cell: (event) =>
      event.target ? (
        <>
          {word(t, 'audit.targetType', event.target.type)}{' '}
          {event.target.label ? <span translate="no">{event.target.label}</span> : <code>{event.target.id}</code>}
        </>
      ) : (
        '—'
      ),
  },
  {
    label: t('audit.from'),
    cell: (event) => (
      <>
        {event.ip ?? '—'}
        {event.user_agent && (
          <div className="muted ua" translate="no">
            {event.user_agent}
          </div>
        )}
      </>
    ),
  },
];

function AuditPanel() {
  const t = useT();
  const [page, setPage] = useState(1);
  const events = useQuery({
    queryKey: ['audit-events', page],
    queryFn: () => ok(api.auditEvents.list({ query: { page: String(page), page_size: '50' } })),
    placeholderData: keepPreviousData,
  });
  return (
    <QueryView query={events} what={t('audit.what')}>
      {({ data, pagination }) =>
        data.length === 0 ? (
          <Empty>{t('audit.nothing')}</Empty>
        ) : (
          <>
            <DataTable
              caption={t('audit.caption')}
              columns={auditColumns(t)}
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
  const t = useT();
  return (
    <Layout title={t('audit.title')}>
      <AdminOnly>
        <AuditPanel />
      </AdminOnly>
    </Layout>
  );
}
