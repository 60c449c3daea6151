import { isUuid } from '@spa/contract';
import { Command, InvalidArgumentError } from 'commander';
import { Temporal } from 'temporal-polyfill';
import { acceptBooking, finishBooking } from '../bookings/therapist-workflow.js';
import { withOperatorContext } from './operator-context.js';

/** Ids are UUIDs; anything else is refused here rather than by the database. */
const uuid = (value: string) => {
  if (!isUuid(value)) throw new InvalidArgumentError('must be a UUID');
  return value.toLowerCase();
};

export const bookingsCommand = new Command('bookings').description('move bookings through the therapist workflow');

bookingsCommand
  .command('accept')
  .description('a therapist accepts a pending booking: it becomes confirmed and assigned to them')
  .argument('<booking-id>', 'booking UUID', uuid)
  .requiredOption('--therapist <id>', 'the accepting therapist (UUID)', uuid)
  .action(async (bookingId: string, options: { therapist: string }) => {
    const booking = await withOperatorContext(({ db }) =>
      acceptBooking(db, { bookingId, therapistId: options.therapist, now: Temporal.Now.instant() }),
    );
    console.log(`Booking ${booking.id} is ${booking.status}, assigned to therapist ${booking.therapist_id}.`);
  });

for (const [name, outcome] of [
  ['complete', 'completed'],
  ['no-show', 'no_show'],
] as const) {
  bookingsCommand
    .command(name)
    .description(`mark a confirmed booking ${outcome.replace('_', '-')} (its room and therapist are released)`)
    .argument('<booking-id>', 'booking UUID', uuid)
    .action(async (bookingId: string) => {
      const booking = await withOperatorContext(({ db }) =>
        finishBooking(db, { bookingId, outcome, now: Temporal.Now.instant() }),
      );
      console.log(`Booking ${booking.id} is ${booking.status}.`);
    });
}
