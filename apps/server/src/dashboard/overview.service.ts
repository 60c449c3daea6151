import type { Overview } from '@spa/contract/dashboard';
import type { BookingStatus } from '../db/schema.js';
import { sql } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import type { z } from 'zod';
import type { Db } from '../db/connect.js';
import type { WebhookDeps } from './webhook-deps.js';
import { listDashboardEndpoints } from './webhook-endpoints.service.js';

type Counts = z.infer<typeof Overview>['venues'][number]['today'];

/**
 * The overview in one answer: each venue's bookings today and over the next 7 days (its own local days), counted
 * by status in one statement, and for an admin the endpoints that are not delivering.
 */
export async function readOverview(
  deps: WebhookDeps,
  input: {
    organisationId: string;
    venues: readonly { id: string; timezone: string }[];
    admin: boolean;
    /** The mode the overview counts: an admin's test mode, else live. */
    livemode: boolean;
    now: Temporal.Instant;
  },
): Promise<z.infer<typeof Overview>> {
  const spans = input.venues.map((venue) => {
    const today = input.now.toZonedDateTimeISO(venue.timezone).toPlainDate();
    return {
      venue,
      today: today.toString(),
      next: today.add({ days: 1 }).toString(),
      end: today.add({ days: 7 }).toString(),
    };
  });
  const [counts, endpoints] = await Promise.all([
    spans.length === 0 ? [] : countByStatus(deps.db, spans, input.livemode),
    input.admin ? listDashboardEndpoints(deps, input.organisationId, input.livemode) : null,
  ]);
  const tally = (venueId: string, bucket: 'today' | 'next'): Counts => {
    const rows = counts.filter((c) => c.venue_id === venueId && c.bucket === bucket);
    return {
      total: rows.reduce((sum, r) => sum + Number(r.count), 0),
      by_status: rows.map((r) => ({ status: r.status, count: Number(r.count) })),
    };
  };
  return {
    venues: spans.map(({ venue }) => ({
      venue_id: venue.id,
      today: tally(venue.id, 'today'),
      next_7_days: tally(venue.id, 'next'),
    })),
    endpoints: endpoints && {
      total: endpoints.length,
      not_active: endpoints.flatMap((e) =>
        e.state === 'active'
          ? []
          : [{ id: e.id, url: e.url, state: e.state, success_rate: e.recent_deliveries.success_rate }],
      ),
    },
  };
}

/** Bookings per venue, bucket (its today; the 7 days after) and status; each venue's days in its own zone. */
async function countByStatus(
  db: Db,
  spans: { venue: { id: string; timezone: string }; today: string; next: string; end: string }[],
  livemode: boolean,
) {
  const { rows } = await sql<{ venue_id: string; bucket: 'today' | 'next'; status: BookingStatus; count: string }>`
    select b.venue_id, case when b.start_at < s.next_start then 'today' else 'next' end as bucket, b.status,
           count(*) as count
    from (values ${sql.join(
      spans.map(
        (s) =>
          sql`(${s.venue.id}::uuid, ${s.today}::date::timestamp at time zone ${s.venue.timezone},
               ${s.next}::date::timestamp at time zone ${s.venue.timezone},
               (${s.end}::date + 1)::timestamp at time zone ${s.venue.timezone})`,
      ),
    )}) as s(venue_id, today_start, next_start, end_at)
    join bookings b on b.venue_id = s.venue_id and b.livemode = ${livemode}
      and b.start_at >= s.today_start and b.start_at < s.end_at
    group by 1, 2, 3
    order by 1, 2, 3
  `.execute(db);
  return rows;
}
