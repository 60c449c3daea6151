import type { Me } from '@spa/contract/dashboard';
import type { z } from 'zod';
import type { Db } from '../db/connect.js';
import type { Clock } from '../lib/clock.js';
import { isoSeconds } from '../lib/instant.js';
import type { DashboardActor } from './dashboard-actor.js';
import { confirmedUntil } from './guards.js';

/** Who am I: the person, the organisation and the venues they see, the session's CSRF token and expiries. */
export async function describeActor(db: Db, clock: Clock, actor: DashboardActor): Promise<z.infer<typeof Me>> {
  const [organisation, venues] = await Promise.all([
    db
      .selectFrom('organisations')
      .select(['id', 'slug', 'name'])
      .where('id', '=', actor.organisationId)
      .executeTakeFirstOrThrow(),
    visibleVenues(db, actor),
  ]);
  const until = confirmedUntil(actor, clock.now());
  return {
    id: actor.personId,
    email: actor.email,
    role: actor.role,
    organisation,
    venues,
    csrf_token: actor.csrfToken,
    confirmed_until: until ? isoSeconds(until) : null,
    expires_at: isoSeconds(actor.expiresAt),
  };
}

/** Every venue of the organisation for an admin; the listed ones for desk (none if all were removed). */
export async function visibleVenues(db: Db, actor: Pick<DashboardActor, 'role' | 'venueIds' | 'organisationId'>) {
  if (actor.role === 'desk' && actor.venueIds.length === 0) return [];
  let query = db
    .selectFrom('venues')
    .select(['id', 'slug', 'name', 'timezone', 'currency'])
    .where('organisation_id', '=', actor.organisationId);
  if (actor.role === 'desk') query = query.where('id', 'in', actor.venueIds);
  const rows = await query.orderBy('name').orderBy('id').execute();
  return rows.map((v) => ({ ...v, timezone: v.timezone ?? 'UTC' }));
}
