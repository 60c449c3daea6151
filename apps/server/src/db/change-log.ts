import type pg from 'pg';
import { EVERY_VENUE } from '../migrations/0016_availability_change_log.js';

/** Reads, on one connection, what committed since its last read: payloads as a notice would carry them. */
export type ChangeReader = (client: pg.Client) => Promise<string[]>;

/** A log of changes that a listener reads instead of (or beside) notices: db/notifications.ts. */
export interface ChangeFeed {
  /** The reader of a newly opened connection, positioned at now: what committed before is not read. */
  open(client: pg.Client): Promise<ChangeReader>;
}

/**
 * Every change committed after the snapshot of the previous read and before this read's own: a row whose writer
 * the previous snapshot saw as still running (or not yet begun) and this one sees as committed. The statement's
 * scan and pg_current_snapshot() share the statement's one snapshot, so what is read and the position kept for the
 * next read agree exactly; and the order in which writers commit does not matter (migration 0016). The range on
 * `xid` bounds the scan by the primary key: a transaction the previous snapshot did not see has an id at or above
 * its xmin.
 */
const READ_SINCE = `
  select pg_current_snapshot()::text as snapshot,
    array(select distinct venue_id::text from availability_changes
          where xid >= pg_snapshot_xmin($1::pg_snapshot) and not pg_visible_in_snapshot(xid, $1::pg_snapshot)) as venues`;

/** The availability change log of migration 0016, read as the availability channel's notices (`*`: every venue). */
export const availabilityChangeLog: ChangeFeed = {
  async open(client) {
    const first = await client.query<{ snapshot: string }>('select pg_current_snapshot()::text as snapshot');
    let since = first.rows[0]!.snapshot;
    return async (on) => {
      const { rows } = await on.query<{ snapshot: string; venues: string[] }>({
        name: 'availability_changes_since',
        text: READ_SINCE,
        values: [since],
      });
      const row = rows[0]!;
      since = row.snapshot;
      return row.venues.map((venue) => (venue === EVERY_VENUE ? '*' : venue));
    };
  },
};
