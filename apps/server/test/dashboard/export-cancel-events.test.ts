import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DESK_EVENTS_PATH } from '@spa/contract/dashboard';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expirePendingBookings } from '../../src/bookings/pending-timeout.js';
import { bookingBody, type CreateBody, makeBookableVenue } from '../support/booking-fixture.js';
import { makeRoom, makeVenue } from '../support/factories.js';
import { setup, TEST_PUBLIC_URL } from '../support/test-app.js';
import { expectStatus } from '../support/typed-api.js';
import { auditRows, dashboardOf, makePerson, type Session } from './dashboard-support.js';

/** A stream of the desk's server-sent events, read as the browser's EventSource reads it. */
async function openDeskEvents(base: string, session?: Session) {
  const controller = new AbortController();
  const res = await fetch(`${base}${DESK_EVENTS_PATH}`, {
    headers: {
      Accept: 'text/event-stream',
      Origin: TEST_PUBLIC_URL,
      ...(session && { Cookie: `spa_session=${session.token}` }),
    },
    signal: controller.signal,
  });
  const events: { event: string; data: unknown }[] = [];
  if (res.status === 200 && res.body) {
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
        }
      }
    })();
  }
  const changes = () => events.filter((e) => e.event === 'change').map((e) => e.data as { venues: string[] });
  return { res, events, changes, close: () => controller.abort() };
}

async function eventually(what: string, check: () => boolean, withinMs = 5_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Longer than the stream's coalescing (250 ms) twice over: a change that was to come has come by then. */
const QUIET_MS = 600;

describe("the dashboard's bookings export, cancel, and the desk's live events", () => {
  const ctx = setup({ deskFeed: true }); // now: 2026-11-22T08:00:00Z
  const dash = () => dashboardOf(ctx.app);
  let f: Awaited<ReturnType<typeof makeBookableVenue>>;
  let other: Awaited<ReturnType<typeof makeBookableVenue>>;
  let secondVenue: { id: string };
  let admin: Session;
  let desk: Session;
  let otherAdmin: Session;
  let server: Server;
  let base: string;
  let slot = 0;

  beforeAll(async () => {
    f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 4, therapists: 2 });
    for (let i = 0; i < 4; i++) await makeRoom(ctx.db, f.venue.id);
    secondVenue = await makeVenue(ctx.db, f.organisation.id);
    other = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 2 });
    const a = await makePerson(ctx.db, f.organisation.id, { role: 'admin' });
    const d = await makePerson(ctx.db, f.organisation.id, { role: 'desk', venueIds: [f.venue.id] });
    const o = await makePerson(ctx.db, other.organisation.id, { role: 'admin' });
    [admin, desk, otherAdmin] = [
      await dash().signIn(a.email),
      await dash().signIn(d.email),
      await dash().signIn(o.email),
    ];
    server = ctx.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const book = async (venue = f, extra: Partial<CreateBody> = {}) => {
    const start = `2026-11-${25 + Math.floor(slot / 8)}T${String(9 + (slot++ % 8)).padStart(2, '0')}:00:00Z`;
    const res = await ctx.v1.book(
      venue.venue.id,
      bookingBody(venue.variant.id, { start_at: start, ...extra }),
      venue.key,
    );
    expectStatus(res, 201);
    return res.body.data;
  };

  describe('GET /exports/bookings', () => {
    const exportAs = (session: Session | undefined, query = '') => dash().get(`/exports/bookings${query}`, session);

    it('answers the filtered bookings as CSV: a header, one line each, formulas defused, as an attachment', async () => {
      const first = await book(f, { notes: '=HYPERLINK("http://evil.example")', external_reference: 'ROOM, 12' });
      const res = await exportAs(admin, `?venue=${f.venue.id}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe('attachment; filename="bookings-2026-11-22.csv"');
      expect(res.headers['cache-control']).toContain('no-store');
      const lines = res.text.split('\r\n');
      expect(lines[0]).toBe(
        'booking_number,status,start_local,end_local,timezone,venue,treatment,variant,guests,customer_first_name,' +
          'customer_last_name,customer_email,customer_language,therapist,total_price,currency,external_id,' +
          'external_reference,notes,created_at,id',
      );
      const line = lines.find((l) => l.endsWith(first.id))!;
      expect(line).toContain(`${first.booking_number},pending,`);
      expect(line).toContain(`"ROOM, 12",`);
      // A spreadsheet would run it as a formula: written after a quote mark, and quoted for its own quotes.
      expect(line).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
      expect(lines.at(-1)).toBe('');
    });

    it("gives a desk person their venues' bookings only, and another organisation none of these", async () => {
      const here = await book(f);
      const elsewhere = await book(other);
      const deskCsv = await exportAs(desk);
      expect(deskCsv.status).toBe(200);
      expect(deskCsv.text).toContain(here.id);
      expect(deskCsv.text).not.toContain(elsewhere.id);
      const otherCsv = await exportAs(otherAdmin);
      expect(otherCsv.status).toBe(200);
      expect(otherCsv.text).toContain(elsewhere.id);
      expect(otherCsv.text).not.toContain(here.id);
      // A venue that is not theirs: 404, as the list answers it.
      const foreign = await exportAs(otherAdmin, `?venue=${f.venue.id}`);
      expect(foreign.status).toBe(404);
      expect(foreign.body.error).toBe('Venue not found');
      const notListed = await exportAs(desk, `?venue=${secondVenue.id}`);
      expect(notListed.status).toBe(404);
    });

    it('answers 401 without a session, and 400 for a filter the list would refuse', async () => {
      const anonymous = await exportAs(undefined);
      expect(anonymous.status).toBe(401);
      const bad = await exportAs(admin, '?status=finished');
      expect(bad.status).toBe(400);
    });
  });

  describe('POST /bookings/:id/cancel', () => {
    const cancel = (id: string, session: Session) =>
      dash().post(`/bookings/${id}/cancel`, { cancelled_by: 'customer', reason: 'Plans changed' }, session);

    it('cancels for an admin with the fee of the tiers, tells the partner, releases the holds and audits it', async () => {
      const booking = await book(f);
      const res = await cancel(booking.id, admin);
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe('cancelled');
      expect(res.body.data.cancellation).toMatchObject({ cancelled_by: 'customer', reason: 'Plans changed' });
      expect(res.body.data.cancellation.fee.currency).toBe(booking.total_price.currency);
      expect(res.body.data.events.map((e: { type: string }) => e.type)).toContain('booking.cancelled');
      const holds = await ctx.db
        .selectFrom('room_reservations')
        .where('booking_id', '=', booking.id)
        .select('booking_id')
        .execute();
      expect(holds).toEqual([]);
      const rows = await auditRows(ctx.db, f.organisation.id);
      expect(rows.filter((r) => r.target_id === booking.id).map((r) => r.action)).toEqual(['booking.cancelled']);
      // Twice: the sentence says why, with the booking's number.
      const again = await cancel(booking.id, admin);
      expect(again.status).toBe(409);
      expect(again.body.error).toBe(`Booking #${booking.booking_number} is cancelled: it can no longer be cancelled.`);
    });

    it('refuses a desk person (403), another organisation (404), and a call without the CSRF token (403)', async () => {
      const booking = await book(f);
      const byDesk = await cancel(booking.id, desk);
      expect(byDesk.status).toBe(403);
      expect(byDesk.body.error).toBe('Forbidden');
      const byOther = await cancel(booking.id, otherAdmin);
      expect(byOther.status).toBe(404);
      expect(byOther.body.error).toBe('Booking not found');
      const noCsrf = await cancel(booking.id, { ...admin, csrf: '' });
      expect(noCsrf.status).toBe(403);
      expect(noCsrf.body.error).toBe('Forbidden');
      const wrongCsrf = await cancel(booking.id, { ...admin, csrf: otherAdmin.csrf });
      expect(wrongCsrf.status).toBe(403);
      const still = await ctx.dashboard(admin).bookings.get({ params: { id: booking.id } });
      expectStatus(still, 200);
      expect(still.body.data.status).toBe('pending');
    });

    it('answers 400 with the field for a body the contract refuses', async () => {
      const booking = await book(f);
      const res = await dash().post(`/bookings/${booking.id}/cancel`, { cancelled_by: 'customer' }, admin);
      expect(res.status).toBe(400);
    });
  });

  describe(`GET ${DESK_EVENTS_PATH}`, () => {
    it('answers 401 without a session, and a live stream to admin and desk alike', async () => {
      const anonymous = await openDeskEvents(base);
      expect(anonymous.res.status).toBe(401);
      for (const session of [admin, desk]) {
        const stream = await openDeskEvents(base, session);
        try {
          expect(stream.res.status).toBe(200);
          expect(stream.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
          await eventually('ready', () => stream.events.length > 0);
          expect(stream.events[0]).toEqual({ event: 'ready', data: { live: true } });
        } finally {
          stream.close();
        }
      }
    });

    it('tells a desk of a new booking at its venue, and of nothing at a venue it does not see', async () => {
      const deskStream = await openDeskEvents(base, desk);
      const otherStream = await openDeskEvents(base, otherAdmin);
      try {
        await eventually('ready', () => deskStream.events.length > 0 && otherStream.events.length > 0);
        await book(other);
        await eventually('the other organisation told', () => otherStream.changes().length > 0);
        expect(otherStream.changes()[0]).toEqual({ venues: [other.venue.id] });
        await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
        expect(deskStream.changes()).toEqual([]);
        await book(f);
        await eventually('the desk told', () => deskStream.changes().length > 0);
        expect(deskStream.changes()).toEqual([{ venues: [f.venue.id] }]);
      } finally {
        deskStream.close();
        otherStream.close();
      }
    });

    it('tells the desk of a status change that touches no hold: a pending booking now waiting for a therapist', async () => {
      const booking = await book(f);
      const stream = await openDeskEvents(base, desk);
      try {
        await eventually('ready', () => stream.events.length > 0);
        await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
        const before = stream.changes().length;
        // The venue's response time passed: the sweep moves it to awaiting_therapist, its holds kept as they are.
        const moved = await expirePendingBookings(ctx.db, Temporal.Instant.from('2026-11-24T08:00:00Z'));
        expect(moved).toBeGreaterThan(0);
        await eventually('the desk told', () => stream.changes().length > before);
        expect(stream.changes().at(-1)).toEqual({ venues: [f.venue.id] });
        const now = await ctx.dashboard(desk).bookings.get({ params: { id: booking.id } });
        expectStatus(now, 200);
        expect(now.body.data.status).toBe('awaiting_therapist');
      } finally {
        stream.close();
      }
    });
  });
});
