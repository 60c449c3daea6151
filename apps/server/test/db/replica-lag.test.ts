import { describe, expect, it } from 'vitest';
import { parseLsn, PrimaryPositions } from '../../src/db/replica-lag.js';

describe('a replica lag measured from WAL positions', () => {
  it('reads a WAL position as one comparable number', () => {
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
    expect(() => parseLsn('16-B374D848')).toThrow('not a WAL position: 16-B374D848');
  });

  it('is unknown before a primary position, and 0 once the replica has replayed the newest one', () => {
    const positions = new PrimaryPositions(10_000);
    expect(positions.lagMs(100n, 1_000)).toBeUndefined();
    positions.record(1_000, 100n);
    positions.record(2_000, 100n);
    expect(positions.lagMs(100n, 2_000)).toBe(0);
    expect(positions.lagMs(150n, 2_000)).toBe(0);
  });

  it('counts from the oldest primary position the replica has not reached, so an idle primary never looks behind', () => {
    const positions = new PrimaryPositions(10_000);
    positions.record(1_000, 100n);
    positions.record(2_000, 200n);
    positions.record(3_000, 300n);
    expect(positions.lagMs(100n, 3_500)).toBe(1_500);
    expect(positions.lagMs(250n, 3_500)).toBe(500);
    expect(positions.lagMs(50n, 3_500)).toBe(2_500);
  });

  it('forgets positions older than it keeps, still reporting a replica stuck behind them as at least that late', () => {
    const positions = new PrimaryPositions(1_000);
    for (let at = 0; at <= 5_000; at += 500) positions.record(at, BigInt(at + 1));
    expect(positions.lagMs(0n, 5_000)).toBeGreaterThanOrEqual(1_000);
  });
});
