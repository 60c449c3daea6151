import type { VenueData } from './venue-data.schema.js';
import { duplicates, isBefore, isInstantBefore, isTimeZone, type Report } from './validation-helpers.js';

type Venue = VenueData['venues'][number];
type Tier = Venue['cancellation_policy']['partner'][number];

/** Rules inside one venue that the schema cannot express: hours, ordering, defaults, its own room ids. */
export function validateVenue(venue: Venue, at: string, report: Report): void {
  if (venue.timezone && !isTimeZone(venue.timezone))
    report(`${at}.timezone`, `${venue.timezone} is not an IANA time zone (such as Europe/Paris)`);
  if (!isBefore(venue.opening_time, venue.closing_time)) report(`${at}.closing_time`, 'must be after opening_time');
  const { start_date, end_date } = venue.schedule;
  if (start_date && end_date && start_date > end_date)
    report(`${at}.schedule.end_date`, 'must not be before start_date');

  venue.one_time_openings.forEach((o, i) => {
    if ((o.opening_time === null) !== (o.closing_time === null)) {
      report(
        `${at}.one_time_openings[${i}]`,
        "opening_time and closing_time are both set, or both null (the venue's usual hours)",
      );
    } else if (o.opening_time && o.closing_time && !isBefore(o.opening_time, o.closing_time)) {
      report(`${at}.one_time_openings[${i}].closing_time`, 'must be after opening_time');
    }
  });
  duplicates(
    venue.one_time_openings.map((o, i) => [o.date, `${at}.one_time_openings[${i}].date`] as const),
    report,
    'date',
  );

  venue.blocks.forEach((b, i) => {
    const ok = 'start_time' in b ? isBefore(b.start_time, b.end_time) : isInstantBefore(b.start_at, b.end_at);
    if (!ok) report(`${at}.blocks[${i}]`, 'the block must end after it starts');
  });

  for (const who of ['partner', 'customer'] as const)
    tiersInOrder(venue.cancellation_policy[who], `${at}.cancellation_policy.${who}`, report);

  const rooms = new Set(venue.rooms.map((r) => r.id));
  venue.treatments.forEach((t, ti) => {
    const tat = `${at}.treatments[${ti}]`;
    const defaults = t.variants.filter((x) => x.is_default).length;
    if (defaults !== 1) report(`${tat}.variants`, `exactly one variant must have is_default true (found ${defaults})`);
    t.room_ids.forEach(
      (room, i) => rooms.has(room) || report(`${tat}.room_ids[${i}]`, `no room ${room} in this venue`),
    );
    duplicates(
      t.room_ids.map((room, i) => [room, `${tat}.room_ids[${i}]`] as const),
      report,
      'room',
    );
    t.variants.forEach((x, i) => {
      if (x.price.currency !== venue.currency)
        report(`${tat}.variants[${i}].price.currency`, `must equal the venue currency (${venue.currency})`);
    });
  });
}

/** The first tier whose min_hours_before <= hours left applies, so tiers must go from the earliest down. */
function tiersInOrder(tiers: Tier[], at: string, report: Report): void {
  tiers.forEach((tier, i) => {
    const previous = tiers[i - 1];
    if (previous && tier.min_hours_before >= previous.min_hours_before) {
      report(
        `${at}[${i}].min_hours_before`,
        `must be smaller than the previous tier's (${previous.min_hours_before}): tiers go from the earliest cancellation to the latest`,
      );
    }
  });
}
