import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/openapi/openapi-document.js';

/** What a partner generating a client gets: openapi-typescript, the most used TypeScript generator. */
describe('types generated from the OpenAPI document by openapi-typescript', () => {
  let types: string;
  // An object type, or a subclass of a base schema (`Omit<components["schemas"]["NotFoundError"], "error"> & {`).
  const schema = (name: string) => new RegExp(`^ {8}${name}: (\\{|Omit<)`, 'm');

  it('has a named type for every schema a partner handles, and for each error body', async () => {
    types = astToString(await openapiTS(JSON.stringify(buildOpenApiDocument())));
    const names = [
      'Venue',
      'VenueSummary',
      'Treatment',
      'Variant',
      'Customer',
      'Booking',
      'Slot',
      'Availability',
      'DayAvailability',
      'RangeAvailability',
      'Money',
      'Guest',
      'Pagination',
      'CreateBookingRequest',
      'CancelBookingRequest',
      'ValidationError',
      'UnauthorizedError',
      'InsufficientScopeError',
      'ForbiddenError',
      'VenueNotFoundError',
      'VariantNotFoundError',
      'CustomerNotFoundError',
      'SlotUnavailableError',
      'DuplicateExternalIdError',
      'CurrencyMismatchError',
      'PayloadTooLargeError',
      'UnsupportedContentEncodingError',
      'RateLimitError',
      'InternalServerError',
      'ServiceUnavailableError',
      'BookingNotFoundError',
      'BookingForbiddenError',
      'AmbiguousExternalIdError',
      'BookingAlreadyCancelledError',
      'AccessDeniedError',
      'NotFoundError',
      'ConflictError',
    ];
    expect(names.filter((name) => !schema(name).test(types))).toEqual([]);
  });

  it('refers to the named types from the operations, and types the query integers as numbers', () => {
    expect(types).toContain('data: components["schemas"]["Booking"]');
    expect(types).toContain('data: components["schemas"]["VenueSummary"][]');
    expect(types).toContain('pagination: components["schemas"]["Pagination"]');
    expect(types).toMatch(/page_size\?: components\["parameters"\]\["PageSize"\]/);
    expect(types).toMatch(/^ {8}PageSize: number;/m);
    expect(types).toMatch(/^ {8}GuestCount: number;/m);
    expect(types).toMatch(/error: "Venue not found"/);
    expect(types).toMatch(/error: "slot_unavailable"/);
    // A status with several bodies answers their base schema; each body is its subclass with its `error` literal.
    expect(types).toContain('"application/json": components["schemas"]["NotFoundError"]');
    expect(types).toMatch(
      /VariantNotFoundError: \{[\s\S]*?error: "Variant not found";\s+\} & \(Omit<WithRequired<components\["schemas"\]\["NotFoundError"\]/,
    );
  });

  it('names every success envelope, shares the common error responses and types the headers', () => {
    for (const name of ['BookingResponse', 'VenueListResponse', 'AvailabilityResponse', 'TreatmentListResponse']) {
      expect(types).toMatch(schema(name));
    }
    // One type for the booking wherever it is answered: the 201, the replay, the read, the cancel, the reschedule
    // and the four test helpers.
    expect(types.match(/"application\/json": components\["schemas"\]\["BookingResponse"\]/g)?.length).toBe(9);
    expect(types).toContain('401: components["responses"]["UnauthorizedResponse"]');
    expect(types).toContain('403: components["responses"]["VenueForbiddenResponse"]');
    expect(types).toMatch(/"Retry-After": number;/);
    expect(types).toMatch(/"Idempotent-Replayed": boolean;/);
    expect(types).toMatch(/"X-RateLimit-Remaining": number;/);
    expect(types).toMatch(/mode: "day";/);
  });
});
