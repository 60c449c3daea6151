import { createPartnerClient, ResponseValidationError } from '@spa/sdk';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/openapi/openapi-document.js';

type Json = Record<string, unknown>;

/** The document's example of a booking answer: a body the contract accepts as it is. */
const document = buildOpenApiDocument() as unknown as {
  paths: Record<string, { get: { responses: Record<string, { content: { 'application/json': { example: Json } } }> } }>;
};
const bookingAnswer = document.paths['/v1/bookings/{booking_id}']!.get.responses['200']!.content['application/json']
  .example as { data: Json };

/** A client whose fetch answers `body` with `status`, as a newer API version would. */
function clientAnswering(body: unknown, status = 200) {
  return createPartnerClient({
    baseUrl: 'http://127.0.0.1:9',
    apiKey: 'sk_live_000000000000_' + '0'.repeat(64),
    fetch: () =>
      Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })),
  });
}

/**
 * Every enum of an answer is open to additions in a minor version (docs/api.md): an SDK older than the value must
 * pass it through rather than refuse the whole answer, and still refuse an answer that breaks its contract.
 */
describe('the SDK tolerates a value an open enum gained after it', () => {
  it('returns the booking with the unknown status, client type and payment status as sent', async () => {
    const data = { ...bookingAnswer.data, status: 'rescheduled', client_type: 'agency', payment_status: 'invoiced' };
    const result = await clientAnswering({ data }).getBooking(String(bookingAnswer.data.id));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data).toEqual(data);
    // The type stays the union of the known values; a default branch handles one it does not list.
    const label = (() => {
      switch (result.data.status) {
        case 'pending':
        case 'confirmed':
          return 'upcoming';
        default:
          return `other: ${String(result.data.status)}`;
      }
    })();
    expect(label).toBe('other: rescheduled');
  });

  it('still refuses an answer that breaks the contract otherwise, unknown enum value or not', async () => {
    const wrongType = { data: { ...bookingAnswer.data, status: 42 } };
    await expect(clientAnswering(wrongType).getBooking('b')).rejects.toBeInstanceOf(ResponseValidationError);
    const missing = { data: { ...bookingAnswer.data, status: 'rescheduled', start_at: undefined } };
    await expect(clientAnswering(missing).getBooking('b')).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it('passes the answers of the contract through unchanged', async () => {
    const result = await clientAnswering(bookingAnswer).getBooking('b');
    expect(result.ok && result.data).toEqual(bookingAnswer.data);
  });
});
