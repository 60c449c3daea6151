import type { VenueSize } from './growth-venue.js';
import { verdict } from './stats.js';

export interface SizeResult {
  size: VenueSize;
  placed: number;
  buildSeconds: number;
  /** Rooms and therapists qualifying for the measured variant. */
  resources: number;
  /** Room and therapist holds the 62-day snapshot reads. */
  holds: number;
  candidates: { day: number; range: number };
  slotsListed: number;
  rangeBytes: number;
  p50: { day: number; range: number; create: number };
  createStatuses: Map<number, number>;
  split: { load: number; compute: number; map: number; check: number; stringify: number };
}

/**
 * Cost may grow this much faster than the work units between two sizes before it counts as superlinear:
 * each figure is a p50 on a 2-core machine shared with other sessions, where p50s of one request repeated
 * move by about 10% between runs, so the ratio of two of them can move by about 20%.
 */
export const TOLERANCE = 1.25;

const pad = (cells: (string | number)[], widths: number[]) =>
  cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]!) : String(c).padStart(widths[i]!))).join('  ');
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const times = (n: number | undefined) => (n === undefined ? '-' : `${n.toFixed(2)}x`);

/** One measure's table: work units, p50, cost per unit and both growth factors, then its verdict line. */
function growthTable(
  label: string,
  results: SizeResult[],
  units: (r: SizeResult) => number,
  cost: (r: SizeResult) => number,
) {
  const widths = [8, 11, 8, 10, 8, 12, 7];
  const lines = [
    `  ${label}`,
    `    ${pad(['size', 'work units', 'growth', 'p50 ms', 'growth', 'ns per unit', 'ratio'], widths)}`,
  ];
  let worst = 0;
  results.forEach((r, i) => {
    const previous = results[i - 1];
    const unitGrowth = previous && units(r) / units(previous);
    const costGrowth = previous && cost(r) / cost(previous);
    const ratio = previous && costGrowth! / unitGrowth!;
    if (ratio !== undefined) worst = Math.max(worst, ratio);
    lines.push(
      `    ${pad(
        [
          r.size.name,
          int(units(r)),
          times(unitGrowth),
          cost(r).toFixed(2),
          times(costGrowth),
          ((cost(r) * 1e6) / units(r)).toFixed(1),
          ratio === undefined ? '-' : ratio.toFixed(2),
        ],
        widths,
      )}`,
    );
  });
  const overall = cost(results.at(-1)!) / cost(results[0]!) / (units(results.at(-1)!) / units(results[0]!));
  worst = Math.max(worst, overall);
  lines.push(`    ${verdict(`${label}: cost growth / work-unit growth, worst step`, worst, TOLERANCE, 'x')}`);
  return lines;
}

export function growthReport(results: SizeResult[]): string[] {
  const widths = [8, 6, 10, 9, 7, 13, 12, 8];
  const lines = [
    'cost growth on postgres (indicative: 2 cores shared with other sessions), 62 days from 2026-12-01',
    '  work units = candidate slot starts (57 a day: 08:00-22:00 by 15 minutes) x qualifying rooms and therapists',
    `    ${pad(['size', 'rooms', 'therapists', 'bookings', 'placed', 'slots listed', 'bytes 62 d', 'build s'], widths)}`,
    ...results.map(
      (r) =>
        `    ${pad(
          [
            r.size.name,
            r.size.rooms,
            r.size.therapists,
            int(r.size.bookings),
            int(r.placed),
            int(r.slotsListed),
            int(r.rangeBytes),
            r.buildSeconds.toFixed(1),
          ],
          widths,
        )}`,
    ),
    ...growthTable(
      'availability 1 day (HTTP)',
      results,
      (r) => r.candidates.day * r.resources,
      (r) => r.p50.day,
    ),
    ...growthTable(
      'availability 62 days (HTTP)',
      results,
      (r) => r.candidates.range * r.resources,
      (r) => r.p50.range,
    ),
    ...growthTable(
      'booking create (HTTP, 1 candidate)',
      results,
      (r) => r.resources,
      (r) => r.p50.create,
    ),
    ...growthTable(
      '62 days, computeDays alone',
      results,
      (r) => r.candidates.range * r.resources,
      (r) => r.split.compute,
    ),
    // The load reads every hold of the range once: its unit is the hold, whose number grows with the bookings.
    ...growthTable(
      '62 days, snapshot load alone (work units = holds read)',
      results,
      (r) => r.holds,
      (r) => r.split.load,
    ),
  ];
  const splitWidths = [8, 8, 9, 8, 8, 10, 11, 9];
  lines.push(
    '  62-day answer in process, p50 ms (encode = build slot objects + response check (zod) + JSON.stringify)',
    `    ${pad(['size', 'load', 'compute', 'build', 'check', 'stringify', 'encode %', 'of HTTP'], splitWidths)}`,
  );
  for (const r of results) {
    const s = r.split;
    const encode = s.map + s.check + s.stringify;
    lines.push(
      `    ${pad(
        [
          r.size.name,
          s.load.toFixed(2),
          s.compute.toFixed(2),
          s.map.toFixed(2),
          s.check.toFixed(2),
          s.stringify.toFixed(2),
          `${((100 * encode) / (s.load + s.compute + encode)).toFixed(0)}%`,
          `${((100 * encode) / r.p50.range).toFixed(0)}%`,
        ],
        splitWidths,
      )}`,
    );
  }
  for (const r of results) {
    const other = [...r.createStatuses].filter(([status]) => status !== 201);
    if (other.length) lines.push(`  ${r.size.name}: creates answered ${JSON.stringify(other)} besides 201`);
  }
  return lines;
}
