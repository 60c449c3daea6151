import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { computeDays, decideBooking, RoomHold, TherapistHold } from '../../src/scheduling/index.js';
import type { AvailabilitySnapshot, Interval } from '../../src/scheduling/index.js';
import { d, EVERY_DAY, makeSnapshot, therapistSnapshot } from './factory.js';

const FROM = d('2026-03-28'); // spans the Paris and London spring-forward
const TO = FROM.add({ days: 2 });
const NOW = Temporal.Instant.from('2026-03-28T06:00:00Z');
const ZONES = ['UTC', 'Europe/Paris', 'Europe/London', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham'];
const overlaps = (a: Interval, start: Temporal.Instant, end: Temporal.Instant) =>
  Temporal.Instant.compare(a.start, end) < 0 && Temporal.Instant.compare(start, a.end) < 0;

/** Non-overlapping holds for one resource, as the exclusion constraints guarantee in the database. */
const holds = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 72 * 4 }), fc.integer({ min: 1, max: 12 })), { maxLength: 8 })
  .map((pairs) => {
    const sorted = pairs.map(([q, len]) => [q * 15, q * 15 + len * 15] as const).sort((a, b) => a[0] - b[0]);
    const kept: (readonly [number, number])[] = [];
    for (const p of sorted) if (!kept.length || p[0] >= kept.at(-1)![1]) kept.push(p);
    const base = Temporal.Instant.from('2026-03-27T12:00:00Z');
    return kept.map(([s, e]) => ({ start: base.add({ minutes: s }), end: base.add({ minutes: e }) }));
  });

const snapshotArb = fc
  .record({
    timeZone: fc.constantFrom(...ZONES),
    opening: fc.integer({ min: 6, max: 11 }),
    closing: fc.integer({ min: 13, max: 22 }),
    interval: fc.constantFrom(15, 30, 45, 60),
    duration: fc.constantFrom(30, 45, 60, 90),
    lead: fc.constantFrom(0, 60, 240),
    outOfHours: fc.boolean(),
    turnover: fc.constantFrom(0, 15),
    buffer: fc.constantFrom(0, 30),
    rooms: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 3 }),
    therapists: fc.array(
      fc.record({
        start: fc.integer({ min: 5, max: 12 }),
        end: fc.integer({ min: 13, max: 23 }),
        holds,
        elsewhere: fc.boolean(),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    roomHolds: fc.array(holds, { minLength: 3, maxLength: 3 }),
    block: fc.option(fc.tuple(fc.integer({ min: 8, max: 16 }), fc.integer({ min: 1, max: 3 })), { nil: undefined }),
    guests: fc.integer({ min: 1, max: 3 }),
  })
  .map((r) => {
    const snapshot: AvailabilitySnapshot = makeSnapshot({
      venue: {
        timeZone: r.timeZone,
        openingTime: new Temporal.PlainTime(r.opening),
        closingTime: new Temporal.PlainTime(r.closing),
        slotIntervalMinutes: r.interval,
        allowOutOfHoursBooking: r.outOfHours,
        roomTurnoverBufferMinutes: r.turnover,
        interVenueBufferMinutes: r.buffer,
        dailyBlocks: r.block
          ? [{ start: new Temporal.PlainTime(r.block[0]), end: new Temporal.PlainTime(r.block[0] + r.block[1]) }]
          : [],
      },
      variant: { id: 'v', treatmentId: 't', durationMinutes: r.duration, leadTimeMinutes: r.lead },
      rooms: r.rooms.map((capacity, i) => ({ id: `room-${i}`, capacity })),
      roomReservations: r.rooms.flatMap((_, i) => r.roomHolds[i]!.map((h) => ({ ...h, roomId: `room-${i}` }))),
      therapists: r.therapists.map((th, i) =>
        therapistSnapshot(`t-${i}`, {
          shifts: [
            { daysOfWeek: EVERY_DAY, start: new Temporal.PlainTime(th.start), end: new Temporal.PlainTime(th.end) },
          ],
        }),
      ),
      therapistReservations: r.therapists.flatMap((th, i) =>
        th.holds.map((h) => ({ ...h, therapistId: `t-${i}`, venueId: th.elsewhere ? 'venue-2' : 'venue-1' })),
      ),
    });
    return { snapshot, guests: r.guests };
  });

/** The rules again, written the slow and obvious way, to check the fast implementation slot by slot. */
function bruteForceCapacity(
  snapshot: AvailabilitySnapshot,
  date: Temporal.PlainDate,
  start: Temporal.Instant,
  end: Temporal.Instant,
) {
  const { venue } = snapshot;
  const at = (time: Temporal.PlainTime) =>
    date.toZonedDateTime({ timeZone: venue.timeZone, plainTime: time }).toInstant();
  const roomEnd = end.add({ minutes: venue.roomTurnoverBufferMinutes });
  const freeRooms = snapshot.rooms.filter(
    (room) => !snapshot.roomReservations.some((h) => h.roomId === room.id && overlaps(h, start, roomEnd)),
  );
  const wide = {
    start: start.subtract({ minutes: venue.interVenueBufferMinutes }),
    end: end.add({ minutes: venue.interVenueBufferMinutes }),
  };
  const freeTherapists = snapshot.therapists.filter((th) => {
    const onShift = th.shifts.some(
      (s) => Temporal.Instant.compare(at(s.start), start) <= 0 && Temporal.Instant.compare(end, at(s.end)) <= 0,
    );
    const busy = snapshot.therapistReservations.some(
      (h) =>
        h.therapistId === th.id &&
        (h.venueId === venue.id ? overlaps(h, start, end) : overlaps(h, wide.start, wide.end)),
    );
    return onShift && !busy;
  });
  return Math.min(Math.max(0, ...freeRooms.map((r) => r.capacity)), freeTherapists.length);
}

// Pure CPU: seconds alone, and past the suite's 120 s deadline (123 s) at a load average of 40 on 2 cores. The
// deadline is against a hang; these take what the cores give them.
describe('computeDays properties (fast-check)', { timeout: 600_000 }, () => {
  it('lists only aligned, in-hours-or-flagged, unblocked slots whose capacity the slow rules confirm', () => {
    fc.assert(
      fc.property(snapshotArb, ({ snapshot, guests }) => {
        const { venue } = snapshot;
        const days = computeDays(snapshot, { from: FROM, to: TO }, NOW, guests);
        expect(days.map((day) => day.date.toString())).toEqual(['2026-03-28', '2026-03-29', '2026-03-30']);
        for (const day of days) {
          const at = (time: Temporal.PlainTime) =>
            day.date.toZonedDateTime({ timeZone: venue.timeZone, plainTime: time }).toInstant();
          for (const slot of day.slots) {
            const minutes = slot.localTime.hour * 60 + slot.localTime.minute;
            const opening = venue.openingTime.hour * 60;
            expect(
              (((minutes - opening) % venue.slotIntervalMinutes) + venue.slotIntervalMinutes) %
                venue.slotIntervalMinutes,
            ).toBe(0);
            expect(slot.start.toZonedDateTimeISO(venue.timeZone).toPlainDate().equals(day.date)).toBe(true);
            expect(slot.end.equals(slot.start.add({ minutes: snapshot.variant.durationMinutes }))).toBe(true);
            const inHours =
              Temporal.Instant.compare(slot.start, at(venue.openingTime)) >= 0 &&
              Temporal.Instant.compare(slot.end, at(venue.closingTime)) <= 0;
            expect(slot.outOfHours).toBe(!inHours);
            if (!venue.allowOutOfHoursBooking) expect(inHours).toBe(true);
            expect(
              Temporal.Instant.compare(slot.start, NOW.add({ minutes: snapshot.variant.leadTimeMinutes })),
            ).toBeGreaterThanOrEqual(0);
            for (const block of venue.dailyBlocks)
              expect(overlaps({ start: at(block.start), end: at(block.end) }, slot.start, slot.end)).toBe(false);
            expect(slot.availableCapacity).toBeGreaterThanOrEqual(guests);
            expect(slot.availableCapacity).toBeLessThanOrEqual(Math.max(...snapshot.rooms.map((r) => r.capacity)));
            expect(slot.availableCapacity).toBeLessThanOrEqual(snapshot.therapists.length);
            expect(slot.availableCapacity).toBe(bruteForceCapacity(snapshot, day.date, slot.start, slot.end));
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('gives in day mode exactly the matching day of range mode, and decideBooking agrees with the list', () => {
    fc.assert(
      fc.property(snapshotArb, fc.integer({ min: 0, max: 2 }), ({ snapshot, guests }, offset) => {
        const date = FROM.add({ days: offset });
        const range = computeDays(snapshot, { from: FROM, to: TO }, NOW, guests)[offset]!;
        const day = computeDays(snapshot, { from: date, to: date }, NOW, guests)[0]!;
        const show = (slots: typeof day.slots) =>
          slots.map((s) => [s.start.toString(), s.outOfHours, s.availableCapacity]);
        expect(show(day.slots)).toEqual(show(range.slots));
        const listed = new Set(day.slots.map((s) => s.start.toString()));
        for (const slot of day.slots)
          expect(decideBooking(snapshot, slot.start, NOW, guests)?.slot?.availableCapacity).toBe(
            slot.availableCapacity,
          );
        // Every quarter-hour of the day that is not listed is refused.
        for (let q = 0; q < 96; q++) {
          const instant = date
            .toZonedDateTime({ timeZone: snapshot.venue.timeZone })
            .toInstant()
            .add({ minutes: q * 15 });
          if (!listed.has(instant.toString()))
            expect(decideBooking(snapshot, instant, NOW, guests)?.slot).toBeUndefined();
        }
      }),
      { numRuns: 60 },
    );
  });

  it('answers the same from holds kept as epoch milliseconds (as loaded) as from holds built with Temporal values', () => {
    fc.assert(
      fc.property(snapshotArb, ({ snapshot, guests }) => {
        const loaded: AvailabilitySnapshot = {
          ...snapshot,
          roomReservations: snapshot.roomReservations.map(
            (h) => new RoomHold(h.roomId, h.start.epochMilliseconds, h.end.epochMilliseconds),
          ),
          therapistReservations: snapshot.therapistReservations.map(
            (h) => new TherapistHold(h.therapistId, h.venueId, h.start.epochMilliseconds, h.end.epochMilliseconds),
          ),
        };
        const show = (s: AvailabilitySnapshot) =>
          computeDays(s, { from: FROM, to: TO }, NOW, guests).map((day) =>
            day.slots.map((slot) => [slot.start.toString(), slot.outOfHours, slot.availableCapacity]),
          );
        expect(show(loaded)).toEqual(show(snapshot));
        for (let q = 0; q < 3 * 96; q++) {
          const instant = FROM.toZonedDateTime({ timeZone: snapshot.venue.timeZone })
            .toInstant()
            .add({ minutes: q * 15 });
          expect(decideBooking(loaded, instant, NOW, guests)).toEqual(decideBooking(snapshot, instant, NOW, guests));
        }
      }),
      { numRuns: 60 },
    );
  });
});
