import { closeSync, constants, fstatSync, openSync, read, type Stats } from 'node:fs';
import { promisify } from 'node:util';
import { OperatorError } from '../errors/operator-error.js';

/** The largest venue data file `spa import` reads (README "Operator CLI"): far above a real chain's. */
export const MAX_IMPORT_FILE_BYTES = 32 * 1024 * 1024;

/** Bytes read at a time: each chunk is parsed and checked synchronously, so a server running the import stays responsive. */
const CHUNK_BYTES = 64 * 1024;

/**
 * The bytes of a file to import, chunk by chunk, read only when it is a regular file of at most
 * MAX_IMPORT_FILE_BYTES. The server runs forwarded commands in its own process (operator-socket.ts): `/dev/zero`
 * would fill its memory and a FIFO would block its event loop on open. Opened non-blocking (a FIFO opens at once)
 * and judged by fstat of the open descriptor, so a path swapped after a check cannot slip through; read to the
 * limit, never past it, whatever size fstat said (a file of /proc says 0). A read that fails (EIO) is the file's
 * fault: a refusal, like any other unreadable file.
 */
export function readImportFile(path: string): AsyncIterable<Uint8Array> {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw unreadable(path, (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : messageOf(error));
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw unreadable(path, `it is ${kindOf(stats)}, not a regular file`);
    if (stats.size > MAX_IMPORT_FILE_BYTES) throw tooLarge(path, stats.size);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return chunksOf(path, fd);
}

async function* chunksOf(path: string, fd: number): AsyncGenerator<Uint8Array> {
  try {
    let length = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      let bytesRead: number;
      try {
        ({ bytesRead } = await promisify(read)(fd, buffer, 0, CHUNK_BYTES, null));
      } catch (error) {
        throw unreadable(path, messageOf(error));
      }
      if (bytesRead === 0) return;
      length += bytesRead;
      if (length > MAX_IMPORT_FILE_BYTES) throw tooLarge(path, length); // it grew while being read
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    closeSync(fd);
  }
}

/** A file `spa import` cannot read as JSON, and why: a refusal (exit 1), nothing changed. */
export const unreadable = (path: string, reason: string) => new OperatorError(`Cannot read ${path} as JSON: ${reason}`);

const tooLarge = (path: string, size: number) =>
  unreadable(
    path,
    `it has ${size} bytes; a venue data file may have at most ${MAX_IMPORT_FILE_BYTES} (${MAX_IMPORT_FILE_BYTES / 1024 / 1024} MiB)`,
  );

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a file';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
