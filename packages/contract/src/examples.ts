/**
 * Example values of the OpenAPI document, taken from the demo data the server loads on a first start
 * (apps/server/src/demo/demo-data.json), so that "Try it out" in the reference works with the demo key as is.
 * The booking example starts far in the future on a slot the demo schedule always has (Spa Lumière Paris opens
 * every day, Camille works there 09:00-17:00), so the checked-in document stays deterministic and valid for years.
 * test/openapi/examples.test.ts checks every value against the demo data and the running server.
 */
export const Example = {
  venueId: 'c1ef08d8-acef-50dc-a906-ea0e591d9833',
  venueSlug: 'spa-lumiere-paris',
  treatmentId: '2d23b0b2-3e25-5e52-adcf-47c9aa7ed651',
  variantId: '8aefce95-fd6a-50a0-bb27-6ececba1fe43',
  customerId: '6490596f-aea3-52d8-9524-399f0d176ce1',
  bookingId: '5d4c1f8e-2b7a-4c3e-9f10-6a8b2c4d7e91',
  /** A Tuesday in summer time: 10:00 in Paris. */
  date: '2030-06-04',
  startAt: '2030-06-04T08:00:00Z',
  endAt: '2030-06-04T09:00:00Z',
  createdAt: '2030-05-28T14:03:12Z',
  cancelledAt: '2030-06-02T09:30:00Z',
  externalId: 'pms-58213',
  externalReference: 'hotel.ROOM-412',
  requestId: '5b0e4a1c-3f5e-4a0b-9a53-0c1f0c2b8e11',
  /** What the server writes when the partner cancels the example booking at cancelledAt (46.5 hours before). */
  cancellationPolicy:
    'Cancelled by the partner 46.5 hours before the start: the tier "24 hours or more before" applies (0% fee), EUR 0.00.',
} as const;
