import type { AddressInfo } from 'node:net';
import express, { type Request, type Response } from 'express';
import pg from 'pg';
import { Temporal } from 'temporal-polyfill';
import { toSlotJson } from '../src/availability/slot.mapper.js';
import { type KeyVault, parseApiKey } from '../src/auth/api-key.js';
import { toBooking } from '../src/bookings/booking.mapper.js';
import type { BookingRow } from '../src/db/columns.js';
import type { Db } from '../src/db/connect.js';
import { typeParsers } from '../src/db/type-parsers.js';
import { computeDays, type SnapshotQuery, snapshotQuery, snapshotSql, toSnapshot } from '../src/scheduling/index.js';
import type { VenueRow } from '../src/venues/venues.repository.js';

/**
 * The same-work floor of the hot path: bare Express and pg, doing what the real app does for three reads (the
 * key row by id and its HMAC check through the same KeyVault, the same statements, the same JSON out) and nothing
 * else: no validation, no logging, no ts-rest, no Kysely, no metrics, no request id. Statements are named, as the
 * real app's are (src/db/preparing-client.ts), so PostgreSQL does the same parsing and planning for both.
 * It serves only the happy path of the benchmark's requests; anything else is a bare 4xx.
 */
export async function serveBaseline(options: { databaseUrl: string; db: Db; vault: KeyVault; now: Temporal.Instant }) {
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: 20,
    options: '-c TimeZone=UTC -c statement_timeout=5000',
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        typeParsers[oid] ??
        (pg.types.getTypeParser(oid, format) as (value: string) => unknown)) as typeof pg.types.getTypeParser,
    },
  });
  // The benchmark drops its database with its connections at the end: an idle client's error is no failure.
  pool.on('error', () => undefined);
  const snapshot = snapshotStatement(options.db);
  const query = async <R>(name: string, text: string, values: unknown[]) =>
    (await pool.query<R & pg.QueryResultRow>({ name, text, values })).rows;

  async function principal(req: Request, scope: string) {
    const raw = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    const parsed = raw ? parseApiKey(raw) : undefined;
    if (!parsed) return undefined;
    const [row] = await query<KeyRow>('b_key', KEY_SQL, [parsed.id]);
    const verified = options.vault.verify(parsed.secret, row?.secret_hmac ?? options.vault.dummyHmac);
    if (!row || row.revoked_at !== null || !verified || !row.scopes.includes(scope)) return undefined;
    return row;
  }

  function venueOf(key: KeyRow, res: Response, venue: VenueRow | undefined) {
    const ok = venue && venue.organisation_id === key.organisation_id && venue.status === 'active';
    if (!ok) res.status(404).json({ error: 'Venue not found' });
    return ok ? venue : undefined;
  }

  // Express 4 does not catch a rejected handler: a failure is a 500 the load generator counts, not a crash.
  // Requests still running when the load stops are waited for before the pool closes.
  let inFlight = 0;
  let settled: (() => void) | undefined;
  const answer = (handler: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response) => {
    inFlight++;
    void handler(req, res)
      .catch((error: unknown) => {
        console.error(error);
        res.status(500).json({ error: 'Internal server error' });
      })
      .finally(() => {
        if (--inFlight === 0) settled?.();
      });
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.get(
    '/v1/venues',
    answer(async (req, res) => {
      const key = await principal(req, 'venues:read');
      if (!key) return void res.status(401).json({ error: 'Invalid API key' });
      const { page, pageSize } = pageOf(req);
      const scope = [key.organisation_id, 'active'];
      const [rows, [count]] = await Promise.all([
        query('b_venues', VENUES_SQL, [...scope, pageSize, (page - 1) * pageSize]),
        query<{ count: number }>('b_venues_count', VENUES_COUNT_SQL, scope),
      ]);
      res.json(paged(rows, page, pageSize, count!.count));
    }),
  );

  app.get(
    '/v1/venues/:venue_id/availability/variants/:variant_id',
    answer(async (req, res) => {
      const key = await principal(req, 'availability:read');
      if (!key) return void res.status(401).json({ error: 'Invalid API key' });
      const date = Temporal.PlainDate.from(req.query.date as string);
      const [row] = await query<VenueRow & { variant: VariantRow | null }>('b_venue_variant', VENUE_VARIANT_SQL, [
        req.params.variant_id!.toLowerCase(),
        req.params.venue_id!.toLowerCase(),
      ]);
      const venue = venueOf(key, res, row);
      if (!venue) return;
      const variant = row!.variant;
      if (!variant) return void res.status(404).json({ error: 'Variant not found' });
      const snapshotVariant = {
        id: variant.id,
        treatmentId: variant.treatment_id,
        durationMinutes: variant.duration_minutes,
        leadTimeMinutes: variant.lead_time_minutes,
        requiredSkills: variant.required_skills,
      };
      const period = { from: date, to: date };
      const q = snapshotQuery(venue, snapshotVariant, period, true);
      const [snapshotRow] = await query('b_snapshot', snapshot.sql, snapshot.values(q));
      const days = computeDays(toSnapshot(venue, snapshotVariant, snapshotRow as never), period, options.now, 1);
      res.json({
        data: {
          venue_id: venue.id,
          treatment_id: variant.treatment_id,
          variant_id: variant.id,
          date: date.toString(),
          slots: (days[0]?.slots ?? []).map(toSlotJson),
        },
      });
    }),
  );

  app.get(
    '/v1/venues/:venue_id/customers/:customer_id/bookings',
    answer(async (req, res) => {
      const key = await principal(req, 'bookings:read');
      if (!key) return void res.status(401).json({ error: 'Invalid API key' });
      const [row] = await query<VenueRow>('b_venue', VENUE_SQL, [req.params.venue_id!.toLowerCase()]);
      const venue = venueOf(key, res, row);
      if (!venue) return;
      const customerId = req.params.customer_id!.toLowerCase();
      const known = await query('b_is_customer', IS_CUSTOMER_SQL, [customerId, venue.id, venue.organisation_id, 1]);
      if (known.length === 0) return void res.status(404).json({ error: 'Customer not found in this venue' });
      const { page, pageSize } = pageOf(req);
      const [rows, [count]] = await Promise.all([
        query<BookingRow>('b_bookings', BOOKINGS_SQL, [customerId, venue.id, pageSize, (page - 1) * pageSize]),
        query<{ count: number }>('b_bookings_count', BOOKINGS_COUNT_SQL, [customerId, venue.id]),
      ]);
      res.json(paged(rows.map(toBooking), page, pageSize, count!.count));
    }),
  );

  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (inFlight > 0) await new Promise<void>((resolve) => (settled = resolve));
      await pool.end();
    },
  };
}

interface KeyRow {
  id: string;
  organisation_id: string;
  venue_id: string | null;
  scopes: string[];
  rate_limit_per_min: number | null;
  secret_hmac: string;
  revoked_at: string | null;
}

interface VariantRow {
  id: string;
  treatment_id: string;
  duration_minutes: number;
  lead_time_minutes: number;
  required_skills: string[];
}

const pageOf = (req: Request) => ({
  page: Number(req.query.page ?? 1),
  pageSize: Number(req.query.page_size ?? 20),
});

const paged = (data: unknown[], page: number, pageSize: number, total: number) => ({
  data,
  pagination: { page, page_size: pageSize, total_items: total, total_pages: Math.ceil(total / pageSize) },
});

/**
 * The availability snapshot's statement as text, and which field of a SnapshotQuery each of its parameters is:
 * compiled once here (with each field standing for its own name), so no query builder runs per request.
 */
function snapshotStatement(db: Db) {
  const fields = [
    'venueId',
    'organisationId',
    'treatmentId',
    'requiredSkills',
    'from',
    'to',
    'windowStart',
    'windowEnd',
  ];
  const named = Object.fromEntries(fields.map((field) => [field, `:${field}`])) as unknown as SnapshotQuery;
  const compiled = snapshotSql(named).compile(db);
  const order = compiled.parameters.map((p) => (p as string).slice(1) as keyof SnapshotQuery);
  return { sql: compiled.sql, values: (q: SnapshotQuery) => order.map((field) => q[field]) };
}

// The statements the real app's repositories send (the texts Kysely compiles them to).
const KEY_SQL =
  'select "id", "organisation_id", "venue_id", "scopes", "rate_limit_per_min", "secret_hmac", "revoked_at" from "api_keys" where "id" = $1';
const SUMMARY =
  '"id", "slug", "name", "name_en", "description", "description_en", "address", "postal_code", "city", "country", "currency", "venue_type", "timezone", "image", "cover_image"';
const DETAIL = `${SUMMARY}, "organisation_id", "status", "landing_subtitle", "vat", "opening_time", "closing_time", "slot_interval", "schedule_type", "days_of_week", "recurrence_interval", "recurring_start_date", "recurring_end_date", "offert", "booking_hold_enabled", "booking_hold_duration_minutes", "allow_out_of_hours_booking", "out_of_hours_surcharge_percent", "room_turnover_buffer_minutes", "inter_venue_buffer_minutes", "cancellation_policy"`;
const VENUES_SQL = `select ${SUMMARY} from "venues" where "organisation_id" = $1 and "status" = $2 order by "name", "id" limit $3 offset $4`;
const VENUES_COUNT_SQL = 'select count(*) as "count" from "venues" where "organisation_id" = $1 and "status" = $2';
const VENUE_SQL = `select ${DETAIL} from "venues" where "id" = $1`;
const VENUE_VARIANT_SQL = `select ${DETAIL}, (select to_json(obj) from (select "variants"."id", "variants"."treatment_id", "variants"."duration_minutes", "treatments"."lead_time_minutes", "treatments"."required_skills" from "variants" inner join "treatments" on "treatments"."id" = "variants"."treatment_id" where "variants"."id" = $1 and "treatments"."venue_id" = "venues"."id") as obj) as "variant" from "venues" where "id" = $2`;
const IS_CUSTOMER_SQL =
  'select "bookings"."id" from "bookings" inner join "customers" on "customers"."id" = "bookings"."customer_id" where "bookings"."customer_id" = $1 and "bookings"."venue_id" = $2 and "customers"."organisation_id" = $3 limit $4';
const BOOKINGS_SQL =
  'select "id", "booking_number", "status", "venue_id", "treatment_id", "variant_id", "customer_id", "start_at", "end_at", "guest_count", "notes", "external_reference", "external_id", "client_type", "total_price_minor", "currency", "payment_method", "payment_status", "created_at", "updated_at", "cancelled_at", "cancelled_by", "cancellation_reason", "cancellation_fee_minor", "cancellation_policy_text" from "bookings" where "customer_id" = $1 and "venue_id" = $2 order by "start_at" desc, "booking_number" desc limit $3 offset $4';
const BOOKINGS_COUNT_SQL = 'select count(*) as "count" from "bookings" where "customer_id" = $1 and "venue_id" = $2';
