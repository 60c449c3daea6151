import { BookingStatus, calendarDate, isUuid } from '@spa/contract';
import { type Command, InvalidArgumentError } from 'commander';
import { Temporal } from 'temporal-polyfill';
import type { z } from 'zod';
import { acceptBooking, finishBooking } from '../bookings/therapist-workflow.js';
import { operatorTrail } from '../audit/audit-trail.js';
import { instantFromDb } from '../lib/instant.js';
import { type CommandHost, print } from './command-host.js';
import { formatTable } from './format-table.js';
import { listOffers, listVenueBookings } from './lookups.repository.js';
import { resolveVenue } from './venue-option.js';

/** Ids are UUIDs; anything else is refused here rather than by the database. */
export const uuid = (value: string) => {
  if (!isUuid(value)) throw new InvalidArgumentError('must be a UUID');
  return value.toLowerCase();
};

const status = (value: string) => {
  const parsed = BookingStatus.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(`must be one of ${BookingStatus.options.join(', ')}`);
  return parsed.data;
};

const CALENDAR_DATE = calendarDate();
const date = (value: string) => {
  if (!CALENDAR_DATE.safeParse(value).success) throw new InvalidArgumentError('must be a date YYYY-MM-DD');
  return Temporal.PlainDate.from(value);
};

/** `2026-11-23 10:00`: the venue's wall clock, to the minute. */
const localMinute = (instant: Temporal.Instant, zone: string) =>
  instant.toZonedDateTimeISO(zone).toPlainDateTime().toString({ smallestUnit: 'minute' }).replace('T', ' ');

export function registerBookings(program: Command, host: CommandHost): void {
  const bookings = program
    .command('bookings')
    .description('find bookings and move them through the therapist workflow');

  bookings
    .command('list')
    .description(
      "a venue's bookings in start order, with the therapists each waiting booking was offered to " +
        '(default: from today on, venue time)',
    )
    .requiredOption('--venue <slug>', 'venue slug')
    .option('--org <slug>', 'organisation slug, when several organisations have a venue with that slug')
    .option('--status <status>', `only this status (${BookingStatus.options.join(', ')})`, status)
    .option('--date <date>', 'only bookings starting on this date, venue time (YYYY-MM-DD)', date)
    .action(
      async (options: {
        venue: string;
        org?: string;
        status?: z.infer<typeof BookingStatus>;
        date?: Temporal.PlainDate;
      }) => {
        await host.withContext(async ({ db }) => {
          const venue = await resolveVenue(db, options.venue, options.org);
          const zone = venue.timezone ?? 'UTC';
          const day = options.date ?? host.clock.now().toZonedDateTimeISO(zone).toPlainDate();
          const from = day.toZonedDateTime(zone).toInstant();
          const to = options.date ? day.add({ days: 1 }).toZonedDateTime(zone).toInstant() : undefined;
          const rows = await listVenueBookings(db, {
            venueId: venue.id,
            status: options.status,
            from: from.toString(),
            to: to?.toString(),
          });
          const waiting = rows.filter((b) => b.status === 'pending' || b.status === 'awaiting_therapist');
          const offers = await listOffers(
            db,
            waiting.map((b) => b.id),
          );
          const kind = options.status ? `${options.status} ` : '';
          const where = `at ${venue.slug} (${zone}) ${options.date ? 'on' : 'from'} ${day.toString()}${options.date ? '' : ' on'}`;
          if (rows.length === 0) return print(host, `No ${kind}bookings ${where}.`);
          print(host, `${rows.length} ${kind}booking${rows.length === 1 ? '' : 's'} ${where}:\n`);
          print(
            host,
            formatTable(
              rows.map((b) => ({
                number: b.booking_number,
                id: b.id,
                'start (local)': localMinute(instantFromDb(b.start_at), zone),
                status: b.status,
                guests: b.guest_count,
              })),
              (i) => {
                const b = rows[i]!;
                const lines = [`${b.treatment}, ${b.variant}, for ${b.guest_first_name} ${b.guest_last_name}`];
                if (b.therapist_id)
                  lines.push(`therapist ${b.therapist_id} ${b.therapist_first_name} ${b.therapist_last_name}`);
                for (const offer of offers.filter((o) => o.booking_id === b.id))
                  lines.push(`offered to ${offer.id} ${offer.first_name} ${offer.last_name}`);
                if (waiting.includes(b) && !offers.some((o) => o.booking_id === b.id))
                  lines.push('offered to nobody (no qualified therapist on shift when it was made)');
                return lines;
              },
            ),
          );
        });
      },
    );

  bookings
    .command('accept')
    .description(
      'a therapist accepts a pending booking: confirmed once one therapist per guest has accepted (the first is assigned)',
    )
    .argument('<booking-id>', 'booking UUID', uuid)
    .requiredOption('--therapist <id>', 'the accepting therapist (UUID, as bookings list shows)', uuid)
    .action(async (bookingId: string, options: { therapist: string }) => {
      const booking = await host.withContext(({ db }) =>
        acceptBooking(db, {
          bookingId,
          therapistId: options.therapist,
          now: host.clock.now(),
          audit: operatorTrail(host.clock),
        }),
      );
      const accepted = `${booking.accepted_count} of ${booking.guest_count} therapist${booking.guest_count === 1 ? '' : 's'} accepted`;
      print(
        host,
        booking.status === 'confirmed'
          ? `Booking ${booking.id} is confirmed (${accepted}), assigned to therapist ${booking.therapist_id}.`
          : `Booking ${booking.id} is ${booking.status}: ${accepted}; it is confirmed when all have.`,
      );
    });

  for (const [name, outcome] of [
    ['complete', 'completed'],
    ['no-show', 'no_show'],
  ] as const) {
    bookings
      .command(name)
      .description(
        `mark a confirmed booking ${outcome.replace('_', '-')} once it has started (its room and therapist are released)`,
      )
      .argument('<booking-id>', 'booking UUID', uuid)
      .action(async (bookingId: string) => {
        const booking = await host.withContext(({ db }) =>
          finishBooking(db, { bookingId, outcome, now: host.clock.now(), audit: operatorTrail(host.clock) }),
        );
        print(host, `Booking ${booking.id} is ${booking.status}.`);
      });
  }
}
