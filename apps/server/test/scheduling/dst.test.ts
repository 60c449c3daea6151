import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { computeDays } from '../../src/scheduling/index.js';
import { d, i, makeSnapshot, t } from './factory.js';

/** Long before every date below, so the lead time never hides a slot. */
const NOW = i('2020-01-01T00:00:00Z');

/** A venue open all day on a 30-minute grid, a 30-minute variant: every local half-hour is a candidate. */
function slotsOn(timeZone: string, date: string) {
  const snapshot = makeSnapshot({
    venue: { timeZone, openingTime: t('00:00'), closingTime: t('23:59') },
    variant: { id: 'v', treatmentId: 't', durationMinutes: 30, leadTimeMinutes: 0 },
  });
  return computeDays(snapshot, { from: d(date), to: d(date) }, NOW)[0]!.slots.map((s) => ({
    local: s.localTime.toString().slice(0, 5),
    utc: s.start.toString(),
  }));
}

/** What the slots must be: each half-hour that exists, once, at its earlier instant (by Temporal, independently). */
function expectedOn(timeZone: string, date: string) {
  const expected: { local: string; utc: string }[] = [];
  for (let minutes = 0; minutes + 30 <= 23 * 60 + 59; minutes += 30) {
    const time = new Temporal.PlainTime(Math.floor(minutes / 60), minutes % 60);
    const zoned = Temporal.PlainDate.from(date).toZonedDateTime({ timeZone, plainTime: time });
    if (!zoned.toPlainTime().equals(time)) continue; // does not exist that day
    const end = zoned.toInstant().add({ minutes: 30 });
    const closing = Temporal.PlainDate.from(date)
      .toZonedDateTime({ timeZone, plainTime: t('23:59') })
      .toInstant();
    if (Temporal.Instant.compare(end, closing) > 0) continue;
    expected.push({ local: time.toString().slice(0, 5), utc: zoned.toInstant().toString() });
  }
  return expected;
}

const TRANSITIONS: [zone: string, dates: string[]][] = [
  ['Europe/Paris', ['2026-03-29', '2026-10-25']],
  ['America/New_York', ['2026-03-08', '2026-11-01']],
  ['Australia/Sydney', ['2026-04-05', '2026-10-04']],
  ['Pacific/Chatham', ['2026-04-05', '2026-09-27']],
  ['Asia/Kolkata', ['2026-03-29', '2026-10-25']],
];

describe('DST: local slot times stay on the local grid', () => {
  for (const [zone, dates] of TRANSITIONS) {
    for (const date of dates) {
      it(`${zone} on ${date}: each existing local time once, at its earlier instant`, () => {
        const slots = slotsOn(zone, date);
        expect(slots).toEqual(expectedOn(zone, date));
        expect(new Set(slots.map((s) => s.local)).size).toBe(slots.length);
      });
    }
  }

  it('Europe/Paris spring forward: 02:00 and 02:30 do not exist and are skipped', () => {
    const slots = slotsOn('Europe/Paris', '2026-03-29');
    expect(slots.map((s) => s.local).slice(2, 6)).toEqual(['01:00', '01:30', '03:00', '03:30']);
    expect(slots.find((s) => s.local === '01:30')!.utc).toBe('2026-03-29T00:30:00Z');
    expect(slots.find((s) => s.local === '03:00')!.utc).toBe('2026-03-29T01:00:00Z');
    expect(slots).toHaveLength(45); // 48 half-hours, 2 skipped, and 23:30 would end after closing (23:59)
  });

  it('Europe/Paris fall back: 02:00 and 02:30 appear once, at the earlier (summer-time) instant', () => {
    const slots = slotsOn('Europe/Paris', '2026-10-25');
    expect(slots.filter((s) => s.local.startsWith('02:'))).toEqual([
      { local: '02:00', utc: '2026-10-25T00:00:00Z' },
      { local: '02:30', utc: '2026-10-25T00:30:00Z' },
    ]);
    expect(slots.find((s) => s.local === '03:00')!.utc).toBe('2026-10-25T02:00:00Z');
    expect(slots).toHaveLength(47);
  });

  it('America/New_York fall back lists 01:00 and 01:30 once, in daylight time', () => {
    const slots = slotsOn('America/New_York', '2026-11-01');
    expect(slots.filter((s) => s.local.startsWith('01:'))).toEqual([
      { local: '01:00', utc: '2026-11-01T05:00:00Z' },
      { local: '01:30', utc: '2026-11-01T05:30:00Z' },
    ]);
  });

  it('Pacific/Chatham (+12:45/+13:45) skips 02:45 in spring and keeps the quarter-hour offset in UTC', () => {
    const slots = slotsOn('Pacific/Chatham', '2026-09-27');
    expect(slots.some((s) => s.local === '03:00')).toBe(false); // 02:45–03:45 does not exist; 03:00 falls in the gap
    expect(slots.find((s) => s.local === '02:30')!.utc).toBe('2026-09-26T13:45:00Z');
    expect(slots.find((s) => s.local === '04:00')!.utc).toBe('2026-09-26T14:15:00Z');
  });

  it('Asia/Kolkata (+05:30, no DST) has every half-hour of the day', () => {
    const slots = slotsOn('Asia/Kolkata', '2026-03-29');
    expect(slots).toHaveLength(47);
    expect(slots[0]).toEqual({ local: '00:00', utc: '2026-03-28T18:30:00Z' });
  });

  it('a venue with no timezone is UTC', () => {
    expect(slotsOn('UTC', '2026-03-29')[0]).toEqual({ local: '00:00', utc: '2026-03-29T00:00:00Z' });
  });

  it('a slot that spans the change lasts its real duration (end = start + duration)', () => {
    const snapshot = makeSnapshot({
      venue: { timeZone: 'Europe/Paris', openingTime: t('01:00'), closingTime: t('04:00') },
    });
    const slots = computeDays(snapshot, { from: d('2026-03-29'), to: d('2026-03-29') }, NOW)[0]!.slots;
    const first = slots[0]!;
    expect([first.localTime.toString(), first.start.toString(), first.end.toString()]).toEqual([
      '01:00:00',
      '2026-03-29T00:00:00Z',
      '2026-03-29T01:00:00Z',
    ]);
    expect(i('2026-03-29T01:00:00Z').toZonedDateTimeISO('Europe/Paris').toPlainTime().toString()).toBe('03:00:00');
  });
});
