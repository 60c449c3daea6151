import { randomBytes } from 'node:crypto';
import { KeyVault } from '../src/auth/api-key.js';
import { importShapedVenueData, readVenueStream } from '../src/import/import-venue-data.js';
import { makeLargeVenueFile } from '../test/import/venue-file.js';
import { openBenchDatabase } from './databases.js';

const CUSTOMERS = 100_000;
const BOOKINGS = 100_000;
/** One booking in 100 is live (confirmed, on a day of its own): placed with its room and therapist holds. */
const LIVE_EVERY = 100;

/**
 * `pnpm bench import`: one import of 100,000 customers and 100,000 bookings on each database, read from its
 * JSON text in 64 KiB chunks by the reader `spa import` uses (the text, 58 MB, is past the file limit of 32 MiB:
 * a single file holds about half of it), then written in one transaction. Prints the time of each phase and the
 * rows (customers + bookings) per second over the whole.
 */
export async function benchImport(): Promise<string[]> {
  const { file } = makeLargeVenueFile({ customers: CUSTOMERS, bookings: BOOKINGS, liveEvery: LIVE_EVERY });
  const text = Buffer.from(JSON.stringify(file));
  const lines = [
    `import: ${CUSTOMERS.toLocaleString('en')} customers and ${BOOKINGS.toLocaleString('en')} bookings (${BOOKINGS / LIVE_EVERY} live), ${(text.length / 1024 / 1024).toFixed(1)} MiB of JSON, one transaction`,
  ];
  for (const kind of ['pglite', 'postgres'] as const) {
    const database = await openBenchDatabase(kind, 2);
    try {
      const started = performance.now();
      const shaped = await readVenueStream(toAsync(chunksOf(text)));
      const read = performance.now();
      if (shaped.shapeProblems.length)
        throw new Error(`the bench file has problems: ${shaped.shapeProblems[0]!.message}`);
      const summary = await importShapedVenueData(database.db, shaped, new KeyVault(randomBytes(32)));
      const done = performance.now();
      const created = summary.changes.customers.created + summary.changes.bookings.created;
      if (created !== CUSTOMERS + BOOKINGS) throw new Error(`created ${created} rows, not ${CUSTOMERS + BOOKINGS}`);
      lines.push(
        `  ${kind.padEnd(8)}  read and checked ${seconds(read - started)}, written ${seconds(done - read)}, ` +
          `total ${seconds(done - started)}: ${Math.round(created / ((done - started) / 1000)).toLocaleString('en')} rows/s`,
      );
    } finally {
      await database.close();
    }
  }
  return lines;
}

/** The text in 64 KiB chunks, as `spa import` reads a file. */
function* chunksOf(text: Buffer): Generator<Uint8Array> {
  for (let start = 0; start < text.length; start += 64 * 1024) yield text.subarray(start, start + 64 * 1024);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  for (const item of items) yield await Promise.resolve(item);
}
