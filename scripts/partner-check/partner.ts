// A partner's TypeScript, type-checked against the installed @spa/sdk under strict and exactOptionalPropertyTypes
// with moduleResolution NodeNext and Bundler: the published declarations must hold under a partner's strictest flags.
import {
  type Booking,
  createPartnerClient,
  type CreateBookingInput,
  ErrorCode,
  isRangeAvailability,
  PartnerApiError,
  PartnerConnectionError,
  PartnerTimeoutError,
  type RateLimit,
  type ResponseInfo,
  SDK_VERSION,
  type Slot,
  type VenueDetail,
} from '@spa/sdk';

const api = createPartnerClient({
  baseUrl: process.env['SPA_API_URL'] ?? 'http://localhost:3000',
  apiKey: process.env['SPA_API_KEY'] ?? '',
  timeout: 10_000,
  maxRetries: 1,
  retry: { maxDelayMs: 5_000 },
});

export async function firstSlot(venueId: string, variantId: string): Promise<Slot | undefined> {
  const result = await api.getVariantAvailability(venueId, variantId, { from: '2030-06-04', to: '2030-06-05' });
  if (!result.ok) throw result.error;
  const days = isRangeAvailability(result.data) ? result.data.days : [result.data];
  return days.flatMap((day) => day.slots)[0];
}

export async function book(venueId: string, slot: Slot, variantId: string): Promise<Booking | undefined> {
  const body: CreateBookingInput = {
    variant_id: variantId,
    start_at: slot.start_at,
    guest: { first_name: 'Claire', last_name: 'Martin', email: 'claire.martin@example.com' },
    external_id: 'order-58213',
    price_paid: { amount: 120, currency: 'EUR' },
  };
  const result = await api.createBooking(venueId, body, { requestId: 'partner-check', timeout: 5_000, maxRetries: 2 });
  const info: ResponseInfo = result.lastResponse;
  const limit: RateLimit | undefined = info.rateLimit;
  console.log(SDK_VERSION, info.requestId, info.attempts, limit?.remaining, info.retryAfterMs);
  if (result.ok) {
    const status: 200 | 201 = result.status;
    console.log(status, result.replayed, result.data.booking_number);
    return result.data;
  }
  const error: PartnerApiError = result.error;
  switch (error.code) {
    case ErrorCode.SlotUnavailable:
      return undefined;
    case ErrorCode.InsufficientScope:
      console.error(error.missing?.join(', '));
      return undefined;
    default:
      if (error.status === 400) console.error(error.details?.map((d) => d.path));
      throw error;
  }
}

export async function venueTimes(venueId: string): Promise<string> {
  const venue = await api.getVenue(venueId);
  if (!venue.ok) throw venue.error;
  const detail: VenueDetail = venue.data;
  return `${detail.opening_time}-${detail.closing_time} ${detail.cancellation_policy.partner.length} tiers`;
}

export async function allSlugs(): Promise<string[]> {
  const slugs: string[] = [];
  for await (const venue of api.iterate.venues({ page_size: 50 })) slugs.push(venue.slug);
  const page = await api.listVenues({ page: 1, page_size: 20 });
  if (page.ok) console.log(page.pagination.total_pages);
  return slugs;
}

export async function venueOrTimeout(venueId: string, signal: AbortSignal): Promise<string> {
  try {
    const venue = await api.getVenue(venueId, { signal, timeout: false, maxRetries: 0 });
    return venue.ok ? venue.data.name : `${venue.error.status} ${venue.error.rateLimit?.reset ?? ''}`;
  } catch (error) {
    if (error instanceof PartnerTimeoutError) return `timed out after ${error.timeout} ms (${error.requestId})`;
    if (error instanceof PartnerConnectionError) return `no answer after ${error.attempts} attempts`;
    throw error;
  }
}
