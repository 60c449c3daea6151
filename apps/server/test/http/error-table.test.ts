import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { ErrorText } from '@spa/contract';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BookableVenue, bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { makeApiKey, makeBooking, makeCustomer } from '../support/factories.js';
import { setup } from '../support/test-app.js';
import { expectStatus } from '../support/typed-api.js';

/** The rows of the error table of docs/api.md ("10. Errors"): the status and the first text between backticks. */
function documentedRows(): { status: number; text: string }[] {
  const markdown = readFileSync(new URL('../../../../docs/api.md', import.meta.url), 'utf8');
  const section = markdown.slice(markdown.indexOf('## 10. Errors'), markdown.indexOf('## 11.'));
  return [...section.matchAll(/^\| (\d{3}) \| [^`|]*`([^`]+)`[^|]* \|/gm)].map(([, status, text]) => ({
    status: Number(status),
    text: text!,
  }));
}

/**
 * The error table a partner reads is what the server answers: every fixed text of the contract is in it once, and
 * each row that a request can provoke here is provoked and compared, status and text. The rest (408, 409
 * duplicate_external_id and AMBIGUOUS_EXTERNAL_ID, 429, 500, 503) need a slow body, a race, two venues, enforced
 * limits or a failing database: their own tests provoke them (body-edge, concurrency, bookings, faults).
 */
describe('the error table of docs/api.md, against the server', () => {
  const ctx = setup();
  const rows = documentedRows();
  let f: BookableVenue;
  let foreignKey: string;
  let readOnlyKey: string;
  let cancelledId: string;
  let startedId: string;
  let soonId: string;

  beforeAll(async () => {
    f = await makeBookableVenue(ctx.db, ctx.vault);
    const other = await makeBookableVenue(ctx.db, ctx.vault);
    foreignKey = other.key;
    ({ key: readOnlyKey } = await makeApiKey(ctx.db, ctx.vault, f.organisation.id, { scopes: ['venues:read'] }));
    const created = await ctx.v1.book(
      f.venue.id,
      bookingBody(f.variant.id, { start_at: '2026-11-25T10:00:00Z' }),
      f.key,
    );
    expectStatus(created, 201);
    cancelledId = created.body.data.id;
    expectStatus(await ctx.v1.cancel(cancelledId, f.key, { reason: 'first' }), 200);
    // A booking that has started (completed here), and one starting within the 2-hour 50% tier of the clock's now.
    const customer = await makeCustomer(ctx.db, f.organisation.id);
    const refs = { venueId: f.venue.id, treatmentId: f.treatment.id, variantId: f.variant.id, customerId: customer.id };
    startedId = (await makeBooking(ctx.db, refs, { status: 'completed' })).id;
    soonId = (
      await makeBooking(ctx.db, refs, {
        status: 'pending',
        start_at: '2026-11-22T09:00:00Z',
        end_at: '2026-11-22T10:00:00Z',
      })
    ).id;
  });

  it('lists every fixed text of the contract exactly once', () => {
    const fixed = rows.map((row) => row.text).filter((text) => (Object.values(ErrorText) as string[]).includes(text));
    expect(fixed.sort()).toEqual([...Object.values(ErrorText)].sort());
  });

  // Raw below: most rows are provoked by what the contract refuses (bad bodies, headers, paths), so the table
  // keeps one request shape for all of them.
  const as = (key: string | null) => (req: request.Test) => (key ? req.set('authorization', `Bearer ${key}`) : req);
  const app = () => request(ctx.app);
  /** How to provoke each row that one request can provoke, by its documented text. */
  const provoke: Record<string, () => request.Test> = {
    'guest.email must be a valid email address': () =>
      as(f.key)(app().post(`/v1/venues/${f.venue.id}/bookings`)).send(
        bookingBody(f.variant.id, { guest: { first_name: 'A', last_name: 'B', email: 'x' } }),
      ),
    [ErrorText.InvalidJson]: () =>
      as(f.key)(app().post(`/v1/venues/${f.venue.id}/bookings`))
        .set('content-type', 'application/json')
        .send('{"variant_id":'),
    [ErrorText.MissingApiKey]: () => as(null)(app().get('/v1/venues')),
    [ErrorText.InvalidApiKey]: () => as(`sk_live_${'0'.repeat(12)}_${'0'.repeat(64)}`)(app().get('/v1/venues')),
    [ErrorText.InsufficientScope]: () => as(readOnlyKey)(app().get(`/v1/venues/${f.venue.id}/customers`)),
    [ErrorText.Forbidden]: () => as(foreignKey)(app().get(`/v1/venues/${f.venue.id}`)),
    [ErrorText.BookingForbidden]: () =>
      as(foreignKey)(app().post(`/v1/bookings/${cancelledId}/cancel`)).send({ reason: 'not mine' }),
    [ErrorText.VenueNotFound]: () => as(f.key)(app().get('/v1/venues/no-such-venue')),
    [ErrorText.VariantNotFound]: () =>
      as(f.key)(app().get(`/v1/venues/${f.venue.id}/availability/variants/${randomUUID()}?date=2026-11-25`)),
    [ErrorText.CustomerNotFound]: () =>
      as(f.key)(app().get(`/v1/venues/${f.venue.id}/customers/${randomUUID()}/bookings`)),
    [ErrorText.NoSuchBooking]: () => as(f.key)(app().get(`/v1/bookings/${randomUUID()}`)),
    [ErrorText.EventNotFound]: () => as(f.key)(app().get(`/v1/events/${randomUUID()}`)),
    [ErrorText.EventCursorExpired]: () => as(f.key)(app().get(`/v1/events?after=${randomUUID()}`)),
    [ErrorText.TestModeOnly]: () => as(f.key)(app().post(`/v1/test_helpers/bookings/${cancelledId}/expire`)),
    [ErrorText.BookingNotFound]: () =>
      as(f.key)(app().post(`/v1/bookings/${randomUUID()}/cancel`)).send({ reason: 'x' }),
    [ErrorText.RouteNotFound]: () => as(f.key)(app().get('/v1/nothing-here')),
    [ErrorText.SlotUnavailable]: () =>
      as(f.key)(app().post(`/v1/venues/${f.venue.id}/bookings`)).send(
        bookingBody(f.variant.id, { start_at: '2026-11-25T09:10:00Z' }),
      ),
    [ErrorText.PayloadTooLarge]: () =>
      as(f.key)(app().post(`/v1/venues/${f.venue.id}/bookings`)).send({ notes: 'x'.repeat(120_000) }),
    [ErrorText.UnsupportedContentEncoding]: () =>
      as(f.key)(app().post(`/v1/venues/${f.venue.id}/bookings`))
        .set('content-type', 'application/json')
        .set('content-encoding', 'br')
        .send('{}'),
    'price_paid.currency must equal the venue currency (EUR)': () =>
      as(f.key)(app().post(`/v1/venues/${f.venue.id}/bookings`)).send(
        bookingBody(f.variant.id, { start_at: '2026-11-25T11:00:00Z', price_paid: { amount: 90, currency: 'GBP' } }),
      ),
    [ErrorText.BookingAlreadyCancelled]: () =>
      as(f.key)(app().post(`/v1/bookings/${cancelledId}/cancel`)).send({ reason: 'again' }),
    [ErrorText.BookingNotReschedulable]: () =>
      as(f.key)(app().post(`/v1/bookings/${startedId}/reschedule`)).send({ start_at: '2026-11-27T10:00:00Z' }),
    [ErrorText.RescheduleFeeApplies]: () =>
      as(f.key)(app().post(`/v1/bookings/${soonId}/reschedule`)).send({ start_at: '2026-11-27T10:00:00Z' }),
  };

  it('answers each row it can provoke with the documented status and text', async () => {
    const provoked = rows.filter((row) => provoke[row.text]);
    expect(provoked.length).toBe(Object.keys(provoke).length);
    const answers = [];
    for (const row of provoked) {
      const res = await provoke[row.text]!();
      answers.push({ status: res.status, text: (res.body as { error?: string }).error });
    }
    expect(answers).toEqual(provoked);
  });
});
