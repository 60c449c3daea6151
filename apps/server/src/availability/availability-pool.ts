import { Piscina } from 'piscina';
import type { Logger } from 'pino';
import { compiledEntry } from '../lib/compiled-entry.js';
import { ServiceUnavailableError } from '../errors/domain-errors.js';
import type { VenueRow } from '../venues/venues.repository.js';
import type { AvailabilityTask, TaskAnswer, TaskFailure } from './compute-worker.js';
import type { FreshAnswer } from './availability-cache.js';
import type { Period } from './availability-period.js';
import { KeyGate } from './key-gate.js';

export interface AvailabilityPoolOptions {
  /** Worker threads computing heavy answers. */
  threads: number;
  /** Grid points (days × grid points a day) from which a request is computed on the pool; below, in line. */
  minGridPoints?: number;
  /** Heavy requests of one key holding a place in the pool's queue at once; default threads + 1. */
  perKeyActive?: number;
  /** Heavy requests of one key waiting for one of those places; beyond, 503. */
  perKeyWaiting?: number;
  /** Tasks waiting for a thread, all keys together; beyond, 503. */
  maxQueue?: number;
  /** Check each answer against the contract, as ts-rest does on the main thread (responseValidation). */
  validate?: boolean;
  /** Below normal priority: under contention the OS runs the event loop (and PostgreSQL) first. */
  niceIncrement?: number;
  /** The worker entry and its export (tests pass one that fails). */
  filename?: URL;
  name?: string;
  logger?: Pick<Logger, 'error' | 'warn'>;
}

/**
 * Heavy availability answers (long ranges on large venues: ~1 MB, tens of ms of CPU) are computed and encoded on
 * worker threads (piscina), so they never hold the event loop that every other request needs. The main thread
 * keeps the I/O: it reads the snapshot (PGlite cannot be shared across threads) and writes the bytes the worker
 * hands back. Each key's heavy requests take turns (KeyGate). A pool that cannot answer (worker crashed, queue
 * full, pool closed) is a transient state: 503 with Retry-After, and the process keeps serving.
 */
export class AvailabilityPool {
  readonly minGridPoints: number;
  private readonly options: AvailabilityPoolOptions & { threads: number };
  private readonly gate: KeyGate;
  private readonly validate: boolean;
  private readonly logger: AvailabilityPoolOptions['logger'];
  /** Undefined while workers that failed to start are given a pause, and once closed. */
  private piscina: Piscina<AvailabilityTask, TaskAnswer | TaskFailure> | undefined;
  private restartAt = 0;
  private closed = false;

  constructor(options: AvailabilityPoolOptions) {
    this.options = { ...options, threads: Math.max(1, options.threads) };
    this.minGridPoints = options.minGridPoints ?? 300;
    this.validate = options.validate ?? true;
    this.logger = options.logger;
    this.gate = new KeyGate(options.perKeyActive ?? this.options.threads + 1, options.perKeyWaiting ?? 20);
    this.piscina = this.start();
  }

  /** Whether a request for `period` at `venue` is heavy enough to leave the event loop. */
  takes(venue: GridVenue, period: Period): boolean {
    return gridPointsOf(venue, period) >= this.minGridPoints;
  }

  /**
   * The 200's bytes for the task `load` builds when the key's turn comes (so the snapshot is read just before it is
   * computed). Domain and database errors of `load` pass through; a failure of the pool is a 503. A request whose
   * client has gone (`gone` aborted) by its turn is not computed.
   */
  answer(
    key: string,
    load: () => Promise<Omit<AvailabilityTask, 'validate'>>,
    gone?: AbortSignal,
  ): Promise<FreshAnswer> {
    return this.gate.run(key, async () => {
      if (gone?.aborted) throw new ServiceUnavailableError({ cause: new Error('the client left while waiting') });
      const task = { ...(await load()), validate: this.validate };
      let result: TaskAnswer | TaskFailure;
      try {
        result = await this.running().run(task);
      } catch (error) {
        this.logger?.error({ err: error }, 'availability worker pool could not answer');
        throw new ServiceUnavailableError({ cause: error });
      }
      if ('failed' in result) {
        // Thrown by the computation itself: a bug, answered 500 as it would be on the main thread.
        const failure = new Error(`availability worker: ${result.failed.message}`);
        failure.stack = result.failed.stack;
        throw failure;
      }
      const { bytes, freshUntilMs } = result;
      return { bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), freshUntilMs };
    });
  }

  /** Waits for the tasks in flight (all finished once HTTP has drained), then ends the threads. */
  async close(options: { force?: boolean } = {}): Promise<void> {
    this.closed = true;
    const piscina = this.piscina;
    this.piscina = undefined;
    await piscina?.close(options);
  }

  private running() {
    if (!this.piscina && !this.closed && performance.now() >= this.restartAt) this.piscina = this.start();
    if (!this.piscina) throw new Error(this.closed ? 'availability pool closed' : 'availability workers restarting');
    return this.piscina;
  }

  private start() {
    const piscina = new Piscina<AvailabilityTask, TaskAnswer | TaskFailure>({
      filename: (this.options.filename ?? compiledEntry('compute-worker')).href,
      name: this.options.name ?? 'default',
      // Started with the process and kept: a worker loads its modules and the contract once, not per burst.
      minThreads: this.options.threads,
      maxThreads: this.options.threads,
      maxQueue: this.options.maxQueue ?? 64,
      niceIncrement: this.options.niceIncrement ?? 10,
    });
    // Without a listener, an 'error' (a worker failing while idle, or while starting) would end the process.
    piscina.on('error', (error: unknown) => {
      this.logger?.error({ err: error }, 'availability worker failed');
      // Workers that fail while starting are not replaced by piscina, and tasks queued for them would wait
      // forever: drop this pool (its queued tasks fail, so 503) and start another after a pause.
      if (piscina === this.piscina && piscina.threads.length === 0) {
        this.piscina = undefined;
        this.restartAt = performance.now() + RESTART_PAUSE_MS;
        void piscina.destroy();
      }
    });
    return piscina;
  }
}

/** Between attempts to start workers that failed to start: each attempt loads the modules again. */
const RESTART_PAUSE_MS = 5000;

type GridVenue = Pick<VenueRow, 'opening_time' | 'closing_time' | 'slot_interval' | 'allow_out_of_hours_booking'>;

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** Grid points the period can hold: a venue-local day's grid (the whole day with out-of-hours booking) × days. */
export function gridPointsOf(venue: GridVenue, period: Period): number {
  const days = period.from.until(period.to, { largestUnit: 'day' }).days + 1;
  const minutes = venue.allow_out_of_hours_booking
    ? 24 * 60
    : Math.max(0, minutesOf(venue.closing_time) - minutesOf(venue.opening_time));
  return days * (Math.floor(minutes / Math.max(1, venue.slot_interval)) + 1);
}
