import { describe, expect, it } from 'vitest';
import { computeDays, decideBooking } from '../../src/scheduling/index.js';
import { d, EVERY_DAY, i, makeSnapshot, therapistSnapshot, NOW, t } from './factory.js';

const DAY = d('2026-12-02'); // a Wednesday
const times = (snapshot: ReturnType<typeof makeSnapshot>, date = DAY, now = NOW, guests = 1) =>
  computeDays(snapshot, { from: date, to: date }, now, guests)[0]!.slots.map((s) => s.localTime.toString().slice(0, 5));

describe('computeDays: the availability rules', () => {
  it('lists the grid from opening time, each slot ending by closing', () => {
    expect(times(makeSnapshot())).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00']);
  });

  it('aligns the grid on opening time, not on the hour', () => {
    expect(times(makeSnapshot({ venue: { openingTime: t('09:15'), closingTime: t('11:00') } }))).toEqual([
      '09:15',
      '09:45',
    ]);
  });

  describe('rule 1: operating dates', () => {
    it('is closed on a day of the week the schedule does not list', () => {
      expect(times(makeSnapshot({ venue: { daysOfWeek: [1, 2] } }))).toEqual([]); // Monday, Tuesday only
      expect(times(makeSnapshot({ venue: { daysOfWeek: [3] } }))).toHaveLength(5);
    });

    it('is closed before recurring_start_date and after recurring_end_date', () => {
      expect(times(makeSnapshot({ venue: { recurringStartDate: d('2026-12-03') } }))).toEqual([]);
      expect(times(makeSnapshot({ venue: { recurringEndDate: d('2026-12-01') } }))).toEqual([]);
      expect(times(makeSnapshot({ venue: { recurringEndDate: DAY } }))).toHaveLength(5);
    });

    it('operates every N weeks counted from the week of recurring_start_date', () => {
      // 2026-11-18 is a Wednesday two weeks before DAY; with interval 2, DAY's week operates and the next does not.
      const venue = { recurrenceIntervalWeeks: 2, recurringStartDate: d('2026-11-16') };
      expect(times(makeSnapshot({ venue }))).toHaveLength(5);
      expect(times(makeSnapshot({ venue }), d('2026-12-09'))).toEqual([]);
      expect(times(makeSnapshot({ venue }), d('2026-12-16'))).toHaveLength(5);
    });

    it('opens a one_time venue only on its openings, with their own hours', () => {
      const venue = {
        scheduleType: 'one_time' as const,
        oneTimeOpenings: [{ date: DAY, openingTime: t('14:00'), closingTime: t('16:00') }],
      };
      expect(times(makeSnapshot({ venue }))).toEqual(['14:00', '14:30', '15:00']);
      expect(times(makeSnapshot({ venue }), d('2026-12-03'))).toEqual([]);
    });

    it('opens a recurring venue on a one-time opening outside its days, with the usual hours when none are given', () => {
      const venue = { daysOfWeek: [1], oneTimeOpenings: [{ date: DAY, openingTime: null, closingTime: null }] };
      expect(times(makeSnapshot({ venue }))).toHaveLength(5);
    });
  });

  describe('rule 2: opening hours and out-of-hours slots', () => {
    it('lists slots outside opening hours only when the venue allows them, flagged out_of_hours, within shifts', () => {
      const therapists = [
        therapistSnapshot('therapist-1', { shifts: [{ daysOfWeek: EVERY_DAY, start: t('08:00'), end: t('13:00') }] }),
      ];
      expect(times(makeSnapshot({ therapists }))).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00']);
      const slots = computeDays(
        makeSnapshot({ therapists, venue: { allowOutOfHoursBooking: true } }),
        { from: DAY, to: DAY },
        NOW,
      )[0]!.slots;
      expect(slots.map((s) => [s.localTime.toString().slice(0, 5), s.outOfHours])).toEqual([
        ['08:00', true],
        ['08:30', true],
        ['09:00', false],
        ['09:30', false],
        ['10:00', false],
        ['10:30', false],
        ['11:00', false],
        ['11:30', true],
        ['12:00', true],
      ]);
    });
  });

  it('rule 3: keeps the lead time from now', () => {
    const snapshot = makeSnapshot({ variant: { id: 'v', treatmentId: 't', durationMinutes: 60, leadTimeMinutes: 90 } });
    expect(times(snapshot, DAY, i('2026-12-02T08:00:00Z'))).toEqual(['09:30', '10:00', '10:30', '11:00']);
    expect(times(snapshot, DAY, i('2026-12-02T08:00:01Z'))).toEqual(['10:00', '10:30', '11:00']);
  });

  describe('rule 4: a free room with enough capacity, turnover included', () => {
    it('hides slots whose room range overlaps a reservation', () => {
      const roomReservations = [{ roomId: 'room-1', start: i('2026-12-02T10:00:00Z'), end: i('2026-12-02T11:00:00Z') }];
      expect(times(makeSnapshot({ roomReservations }))).toEqual(['09:00', '11:00']);
    });

    it('extends the new booking by the turnover buffer', () => {
      const roomReservations = [{ roomId: 'room-1', start: i('2026-12-02T11:00:00Z'), end: i('2026-12-02T12:00:00Z') }];
      expect(times(makeSnapshot({ roomReservations }))).toEqual(['09:00', '09:30', '10:00']);
      expect(times(makeSnapshot({ roomReservations, venue: { roomTurnoverBufferMinutes: 15 } }))).toEqual([
        '09:00',
        '09:30',
      ]);
    });

    it('requires a room whose capacity covers guest_count', () => {
      const therapists = [therapistSnapshot('a'), therapistSnapshot('b')];
      expect(times(makeSnapshot({ therapists }), DAY, NOW, 2)).toEqual([]);
      expect(times(makeSnapshot({ therapists, rooms: [{ id: 'duo', capacity: 2 }] }), DAY, NOW, 2)).toHaveLength(5);
    });

    it('lists nothing without a room', () => {
      expect(times(makeSnapshot({ rooms: [] }))).toEqual([]);
    });
  });

  describe('rule 5: a qualified therapist on shift and free', () => {
    it('needs the whole slot inside a shift', () => {
      const therapists = [
        therapistSnapshot('a', { shifts: [{ daysOfWeek: EVERY_DAY, start: t('09:30'), end: t('11:00') }] }),
      ];
      expect(times(makeSnapshot({ therapists }))).toEqual(['09:30', '10:00']);
    });

    it('uses a dated override instead of the weekly pattern, and null times mean off', () => {
      const override = (start: string | null, end: string | null) => [
        therapistSnapshot('a', {
          overrides: [{ date: DAY, start: start ? t(start) : null, end: end ? t(end) : null }],
        }),
      ];
      expect(times(makeSnapshot({ therapists: override('10:00', '11:00') }))).toEqual(['10:00']);
      expect(times(makeSnapshot({ therapists: override(null, null) }))).toEqual([]);
    });

    it('hides slots overlapping an absence', () => {
      const therapists = [
        therapistSnapshot('a', { absences: [{ start: i('2026-12-02T09:45:00Z'), end: i('2026-12-02T10:15:00Z') }] }),
      ];
      expect(times(makeSnapshot({ therapists }))).toEqual(['10:30', '11:00']);
    });

    it('hides slots where the therapist already has a booking here', () => {
      const therapistReservations = [
        {
          therapistId: 'therapist-1',
          venueId: 'venue-1',
          start: i('2026-12-02T09:00:00Z'),
          end: i('2026-12-02T10:00:00Z'),
        },
      ];
      expect(times(makeSnapshot({ therapistReservations }))).toEqual(['10:00', '10:30', '11:00']);
    });
  });

  it('rule 6: hides slots overlapping a one-off block or a daily block, also on one-time opening days', () => {
    expect(
      times(
        makeSnapshot({ venue: { blocks: [{ start: i('2026-12-02T10:30:00Z'), end: i('2026-12-02T10:45:00Z') }] } }),
      ),
    ).toEqual(['09:00', '09:30', '11:00']);
    const daily = { dailyBlocks: [{ start: t('10:00'), end: t('10:30') }] };
    expect(times(makeSnapshot({ venue: daily }))).toEqual(['09:00', '10:30', '11:00']);
    const oneTime = {
      ...daily,
      scheduleType: 'one_time' as const,
      oneTimeOpenings: [{ date: DAY, openingTime: null, closingTime: null }],
    };
    expect(times(makeSnapshot({ venue: oneTime }))).toEqual(['09:00', '10:30', '11:00']);
  });

  it('rule 7: keeps the inter-venue buffer against bookings at another venue only', () => {
    const elsewhere = [
      {
        therapistId: 'therapist-1',
        venueId: 'venue-2',
        start: i('2026-12-02T08:00:00Z'),
        end: i('2026-12-02T09:00:00Z'),
      },
    ];
    expect(times(makeSnapshot({ therapistReservations: elsewhere }))).toHaveLength(5);
    expect(times(makeSnapshot({ therapistReservations: elsewhere, venue: { interVenueBufferMinutes: 30 } }))).toEqual([
      '09:30',
      '10:00',
      '10:30',
      '11:00',
    ]);
    const here = [{ ...elsewhere[0]!, venueId: 'venue-1' }];
    expect(times(makeSnapshot({ therapistReservations: here, venue: { interVenueBufferMinutes: 30 } }))).toHaveLength(
      5,
    );
  });
});

describe('available_capacity', () => {
  it('is the smaller of the largest free room and the number of free therapists', () => {
    const rooms = [
      { id: 'r1', capacity: 1 },
      { id: 'r2', capacity: 3 },
    ];
    const two = [therapistSnapshot('a'), therapistSnapshot('b')];
    const slot = (snapshot: ReturnType<typeof makeSnapshot>) =>
      computeDays(snapshot, { from: DAY, to: DAY }, NOW)[0]!.slots[0]!.availableCapacity;
    expect(slot(makeSnapshot({ rooms, therapists: two }))).toBe(2);
    expect(slot(makeSnapshot({ rooms, therapists: [...two, therapistSnapshot('c'), therapistSnapshot('d')] }))).toBe(3);
    const busy = [{ roomId: 'r2', start: i('2026-12-02T09:00:00Z'), end: i('2026-12-02T10:00:00Z') }];
    expect(slot(makeSnapshot({ rooms, therapists: two, roomReservations: busy }))).toBe(1);
  });

  it('keeps only slots with capacity >= guest_count', () => {
    const rooms = [{ id: 'r2', capacity: 2 }];
    const therapists = [
      therapistSnapshot('a'),
      therapistSnapshot('b', { shifts: [{ daysOfWeek: EVERY_DAY, start: t('10:00'), end: t('12:00') }] }),
    ];
    expect(times(makeSnapshot({ rooms, therapists }), DAY, NOW, 2)).toEqual(['10:00', '10:30', '11:00']);
  });
});

describe('decideBooking agrees with computeDays', () => {
  it('finds exactly the listed instants', () => {
    const snapshot = makeSnapshot();
    expect(decideBooking(snapshot, i('2026-12-02T09:30:00Z'), NOW, 1)?.slot?.availableCapacity).toBe(1);
    expect(decideBooking(snapshot, i('2026-12-02T09:15:00Z'), NOW, 1)?.slot).toBeUndefined();
    expect(decideBooking(snapshot, i('2026-12-02T11:30:00Z'), NOW, 1)?.slot).toBeUndefined();
  });

  it('allocates the smallest room that fits and enough therapists, and offers every free therapist', () => {
    const snapshot = makeSnapshot({
      rooms: [
        { id: 'big', capacity: 4 },
        { id: 'small', capacity: 2 },
        { id: 'solo', capacity: 1 },
      ],
      therapists: [therapistSnapshot('c'), therapistSnapshot('b'), therapistSnapshot('a')],
    });
    const decision = decideBooking(snapshot, i('2026-12-02T09:00:00Z'), NOW, 2)!;
    expect(decision.allocation).toEqual({ roomId: 'small', therapistIds: ['a', 'b'] });
    expect(decision.offeredTherapistIds).toEqual(['a', 'b', 'c']);
    expect(decideBooking(snapshot, i('2026-12-02T09:00:00Z'), NOW, 4)).toBeUndefined(); // three therapists only
    expect(decideBooking(snapshot, i('2026-12-02T09:10:00Z'), NOW, 1)).toBeUndefined(); // off the grid
  });

  it('lists every date of a range, closed ones empty', () => {
    const days = computeDays(
      makeSnapshot({ venue: { daysOfWeek: [3] } }),
      { from: d('2026-12-01'), to: d('2026-12-03') },
      NOW,
    );
    expect(days.map((day) => [day.date.toString(), day.slots.length])).toEqual([
      ['2026-12-01', 0],
      ['2026-12-02', 5],
      ['2026-12-03', 0],
    ]);
  });
});
