import { type Booking, contract, type Customer, type VenueSummary } from '@spa/contract';
import type { z } from 'zod';
import { type ApiFetcherArgs, initClient, validateResponse } from '@ts-rest/core';
import { type Result, toError } from './errors.js';
import { paginate } from './paginate.js';
import { defaultRetry, delayFor, isRetryable, type RetryOptions, sleep } from './retry.js';

export interface PartnerClientOptions {
  /** For example `https://api.example.com` (without `/v1`). */
  baseUrl: string;
  apiKey: string;
  /** Retry policy; `false` never retries. */
  retry?: RetryOptions | false;
  /** A fetch of your own (proxies, tests). */
  fetch?: typeof fetch;
}

/**
 * The typed client. `raw` is the ts-rest client of the contract (every status typed); the named methods
 * return a `Result`: `{ ok: true, data }` or `{ ok: false, error }` whose `error.code` is the API's text.
 */
export function createPartnerClient(options: PartnerClientOptions) {
  const retry = options.retry === false ? { ...defaultRetry, attempts: 1 } : (options.retry ?? defaultRetry);
  const fetchImpl = options.fetch ?? fetch;

  const raw = initClient(contract, {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    baseHeaders: { authorization: `Bearer ${options.apiKey}` },
    validateResponse: true,
    api: async (args: ApiFetcherArgs) => {
      const idempotent = typeof args.rawBody === 'object' && args.rawBody !== null && Boolean((args.rawBody as { external_id?: unknown }).external_id);
      for (let attempt = 1; ; attempt++) {
        try {
          const response = await send(fetchImpl, args);
          const code = (response.body as { error?: string } | null)?.error;
          if (attempt < retry.attempts && isRetryable({ method: args.method, idempotent, status: response.status, code })) {
            await sleep(delayFor(attempt, retry, response.headers.get('retry-after')));
            continue;
          }
          return response;
        } catch (error) {
          // Response validation errors are ours to see, not to retry; network errors are retried when safe.
          if (error instanceof TypeError && attempt < retry.attempts && isRetryable({ method: args.method, idempotent })) {
            await sleep(delayFor(attempt, retry, null));
            continue;
          }
          throw error;
        }
      }
    },
  });

  /** Narrows a ts-rest response to a Result: any 2xx is data, anything else a PartnerApiError. */
  const result = async <R extends { status: number; body: unknown; headers: Headers }>(
    call: Promise<R>,
  ): Promise<Result<Extract<R, { status: 200 | 201 }>['body'] extends { data: infer D } ? D : never>> => {
    const response = await call;
    if (response.status === 200 || response.status === 201) {
      return {
        ok: true,
        status: response.status,
        data: (response.body as { data: never }).data,
        replayed: response.headers.get('idempotent-replayed') === 'true',
      };
    }
    return { ok: false, error: toError(response.status, response.body, response.headers) };
  };

  type Args<F extends (...args: never[]) => unknown> = Parameters<F>[0];
  const client = {
    raw,
    listVenues: (args: Args<typeof raw.venues.list> = {}) => result(raw.venues.list(args)),
    getVenue: (venueId: string) => result(raw.venues.get({ params: { venue_id: venueId } })),
    listTreatments: (venueId: string) => result(raw.treatments.list({ params: { venue_id: venueId } })),
    listCustomers: (args: Args<typeof raw.customers.list>) => result(raw.customers.list(args)),
    listCustomerBookings: (args: Args<typeof raw.customers.bookings>) => result(raw.customers.bookings(args)),
    getVariantAvailability: (args: Args<typeof raw.availability.variant>) => result(raw.availability.variant(args)),
    /** Safe to retry: send `external_id` and a retry returns the original booking (`replayed: true`). */
    createBooking: (venueId: string, body: Args<typeof raw.bookings.create>['body']) => result(raw.bookings.create({ params: { venue_id: venueId }, body })),
    /** `bookingId` is the booking UUID or `ext:{your external_id}`. */
    cancelBooking: (bookingId: string, body: Args<typeof raw.bookings.cancel>['body']) => result(raw.bookings.cancel({ params: { booking_id: bookingId }, body })),
  };

  return {
    ...client,
    /** Walk every page: `for await (const venue of client.iterate.venues()) { … }`. */
    iterate: {
      venues: () => paginate<z.infer<typeof VenueSummary>>((page) => raw.venues.list({ query: { page: String(page), page_size: '100' } })),
      customers: (venueId: string) => paginate<z.infer<typeof Customer>>((page) => raw.customers.list({ params: { venue_id: venueId }, query: { page: String(page), page_size: '100' } })),
      customerBookings: (venueId: string, customerId: string) =>
        paginate<z.infer<typeof Booking>>((page) => raw.customers.bookings({ params: { venue_id: venueId, customer_id: customerId }, query: { page: String(page), page_size: '100' } })),
    },
  };
}

export type PartnerClient = ReturnType<typeof createPartnerClient>;

/** ts-rest's own fetcher calls the global fetch; this one takes the client's and validates JSON answers the same way. */
async function send(fetchImpl: typeof fetch, args: ApiFetcherArgs) {
  const result = await fetchImpl(args.path, { ...args.fetchOptions, method: args.method, headers: args.headers, body: args.body });
  const isJson = /application\/(.+\+)?json/.test(result.headers.get('content-type') ?? '');
  const response = { status: result.status, body: isJson ? await result.json() : await result.text(), headers: result.headers };
  return isJson ? { ...response, body: validateResponse({ appRoute: args.route, response }).body } : response;
}
