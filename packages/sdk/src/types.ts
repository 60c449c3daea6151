import type {
  Booking as BookingSchema,
  CancelBookingBody,
  CreateBookingBody,
  Customer as CustomerSchema,
  DayAvailability as DayAvailabilitySchema,
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

/** The wire types, inferred from the contract's schemas (never written by hand). */
export type VenueSummary = z.infer<typeof VenueSummarySchema>;
export type VenueDetail = z.infer<typeof VenueDetailSchema>;
export type Treatment = z.infer<typeof TreatmentSchema>;
export type Variant = z.infer<typeof VariantSchema>;
export type Customer = z.infer<typeof CustomerSchema>;
export type Booking = z.infer<typeof BookingSchema>;
export type Money = z.infer<typeof MoneySchema>;
export type Pagination = z.infer<typeof PaginationSchema>;
export type Slot = z.infer<typeof SlotSchema>;
export type DayAvailability = z.infer<typeof DayAvailabilitySchema>;
export type RangeAvailability = z.infer<typeof RangeAvailabilitySchema>;
/** What createBooking takes (defaults such as guest_count = 1 may be left out). */
export type CreateBookingInput = z.input<typeof CreateBookingBody>;
export type CancelBookingInput = z.input<typeof CancelBookingBody>;

/** Range mode (`from`/`to`) answers `days`; day mode (`date`) answers `slots`. */
export function isRangeAvailability(data: DayAvailability | RangeAvailability): data is RangeAvailability {
  return 'days' in data;
}
