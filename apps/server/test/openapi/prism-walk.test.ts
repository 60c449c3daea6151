import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Example } from '@spa/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/openapi/openapi-document.js';
import { fixedClock } from '../support/fixed-clock.js';
import { demoFile } from '../import/venue-file.js';
import { type DemoServer, demoKey, startDemoServer } from './demo-server.js';
import { type Prism, startPrism } from './prism.js';

interface Violation {
  location: string[];
  severity: string;
  message: string;
}

const DEMO_KEY = demoKey(0);
const BULLE_KEY = demoKey(2); // another organisation, no bookings:write

/**
 * Stoplight Prism as a validating proxy in front of the server with the demo data: every answer of a scripted walk
 * over every endpoint, happy and error paths, must match the document (no response violation), and a request the
 * server refuses for its shape must be invalid for Prism too where OpenAPI can say so. The examples of the
 * document are the requests of the happy paths, so "Try it out" works with the demo key as is. Malformed JSON is
 * left out: Prism 5 never answers a body it cannot parse (test/http/errors.test.ts covers that 400).
 */
describe('the OpenAPI document, checked by a Prism proxy against the running server', () => {
  let server: DemoServer | undefined;
  let prism: Prism | undefined;
  let base: string;
  const clock = fixedClock(Example.createdAt);

  beforeAll(async () => {
    server = await startDemoServer(clock);
    const upstream = server.baseUrl;
    const file = join(mkdtempSync(join(tmpdir(), 'prism-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(buildOpenApiDocument(upstream)));
    prism = await startPrism(['proxy', file, upstream]);
    base = prism.base;
  }, 120_000);

  afterAll(async () => {
    prism?.stop();
    await server?.close();
  });

  /** Sends through Prism; returns the answer and the violations Prism reports in its sl-violations header. */
  async function call(method: string, path: string, options: { key?: string | null; body?: unknown } = {}) {
    const headers: Record<string, string> = { accept: 'application/json' };
    const apiKey = options.key === undefined ? DEMO_KEY : options.key;
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(base + path, { method, headers, body, signal: AbortSignal.timeout(10_000) });
    const violations = JSON.parse(res.headers.get('sl-violations') ?? '[]') as Violation[];
    const text = await res.text();
    return {
      status: res.status,
      body: (text ? JSON.parse(text) : undefined) as Record<string, unknown>,
      request: violations.filter((v) => v.location[0] === 'request' && v.severity === 'Error'),
      response: violations.filter((v) => v.location[0] === 'response'),
    };
  }

  /** The walk's one assertion: the status, no response violation, and a request violation exactly when refused. */
  async function expectAnswer(
    method: string,
    path: string,
    status: number,
    options: { key?: string | null; body?: unknown; invalid?: boolean } = {},
  ) {
    const answer = await call(method, path, options);
    expect({ status: answer.status, response: answer.response }, `${method} ${path}`).toEqual({ status, response: [] });
    if (options.invalid !== undefined) {
      expect(answer.request.length > 0, `${method} ${path}: ${JSON.stringify(answer.request)}`).toBe(options.invalid);
    }
    return answer.body;
  }

  const venue = `/v1/venues/${Example.venueSlug}`;
  const availability = `/v1/venues/${Example.venueId}/availability/variants/${Example.variantId}`;
  // The bodies "Try it out" sends unedited: built from the document's examples as Swagger UI builds them.
  const document = buildOpenApiDocument() as unknown as OpenApi;
  const bodyOf = (path: string) =>
    exampleOf(document.paths[path]!.post.requestBody.content['application/json']!.schema, document.components.schemas);
  const bookingBody = bodyOf('/v1/venues/{venue_id}/bookings') as Record<string, Record<string, unknown>>;
  const cancelBody = bodyOf('/v1/bookings/{booking_id}/cancel');
  const responseExample = (path: string) =>
    (document.paths[path]!.post.responses['200']!.content['application/json'] as { example: { data: unknown } }).example
      .data;
  /** The answer is the example, but for the id and number the server chose. */
  const sameBooking = (actual: unknown, example: unknown) => {
    const { id: _id, booking_number: _number, ...rest } = actual as Record<string, unknown>;
    expect({ ...(example as Record<string, unknown>), ...rest }).toEqual(example);
    return true;
  };

  it('uses ids of the demo data in its examples', () => {
    expect(bookingBody).toMatchObject({ variant_id: Example.variantId, start_at: Example.startAt });
    expect(cancelBody).toEqual({ reason: 'Guest changed plans', cancelled_by: 'partner' });
    const file = demoFile();
    const paris = file.venues.find((v: { id: string }) => v.id === Example.venueId);
    expect(paris.slug).toBe(Example.venueSlug);
    const treatment = paris.treatments.find((t: { id: string }) => t.id === Example.treatmentId);
    expect(treatment.variants.map((v: { id: string }) => v.id)).toContain(Example.variantId);
    expect(file.customers.map((c: { id: string }) => c.id)).toContain(Example.customerId);
  });

  it('finds no violation on the read endpoints, and refuses with the server what OpenAPI can express', async () => {
    const venues = await expectAnswer('GET', '/v1/venues', 200, { invalid: false });
    expect((venues.data as { slug: string }[]).map((v) => v.slug)).toContain(Example.venueSlug);
    await expectAnswer('GET', '/v1/venues?page=2&page_size=1', 200, { invalid: false });
    await expectAnswer('GET', '/v1/venues?page=0', 400, { invalid: true });
    await expectAnswer('GET', '/v1/venues?page=abc', 400, { invalid: true });
    await expectAnswer('GET', '/v1/venues?page_size=101', 400, { invalid: true });
    await expectAnswer('GET', '/v1/venues', 401, { key: null, invalid: true });
    await expectAnswer('GET', '/v1/venues', 401, { key: `sk_live_${'0'.repeat(12)}_${'0'.repeat(64)}` });

    await expectAnswer('GET', venue, 200, { invalid: false });
    await expectAnswer('GET', `/v1/venues/${Example.venueId}`, 403, { key: BULLE_KEY });
    await expectAnswer('GET', '/v1/venues/no-such-venue', 404, { invalid: false });
    await expectAnswer('GET', `${venue}/treatments`, 200, { invalid: false });

    await expectAnswer('GET', `${venue}/customers?page_size=5`, 200, { invalid: false });
    await expectAnswer('GET', `${venue}/customers?email=claire.martin@example.com`, 200, { invalid: false });
    await expectAnswer('GET', `${venue}/customers?page_size=0`, 400, { invalid: true });
    const history = await expectAnswer('GET', `${venue}/customers/${Example.customerId}/bookings`, 200, {
      invalid: false,
    });
    expect((history.data as unknown[]).length).toBeGreaterThan(0);
    await expectAnswer('GET', `${venue}/customers/not-a-uuid/bookings`, 400, { invalid: true });
    await expectAnswer('GET', `${venue}/customers/${Example.venueId}/bookings`, 404, { invalid: false });
  });

  it('finds no violation on availability, in day and range mode and on its errors', async () => {
    const day = await expectAnswer('GET', `${availability}?date=${Example.date}`, 200, { invalid: false });
    const slots = (day.data as { slots: { start_at: string }[] }).slots;
    expect(slots.map((s) => s.start_at)).toContain(Example.startAt);
    await expectAnswer('GET', `${availability}?from=${Example.date}&to=2030-06-10&guest_count=2`, 200, {
      invalid: false,
    });
    await expectAnswer('GET', `${availability}?date=2030-02-30`, 400);
    await expectAnswer('GET', `${availability}?date=June`, 400, { invalid: true });
    await expectAnswer('GET', `${availability}?date=${Example.date}&guest_count=21`, 400, { invalid: true });
    await expectAnswer(
      'GET',
      `/v1/venues/${Example.venueId}/availability/variants/${Example.customerId}?date=${Example.date}`,
      404,
      {
        invalid: false,
      },
    );
  });

  it(
    'books and cancels with the examples of the document, and finds no violation on their errors',
    { timeout: 90_000 },
    async () => {
      const bookings = `/v1/venues/${Example.venueId}/bookings`;
      await expectAnswer('POST', bookings, 403, { key: BULLE_KEY, body: bookingBody });
      await expectAnswer('POST', bookings, 400, {
        body: { ...bookingBody, guest: { ...bookingBody.guest, email: 'x' } },
        invalid: true,
      });
      await expectAnswer('POST', bookings, 409, {
        body: { ...bookingBody, start_at: '2030-06-04T08:10:00Z' },
        invalid: false,
      });
      await expectAnswer('POST', bookings, 422, {
        body: { ...bookingBody, price_paid: { amount: 120, currency: 'GBP' } },
      });
      await expectAnswer('POST', bookings, 404, {
        body: { ...bookingBody, variant_id: Example.customerId },
        invalid: false,
      });
      await expectAnswer('POST', bookings, 413, { body: { ...bookingBody, notes: 'x'.repeat(110_000) } });

      const created = await expectAnswer('POST', bookings, 201, { body: bookingBody, invalid: false });
      expect(sameBooking(created.data, exampleOf({ $ref: 'Booking' }, document.components.schemas))).toBe(true);
      await expectAnswer('POST', bookings, 200, { body: bookingBody, invalid: false });

      const cancel = `/v1/bookings/ext:${Example.externalId}/cancel`;
      await expectAnswer('POST', cancel, 400, { body: {}, invalid: true });
      clock.set(Example.cancelledAt);
      const cancelled = await expectAnswer('POST', cancel, 200, { body: cancelBody, invalid: false });
      expect(sameBooking(cancelled.data, responseExample('/v1/bookings/{booking_id}/cancel'))).toBe(true);
      await expectAnswer('POST', cancel, 422, { body: { reason: 'Guest changed plans' }, invalid: false });
      await expectAnswer('POST', '/v1/bookings/ext:no-such-booking/cancel', 404, {
        body: { reason: 'x' },
        invalid: false,
      });
    },
  );
});

type JsonSchema = Record<string, unknown>;
interface OpenApi {
  paths: Record<
    string,
    {
      post: {
        requestBody: { content: Record<string, { schema: JsonSchema }> };
        responses: Record<string, { content: Record<string, unknown> }>;
      };
    }
  >;
  components: { schemas: Record<string, JsonSchema> };
}

/** The example Swagger UI fills in for a schema: its own example, else one built from its parts (refs resolved). */
function exampleOf(schema: JsonSchema, components: Record<string, JsonSchema>): unknown {
  if (typeof schema.$ref === 'string') return exampleOf(components[schema.$ref.split('/').at(-1)!]!, components);
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.allOf)) return exampleOf(schema.allOf[0] as JsonSchema, components);
  if (schema.properties) {
    const properties = Object.entries(schema.properties as Record<string, JsonSchema>);
    return Object.fromEntries(properties.map(([key, value]) => [key, exampleOf(value, components)]));
  }
  return schema.default;
}
