/**
 * Partner Booking API
 * 2.4.1
 * DO NOT MODIFY - This file has been generated using oazapfts.
 * See https://www.npmjs.com/package/oazapfts
 */
import * as Oazapfts from "@oazapfts/runtime";
import * as QS from "@oazapfts/runtime/query";
export const defaults: Oazapfts.Defaults<Oazapfts.CustomHeaders> = {
    headers: {},
    baseUrl: "https://partner-api.invalid"
};
const oazapfts = Oazapfts.runtime(defaults);
export const servers = {
    yourApiBaseUrlAsGivenByTheOperatorPathsStartWithV1PnpmStartServesHttp1270013000: ({ base_url = "https://partner-api.invalid" }: {
        base_url: string | number | boolean;
    }) => `${base_url}`
};
export type VenueType = string;
export type VenueSummary = {
    /** Venue UUID */
    id: string;
    /** Kebab-case identifier, unique within the organisation */
    slug: string;
    /** Display name in French */
    name: string;
    /** Display name in English */
    name_en: string | null;
    /** Description in French */
    description: string | null;
    /** Description in English */
    description_en: string | null;
    /** Street address */
    address: string | null;
    /** Postal code */
    postal_code: string | null;
    /** City */
    city: string | null;
    /** ISO 3166-1 alpha-2 country code */
    country: string | null;
    /** ISO 4217 code of every amount at this venue */
    currency: string;
    venue_type: VenueType;
    /** IANA timezone of the venue-local dates and times; null means UTC */
    timezone: string | null;
    /** URL of the main image */
    image: string | null;
    /** URL of the cover image */
    cover_image: string | null;
};
export type Pagination = {
    /** This page, from 1 */
    page: number;
    /** Items per page as asked (the last page may hold fewer) */
    page_size: number;
    /** Items in the whole list */
    total_items: number;
    /** Pages in the whole list at this page_size (0 when empty) */
    total_pages: number;
};
export type VenueListResponse = {
    /** Venues of this page */
    data: VenueSummary[];
    pagination: Pagination;
};
export type FieldProblem = {
    /** Dotted path of the field (guest.email), or the query or path parameter */
    path: string;
    /** A sentence naming the field and what is wrong with it */
    message: string;
};
export type ValidationError = {
    /** A sentence naming the first bad field by its dotted path, or `Request body is not valid JSON` */
    error: string;
    /** The request id (also in the X-Request-Id header); quote it to support */
    request_id: string;
    /** Every bad field (absent for malformed JSON) */
    details?: FieldProblem[];
};
export type UnauthorizedError = {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: "Missing API key" | "Invalid or revoked API key";
    /** The request id (also in the X-Request-Id header); quote it to support */
    request_id: string;
};
export type AccessDeniedErrorBase = {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: string;
    /** The request id (also in the X-Request-Id header); quote it to support */
    request_id: string;
    /** The scopes the key lacks */
    missing?: ("venues:read" | "treatments:read" | "customers:read" | "bookings:read" | "availability:read" | "bookings:write")[];
    /** A sentence for people; its wording may change, so never parse it (switch on `error`) */
    message?: string;
};
export type InsufficientScopeError = {
    error: "Insufficient scope";
} & AccessDeniedErrorBase & {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: "Insufficient scope";
};
export type RateLimitError = {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: "Rate limit exceeded";
    /** The request id (also in the X-Request-Id header); quote it to support */
    request_id: string;
};
export type InternalServerError = {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: "Internal server error";
    /** The request id (also in the X-Request-Id header); quote it to support */
    request_id: string;
};
export type ServiceUnavailableError = {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: "Service unavailable";
    /** The request id (also in the X-Request-Id header); quote it to support */
    request_id: string;
};
export type CancellationTier = {
    /** Hours left before the start from which this tier applies */
    min_hours_before: number;
    /** Fee in percent of total_price */
    fee_percent: number;
};
export type CancellationPolicy = {
    /** Tiers when the partner cancels, largest min_hours_before first */
    partner: CancellationTier[];
    /** Tiers when the customer cancels, largest min_hours_before first */
    customer: CancellationTier[];
};
export type Venue = {
    /** Venue UUID */
    id: string;
    /** Kebab-case identifier, unique within the organisation */
    slug: string;
    /** Display name in French */
    name: string;
    /** Display name in English */
    name_en: string | null;
    /** Description in French */
    description: string | null;
    /** Description in English */
    description_en: string | null;
    /** Street address */
    address: string | null;
    /** Postal code */
    postal_code: string | null;
    /** City */
    city: string | null;
    /** ISO 3166-1 alpha-2 country code */
    country: string | null;
    /** ISO 4217 code of every amount at this venue */
    currency: string;
    venue_type: VenueType;
    /** IANA timezone of the venue-local dates and times; null means UTC */
    timezone: string | null;
    /** URL of the main image */
    image: string | null;
    /** URL of the cover image */
    cover_image: string | null;
    /** Short subtitle for a landing page */
    landing_subtitle: string | null;
    /** Lifecycle status; the API lists active venues only */
    status: string;
    /** VAT rate in percent */
    vat: number;
    /** Venue local time of day, HH:mm:ss */
    opening_time: string;
    /** Venue local time of day, HH:mm:ss */
    closing_time: string;
    /** Slot granularity in minutes */
    slot_interval: number;
    /** How the opening days are defined: recurring weekdays, or one-time openings. Open to additions: a minor version may add values, so handle an unknown value without failing: read days_of_week as the days it opens. Known values: `recurring`, `one_time`. */
    schedule_type: string;
    /** 0 = Sunday .. 6 = Saturday */
    days_of_week: number[];
    /** Operating every N weeks from recurring_start_date */
    recurrence_interval: number | null;
    /** First date of the recurring schedule */
    recurring_start_date: string | null;
    /** Last date of the recurring schedule; null when open-ended */
    recurring_end_date: string | null;
    /** Treatments are offered (free of charge) to the guests of this venue */
    offert: boolean;
    /** Bookings are held for a while before they are confirmed */
    booking_hold_enabled: boolean;
    /** How long a hold lasts, in minutes */
    booking_hold_duration_minutes: number;
    /** Slots outside opening hours may be listed (out_of_hours) */
    allow_out_of_hours_booking: boolean;
    /** Surcharge of an out-of-hours slot, in percent */
    out_of_hours_surcharge_percent: number;
    /** Minutes a room stays free between two bookings */
    room_turnover_buffer_minutes: number;
    /** Minutes a therapist needs between bookings at two venues */
    inter_venue_buffer_minutes: number;
    cancellation_policy: CancellationPolicy;
};
export type VenueResponse = {
    data: Venue;
};
export type ForbiddenError = {
    error: "Forbidden";
} & AccessDeniedErrorBase & {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: "Forbidden";
};
export type BookingForbiddenError = {
    error: "FORBIDDEN";
} & AccessDeniedErrorBase & {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: "FORBIDDEN";
};
export type TestModeOnlyError = {
    error: "Test mode only";
} & AccessDeniedErrorBase & {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: "Test mode only";
};
export type AccessDeniedError = InsufficientScopeError | ForbiddenError | BookingForbiddenError | TestModeOnlyError;
export type NotFoundErrorBase = {
    /** `Venue not found` or `Customer not found in this venue` or `Variant not found` or `Booking not found` or `BOOKING_NOT_FOUND` or `Event not found`: which of the schemas of the mapping this is */
    error: string;
    /** The request id (also in the X-Request-Id header); quote it to support */
    request_id: string;
    /** A sentence for people; its wording may change, so never parse it (switch on `error`) */
    message?: string;
};
export type VenueNotFoundError = {
    error: "Venue not found";
} & NotFoundErrorBase & {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: "Venue not found";
};
export type Money = {
    /** Amount in major units (120.5 is EUR 120.50), with at most as many decimals as the currency has (2 for EUR and GBP, 0 for JPY, 3 for KWD); an amount with more decimals is refused with a 400. */
    amount: number;
    /** ISO 4217 currency code */
    currency: string;
};
export type Variant = {
    /** Variant UUID: what availability and POST /bookings take */
    id: string;
    /** Variant name */
    name: string;
    /** Duration in minutes */
    duration_minutes: number;
    price: Money;
    /** Exactly one variant of a treatment is the default */
    is_default: boolean;
};
export type Treatment = {
    /** Treatment UUID */
    id: string;
    /** Name in French */
    name: string;
    /** Name in English */
    name_en: string | null;
    /** Description in French */
    description: string | null;
    /** Description in English */
    description_en: string | null;
    /** Category */
    category: string | null;
    /** Minimum notice before a slot can be booked */
    lead_time_minutes: number;
    /** The bookable variants (durations and prices) */
    variants: Variant[];
};
export type TreatmentListResponse = {
    /** Every treatment of the venue */
    data: Treatment[];
};
export type Customer = {
    /** Customer UUID */
    id: string;
    /** First name */
    first_name: string;
    /** Last name */
    last_name: string;
    /** Email, unique per organisation (case-insensitive) */
    email: string;
    /** Phone number, E.164 */
    phone: string | null;
    /** ISO 639-1 */
    language: string;
    /** When the customer was first recorded */
    created_at: string;
    /** true for a live customer; false for one a test key (sk_test_) made */
    livemode: boolean;
};
export type CustomerListResponse = {
    /** Customers of this page */
    data: Customer[];
    pagination: Pagination;
};
export type BookingStatus = string;
export type ClientType = string;
export type CancelledBy = string;
export type Booking = {
    /** Booking UUID */
    id: string;
    /** Human-facing number, unique and increasing */
    booking_number: number;
    status: BookingStatus;
    /** Venue UUID */
    venue_id: string;
    /** Treatment UUID */
    treatment_id: string;
    /** Variant UUID */
    variant_id: string;
    /** Customer UUID */
    customer_id: string;
    /** Start */
    start_at: string;
    /** End: start_at plus the variant duration */
    end_at: string;
    /** Guests, 1 to 20 */
    guest_count: number;
    /** How many distinct therapists have accepted: one per guest is needed, and the booking is confirmed when this reaches guest_count */
    therapists_accepted: number;
    /** Free text for the venue */
    notes: string | null;
    /** Provenance, source.XXXX */
    external_reference: string | null;
    /** Partner's idempotency key, unique per venue */
    external_id: string | null;
    client_type: ClientType;
    total_price: Money;
    /** The partner bills the guest; the venue bills the partner. Open to additions: a minor version may add values, so handle an unknown value without failing: show it as is. Known values: `partner_billed`. */
    payment_method: string;
    /** Paid through the partner. Open to additions: a minor version may add values, so handle an unknown value without failing: show it as is. Known values: `paid`. */
    payment_status: string;
    /** Created */
    created_at: string;
    /** Last changed; a webhook receiver drops events older than what it has */
    updated_at: string;
    /** null unless the booking is cancelled */
    cancellation: {
        /** The fee charged: total_price times the percent of the tier applied */
        fee: Money;
        /** The tier applied, in one English sentence */
        policy: string;
        /** When it was cancelled */
        cancelled_at: string;
        cancelled_by: CancelledBy;
        /** The reason given */
        reason: string;
    } | null;
    /** true for a live booking; false for one made with a test key (sk_test_), which no venue ever sees */
    livemode: boolean;
};
export type BookingListResponse = {
    /** Bookings of this page */
    data: Booking[];
    pagination: Pagination;
};
export type CustomerNotFoundError = {
    error: "Customer not found in this venue";
} & NotFoundErrorBase & {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: "Customer not found in this venue";
};
export type VariantNotFoundError = {
    error: "Variant not found";
} & NotFoundErrorBase & {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: "Variant not found";
};
export type NoSuchBookingError = {
    error: "Booking not found";
} & NotFoundErrorBase & {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: "Booking not found";
};
export type BookingNotFoundError = {
    error: "BOOKING_NOT_FOUND";
} & NotFoundErrorBase & {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: "BOOKING_NOT_FOUND";
};
export type EventNotFoundError = {
    error: "Event not found";
} & NotFoundErrorBase & {
    /** The error, a fixed text */
    error: "Event not found";
};
export type NotFoundError = VenueNotFoundError | CustomerNotFoundError | VariantNotFoundError | NoSuchBookingError | BookingNotFoundError | EventNotFoundError;
export type Slot = {
    /** Slot start, UTC, HH:mm */
    time: string;
    /** Slot start, venue local time, HH:mm */
    local_time: string;
    /** Slot start instant; exactly what POST /bookings takes as start_at */
    start_at: string;
    /** start_at plus the variant duration */
    end_at: string;
    /** Outside opening hours (the venue allows it, with its surcharge) */
    out_of_hours: boolean;
    /** Largest guest_count one more booking could have here */
    available_capacity: number;
};
export type AvailabilityDay = {
    /** A venue-local date of the range */
    date: string;
    /** The slots of the date, earliest first; empty when none is free */
    slots: Slot[];
};
export type AvailabilityBase = {
    /** `day` or `range`: which of the schemas of the mapping this is */
    mode: string;
    /** Venue UUID */
    venue_id: string;
    /** Treatment UUID */
    treatment_id: string;
    /** Variant UUID */
    variant_id: string;
    /** The venue-local date asked */
    date?: string;
    /** The slots of the date, earliest first; empty when none is free */
    slots?: Slot[];
    /** First venue-local date of the range */
    "from"?: string;
    /** Last venue-local date of the range, inclusive */
    to?: string;
    /** Every date from `from` to `to`, in order, each with its slots */
    days?: AvailabilityDay[];
};
export type DayAvailability = {
    mode: "day";
} & AvailabilityBase & {
    /** Day mode: the query had date */
    mode: "day";
};
export type RangeAvailability = {
    mode: "range";
} & AvailabilityBase & {
    /** Range mode: the query had from and to */
    mode: "range";
};
export type Availability = DayAvailability | RangeAvailability;
export type AvailabilityResponse = {
    data: Availability;
};
export type BookingResponse = {
    data: Booking;
};
export type ConflictErrorBase = {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: string;
    /** The request id (also in the X-Request-Id header); quote it to support */
    request_id: string;
    /** A sentence for people; its wording may change, so never parse it (switch on `error`) */
    message?: string;
};
export type AmbiguousExternalIdError = {
    error: "AMBIGUOUS_EXTERNAL_ID";
} & ConflictErrorBase & {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: "AMBIGUOUS_EXTERNAL_ID";
};
export type Guest = {
    /** First name */
    first_name: string;
    /** Last name */
    last_name: string;
    /** Guest email. The customer is found by (organisation, email without case) or created: a known address keeps its stored customer and name (a different name sent is logged for the operator, not stored), so give each guest their own address; guests sharing one address become one customer */
    email: string;
    /** E.164 */
    phone?: string | null;
    /** ISO 639-1, default fr */
    language?: string | null;
};
export type CreateBookingRequest = {
    /** Variant UUID (from the treatments list) */
    variant_id: string;
    /** Slot start exactly as listed by availability (start_at), with an offset or Z; must be in the future */
    start_at: string;
    /** Guests, 1 to 20 */
    guest_count?: number;
    guest: Guest;
    /** Free text for the venue */
    notes?: string | null;
    /** Provenance source.XXXX; source hotel, agency or corporate sets client_type */
    external_reference?: string | null;
    /** Idempotency key, unique per venue: a repeat answers 200 with the original booking */
    external_id?: string | null;
    price_paid: Money;
};
export type RequestTimeoutError = {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: "Request body did not arrive within 10 s of its headers";
    /** The request id (also in the X-Request-Id header); quote it to support */
    request_id: string;
};
export type SlotUnavailableError = {
    error: "slot_unavailable";
} & ConflictErrorBase & {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: "slot_unavailable";
};
export type DuplicateExternalIdError = {
    error: "duplicate_external_id";
} & ConflictErrorBase & {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: "duplicate_external_id";
};
export type ConflictError = AmbiguousExternalIdError | SlotUnavailableError | DuplicateExternalIdError;
export type PayloadTooLargeError = {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: "Request body is larger than 100 kB";
    /** The request id (also in the X-Request-Id header); quote it to support */
    request_id: string;
};
export type UnsupportedContentEncodingError = {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: "Unsupported Content-Encoding: send the body as identity, gzip or deflate";
    /** The request id (also in the X-Request-Id header); quote it to support */
    request_id: string;
};
export type CurrencyMismatchError = {
    /** Names the venue currency */
    error: string;
    /** The request id (also in the X-Request-Id header); quote it to support */
    request_id: string;
};
export type CancelBookingRequest = {
    /** Why */
    reason: string;
    /** Whose cancellation tiers apply: the partner (the default) or the customer */
    cancelled_by?: "partner" | "customer";
};
export type UnprocessableErrorBase = {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: string;
    /** The request id (also in the X-Request-Id header); quote it to support */
    request_id: string;
    /** A sentence for people; its wording may change, so never parse it (switch on `error`) */
    message: string;
    /** What a partner cancellation would cost right now */
    fee?: Money;
};
export type BookingAlreadyCancelledError = {
    error: "BOOKING_ALREADY_CANCELLED";
} & UnprocessableErrorBase & {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: "BOOKING_ALREADY_CANCELLED";
};
export type RescheduleBookingRequest = {
    /** The new start, exactly as availability lists it (start_at of a slot), with an offset or Z; must be in the future */
    start_at: string;
};
export type BookingNotReschedulableError = {
    error: "BOOKING_NOT_RESCHEDULABLE";
} & UnprocessableErrorBase & {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: "BOOKING_NOT_RESCHEDULABLE";
};
export type RescheduleFeeAppliesError = {
    error: "RESCHEDULE_FEE_APPLIES";
} & UnprocessableErrorBase & {
    /** The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status) */
    error: "RESCHEDULE_FEE_APPLIES";
};
export type UnprocessableError = BookingAlreadyCancelledError | BookingNotReschedulableError | RescheduleFeeAppliesError;
export type EventBase = {
    /** The event type: what happened to the booking */
    "type": string;
    /** Event UUID: the webhook-id header of its deliveries, and the `after` cursor of the feed */
    id: string;
    /** true for a live booking's event (sent to live endpoints only); false in test mode (test endpoints only) */
    livemode: boolean;
    /** When the change happened (the booking's updated_at) */
    timestamp: string;
};
export type WebhookEventData = {
    booking: Booking;
};
export type BookingCreatedFeedEvent = {
    "type": "booking.created";
} & EventBase & {
    /** The event type: what happened to the booking */
    "type": "booking.created";
    data: WebhookEventData;
};
export type BookingAwaitingTherapistFeedEvent = {
    "type": "booking.awaiting_therapist";
} & EventBase & {
    /** The event type: what happened to the booking */
    "type": "booking.awaiting_therapist";
    data: WebhookEventData;
};
export type BookingConfirmedFeedEvent = {
    "type": "booking.confirmed";
} & EventBase & {
    /** The event type: what happened to the booking */
    "type": "booking.confirmed";
    data: WebhookEventData;
};
export type BookingCancelledFeedEvent = {
    "type": "booking.cancelled";
} & EventBase & {
    /** The event type: what happened to the booking */
    "type": "booking.cancelled";
    data: WebhookEventData;
};
export type BookingCompletedFeedEvent = {
    "type": "booking.completed";
} & EventBase & {
    /** The event type: what happened to the booking */
    "type": "booking.completed";
    data: WebhookEventData;
};
export type BookingNoShowFeedEvent = {
    "type": "booking.no_show";
} & EventBase & {
    /** The event type: what happened to the booking */
    "type": "booking.no_show";
    data: WebhookEventData;
};
export type BookingRescheduledEventData = {
    booking: Booking;
    /** Where the booking started before the move */
    previous_start_at: string;
    /** Where it ended before the move */
    previous_end_at: string;
};
export type BookingRescheduledFeedEvent = {
    "type": "booking.rescheduled";
} & EventBase & {
    /** The event type: what happened to the booking */
    "type": "booking.rescheduled";
    data: BookingRescheduledEventData;
};
export type Event = BookingCreatedFeedEvent | BookingAwaitingTherapistFeedEvent | BookingConfirmedFeedEvent | BookingCancelledFeedEvent | BookingCompletedFeedEvent | BookingNoShowFeedEvent | BookingRescheduledFeedEvent;
export type EventListResponse = {
    /** Events after `after`, oldest first */
    data: Event[];
    /** Whether more events follow now: ask again with after = next_after */
    has_more: boolean;
    /** What to send as `after` next: the last event of data, or the `after` you sent when data is empty (null if none) */
    next_after: string | null;
};
export type EventCursorExpiredError = {
    /** The error, a fixed text */
    error: "EVENT_CURSOR_EXPIRED";
    /** The request id (also in the X-Request-Id header); quote it to support */
    request_id: string;
};
export type EventResponse = {
    data: Event;
};
export type AcceptTestBookingBody = {
    /** The therapist who accepts; omitted, one of those the booking was offered to and who is free is chosen */
    therapist_id?: string;
};
export type TestHelperRefusal = {
    /** One sentence saying why the step cannot be taken now */
    error: string;
    /** The request id (also in the X-Request-Id header); quote it to support */
    request_id: string;
};
/**
 * List venues
 */
export function listVenues({ page, pageSize }: {
    page?: number;
    pageSize?: number;
} = {}, opts?: Oazapfts.RequestOpts) {
    return oazapfts.fetchJson<{
        status: 200;
        data: VenueListResponse;
    } | {
        status: 400;
        data: ValidationError;
    } | {
        status: 401;
        data: UnauthorizedError;
    } | {
        status: 403;
        data: InsufficientScopeError;
    } | {
        status: 429;
        data: RateLimitError;
    } | {
        status: 500;
        data: InternalServerError;
    } | {
        status: 503;
        data: ServiceUnavailableError;
    }>(`/v1/venues${QS.query(QS.explode({
        page,
        page_size: pageSize
    }))}`, {
        ...opts
    });
}
/**
 * Get a venue
 */
export function getVenue(venueId: string, opts?: Oazapfts.RequestOpts) {
    return oazapfts.fetchJson<{
        status: 200;
        data: VenueResponse;
    } | {
        status: 400;
        data: ValidationError;
    } | {
        status: 401;
        data: UnauthorizedError;
    } | {
        status: 403;
        data: AccessDeniedError;
    } | {
        status: 404;
        data: VenueNotFoundError;
    } | {
        status: 429;
        data: RateLimitError;
    } | {
        status: 500;
        data: InternalServerError;
    } | {
        status: 503;
        data: ServiceUnavailableError;
    }>(`/v1/venues/${encodeURIComponent(venueId)}`, {
        ...opts
    });
}
/**
 * List treatments and their variants
 */
export function listTreatments(venueId: string, opts?: Oazapfts.RequestOpts) {
    return oazapfts.fetchJson<{
        status: 200;
        data: TreatmentListResponse;
    } | {
        status: 400;
        data: ValidationError;
    } | {
        status: 401;
        data: UnauthorizedError;
    } | {
        status: 403;
        data: AccessDeniedError;
    } | {
        status: 404;
        data: VenueNotFoundError;
    } | {
        status: 429;
        data: RateLimitError;
    } | {
        status: 500;
        data: InternalServerError;
    } | {
        status: 503;
        data: ServiceUnavailableError;
    }>(`/v1/venues/${encodeURIComponent(venueId)}/treatments`, {
        ...opts
    });
}
/**
 * List the venue's customers
 */
export function listCustomers(venueId: string, { page, pageSize, email }: {
    page?: number;
    pageSize?: number;
    email?: string;
} = {}, opts?: Oazapfts.RequestOpts) {
    return oazapfts.fetchJson<{
        status: 200;
        data: CustomerListResponse;
    } | {
        status: 400;
        data: ValidationError;
    } | {
        status: 401;
        data: UnauthorizedError;
    } | {
        status: 403;
        data: AccessDeniedError;
    } | {
        status: 404;
        data: VenueNotFoundError;
    } | {
        status: 429;
        data: RateLimitError;
    } | {
        status: 500;
        data: InternalServerError;
    } | {
        status: 503;
        data: ServiceUnavailableError;
    }>(`/v1/venues/${encodeURIComponent(venueId)}/customers${QS.query(QS.explode({
        page,
        page_size: pageSize,
        email
    }))}`, {
        ...opts
    });
}
/**
 * List a customer's bookings at a venue
 */
export function listCustomerBookings(venueId: string, customerId: string, { page, pageSize }: {
    page?: number;
    pageSize?: number;
} = {}, opts?: Oazapfts.RequestOpts) {
    return oazapfts.fetchJson<{
        status: 200;
        data: BookingListResponse;
    } | {
        status: 400;
        data: ValidationError;
    } | {
        status: 401;
        data: UnauthorizedError;
    } | {
        status: 403;
        data: AccessDeniedError;
    } | {
        status: 404;
        data: NotFoundError;
    } | {
        status: 429;
        data: RateLimitError;
    } | {
        status: 500;
        data: InternalServerError;
    } | {
        status: 503;
        data: ServiceUnavailableError;
    }>(`/v1/venues/${encodeURIComponent(venueId)}/customers/${encodeURIComponent(customerId)}/bookings${QS.query(QS.explode({
        page,
        page_size: pageSize
    }))}`, {
        ...opts
    });
}
/**
 * Slots of one variant (preview)
 */
export function getVariantAvailability(venueId: string, variantId: string, { date, $from, to, guestCount }: {
    date?: string;
    $from?: string;
    to?: string;
    guestCount?: number;
} = {}, opts?: Oazapfts.RequestOpts) {
    return oazapfts.fetchJson<{
        status: 200;
        data: AvailabilityResponse;
    } | {
        status: 400;
        data: ValidationError;
    } | {
        status: 401;
        data: UnauthorizedError;
    } | {
        status: 403;
        data: AccessDeniedError;
    } | {
        status: 404;
        data: NotFoundError;
    } | {
        status: 429;
        data: RateLimitError;
    } | {
        status: 500;
        data: InternalServerError;
    } | {
        status: 503;
        data: ServiceUnavailableError;
    }>(`/v1/venues/${encodeURIComponent(venueId)}/availability/variants/${encodeURIComponent(variantId)}${QS.query(QS.explode({
        date,
        "from": $from,
        to,
        guest_count: guestCount
    }))}`, {
        ...opts
    });
}
/**
 * List bookings
 */
export function listBookings({ page, pageSize, venueId, status, startFrom, startTo, updatedSince, customerId, externalId }: {
    page?: number;
    pageSize?: number;
    venueId?: string;
    status?: string;
    startFrom?: string;
    startTo?: string;
    updatedSince?: string;
    customerId?: string;
    externalId?: string;
} = {}, opts?: Oazapfts.RequestOpts) {
    return oazapfts.fetchJson<{
        status: 200;
        data: BookingListResponse;
    } | {
        status: 400;
        data: ValidationError;
    } | {
        status: 401;
        data: UnauthorizedError;
    } | {
        status: 403;
        data: AccessDeniedError;
    } | {
        status: 404;
        data: VenueNotFoundError;
    } | {
        status: 429;
        data: RateLimitError;
    } | {
        status: 500;
        data: InternalServerError;
    } | {
        status: 503;
        data: ServiceUnavailableError;
    }>(`/v1/bookings${QS.query(QS.explode({
        page,
        page_size: pageSize,
        venue_id: venueId,
        status,
        start_from: startFrom,
        start_to: startTo,
        updated_since: updatedSince,
        customer_id: customerId,
        external_id: externalId
    }))}`, {
        ...opts
    });
}
/**
 * Read one booking
 */
export function getBooking(bookingId: string, opts?: Oazapfts.RequestOpts) {
    return oazapfts.fetchJson<{
        status: 200;
        data: BookingResponse;
    } | {
        status: 400;
        data: ValidationError;
    } | {
        status: 401;
        data: UnauthorizedError;
    } | {
        status: 403;
        data: AccessDeniedError;
    } | {
        status: 404;
        data: NoSuchBookingError;
    } | {
        status: 409;
        data: AmbiguousExternalIdError;
    } | {
        status: 429;
        data: RateLimitError;
    } | {
        status: 500;
        data: InternalServerError;
    } | {
        status: 503;
        data: ServiceUnavailableError;
    }>(`/v1/bookings/${encodeURIComponent(bookingId)}`, {
        ...opts
    });
}
/**
 * Create a booking (preview)
 */
export function createBooking(venueId: string, createBookingRequest: CreateBookingRequest, opts?: Oazapfts.RequestOpts) {
    return oazapfts.fetchJson<{
        status: 200;
        data: BookingResponse;
    } | {
        status: 201;
        data: BookingResponse;
    } | {
        status: 400;
        data: ValidationError;
    } | {
        status: 401;
        data: UnauthorizedError;
    } | {
        status: 403;
        data: AccessDeniedError;
    } | {
        status: 404;
        data: NotFoundError;
    } | {
        status: 408;
        data: RequestTimeoutError;
    } | {
        status: 409;
        data: ConflictError;
    } | {
        status: 413;
        data: PayloadTooLargeError;
    } | {
        status: 415;
        data: UnsupportedContentEncodingError;
    } | {
        status: 422;
        data: CurrencyMismatchError;
    } | {
        status: 429;
        data: RateLimitError;
    } | {
        status: 500;
        data: InternalServerError;
    } | {
        status: 503;
        data: ServiceUnavailableError;
    }>(`/v1/venues/${encodeURIComponent(venueId)}/bookings`, oazapfts.json({
        ...opts,
        method: "POST",
        body: createBookingRequest
    }));
}
/**
 * Cancel a booking (preview)
 */
export function cancelBooking(bookingId: string, cancelBookingRequest: CancelBookingRequest, opts?: Oazapfts.RequestOpts) {
    return oazapfts.fetchJson<{
        status: 200;
        data: BookingResponse;
    } | {
        status: 400;
        data: ValidationError;
    } | {
        status: 401;
        data: UnauthorizedError;
    } | {
        status: 403;
        data: AccessDeniedError;
    } | {
        status: 404;
        data: BookingNotFoundError;
    } | {
        status: 408;
        data: RequestTimeoutError;
    } | {
        status: 409;
        data: AmbiguousExternalIdError;
    } | {
        status: 413;
        data: PayloadTooLargeError;
    } | {
        status: 415;
        data: UnsupportedContentEncodingError;
    } | {
        status: 422;
        data: BookingAlreadyCancelledError;
    } | {
        status: 429;
        data: RateLimitError;
    } | {
        status: 500;
        data: InternalServerError;
    } | {
        status: 503;
        data: ServiceUnavailableError;
    }>(`/v1/bookings/${encodeURIComponent(bookingId)}/cancel`, oazapfts.json({
        ...opts,
        method: "POST",
        body: cancelBookingRequest
    }));
}
/**
 * Reschedule a booking (preview)
 */
export function rescheduleBooking(bookingId: string, rescheduleBookingRequest: RescheduleBookingRequest, opts?: Oazapfts.RequestOpts) {
    return oazapfts.fetchJson<{
        status: 200;
        data: BookingResponse;
    } | {
        status: 400;
        data: ValidationError;
    } | {
        status: 401;
        data: UnauthorizedError;
    } | {
        status: 403;
        data: AccessDeniedError;
    } | {
        status: 404;
        data: BookingNotFoundError;
    } | {
        status: 408;
        data: RequestTimeoutError;
    } | {
        status: 409;
        data: ConflictError;
    } | {
        status: 413;
        data: PayloadTooLargeError;
    } | {
        status: 415;
        data: UnsupportedContentEncodingError;
    } | {
        status: 422;
        data: UnprocessableError;
    } | {
        status: 429;
        data: RateLimitError;
    } | {
        status: 500;
        data: InternalServerError;
    } | {
        status: 503;
        data: ServiceUnavailableError;
    }>(`/v1/bookings/${encodeURIComponent(bookingId)}/reschedule`, oazapfts.json({
        ...opts,
        method: "POST",
        body: rescheduleBookingRequest
    }));
}
/**
 * List events
 */
export function listEvents({ after, $type, bookingId, limit }: {
    after?: string;
    $type?: string;
    bookingId?: string;
    limit?: number;
} = {}, opts?: Oazapfts.RequestOpts) {
    return oazapfts.fetchJson<{
        status: 200;
        data: EventListResponse;
    } | {
        status: 400;
        data: ValidationError;
    } | {
        status: 401;
        data: UnauthorizedError;
    } | {
        status: 403;
        data: InsufficientScopeError;
    } | {
        status: 410;
        data: EventCursorExpiredError;
    } | {
        status: 429;
        data: RateLimitError;
    } | {
        status: 500;
        data: InternalServerError;
    } | {
        status: 503;
        data: ServiceUnavailableError;
    }>(`/v1/events${QS.query(QS.explode({
        after,
        "type": $type,
        booking_id: bookingId,
        limit
    }))}`, {
        ...opts
    });
}
/**
 * Read one event
 */
export function getEvent(eventId: string, opts?: Oazapfts.RequestOpts) {
    return oazapfts.fetchJson<{
        status: 200;
        data: EventResponse;
    } | {
        status: 400;
        data: ValidationError;
    } | {
        status: 401;
        data: UnauthorizedError;
    } | {
        status: 403;
        data: InsufficientScopeError;
    } | {
        status: 404;
        data: EventNotFoundError;
    } | {
        status: 429;
        data: RateLimitError;
    } | {
        status: 500;
        data: InternalServerError;
    } | {
        status: 503;
        data: ServiceUnavailableError;
    }>(`/v1/events/${encodeURIComponent(eventId)}`, {
        ...opts
    });
}
/**
 * Test mode: a therapist accepts the booking
 */
export function testHelperAcceptBooking(bookingId: string, acceptTestBookingBody: AcceptTestBookingBody, opts?: Oazapfts.RequestOpts) {
    return oazapfts.fetchJson<{
        status: 200;
        data: BookingResponse;
    } | {
        status: 400;
        data: ValidationError;
    } | {
        status: 401;
        data: UnauthorizedError;
    } | {
        status: 403;
        data: AccessDeniedError;
    } | {
        status: 404;
        data: NoSuchBookingError;
    } | {
        status: 408;
        data: RequestTimeoutError;
    } | {
        status: 409;
        data: TestHelperRefusal;
    } | {
        status: 413;
        data: PayloadTooLargeError;
    } | {
        status: 415;
        data: UnsupportedContentEncodingError;
    } | {
        status: 422;
        data: TestHelperRefusal;
    } | {
        status: 429;
        data: RateLimitError;
    } | {
        status: 500;
        data: InternalServerError;
    } | {
        status: 503;
        data: ServiceUnavailableError;
    }>(`/v1/test_helpers/bookings/${encodeURIComponent(bookingId)}/accept`, oazapfts.json({
        ...opts,
        method: "POST",
        body: acceptTestBookingBody
    }));
}
/**
 * Test mode: the therapists' response time runs out now
 */
export function testHelperExpireBooking(bookingId: string, opts?: Oazapfts.RequestOpts) {
    return oazapfts.fetchJson<{
        status: 200;
        data: BookingResponse;
    } | {
        status: 400;
        data: ValidationError;
    } | {
        status: 401;
        data: UnauthorizedError;
    } | {
        status: 403;
        data: AccessDeniedError;
    } | {
        status: 404;
        data: NoSuchBookingError;
    } | {
        status: 408;
        data: RequestTimeoutError;
    } | {
        status: 409;
        data: TestHelperRefusal;
    } | {
        status: 413;
        data: PayloadTooLargeError;
    } | {
        status: 415;
        data: UnsupportedContentEncodingError;
    } | {
        status: 422;
        data: TestHelperRefusal;
    } | {
        status: 429;
        data: RateLimitError;
    } | {
        status: 500;
        data: InternalServerError;
    } | {
        status: 503;
        data: ServiceUnavailableError;
    }>(`/v1/test_helpers/bookings/${encodeURIComponent(bookingId)}/expire`, {
        ...opts,
        method: "POST"
    });
}
/**
 * Test mode: the treatment took place
 */
export function testHelperCompleteBooking(bookingId: string, opts?: Oazapfts.RequestOpts) {
    return oazapfts.fetchJson<{
        status: 200;
        data: BookingResponse;
    } | {
        status: 400;
        data: ValidationError;
    } | {
        status: 401;
        data: UnauthorizedError;
    } | {
        status: 403;
        data: AccessDeniedError;
    } | {
        status: 404;
        data: NoSuchBookingError;
    } | {
        status: 408;
        data: RequestTimeoutError;
    } | {
        status: 409;
        data: TestHelperRefusal;
    } | {
        status: 413;
        data: PayloadTooLargeError;
    } | {
        status: 415;
        data: UnsupportedContentEncodingError;
    } | {
        status: 422;
        data: TestHelperRefusal;
    } | {
        status: 429;
        data: RateLimitError;
    } | {
        status: 500;
        data: InternalServerError;
    } | {
        status: 503;
        data: ServiceUnavailableError;
    }>(`/v1/test_helpers/bookings/${encodeURIComponent(bookingId)}/complete`, {
        ...opts,
        method: "POST"
    });
}
/**
 * Test mode: the guest did not come
 */
export function testHelperNoShowBooking(bookingId: string, opts?: Oazapfts.RequestOpts) {
    return oazapfts.fetchJson<{
        status: 200;
        data: BookingResponse;
    } | {
        status: 400;
        data: ValidationError;
    } | {
        status: 401;
        data: UnauthorizedError;
    } | {
        status: 403;
        data: AccessDeniedError;
    } | {
        status: 404;
        data: NoSuchBookingError;
    } | {
        status: 408;
        data: RequestTimeoutError;
    } | {
        status: 409;
        data: TestHelperRefusal;
    } | {
        status: 413;
        data: PayloadTooLargeError;
    } | {
        status: 415;
        data: UnsupportedContentEncodingError;
    } | {
        status: 422;
        data: TestHelperRefusal;
    } | {
        status: 429;
        data: RateLimitError;
    } | {
        status: 500;
        data: InternalServerError;
    } | {
        status: 503;
        data: ServiceUnavailableError;
    }>(`/v1/test_helpers/bookings/${encodeURIComponent(bookingId)}/no_show`, {
        ...opts,
        method: "POST"
    });
}
