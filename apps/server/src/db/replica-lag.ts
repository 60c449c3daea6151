/** A WAL position (`16/B374D848`) as one comparable number. */
export function parseLsn(text: string): bigint {
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text);
  if (!match) throw new Error(`not a WAL position: ${text}`);
  return (BigInt(`0x${match[1]}`) << 32n) + BigInt(`0x${match[2]}`);
}

/**
 * How far behind the primary a replica is, in time, from WAL positions. The primary's position is sampled at each
 * check; a replica that has replayed past the newest sample is current (0), otherwise it lags by the age of the
 * oldest sample it has not reached: a lower bound, exact to within one check interval. Positions rather than
 * `pg_last_xact_replay_timestamp()`: that timestamp is the last replayed commit's, so an idle primary would make
 * every replica look hours behind while it misses nothing.
 */
export class PrimaryPositions {
  /** Oldest first; trimmed to what any replica may still be behind (the bound and a few more checks). */
  readonly #samples: { atMs: number; lsn: bigint }[] = [];

  constructor(private readonly keepMs: number) {}

  record(atMs: number, lsn: bigint): void {
    this.#samples.push({ atMs, lsn });
    while (this.#samples.length > 2 && this.#samples[0]!.atMs < atMs - this.keepMs) this.#samples.shift();
  }

  /** Milliseconds behind at `nowMs` for a replica that has replayed up to `replayed`; undefined before a sample. */
  lagMs(replayed: bigint, nowMs: number): number | undefined {
    if (this.#samples.length === 0) return undefined;
    const missed = this.#samples.find((sample) => sample.lsn > replayed);
    return missed ? Math.max(0, nowMs - missed.atMs) : 0;
  }
}
