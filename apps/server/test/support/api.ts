import type { Express } from 'express';
import request, { type Test } from 'supertest';

/** The X-Request-Id every helper request sends, so error bodies can be compared whole. */
export const REQUEST_ID = 'req-test';

/** A plain error body as the API answers it. */
export const error = (text: string, extra: object = {}) => ({ error: text, ...extra, request_id: REQUEST_ID });

/** A coded error body (the cancel endpoint's `{ error: CODE, message }`). */
export const coded = (code: string, message: string) => ({ error: code, message, request_id: REQUEST_ID });

/** Who calls: a key, or null for no Authorization header. */
type Key = string | null;

/** supertest calls over one app, each with a key and the fixed request id. */
export function apiOf(app: Express) {
  const as = (test: Test, key: Key) =>
    (key ? test.set('Authorization', `Bearer ${key}`) : test).set('X-Request-Id', REQUEST_ID);
  return {
    get: (path: string, key: Key) => as(request(app).get(path), key),
    post: (path: string, body: object | undefined, key: Key) => as(request(app).post(path), key).send(body),
    /** POST /v1/venues/{venue}/bookings */
    book: (venue: string, body: object, key: Key) =>
      as(request(app).post(`/v1/venues/${venue}/bookings`), key).send(body),
    /** POST /v1/bookings/{ref}/cancel */
    cancel: (ref: string, key: Key, body: object = { reason: 'Guest changed plans' }) =>
      as(request(app).post(`/v1/bookings/${ref}/cancel`), key).send(body),
    /** GET /v1/venues/{venue}/availability/variants/{variant}?{query} */
    availability: (venue: string, variant: string, query: string, key: Key) =>
      as(request(app).get(`/v1/venues/${venue}/availability/variants/${variant}?${query}`), key),
  };
}

export type Api = ReturnType<typeof apiOf>;
