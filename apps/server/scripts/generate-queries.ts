import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../src/auth/principal.js';
import { cancelBooking } from '../src/bookings/cancel-booking.js';
import { rescheduleBooking } from '../src/bookings/reschedule-booking.js';
import { createBooking } from '../src/bookings/create-booking.js';
import { acceptBooking, finishBooking } from '../src/bookings/therapist-workflow.js';
import type { Db } from '../src/db/connect.js';
import { EVERY_DAY } from '../test/support/calendar.js';

/**
 * Writes src/queries/*.sql: every statement the booking write path sends, in the order it sends them, so a
 * change to a lock, a join or a constraint shows up as SQL in review (as Immich does). The services run for real
 * against a driver that records each statement and answers every one with the same made-up row, which carries
 * every column the path reads. CI regenerates the files and fails when the checked-in copies differ.
 */
const NOW = Temporal.Instant.from('2030-01-01T08:00:00Z');
/** After the made-up booking (2030-01-02 10:00-11:00) has started. */
const AFTER_START = Temporal.Instant.from('2030-01-02T12:00:00Z');
const ID = '00000000-0000-4000-8000-000000000001';
const OTHER_ID = '00000000-0000-4000-8000-000000000002';

/** One row that satisfies every read of the path: a venue with its variant, a snapshot, a booking. */
const ROW = {
  id: ID,
  organisation_id: ID,
  venue_id: ID,
  treatment_id: ID,
  therapist_id: ID,
  timezone: 'UTC',
  currency: 'EUR',
  opening_time: '00:00:00',
  closing_time: '23:59:00',
  slot_interval: 30,
  schedule_type: 'recurring',
  days_of_week: EVERY_DAY,
  recurrence_interval: 1,
  recurring_start_date: null,
  recurring_end_date: null,
  allow_out_of_hours_booking: false,
  room_turnover_buffer_minutes: 15,
  inter_venue_buffer_minutes: 30,
  cancellation_policy: { partner: [{ min_hours_before: 0, fee_percent: 0 }], customer: [] },
  variant: { id: ID, treatment_id: ID, duration_minutes: 60, lead_time_minutes: 0, required_skills: [] },
  openings: [],
  blocks: [],
  rooms: [{ id: ID, capacity: 1 }],
  room_holds: [],
  therapist_ids: [ID],
  shifts: [{ therapist_id: ID, days_of_week: EVERY_DAY, start_time: '00:00:00', end_time: '23:59:00' }],
  overrides: [],
  absences: [],
  therapist_holds: [],
  claim_locked: true,
  claim_existing_id: null,
  start_at: '2030-01-02 10:00:00+00',
  end_at: '2030-01-02 11:00:00+00',
  total_price_minor: 9000,
  // The rest of a booking row, which the outbox turns into the event body (webhooks/record-event.ts).
  booking_number: 1,
  variant_id: ID,
  customer_id: ID,
  guest_count: 1,
  accepted_count: 0,
  response_window_from: null,
  notes: null,
  external_reference: null,
  external_id: 'pms-1',
  client_type: 'external',
  payment_method: 'partner_billed',
  payment_status: 'paid',
  created_at: '2030-01-01 08:00:00+00',
  updated_at: '2030-01-01 08:00:00+00',
  cancelled_at: null,
  cancelled_by: null,
  cancellation_reason: null,
  cancellation_fee_minor: null,
  cancellation_policy_text: null,
  skills: [],
  required_skills: [],
  // An acceptance's read of its offer and the booking's holders (bookings/therapist-workflow.repository.ts).
  offered: true,
  holder_ids: [ID],
  accepted_ids: [],
};

interface Operation {
  file: string;
  what: string;
  /** The venue's status for createBooking, the booking's for the others. */
  status: string;
  /** Statements answered with no row (a check that finds nothing, so the path goes on). */
  noRowFor?: RegExp;
  run: (db: Db) => Promise<unknown>;
}

function recordingDb(recorded: CompiledQuery[], { status, noRowFor }: Operation): Db {
  const connection: DatabaseConnection = {
    executeQuery: (query) => {
      recorded.push(query);
      return Promise.resolve({ rows: noRowFor?.test(query.sql) ? [] : [{ ...ROW, status } as never] });
    },
    streamQuery: () => {
      throw new Error('not recorded');
    },
  };
  const driver: Driver = {
    init: () => Promise.resolve(),
    acquireConnection: () => Promise.resolve(connection),
    beginTransaction: () => Promise.resolve(),
    commitTransaction: () => Promise.resolve(),
    rollbackTransaction: () => Promise.resolve(),
    releaseConnection: () => Promise.resolve(),
    destroy: () => Promise.resolve(),
  };
  return new Kysely({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}

const principal: Principal = {
  keyId: 'k',
  organisationId: ID,
  venueId: null,
  scopes: new Set(),
  rateLimitPerMin: null,
};

const operations: Operation[] = [
  {
    file: 'create-booking.sql',
    what: 'createBooking (bookings/create-booking.ts) with an external_id and an inter-venue buffer',
    status: 'active',
    run: (db) =>
      createBooking({
        db,
        principal,
        venueRef: ID,
        now: NOW,
        body: {
          variant_id: ID,
          start_at: '2030-01-02T10:00:00Z',
          guest_count: 1,
          guest: { first_name: 'Claire', last_name: 'Martin', email: 'claire@example.com' },
          price_paid: { amount: 90, currency: 'EUR' },
          external_id: 'pms-1',
        },
      }),
  },
  {
    file: 'cancel-booking.sql',
    what: 'cancelBooking (bookings/cancel-booking.ts) by booking id',
    status: 'pending',
    run: (db) =>
      cancelBooking({ db, principal, bookingRef: ID, now: NOW, body: { cancelled_by: 'partner', reason: 'r' } }),
  },
  {
    file: 'accept-booking.sql',
    what: 'acceptBooking (bookings/therapist-workflow.ts) by a therapist other than the one tentatively held',
    status: 'pending',
    noRowFor: /^select distinct h\.therapist_id/,
    run: (db) => acceptBooking(db, { bookingId: ID, therapistId: OTHER_ID, now: NOW }),
  },
  {
    file: 'reschedule-booking.sql',
    what: 'rescheduleBooking (bookings/reschedule-booking.ts) of a pending booking by id to a later start',
    status: 'pending',
    noRowFor: /^select h\.therapist_id from therapist_reservations/,
    run: (db) =>
      rescheduleBooking({ db, principal, bookingRef: ID, now: NOW, body: { start_at: '2030-01-02T14:00:00Z' } }),
  },
  {
    file: 'finish-booking.sql',
    what: 'finishBooking (bookings/therapist-workflow.ts) as completed',
    status: 'confirmed',
    // After the booking's start: an outcome is refused before it.
    run: (db) => finishBooking(db, { bookingId: ID, outcome: 'completed', now: AFTER_START }),
  },
];

/**
 * A statement as a reviewer reads it. `sql` templates keep the layout written in the source; the query
 * builder writes one line, broken here before each top-level clause. Hand-written because SQL formatters put
 * every column on its own line, which buries the statement.
 */
function layout(text: string): string {
  if (text.includes('\n')) return dedent(text);
  let out = '';
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ' ' && depth === 0) {
      const clause = CLAUSES.exec(text.slice(i + 1))?.[0];
      if (clause) {
        out += clause === 'and' || clause === 'or' ? '\n  ' : '\n';
        continue;
      }
    }
    out += ch;
  }
  return out;
}

const CLAUSES =
  /^(from|inner join|left join|where|and|or|group by|order by|returning|values|set|on conflict|for update|limit)(?= )/;

/** The first line trimmed, the others without their common indentation; blank lines dropped. */
function dedent(text: string): string {
  const [first = '', ...rest] = text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim());
  const indent = Math.min(...rest.map((l) => l.length - l.trimStart().length));
  return [first.trim(), ...rest.map((l) => l.slice(indent))].join('\n');
}

const dir = fileURLToPath(new URL('../src/queries/', import.meta.url));
for (const operation of operations) {
  const recorded: CompiledQuery[] = [];
  await operation.run(recordingDb(recorded, operation));
  const statements = recorded.map((query, n) => `-- ${n + 1}.\n${layout(query.sql)};`);
  const header = `-- Generated by \`pnpm --filter @spa/server queries\`: do not edit.\n-- ${operation.what}, statement by statement.\n`;
  writeFileSync(dir + operation.file, `${header}\n${statements.join('\n\n')}\n`);
}
console.log(`wrote ${operations.length} files in ${dir}`);
