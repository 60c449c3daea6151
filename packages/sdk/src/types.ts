/* eslint-disable @typescript-eslint/no-empty-object-type -- an interface extending the inferred type, rather than an alias, is what makes a type error print `Booking` */
import type {
  AcceptTestBookingBody,
  AvailabilityDay as AvailabilityDaySchema,
  Booking as BookingSchema,
  CancelBookingBody,
  RescheduleBookingBody,
  Cancellation as CancellationSchema,
  CreateBookingBody,
  Customer as CustomerSchema,
  Event as EventSchema,
  DayAvailability as DayAvailabilitySchema,
  Guest as GuestSchema,
  Money as MoneySchema,
  Pagination as PaginationSchema,
  RangeAvailability as RangeAvailabilitySchema,
  Slot as SlotSchema,
  Treatment as TreatmentSchema,
  Variant as VariantSchema,
  VenueDetail as VenueDetailSchema,
  VenueSummary as VenueSummarySchema,
} from '@spa/contract';
import type { z } from 'zod';

/*
 * The wire types, inferred from the contract's schemas (never written by hand). Interfaces rather than aliases,
 * so a type error prints `Booking` instead of the whole object type.
 */
export interface VenueSummary extends z.infer<typeof VenueSummarySchema> {}
export interface VenueDetail extends z.infer<typeof VenueDetailSchema> {}
/** A venue in the detail shape (the OpenAPI document's `Venue`). */
export type Venue = VenueDetail;
export interface Treatment extends Omit<z.infer<typeof TreatmentSchema>, 'variants'> {
  variants: Variant[];
}
export interface Variant extends Omit<z.infer<typeof VariantSchema>, 'price'> {
  price: Money;
}
export interface Customer extends z.infer<typeof CustomerSchema> {}
export interface Booking extends Omit<z.infer<typeof BookingSchema>, 'total_price' | 'cancellation'> {
  total_price: Money;
  cancellation: Cancellation | null;
}
export interface Cancellation extends Omit<z.infer<typeof CancellationSchema>, 'fee'> {
  fee: Money;
}
export interface Money extends z.infer<typeof MoneySchema> {}
/** One event of the feed: a webhook body (`type`, `timestamp`, `data`) with its `id` and `livemode`; `type` tells them apart. */
export type Event = z.infer<typeof EventSchema>;
export interface Pagination extends z.infer<typeof PaginationSchema> {}
export interface Slot extends z.infer<typeof SlotSchema> {}
export interface AvailabilityDay extends Omit<z.infer<typeof AvailabilityDaySchema>, 'slots'> {
  slots: Slot[];
}
export interface DayAvailability extends Omit<z.infer<typeof DayAvailabilitySchema>, 'slots'> {
  slots: Slot[];
}
export interface RangeAvailability extends Omit<z.infer<typeof RangeAvailabilitySchema>, 'days'> {
  days: AvailabilityDay[];
}
/** What `getVariantAvailability` answers: `mode` tells the two apart. */
export type Availability = DayAvailability | RangeAvailability;
/** Who the treatment is for, as createBooking takes it. */
export interface Guest extends z.input<typeof GuestSchema> {}
/** What createBooking takes (defaults such as guest_count = 1 may be left out). */
export interface CreateBookingInput extends Omit<z.input<typeof CreateBookingBody>, 'guest'> {
  guest: Guest;
}
export interface CancelBookingInput extends z.input<typeof CancelBookingBody> {}
/** What rescheduleBooking takes: the new start, exactly as availability lists it. */
export interface RescheduleBookingInput extends z.input<typeof RescheduleBookingBody> {}
/** What testHelpers.acceptBooking takes: the therapist who accepts, or none to let the server choose one. */
export interface AcceptTestBookingInput extends z.input<typeof AcceptTestBookingBody> {}

/** Range mode (`from`/`to`) answers `days`; day mode (`date`) answers `slots`. */
export function isRangeAvailability(data: Availability): data is RangeAvailability {
  return data.mode === 'range';
}
