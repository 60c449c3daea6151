import type { FieldProblem } from '../errors/domain-errors.js';
import { NO_STORED_REFERENCES, type StoredReferences } from './stored-references.js';
import { validateVenue } from './validate-venues.js';
import type { VenueData } from './venue-data.schema.js';
import { duplicates, isBefore, isInstantBefore, type Report } from './validation-helpers.js';

/**
 * What the schema alone cannot see: references between entities, and rules across fields. A reference is to
 * an entity of the file or, by id, to one already in the database (`stored`), so every problem is found
 * before anything is written. A booking's venue and variant must be in the file: they place the booking.
 */
export function validateReferences(data: VenueData, stored: StoredReferences = NO_STORED_REFERENCES): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const report: Report = (path, message) => problems.push({ path, message: `${path}: ${message}` });
  const organisations = new Set([...data.organisations.map((o) => o.id), ...stored.organisations]);
  const fileVenues = new Map(data.venues.map((v) => [v.id, v]));
  const venues = new Map<string, { organisation_id: string }>([...stored.venues, ...fileVenues]);
  const variants = new Map(
    data.venues.flatMap((v) => v.treatments.flatMap((t) => t.variants.map((x) => [x.id, v.id] as const))),
  );
  const customers = new Map<string, { organisation_id: string }>([
    ...stored.customers,
    ...data.customers.map((c) => [c.id, c] as const),
  ]);
  const therapists = new Map<string, { organisation_id: string }>([
    ...stored.therapists,
    ...data.therapists.map((t) => [t.id, t] as const),
  ]);
  const missing = (what: string, id: string) => `no ${what} ${id} in the file or the database`;
  const organisation = (id: string, path: string) => organisations.has(id) || report(path, missing('organisation', id));

  uniqueIds(data, report);
  duplicates(
    data.organisations.map((o, i) => [o.slug, `organisations[${i}].slug`] as const),
    report,
    'slug',
  );
  duplicates(
    data.venues.map((v, i) => [`${v.organisation_id} ${v.slug}`, `venues[${i}].slug`] as const),
    report,
    'organisation and slug',
  );

  data.venues.forEach((venue, v) => {
    organisation(venue.organisation_id, `venues[${v}].organisation_id`);
    validateVenue(venue, `venues[${v}]`, report);
  });

  data.api_keys.forEach((key, i) => {
    const at = `api_keys[${i}]`;
    organisation(key.organisation_id, `${at}.organisation_id`);
    const venue = key.venue_id ? venues.get(key.venue_id) : undefined;
    if (key.venue_id && !venue) report(`${at}.venue_id`, missing('venue', key.venue_id));
    if (venue && venue.organisation_id !== key.organisation_id)
      report(`${at}.venue_id`, "the venue belongs to another organisation than the key's");
    if (key.kind === 'dashboard' && key.venue_id)
      report(`${at}.venue_id`, 'a dashboard key covers every venue of its organisation: must be null');
    duplicates(
      key.scopes.map((s, j) => [s, `${at}.scopes[${j}]`] as const),
      report,
      'scope',
    );
  });
  const dashboards = new Map<string, string>();
  data.api_keys.forEach((key, i) => {
    if (key.kind !== 'dashboard' || key.revoked) return;
    const owner = `${key.organisation_id}/${key.mode}`;
    const earlier = dashboards.get(owner);
    if (earlier)
      report(
        `api_keys[${i}]`,
        `an organisation has at most one active ${key.mode} dashboard key, and ${earlier} is one already`,
      );
    else dashboards.set(owner, `api_keys[${i}]`);
  });

  data.therapists.forEach((t, i) => {
    const at = `therapists[${i}]`;
    organisation(t.organisation_id, `${at}.organisation_id`);
    const workplace = (venueId: string, path: string) => {
      const venue = venues.get(venueId);
      if (!venue) report(path, missing('venue', venueId));
      else if (venue.organisation_id !== t.organisation_id)
        report(path, "the venue belongs to another organisation than the therapist's");
    };
    t.shifts.forEach((s, j) => {
      workplace(s.venue_id, `${at}.shifts[${j}].venue_id`);
      if (!isBefore(s.start_time, s.end_time)) report(`${at}.shifts[${j}].end_time`, 'must be after start_time');
    });
    t.shift_overrides.forEach((o, j) => {
      workplace(o.venue_id, `${at}.shift_overrides[${j}].venue_id`);
      if ((o.start_time === null) !== (o.end_time === null))
        report(`${at}.shift_overrides[${j}]`, 'start_time and end_time are both set, or both null (off that day)');
      else if (o.start_time && o.end_time && !isBefore(o.start_time, o.end_time))
        report(`${at}.shift_overrides[${j}].end_time`, 'must be after start_time');
    });
    duplicates(
      t.shift_overrides.map((o, j) => [`${o.venue_id} ${o.date}`, `${at}.shift_overrides[${j}].date`] as const),
      report,
      'venue and date',
    );
    t.absences.forEach(
      (a, j) =>
        isInstantBefore(a.start_at, a.end_at) || report(`${at}.absences[${j}].end_at`, 'must be after start_at'),
    );
  });

  data.customers.forEach((c, i) => organisation(c.organisation_id, `customers[${i}].organisation_id`));
  duplicates(
    data.customers.map((c, i) => [`${c.organisation_id} ${c.email.toLowerCase()}`, `customers[${i}].email`] as const),
    report,
    'organisation and email',
  );

  data.bookings.forEach((b, i) => {
    const at = `bookings[${i}]`;
    const venue = fileVenues.get(b.venue_id);
    if (!venue)
      report(
        `${at}.venue_id`,
        venues.has(b.venue_id)
          ? `venue ${b.venue_id} is in the database but not in the file; a booking's venue comes with it (its rooms and treatments place the booking)`
          : missing('venue', b.venue_id),
      );
    if (venue && variants.get(b.variant_id) !== b.venue_id)
      report(`${at}.variant_id`, `no variant ${b.variant_id} at venue ${b.venue_id} in the file`);
    const customer = customers.get(b.customer_id);
    if (!customer) report(`${at}.customer_id`, missing('customer', b.customer_id));
    else if (venue && customer.organisation_id !== venue.organisation_id)
      report(`${at}.customer_id`, "the customer belongs to another organisation than the venue's");
    if (venue && b.total_price.currency !== venue.currency)
      report(`${at}.total_price.currency`, `must equal the venue currency (${venue.currency})`);
    b.therapist_ids.forEach((id, j) => {
      const therapist = therapists.get(id);
      if (!therapist) report(`${at}.therapist_ids[${j}]`, missing('therapist', id));
      else if (venue && therapist.organisation_id !== venue.organisation_id)
        report(`${at}.therapist_ids[${j}]`, "the therapist belongs to another organisation than the venue's");
    });
    duplicates(
      b.therapist_ids.map((id, j) => [id, `${at}.therapist_ids[${j}]`] as const),
      report,
      'therapist',
    );
    if (b.status === 'confirmed' && b.therapist_ids.length === 0)
      report(`${at}.therapist_ids`, 'a confirmed booking names the therapist who accepted it (at least one)');
    if (b.therapist_ids.length > b.guest_count)
      report(
        `${at}.therapist_ids`,
        `lists ${b.therapist_ids.length} therapists for ${b.guest_count} guest(s): one therapist per guest`,
      );
  });
  duplicates(
    data.bookings.flatMap((b, i) =>
      b.external_id ? [[`${b.venue_id} ${b.external_id}`, `bookings[${i}].external_id`] as const] : [],
    ),
    report,
    'venue and external_id',
  );
  return problems;
}

/** Ids are upsert keys: one id twice in a file would be written twice, the second silently winning. */
function uniqueIds(data: VenueData, report: Report): void {
  const venues = data.venues.map((v, i) => [v, `venues[${i}]`] as const);
  const treatments = venues.flatMap(([v, at]) => v.treatments.map((t, i) => [t, `${at}.treatments[${i}]`] as const));
  const groups = {
    organisation: data.organisations.map((o, i) => [o.id, `organisations[${i}].id`] as const),
    'API key': data.api_keys.map((k, i) => [k.id, `api_keys[${i}].id`] as const),
    venue: venues.map(([v, at]) => [v.id, `${at}.id`] as const),
    block: venues.flatMap(([v, at]) => v.blocks.map((b, i) => [b.id, `${at}.blocks[${i}].id`] as const)),
    room: venues.flatMap(([v, at]) => v.rooms.map((r, i) => [r.id, `${at}.rooms[${i}].id`] as const)),
    treatment: treatments.map(([t, at]) => [t.id, `${at}.id`] as const),
    variant: treatments.flatMap(([t, at]) => t.variants.map((x, i) => [x.id, `${at}.variants[${i}].id`] as const)),
    therapist: data.therapists.map((t, i) => [t.id, `therapists[${i}].id`] as const),
    customer: data.customers.map((c, i) => [c.id, `customers[${i}].id`] as const),
    booking: data.bookings.map((b, i) => [b.id, `bookings[${i}].id`] as const),
  };
  for (const [what, entries] of Object.entries(groups)) duplicates(entries, report, `${what} id`);
}
