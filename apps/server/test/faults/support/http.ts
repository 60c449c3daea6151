import { bookingBody } from '../../support/booking-fixture.js';
import { slotStart } from './slots.js';

/** A create of the n-th slot, with a guest of its own, through real HTTP. */
export function postBooking(
  base: string,
  fixture: { venue: { id: string }; variant: { id: string }; key: string },
  n: number,
) {
  return fetch(`${base}/v1/venues/${fixture.venue.id}/bookings`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${fixture.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(
      bookingBody(fixture.variant.id, {
        start_at: slotStart(n),
        guest: { first_name: 'Field', last_name: `Guest ${n}`, email: `field.${n}@example.com` },
      }),
    ),
  });
}

export async function isReady(base: string): Promise<boolean> {
  return (await fetch(`${base}/readyz`)).status === 200;
}
