import { contract } from '@spa/contract';
import { type AppRoute, type ClientInferRequest, initClient } from '@ts-rest/core';
import {
  apiKeyOf,
  baseUrlOf,
  type CallOptions,
  DEFAULT_TIMEOUT_MS,
  maxRetriesOf,
  type PartnerClientOptions,
  timeoutOf,
} from './client-options.js';
import { type Failure, PartnerApiError, type Result, type Success } from './errors.js';
import { paginate, paginateAfter } from './paginate.js';
import type { ResponseInfo } from './response-info.js';
import { resolveRetry } from './retry.js';
import { createFetcher } from './transport.js';
import type { BOOKING_STATUSES, WebhookEventType } from '@spa/contract';
import type {
  AcceptTestBookingInput,
  Availability,
  Booking,
  CancelBookingInput,
  RescheduleBookingInput,
  CreateBookingInput,
  Customer,
  Event,
  Pagination,
  Treatment,
  VenueDetail,
  VenueSummary,
} from './types.js';
import { USER_AGENT } from './user-agent.js';

export type { CallOptions, PartnerClientOptions };

function createRawClient(options: PartnerClientOptions) {
  const baseUrl = baseUrlOf(options?.baseUrl);
  const apiKey = apiKeyOf(options.apiKey);
  const timeout = options.timeout ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetries =
    options.maxRetries === undefined ? undefined : maxRetriesOf('createPartnerClient: ', options.maxRetries);
  return initClient(contract, {
    baseUrl,
    baseHeaders: { authorization: `Bearer ${apiKey}`, 'user-agent': USER_AGENT },
    validateResponse: true,
    api: createFetcher({
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
      retry: resolveRetry(options.retry, maxRetries),
      timeout: timeoutOf('createPartnerClient: ', timeout),
    }),
  });
}

/** The ts-rest client of the contract: every route, every declared status typed. */
export type RawClient = ReturnType<typeof createRawClient>;

/** The 2xx members of a ts-rest response union, as Successes (status kept literal, pagination kept). */
export type SuccessOf<R> = R extends { status: infer S extends 200 | 201; body: infer B }
  ? Success<
      B extends { data: infer D } ? D : never,
      S,
      (B extends { pagination: infer P } ? { pagination: P } : unknown) &
        (B extends { has_more: boolean; next_after: string | null } ? Pick<B, 'has_more' | 'next_after'> : unknown)
    >
  : never;

/*
 * What each named method resolves to, with the named types of types.ts (so an editor shows `Booking`). Each
 * method's body is the ts-rest client's answer for the route: it compiles only while these agree with the contract.
 */
type Paged<T> = Result<T[], 200, { pagination: Pagination }>;
export type ListVenuesResult = Paged<VenueSummary>;
export type GetVenueResult = Result<VenueDetail, 200>;
export type ListTreatmentsResult = Result<Treatment[], 200>;
export type ListCustomersResult = Paged<Customer>;
export type ListCustomerBookingsResult = Paged<Booking>;
export type VariantAvailabilityResult = Result<Availability, 200>;
/** 201 for a new booking; 200 (`replayed: true`) for the original of an earlier request with the external_id. */
export type CreateBookingResult = Result<Booking, 201 | 200>;
export type CancelBookingResult = Result<Booking, 200>;
export type RescheduleBookingResult = Result<Booking, 200>;
/** What each test helper answers: the test booking after the step. */
export type TestHelperResult = Result<Booking, 200>;
export type GetBookingResult = Result<Booking, 200>;
export type ListBookingsResult = Paged<Booking>;
/** A page of the events feed: `has_more`, and `next_after` to send as `after` next. */
export type ListEventsResult = Result<Event[], 200, { has_more: boolean; next_after: string | null }>;
export type GetEventResult = Result<Event, 200>;

/** A route's query as the contract takes it, with numbers accepted where it takes digits. */
type Query<R extends AppRoute> = NonNullable<ClientInferRequest<R>['query']>;
type Loose<Q> = { [K in keyof Q]: K extends 'page' | 'page_size' | 'guest_count' ? Q[K] | number : Q[K] };
export type VenuesQuery = Loose<Query<typeof contract.venues.list>>;
export type CustomersQuery = Loose<Query<typeof contract.customers.list>>;
export type CustomerBookingsQuery = Loose<Query<typeof contract.customers.bookings>>;
/** The filters of listBookings; `status` also as a list (`['pending', 'confirmed']`). */
export type BookingsQuery = Omit<Loose<Query<typeof contract.bookings.list>>, 'status'> & {
  status?: Query<typeof contract.bookings.list>['status'] | readonly (typeof BOOKING_STATUSES)[number][];
};
/** The query of listEvents; `type` also as a list (`['booking.confirmed', 'booking.cancelled']`). */
export type EventsQuery = Omit<Loose<Query<typeof contract.events.list>>, 'type' | 'limit'> & {
  type?: Query<typeof contract.events.list>['type'] | readonly WebhookEventType[];
  limit?: number | string;
};
type AvailabilityFields = Loose<Query<typeof contract.availability.variant>>;
/**
 * One venue-local day, or a range of at most 62 days: `{ date }` or `{ from, to }`, never both and never
 * neither (the API refuses both with a 400; here they do not compile).
 */
export type AvailabilityQuery = Pick<AvailabilityFields, 'guest_count'> &
  (
    | { date: NonNullable<AvailabilityFields['date']>; from?: never; to?: never }
    | {
        from: NonNullable<AvailabilityFields['from']>;
        to: NonNullable<AvailabilityFields['to']>;
        date?: never;
      }
  );
export type WithoutPage<Q> = Omit<Q, 'page'>;

/**
 * The typed client. Named methods resolve to a Result and never throw for an HTTP answer:
 * `{ ok: true, status, data, replayed, pagination?, lastResponse }` or `{ ok: false, error: PartnerApiError,
 * lastResponse }`. They reject only when no answer came (PartnerConnectionError, or PartnerTimeoutError, after the
 * allowed retries), on abort, or when an answer breaks the contract (ResponseValidationError). Throws a TypeError
 * naming the option when `baseUrl`, `apiKey`, `timeout` or `maxRetries` is missing or malformed.
 */
export function createPartnerClient(options: PartnerClientOptions) {
  const raw = createRawClient(options);

  const api = {
    /** The ts-rest client, for anything the named methods do not cover. */
    raw,
    listVenues: (query: VenuesQuery = {}, call?: CallOptions): Promise<ListVenuesResult> =>
      toResult(raw.venues.list({ query: strings(query), ...extras(call) })),
    getVenue: (venueId: string, call?: CallOptions): Promise<GetVenueResult> =>
      toResult(raw.venues.get({ params: { venue_id: segment('venueId', venueId) }, ...extras(call) })),
    listTreatments: (venueId: string, call?: CallOptions): Promise<ListTreatmentsResult> =>
      toResult(raw.treatments.list({ params: { venue_id: segment('venueId', venueId) }, ...extras(call) })),
    listCustomers: (venueId: string, query: CustomersQuery = {}, call?: CallOptions): Promise<ListCustomersResult> =>
      toResult(
        raw.customers.list({
          params: { venue_id: segment('venueId', venueId) },
          query: strings(query),
          ...extras(call),
        }),
      ),
    listCustomerBookings: (
      venueId: string,
      customerId: string,
      query: CustomerBookingsQuery = {},
      call?: CallOptions,
    ): Promise<ListCustomerBookingsResult> =>
      toResult(
        raw.customers.bookings({
          params: { venue_id: segment('venueId', venueId), customer_id: segment('customerId', customerId) },
          query: strings(query),
          ...extras(call),
        }),
      ),
    /** Preview. `{ date }` for one day (`data.slots`), `{ from, to }` for a range (`data.days`). */
    getVariantAvailability: (
      venueId: string,
      variantId: string,
      query: AvailabilityQuery,
      call?: CallOptions,
    ): Promise<VariantAvailabilityResult> =>
      toResult(
        raw.availability.variant({
          params: { venue_id: segment('venueId', venueId), variant_id: segment('variantId', variantId) },
          query: strings(query),
          ...extras(call),
        }),
      ),
    /** One booking by its UUID, or `ext:{your external_id}` unencoded (the SDK encodes it once). */
    getBooking: (bookingId: string, call?: CallOptions): Promise<GetBookingResult> =>
      toResult(raw.bookings.get({ params: { booking_id: segment('bookingId', bookingId) }, ...extras(call) })),
    /** One booking by the external_id you gave it, as you gave it (`pms/58213`): encoded once, as the API wants. */
    getBookingByExternalId: (externalId: string, call?: CallOptions): Promise<GetBookingResult> =>
      api.getBooking(externalRef(externalId), call),
    /** Every booking your key can see, by start then id, filtered: `{ updated_since }` for what changed since then. */
    listBookings: (query: BookingsQuery = {}, call?: CallOptions): Promise<ListBookingsResult> =>
      toResult(raw.bookings.list({ query: strings(query), ...extras(call) })),
    /** A page of the events feed after `after` (exclusive), oldest first; see iterate.events to read them all. */
    listEvents: (query: EventsQuery = {}, call?: CallOptions): Promise<ListEventsResult> =>
      toResult(raw.events.list({ query: strings(query), ...extras(call) })),
    /** One event by id (a delivery's webhook-id). */
    getEvent: (eventId: string, call?: CallOptions): Promise<GetEventResult> =>
      toResult(raw.events.get({ params: { event_id: segment('eventId', eventId) }, ...extras(call) })),
    /** Preview. Send `external_id` to make it retryable: a repeat answers 200 with the original (`replayed: true`). */
    createBooking: (venueId: string, body: CreateBookingInput, call?: CallOptions): Promise<CreateBookingResult> =>
      toResult(raw.bookings.create({ params: { venue_id: segment('venueId', venueId) }, body, ...extras(call) })),
    /** Preview. `bookingId` is the booking UUID or `ext:{your external_id}`. Never retried. */
    cancelBooking: (bookingId: string, body: CancelBookingInput, call?: CallOptions): Promise<CancelBookingResult> =>
      toResult(raw.bookings.cancel({ params: { booking_id: segment('bookingId', bookingId) }, body, ...extras(call) })),
    /** Preview. Cancels the booking of your external_id, given as is (encoded once). */
    cancelBookingByExternalId: (
      externalId: string,
      body: CancelBookingInput,
      call?: CallOptions,
    ): Promise<CancelBookingResult> => api.cancelBooking(externalRef(externalId), body, call),
    /**
     * Preview. Moves the booking (UUID or `ext:{your external_id}`) to `start_at`, a slot availability lists. Retried
     * like a read: the same start_at again answers 200 and changes nothing. A 422 `RESCHEDULE_FEE_APPLIES` carries
     * `error.fee`.
     */
    rescheduleBooking: (
      bookingId: string,
      body: RescheduleBookingInput,
      call?: CallOptions,
    ): Promise<RescheduleBookingResult> =>
      toResult(
        raw.bookings.reschedule({ params: { booking_id: segment('bookingId', bookingId) }, body, ...extras(call) }),
      ),
  };

  /*
   * Test keys only (sk_test_): each moves a test booking as the venue or the server would, with the same checks and
   * the same webhook event. A live key gets 403 `Test mode only`; a step the status does not allow, 409.
   */
  const testHelpers = {
    /** A therapist accepts (`therapist_id`, or one the booking was offered to who is free): confirmed. */
    acceptBooking: (
      bookingId: string,
      body: AcceptTestBookingInput = {},
      call?: CallOptions,
    ): Promise<TestHelperResult> =>
      toResult(
        raw.testHelpers.accept({ params: { booking_id: segment('bookingId', bookingId) }, body, ...extras(call) }),
      ),
    /** The response time runs out now: pending becomes awaiting_therapist. */
    expireBooking: (bookingId: string, call?: CallOptions): Promise<TestHelperResult> =>
      toResult(raw.testHelpers.expire({ params: { booking_id: segment('bookingId', bookingId) }, ...extras(call) })),
    /** The treatment took place (once it has started): completed. */
    completeBooking: (bookingId: string, call?: CallOptions): Promise<TestHelperResult> =>
      toResult(raw.testHelpers.complete({ params: { booking_id: segment('bookingId', bookingId) }, ...extras(call) })),
    /** The guest did not come (allowed before the start in test mode): no_show. */
    noShowBooking: (bookingId: string, call?: CallOptions): Promise<TestHelperResult> =>
      toResult(raw.testHelpers.noShow({ params: { booking_id: segment('bookingId', bookingId) }, ...extras(call) })),
  };

  return {
    ...api,
    testHelpers,
    /** Every item of a paginated list, 100 per request: `for await (const venue of client.iterate.venues()) { … }`. */
    iterate: {
      venues: (
        query: WithoutPage<VenuesQuery> = {},
        call?: CallOptions,
      ): AsyncGenerator<VenueSummary, void, undefined> =>
        paginate((page) => api.listVenues({ page_size: 100, ...query, page }, call)),
      customers: (
        venueId: string,
        query: WithoutPage<CustomersQuery> = {},
        call?: CallOptions,
      ): AsyncGenerator<Customer, void, undefined> =>
        paginate((page) => api.listCustomers(venueId, { page_size: 100, ...query, page }, call)),
      customerBookings: (
        venueId: string,
        customerId: string,
        query: WithoutPage<CustomerBookingsQuery> = {},
        call?: CallOptions,
      ): AsyncGenerator<Booking, void, undefined> =>
        paginate((page) => api.listCustomerBookings(venueId, customerId, { page_size: 100, ...query, page }, call)),
      /** Every booking your key can see that matches `query`, by start then id, 100 per request. */
      bookings: (
        query: WithoutPage<BookingsQuery> = {},
        call?: CallOptions,
      ): AsyncGenerator<Booking, void, undefined> =>
        paginate((page) => api.listBookings({ page_size: 100, ...query, page }, call)),
      /**
       * Every event after `after` (exclusive; from the oldest kept without it), in the feed's order, 100 per
       * request, until the feed has no more: `for await (const e of client.iterate.events({ after: lastSeen }))`.
       * Keep the id of the last event you handled and start from it next time. A cursor past retention throws the
       * PartnerApiError of 410 EVENT_CURSOR_EXPIRED.
       */
      events: (
        query: Omit<EventsQuery, 'after'> & { after?: string | null | undefined } = {},
        call?: CallOptions,
      ): AsyncGenerator<Event, void, undefined> => {
        const { after, ...filters } = query;
        return paginateAfter(
          (cursor) => api.listEvents({ limit: 100, ...filters, ...(cursor && { after: cursor }) }, call),
          after ?? undefined,
        );
      },
    },
  };
}

export type PartnerClient = ReturnType<typeof createPartnerClient>;

async function toResult<R extends { status: number; body: unknown; headers: Headers }>(
  call: Promise<R>,
): Promise<SuccessOf<R> | Failure> {
  const response = await call;
  // Our fetcher adds it to ts-rest's answer (transport.ts), which passes it through untyped.
  const { lastResponse } = response as R & { lastResponse: ResponseInfo };
  if (response.status < 200 || response.status >= 300) {
    return { ok: false, error: new PartnerApiError(response.status, response.body, response.headers), lastResponse };
  }
  const body = response.body as { data: unknown; pagination?: unknown; has_more?: boolean; next_after?: unknown };
  return {
    ok: true,
    status: response.status,
    data: body.data,
    replayed: response.headers.get('idempotent-replayed') === 'true',
    lastResponse,
    ...(body.pagination !== undefined && { pagination: body.pagination }),
    ...(body.has_more !== undefined && { has_more: body.has_more, next_after: body.next_after }),
  } as SuccessOf<R>;
}

/**
 * Query values go on the URL as text; ts-rest would not stringify numbers against a string schema's type. A list
 * (statuses, event types) goes as the comma list the API takes.
 */
function strings<Q extends object>(query: Q): { [K in keyof Q]: Exclude<Q[K], number | readonly string[]> } {
  return Object.fromEntries(
    Object.entries(query).map(([key, value]) => [
      key,
      typeof value === 'number' ? String(value) : Array.isArray(value) ? value.join(',') : value,
    ]),
  ) as { [K in keyof Q]: Exclude<Q[K], number | readonly string[]> };
}

/** `ext:` and the external id as given: `segment` encodes the whole once (`ext%3Apms%2F58213`). */
function externalRef(externalId: string): string {
  if (typeof externalId !== 'string' || externalId === '') throw new TypeError('externalId must be a non-empty string');
  return `ext:${externalId}`;
}

/** ts-rest inserts path params as given: encode them, and refuse an empty one (it would hit another route). */
function segment(name: string, value: string): string {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${name} must be a non-empty string`);
  return encodeURIComponent(value);
}

function extras(call: CallOptions | undefined) {
  return {
    ...(call?.signal && { fetchOptions: { signal: call.signal } }),
    ...(call?.requestId !== undefined && { extraHeaders: { 'x-request-id': call.requestId } }),
    ...(call?.timeout !== undefined && { timeout: call.timeout }),
    ...(call?.maxRetries !== undefined && { maxRetries: call.maxRetries }),
  };
}
