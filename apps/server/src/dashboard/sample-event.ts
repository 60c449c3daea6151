import { randomUUID } from 'node:crypto';
import type { Booking, WebhookEventType } from '@spa/contract';
import type { Temporal } from 'temporal-polyfill';
import type { z } from 'zod';
import type { Db } from '../db/connect.js';
import { isoSeconds } from '../lib/instant.js';
import { toMoney } from '../lib/money.js';

const STATUS_OF: Record<WebhookEventType, z.infer<typeof Booking>['status']> = {
  'booking.created': 'pending',
  'booking.awaiting_therapist': 'awaiting_therapist',
  'booking.confirmed': 'confirmed',
  'booking.cancelled': 'cancelled',
  'booking.completed': 'completed',
  'booking.no_show': 'no_show',
  'booking.rescheduled': 'confirmed',
};

/**
 * A booking event's `data` with a made-up booking, for a test event of that type: the organisation's first venue
 * and one of its variants (so a receiver can look them up), a booking id and customer id that exist nowhere, and
 * `external_id` `test_event` so a receiver can tell it from a real one.
 */
export async function sampleBookingEvent(
  db: Db,
  organisationId: string,
  type: WebhookEventType,
  now: Temporal.Instant,
): Promise<{
  type: WebhookEventType;
  data: { booking: z.infer<typeof Booking>; previous_start_at?: string; previous_end_at?: string };
}> {
  const variant = await db
    .selectFrom('variants')
    .innerJoin('treatments', 'treatments.id', 'variants.treatment_id')
    .innerJoin('venues', 'venues.id', 'treatments.venue_id')
    .select([
      'venues.id as venue_id',
      'treatments.id as treatment_id',
      'variants.id as variant_id',
      'variants.duration_minutes',
      'variants.price_minor',
      'variants.currency',
    ])
    .where('venues.organisation_id', '=', organisationId)
    .orderBy('venues.name')
    .orderBy('variants.id')
    .limit(1)
    .executeTakeFirst();
  const start = now.add({ hours: 48 }).round({ smallestUnit: 'hour', roundingMode: 'floor' });
  const end = start.add({ minutes: variant?.duration_minutes ?? 60 });
  const price = variant ? toMoney(variant.price_minor, variant.currency) : { amount: 100, currency: 'EUR' };
  const at = isoSeconds(now);
  const status = STATUS_OF[type];
  // A rescheduled sample moved one day later than it was.
  const previous =
    type === 'booking.rescheduled'
      ? {
          previous_start_at: isoSeconds(start.subtract({ hours: 24 })),
          previous_end_at: isoSeconds(end.subtract({ hours: 24 })),
        }
      : {};
  return {
    type,
    data: {
      ...previous,
      booking: {
        id: randomUUID(),
        booking_number: 1,
        status,
        venue_id: variant?.venue_id ?? randomUUID(),
        treatment_id: variant?.treatment_id ?? randomUUID(),
        variant_id: variant?.variant_id ?? randomUUID(),
        customer_id: randomUUID(),
        start_at: isoSeconds(start),
        end_at: isoSeconds(end),
        guest_count: 1,
        therapists_accepted: status === 'pending' || status === 'awaiting_therapist' ? 0 : 1,
        notes: 'A test event from the dashboard: this booking does not exist',
        external_reference: null,
        external_id: 'test_event',
        client_type: 'external',
        total_price: price,
        payment_method: 'partner_billed',
        payment_status: 'paid',
        created_at: at,
        updated_at: at,
        cancellation:
          status === 'cancelled'
            ? {
                fee: { amount: 0, currency: price.currency },
                policy: 'Cancelled 48 hours or more before the start: no fee.',
                cancelled_at: at,
                cancelled_by: 'partner',
                reason: 'Test event',
              }
            : null,
      },
    },
  };
}
