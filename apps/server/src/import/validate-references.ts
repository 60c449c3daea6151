import { Temporal } from 'temporal-polyfill';
import type { FieldProblem } from '../http/domain-errors.js';
import { toMinor } from '../shared/money.js';
import type { VenueData } from './venue-data.schema.js';

/**
 * What the schema alone cannot see: references between entities of the file, and rules across fields.
 * Every problem keeps its JSON path, so the operator can fix the file in one pass.
 */
export function validateReferences(data: VenueData): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const problem = (path: string, message: string) => problems.push({ path, message: `${path}: ${message}` });
  const organisations = new Set(data.organisations.map((o) => o.id));
  const venues = new Map(data.venues.map((v) => [v.id, v]));
  const variants = new Map(data.venues.flatMap((v) => v.treatments.flatMap((t) => t.variants.map((variant) => [variant.id, { venue: v, variant }] as const))));
  const customers = new Map(data.customers.map((c) => [c.id, c]));
  const therapists = new Map(data.therapists.map((t) => [t.id, t]));

  duplicates(data.organisations.map((o) => o.slug), 'organisations', 'slug', problem);
  const ids = [
    ...data.organisations.map((o, i) => [o.id, `organisations[${i}].id`] as const),
    ...data.venues.map((v, i) => [v.id, `venues[${i}].id`] as const),
    ...data.therapists.map((t, i) => [t.id, `therapists[${i}].id`] as const),
    ...data.customers.map((c, i) => [c.id, `customers[${i}].id`] as const),
    ...data.bookings.map((b, i) => [b.id, `bookings[${i}].id`] as const),
  ];
  const seen = new Set<string>();
  for (const [value, path] of ids) {
    if (seen.has(value)) problem(path, `id ${value} is used twice in the file`);
    seen.add(value);
  }

  data.venues.forEach((venue, v) => {
    const at = `venues[${v}]`;
    if (!organisations.has(venue.organisation_id)) problem(`${at}.organisation_id`, `no organisation ${venue.organisation_id} in the file`);
    if (venue.timezone && !isTimeZone(venue.timezone)) problem(`${at}.timezone`, `${venue.timezone} is not an IANA time zone`);
    if (venue.opening_time >= venue.closing_time) problem(`${at}.closing_time`, 'must be after opening_time');
    venue.one_time_openings.forEach((o, i) => {
      if (o.opening_time && o.closing_time && o.opening_time >= o.closing_time) problem(`${at}.one_time_openings[${i}].closing_time`, 'must be after opening_time');
    });
    venue.blocks.forEach((b, i) => {
      const wrong = 'start_time' in b ? b.start_time >= b.end_time : Temporal.Instant.compare(Temporal.Instant.from(b.start_at), Temporal.Instant.from(b.end_at)) >= 0;
      if (wrong) problem(`${at}.blocks[${i}]`, 'the block must end after it starts');
    });
    const rooms = new Set(venue.rooms.map((r) => r.id));
    venue.treatments.forEach((t, ti) => {
      const tat = `${at}.treatments[${ti}]`;
      if (t.variants.filter((x) => x.is_default).length !== 1) problem(`${tat}.variants`, 'exactly one variant must be is_default');
      t.room_ids.forEach((room, i) => rooms.has(room) || problem(`${tat}.room_ids[${i}]`, `no room ${room} in this venue`));
      t.variants.forEach((x, i) => {
        if (x.price.currency !== venue.currency) problem(`${tat}.variants[${i}].price.currency`, `must equal the venue currency (${venue.currency})`);
        else if (toMinor(x.price.amount, x.price.currency) === undefined) problem(`${tat}.variants[${i}].price.amount`, `has more decimals than ${x.price.currency} allows`);
      });
    });
  });
  duplicates(data.venues.map((v) => `${v.organisation_id}/${v.slug}`), 'venues', 'slug', problem);

  const dashboards = new Set<string>();
  data.api_keys.forEach((key, i) => {
    const at = `api_keys[${i}]`;
    if (!organisations.has(key.organisation_id)) problem(`${at}.organisation_id`, `no organisation ${key.organisation_id} in the file`);
    const venue = key.venue_id ? venues.get(key.venue_id) : undefined;
    if (key.venue_id && !venue) problem(`${at}.venue_id`, `no venue ${key.venue_id} in the file`);
    if (venue && venue.organisation_id !== key.organisation_id) problem(`${at}.venue_id`, 'the venue belongs to another organisation');
    if (key.kind === 'dashboard' && !key.revoked) {
      if (dashboards.has(key.organisation_id)) problem(at, 'an organisation has at most one active dashboard key');
      dashboards.add(key.organisation_id);
    }
  });
  duplicates(data.api_keys.map((k) => k.id), 'api_keys', 'id', problem);

  data.therapists.forEach((t, i) => {
    const at = `therapists[${i}]`;
    if (!organisations.has(t.organisation_id)) problem(`${at}.organisation_id`, `no organisation ${t.organisation_id} in the file`);
    const own = (venueId: string, path: string) => {
      const venue = venues.get(venueId);
      if (!venue) problem(path, `no venue ${venueId} in the file`);
      else if (venue.organisation_id !== t.organisation_id) problem(path, "the venue belongs to another organisation than the therapist's");
    };
    t.shifts.forEach((s, j) => {
      own(s.venue_id, `${at}.shifts[${j}].venue_id`);
      if (s.start_time >= s.end_time) problem(`${at}.shifts[${j}].end_time`, 'must be after start_time');
    });
    t.shift_overrides.forEach((o, j) => {
      own(o.venue_id, `${at}.shift_overrides[${j}].venue_id`);
      if ((o.start_time === null) !== (o.end_time === null)) problem(`${at}.shift_overrides[${j}]`, 'start_time and end_time are both set or both null (off)');
      else if (o.start_time && o.end_time && o.start_time >= o.end_time) problem(`${at}.shift_overrides[${j}].end_time`, 'must be after start_time');
    });
  });

  data.customers.forEach((c, i) => organisations.has(c.organisation_id) || problem(`customers[${i}].organisation_id`, `no organisation ${c.organisation_id} in the file`));
  duplicates(data.customers.map((c) => `${c.organisation_id}/${c.email.toLowerCase()}`), 'customers', 'email', problem);

  data.bookings.forEach((b, i) => {
    const at = `bookings[${i}]`;
    const venue = venues.get(b.venue_id);
    const found = variants.get(b.variant_id);
    if (!venue) problem(`${at}.venue_id`, `no venue ${b.venue_id} in the file`);
    if (!found || found.venue.id !== b.venue_id) problem(`${at}.variant_id`, `no variant ${b.variant_id} at this venue`);
    const customer = customers.get(b.customer_id);
    if (!customer) problem(`${at}.customer_id`, `no customer ${b.customer_id} in the file`);
    else if (venue && customer.organisation_id !== venue.organisation_id) problem(`${at}.customer_id`, "the customer belongs to another organisation than the venue's");
    if (venue && b.total_price.currency !== venue.currency) problem(`${at}.total_price.currency`, `must equal the venue currency (${venue.currency})`);
    else if (toMinor(b.total_price.amount, b.total_price.currency) === undefined) problem(`${at}.total_price.amount`, `has more decimals than ${b.total_price.currency} allows`);
    b.therapist_ids.forEach((t, j) => therapists.has(t) || problem(`${at}.therapist_ids[${j}]`, `no therapist ${t} in the file`));
  });
  duplicates(data.bookings.filter((b) => b.external_id).map((b) => `${b.venue_id}/${b.external_id}`), 'bookings', 'external_id', problem);
  return problems;
}

function duplicates(values: string[], collection: string, field: string, problem: (path: string, message: string) => void) {
  const first = new Map<string, number>();
  values.forEach((value, i) => {
    if (first.has(value)) problem(`${collection}[${i}].${field}`, `duplicates ${collection}[${first.get(value)}].${field}`);
    else first.set(value, i);
  });
}

function isTimeZone(zone: string): boolean {
  try {
    Temporal.Now.instant().toZonedDateTimeISO(zone);
    return true;
  } catch {
    return false;
  }
}
