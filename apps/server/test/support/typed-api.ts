import { contract } from '@spa/contract';
import { dashboardContract } from '@spa/contract/dashboard';
import { type ApiFetcher, type AppRouter, initClient } from '@ts-rest/core';
import type { Express } from 'express';
import request from 'supertest';
import { expect } from 'vitest';
import { REQUEST_ID } from './api.js';

/**
 * ts-rest's fetcher replaced by a supertest call into the in-process app (no port, no fetch): the client built
 * on it takes its paths, params, queries and bodies from the contract and answers the contract's responses.
 * The headers ts-rest sets (content-type, the caller's) go as they are; the body is the JSON ts-rest wrote.
 */
export function supertestFetcher(app: Express): ApiFetcher {
  return async ({ method, path, headers, body }) => {
    const verb = method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    let test = request(app)[verb](path).set(headers);
    if (body !== undefined && body !== null) test = test.send(body as string);
    const res = await test;
    const json = /\bjson\b/.test(String(res.headers['content-type'] ?? ''));
    return { status: res.status, body: json ? res.body : res.text, headers: headersOf(res.headers) };
  };
}

/** supertest's header record (a Set-Cookie is a list) as the Headers ts-rest answers with. */
function headersOf(record: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(record)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  return headers;
}

function clientOf<R extends AppRouter>(router: R, app: Express, baseHeaders: Record<string, string>) {
  return initClient(router, { baseUrl: '', api: supertestFetcher(app), baseHeaders, throwOnUnknownStatus: true });
}

/**
 * The partner API's typed client over the app, as a key calls it (null: no Authorization header), with the
 * fixed request id so error bodies compare whole. `partner(key).bookings.cancel({ params, body })`.
 */
export function partnerClientOf(app: Express) {
  const clients = new Map<string | null, ReturnType<typeof build>>();
  const build = (key: string | null) =>
    clientOf(contract, app, {
      'x-request-id': REQUEST_ID,
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
    });
  return (key: string | null) => {
    let client = clients.get(key);
    if (!client) clients.set(key, (client = build(key)));
    return client;
  };
}

export type PartnerClient = ReturnType<ReturnType<typeof partnerClientOf>>;

type Partner = ReturnType<typeof partnerClientOf>;
type Args<F> = F extends (args: infer A) => unknown ? NonNullable<A> : never;

/** The calls most tests make, typed, in the order of the untyped helpers they replace (support/api.ts). */
export function v1Of(partner: Partner) {
  return {
    /** POST /v1/venues/{venue}/bookings */
    book: (venue: string, body: Args<PartnerClient['bookings']['create']>['body'], key: string | null) =>
      partner(key).bookings.create({ params: { venue_id: venue }, body }),
    /** POST /v1/bookings/{ref}/cancel */
    cancel: (
      ref: string,
      key: string | null,
      body: Args<PartnerClient['bookings']['cancel']>['body'] = { reason: 'Guest changed plans' },
    ) => partner(key).bookings.cancel({ params: { booking_id: ref }, body }),
    /** POST /v1/bookings/{ref}/reschedule */
    reschedule: (ref: string, key: string | null, startAt: string) =>
      partner(key).bookings.reschedule({ params: { booking_id: ref }, body: { start_at: startAt } }),
    /** GET /v1/bookings/{ref} */
    booking: (ref: string, key: string | null) => partner(key).bookings.get({ params: { booking_id: ref } }),
    /** GET /v1/venues/{venue}/availability/variants/{variant}?{query} */
    availability: (
      venue: string,
      variant: string,
      query: Args<PartnerClient['availability']['variant']>['query'],
      key: string | null,
    ) => partner(key).availability.variant({ params: { venue_id: venue, variant_id: variant }, query }),
  };
}

/** The slots' start_at of a day-mode availability answer (a date query answers one day). */
export function dayStarts(res: Awaited<ReturnType<ReturnType<typeof v1Of>['availability']>>): string[] {
  expectStatus(res, 200);
  const { data } = res.body;
  if (data.mode !== 'day') throw new Error(`a date query answered ${data.mode} mode`);
  return data.slots.map((s) => s.start_at);
}

/** The dashboard API's typed client, as the dashboard's page calls it: its Origin, and a session when given. */
export function dashboardClientOf(app: Express, origin: string) {
  return (session?: { token: string; csrf: string }) =>
    clientOf(dashboardContract, app, {
      'x-request-id': REQUEST_ID,
      origin,
      ...(session ? { cookie: `spa_session=${session.token}`, 'x-csrf-token': session.csrf } : {}),
    });
}

/**
 * Asserts the status (showing the body when it differs) and narrows the answer to that status's response, so
 * the test reads the body the contract gives it.
 */
export function expectStatus<R extends { status: number; body: unknown }, S extends R['status']>(
  res: R,
  status: S,
): asserts res is Extract<R, { status: S }> {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
}

/**
 * The `error` of an answer, read without narrowing it first: for a test that compares the status and the error in
 * one expectation (every status the contract declares is in the client's types since `statuses()`, contract
 * src/statuses.ts; docs/decisions.md says why it was needed).
 */
export function errorOf(res: { body: unknown }): unknown {
  return typeof res.body === 'object' && res.body !== null && 'error' in res.body ? res.body.error : undefined;
}

/** The slots of a day-mode availability answer (a date query answers one day), its status asserted 200. */
export function daySlots(res: Awaited<ReturnType<PartnerClient['availability']['variant']>>) {
  expectStatus(res, 200);
  const { data } = res.body;
  if (data.mode !== 'day') throw new Error(`a date query answered ${data.mode} mode`);
  return data.slots;
}
