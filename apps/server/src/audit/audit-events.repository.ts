import type { AuditEvent } from '@spa/contract/dashboard';
import type { z } from 'zod';
import type { Db } from '../db/connect.js';
import { isoFromDb } from '../lib/instant.js';

/** One page of an organisation's audit log, newest first (ties by id, so pages never overlap). */
export async function listAuditEvents(db: Db, organisationId: string, window: { offset: number; limit: number }) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('audit_events')
      .selectAll()
      .where('organisation_id', '=', organisationId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(window.offset)
      .limit(window.limit)
      .execute(),
    db
      .selectFrom('audit_events')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('organisation_id', '=', organisationId)
      .executeTakeFirstOrThrow(),
  ]);
  const events: z.infer<typeof AuditEvent>[] = rows.map((row) => ({
    id: row.id,
    actor:
      row.actor_type === 'person'
        ? { type: 'person', id: row.actor_person_id ?? '', email: row.actor_email ?? '' }
        : row.actor_type === 'api_key'
          ? { type: 'api_key', key_id: row.actor_key_id ?? '' }
          : { type: 'operator' },
    action: row.action,
    target:
      row.target_type === null || row.target_id === null
        ? null
        : { type: row.target_type, id: row.target_id, label: row.target_label },
    ip: row.ip,
    user_agent: row.user_agent,
    created_at: isoFromDb(row.created_at),
  }));
  return { events, total: Number(count.count) };
}
